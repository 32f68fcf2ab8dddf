"""What the "maps" output costs: baking three 1024 x 1024 maps per frame on bunny_pour's mesh,
next to the step's work between two frames (1/30 s of simulated time).

    python benchmarks/bake_maps.py
    python benchmarks/bake_maps.py --resolution 2048 --frames 20

The bunny has no UVs: it gets an xatlas atlas (the optional extra ``uv``) or, without xatlas, a
spherical projection about its centre (for this benchmark only: it folds the back onto the
front). Runs bunny_pour ``--warmup`` frames so that liquid and dyes are on the surface, then,
frame after frame, times the step's work to the next frame (``SceneRunner.advance_frame``) and
baking the frame's three maps: wetness (depth > min_depth standing in for the wetness field),
film thickness and dye colour, as arrays (the gather: :meth:`surfflow.io.maps.TexelTable.bake`)
and written as PNG files (``MapWriter.write``). Prints the medians, and the one-off cost of the
texel table. Internals: ``surfflow.io.maps`` (MapWriter, texel_table) and
``surfflow.io.uv_atlas``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

import surfflow as sf
from surfflow.errors import MeshWarning
from surfflow.io.maps import MapWriter
from surfflow.io.writers import frame_fields

EXAMPLES = Path(__file__).resolve().parents[1] / "surfflow" / "examples"


def layout(geom):
    """An asset for the bunny: xatlas if installed, else a spherical projection."""
    try:
        from surfflow.io.uv_atlas import atlas_asset
        return atlas_asset(geom.original_vertices, geom.faces), "xatlas"
    except sf.SurfflowError:
        from surfflow.io.asset import Asset
        X = geom.original_vertices - geom.original_vertices.mean(axis=0)
        P = X[geom.faces]
        u = 0.5 + np.arctan2(P[..., 2], P[..., 0]) / (2 * np.pi)
        v = 0.5 + np.arcsin(P[..., 1] / np.linalg.norm(P, axis=2)) / np.pi
        return Asset(np.stack([u, v], axis=2)), "spherical projection"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--resolution", type=int, default=1024)
    parser.add_argument("--warmup", type=int, default=15, help="frames run before timing")
    parser.add_argument("--frames", type=int, default=10, help="frames timed")
    args = parser.parse_args()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MeshWarning)
        scene = sf.load_scene(EXAMPLES / "bunny_pour.toml")
        out = Path(tempfile.mkdtemp(prefix="bake_maps_"))
        runner = sf.SceneRunner(scene, output_dir=out, cache_dir=out / "cache")
    start = time.perf_counter()
    asset, how = layout(runner.geometry)
    atlas_s = time.perf_counter() - start
    geom = runner.geometry.replace(asset=asset)
    start = time.perf_counter()
    writer = MapWriter(out, geom, resolution=args.resolution, dye_colors=scene.dye_colors)
    table_s = time.perf_counter() - start
    for _ in range(args.warmup):
        runner.advance_frame()
    step, bake, write = [], [], []
    min_depth = scene.params.min_depth
    for _ in range(args.frames):
        start = time.perf_counter()
        runner.advance_frame()
        step.append(time.perf_counter() - start)
        fields = frame_fields(runner.simulation)
        fields["wetness"] = (fields["depth"] > min_depth).astype(np.float64)
        start = time.perf_counter()
        images = writer.images(fields)
        bake.append(time.perf_counter() - start)
        start = time.perf_counter()
        writer.write(runner.frame, runner.simulation.time, fields)
        write.append(time.perf_counter() - start)
    r = args.resolution
    print(f"bunny_pour: {geom.n_vertices} vertices, {geom.n_faces} faces; UVs by {how} "
          f"({atlas_s:.1f} s); maps {r} x {r}: {', '.join(sorted(images))}")
    print(f"texel table (once per mesh and resolution): {table_s:.2f} s, "
          f"{len(writer.table.texels)} texels ({writer.table.n_inside} inside, the rest gutter)")
    print(f"median over {args.frames} frames (from frame {args.warmup}):")
    print(f"  step's work to the next frame (1/{scene.fps:g} s): {1e3 * np.median(step):8.1f} ms")
    print(f"  baking the three maps (arrays):          {1e3 * np.median(bake):8.1f} ms")
    print(f"  baking and writing them (PNG files):     {1e3 * np.median(write):8.1f} ms")


if __name__ == "__main__":
    main()
