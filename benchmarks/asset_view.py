"""What drawing the asset's texture darkened where wet costs the polyscope viewer per frame, on
jar_pour's jar (6,722 vertices) with its texture scaled to each ``--sizes`` (square, pixels).

    python benchmarks/asset_view.py
    python benchmarks/asset_view.py --sizes 512 2048 --frames 30

Headless (EGL). For each texture size: the one-off texel table (``TexturedObject``), then per
frame with a changing wetness field, the CPU bake of the darkened texture
(``TexturedObject.darkened``: one sparse product over the table's texels, a gather for a texture
larger than the table, a product over the texture) and the whole update with its upload to the
GPU (``TexturedObject.draw``), followed by a drawn frame, and a drawn frame alone. Prints the medians.
Internals: ``surfflow.viewer.asset_view``, ``surfflow.io.maps.texel_table``.
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from pathlib import Path

import numpy as np
import polyscope as ps
from PIL import Image

from surfflow.cli import EXAMPLES_DIR
from surfflow.scene.scene import load_scene
from surfflow.scene.scene_setup import scene_asset_mesh, scene_geometry
from surfflow.viewer.asset_view import TexturedObject
from surfflow.viewer.render import init_headless


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[512, 1024, 2048])
    parser.add_argument("--frames", type=int, default=20)
    args = parser.parse_args(argv)
    scene = load_scene(EXAMPLES_DIR / "jar_pour.toml")
    V, F, asset = scene_asset_mesh(scene.mesh)
    geometry = scene_geometry(scene, V, F, Path("/tmp") / "surfflow_bench_cache", asset=asset)
    init_headless(400, 300)
    rng = np.random.default_rng(0)
    print(f"jar: {geometry.n_vertices} vertices, {len(geometry.faces)} faces")
    for size in args.sizes:
        texture = np.asarray(Image.fromarray(asset.texture).resize((size, size)))
        sized = dataclasses.replace(geometry, asset=dataclasses.replace(asset, texture=texture))
        ps.remove_all_structures()
        mesh = ps.register_surface_mesh("object", V, F)
        start = time.perf_counter()
        textured = TexturedObject(mesh, sized)
        table = time.perf_counter() - start
        bake, draw, alone = [], [], []
        for _ in range(args.frames):
            factor = np.repeat(1.0 - 0.35 * rng.random(geometry.n_vertices)[:, None], 3, axis=1)
            start = time.perf_counter()
            textured.darkened(factor)
            bake.append(time.perf_counter() - start)
            start = time.perf_counter()
            textured.draw(factor)
            ps.frame_tick()
            draw.append(time.perf_counter() - start)
            start = time.perf_counter()
            ps.frame_tick()
            alone.append(time.perf_counter() - start)
        print(f"texture {size} x {size}: texel table {table * 1e3:.0f} ms once; per frame: bake "
              f"{np.median(bake) * 1e3:.1f} ms, bake + upload + a drawn frame {np.median(draw) * 1e3:.1f} ms "
              f"(a drawn frame alone {np.median(alone) * 1e3:.1f} ms)")


if __name__ == "__main__":
    main()
