"""What drawing the liquid costs: milliseconds per frame of the display update and of a rendered
frame, headless (EGL), on the bunny with liquid on its upper half.

"update" is ``LiquidView.draw`` (wetness filter, colours, opacity, buffer uploads); "frame" adds
polyscope drawing the scene and reading it back (``render_frame``), as ``surfflow render`` does,
for the default look (translucent glossy water, depth-peeled transparency) and the old opaque
clay coat (``opacity = 1``, ``material = "clay"``).

    python benchmarks/display.py [--repeats 5] [--width 800 --height 600]
"""

import argparse
import dataclasses
import tempfile
from pathlib import Path

import numpy as np
import polyscope as ps
from timing import median_ms

from surfflow.io.scene import load_scene
from surfflow.io.scene_setup import scene_geometry, scene_mesh
from surfflow.viewer.camera import place_camera
from surfflow.viewer.liquid_view import LiquidView
from surfflow.viewer.look import apply_scene_look
from surfflow.viewer.render import init_headless, render_frame

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--width", type=int, default=800)
    parser.add_argument("--height", type=int, default=600)
    args = parser.parse_args()
    scene = load_scene(ROOT / "surfflow" / "examples" / "bunny_pour.toml")
    geometry = scene_geometry(scene, *scene_mesh(scene.mesh))
    height = geometry.vertices[:, 1]
    depth = np.where(height > np.median(height), 2e-4 * (height - np.median(height)) / np.ptp(height), 0.0)
    dye = np.zeros((geometry.n_vertices, len(scene.dye_colors)))
    dye[:, 0] = 1.0
    init_headless(args.width, args.height)
    out = Path(tempfile.mkdtemp()) / "frame.png"
    print(f"bunny: {geometry.n_vertices} vertices, {args.width} x {args.height} pixels")
    for label, changes in (("default look", {}), ("opaque clay", {"opacity": 1.0, "material": "clay"})):
        spec = dataclasses.replace(scene.render, **changes)
        ps.remove_all_structures()
        apply_scene_look(spec)
        view = LiquidView(geometry, scene.liquid_color, scene.dye_colors, spec.color_by, spec)
        place_camera(scene, geometry)
        update_ms, frame_ms = time_view(view, depth, geometry.bottom, dye, scene, out, args.repeats)
        print(f"{label}: update {update_ms:.1f} ms, frame {frame_ms:.0f} ms")


def time_view(view, depth, bottom, dye, scene, out: Path, repeats: int) -> tuple[float, float]:
    """Median ms of one display update, and of an update plus a rendered, saved frame."""
    clock = iter(range(1, 1 << 30))

    def update():
        view.draw(depth, bottom, dye, scene.params.min_depth, next(clock) / scene.fps)

    def frame():
        update()
        render_frame(out)

    return median_ms(update, repeats), median_ms(frame, repeats)


if __name__ == "__main__":
    main()
