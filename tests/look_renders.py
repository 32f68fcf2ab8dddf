"""Render one scene's first frame headless (EGL) in several looks; used by test_render_look.py.

    python look_renders.py SCENE OUT_DIR

Writes OUT_DIR/<look>.png for the looks in LOOKS ([render] settings over the scene's), all of
the same state from the same camera, through the same calls as ``surfflow render``; "dry" draws
the object with no liquid.
"""

import dataclasses
import sys
from pathlib import Path

import numpy as np
import polyscope as ps

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
}


def main(scene_path: str, out: Path) -> None:
    scene = load_scene(scene_path)
    geometry = scene_geometry(scene, *scene_mesh(scene.mesh), out / "cache")
    sim = scene_simulation(scene, geometry)
    init_headless(scene.render.width, scene.render.height)
    for name, changes in LOOKS.items():
        spec = dataclasses.replace(scene.render, **changes)
        ps.remove_all_structures()
        apply_scene_look(spec)
        view = LiquidView(geometry, scene.liquid_color, scene.dye_colors, spec.color_by, spec)
        place_camera(scene, geometry)
        depth = np.zeros_like(sim.depth) if name == "dry" else sim.depth
        view.draw(depth, sim.bottom, sim.dye, sim.params.min_depth, sim.time)
        render_frame(out / f"{name}.png")


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]))
