"""Render a scene headless (EGL) for test_render_look.py, through the same calls as
``surfflow render``.

    python look_renders.py SCENE OUT_DIR            # the first frame in several looks
    python look_renders.py SCENE OUT_DIR FRAMES     # FRAMES frames of the run

The first writes OUT_DIR/<look>.png for the looks in LOOKS ([render] settings over the scene's),
all of the same state from the same camera: "dry" draws the object with no liquid, "dyed" the
liquid as a film at most DYE_DEPTH / 2 deep, fully dyed with DYE_COLOR, in the flat material
(no shading of its own). The second writes OUT_DIR/frame_<k>.png of the run.
"""

import dataclasses
import sys
from pathlib import Path

import numpy as np
import polyscope as ps

from surfflow.look import DYE_DEPTH
from surfflow.scene.scene import load_scene
from surfflow.scene.scene_setup import scene_geometry, scene_mesh, scene_simulation
from surfflow.viewer.camera import place_camera
from surfflow.viewer.liquid_view import LiquidView
from surfflow.viewer.materials import apply_scene_look
from surfflow.viewer.render import init_headless, render_frame

LOOKS = {
    "default": {},
    "opaque": {"opacity": 1.0},
    "flat": {"opacity": 1.0, "material": "flat"},
    "old": {"opacity": 1.0, "material": "clay"},
    "dry": {},
    "dyed": {"material": "flat"},
}
DYE_COLOR = (0.9, 0.15, 0.1)


def looks(scene, geometry, sim, out: Path) -> None:
    """OUT_DIR/<look>.png of the first frame in each of LOOKS."""
    for name, changes in LOOKS.items():
        spec = dataclasses.replace(scene.render, **changes)
        ps.remove_all_structures()
        apply_scene_look(spec)
        dyed = name.startswith("dyed")
        view = LiquidView(geometry, scene.liquid_color, (DYE_COLOR,) if dyed else scene.dye_colors,
                          spec.color_by, spec)
        place_camera(scene, geometry)
        depth = np.zeros_like(sim.depth) if name == "dry" else sim.depth
        if dyed:  # a film of DYE_DEPTH / 2 (where the cap is deeper), fully dyed
            depth, dye = np.minimum(depth, DYE_DEPTH / 2), np.ones((len(depth), 1))
        else:
            dye = sim.dye
        view.draw(depth, sim.bottom, dye, sim.params.min_depth, sim.time)
        render_frame(out / f"{name}.png")


def frames(scene, geometry, sim, out: Path, count: int) -> None:
    """OUT_DIR/frame_<k>.png of the run's first ``count`` frames after the start."""
    apply_scene_look(scene.render)
    view = LiquidView(geometry, scene.liquid_color, scene.dye_colors, scene.render.color_by, scene.render)
    place_camera(scene, geometry)
    for k in range(count + 1):
        if k:
            sim.advance(1.0 / scene.fps)
        view.update(sim)
        render_frame(out / f"frame_{k:03d}.png")


def main(scene_path: str, out: Path, count: int | None = None) -> None:
    scene = load_scene(scene_path)
    geometry = scene_geometry(scene, *scene_mesh(scene.mesh), out / "cache")
    sim = scene_simulation(scene, geometry)
    init_headless(scene.render.width, scene.render.height)
    if count is None:
        looks(scene, geometry, sim, out)
    else:
        frames(scene, geometry, sim, out, count)


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else None)
