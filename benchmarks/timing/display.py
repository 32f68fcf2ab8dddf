"""What drawing the liquid costs: milliseconds per frame of the display update and of a rendered
frame, headless (EGL), on the bunny with liquid on its upper half.

"update" is ``LiquidView.draw`` (wetness filter, colours, opacity, buffer uploads); "frame" adds
polyscope drawing the scene and reading it back (``render_frame``), as ``surfflow render`` does,
for the default look (translucent glossy water, depth-peeled transparency) and the old opaque
clay coat (``opacity = 1``, ``material = "clay"``).

    python benchmarks/timing/display.py [--repeats 5] [--width 800 --height 600]

Internals, in one import: the display's parts are not public, so this takes them from the module
of the headless renderer (``surfflow.viewer.render``, the path ``surfflow render`` runs), as that
module uses them: ``init_headless``, ``apply_scene_look``, ``LiquidView``, ``place_camera`` and
``render_frame``.
"""

import argparse
import dataclasses
import tempfile
from pathlib import Path

import numpy as np
import polyscope as ps
from medians import median_ms

import surfflow as sf
from surfflow.viewer import render as headless

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--width", type=int, default=800)
    parser.add_argument("--height", type=int, default=600)
    args = parser.parse_args()
    scene = sf.load_scene(ROOT / "surfflow" / "examples" / "bunny_pour.toml")
    geometry = sf.SceneRunner(scene, output_dir=tempfile.mkdtemp()).geometry
    height = geometry.vertices[:, 1]
    depth = np.where(height > np.median(height), 2e-4 * (height - np.median(height)) / np.ptp(height), 0.0)
    dye = np.zeros((geometry.n_vertices, len(scene.dye_colors)))
    dye[:, 0] = 1.0
    headless.init_headless(args.width, args.height)
    out = Path(tempfile.mkdtemp()) / "frame.png"
    print(f"bunny: {geometry.n_vertices} vertices, {args.width} x {args.height} pixels")
    for label, changes in (("default look", {}), ("opaque clay", {"opacity": 1.0, "material": "clay"})):
        spec = dataclasses.replace(scene.render, **changes)
        ps.remove_all_structures()
        headless.apply_scene_look(spec)
        view = headless.LiquidView(geometry, scene.liquid_color, scene.dye_colors, spec.color_by, spec)
        headless.place_camera(scene, geometry)
        update_ms, frame_ms = time_view(view, depth, geometry.bottom, dye, scene, out, args.repeats)
        print(f"{label}: update {update_ms:.1f} ms, frame {frame_ms:.0f} ms")


def time_view(view, depth, bottom, dye, scene, out: Path, repeats: int) -> tuple[float, float]:
    """Median ms of one display update, and of an update plus a rendered, saved frame."""
    clock = iter(range(1, 1 << 30))

    def update():
        view.draw(depth, bottom, dye, scene.params.min_depth, next(clock) / scene.fps)

    def frame():
        update()
        headless.render_frame(out)

    return median_ms(update, repeats), median_ms(frame, repeats)


if __name__ == "__main__":
    main()
