"""Blender renders: ``surfflow render --engine blender SCENE`` or ``render_scene_blender(scene)``.

The scene runs frame by frame as polyscope's renders do (:mod:`surfflow.scene.rendering`); each
frame's fields (those the writers get) shape a :class:`~surfflow.blender.shot.BlenderShot` that
Cycles renders. Frames go to ``frame_00000.png`` ... in the render folder with an MP4, and the
Blender scene as it stands at the last frame to ``<scene name>.blend`` beside them, to open and
tune (the liquid there is that frame's mesh; the animation is in the run's USD stage).
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import numpy as np

from ..io.usd import UsdSettings
from ..io.writers import frame_fields
from ..scene.rendering import RenderResult, RenderRun
from .shot import BlenderShot


def render_scene_blender(scene, output_dir=None, cache_dir=None, frames: int | None = None,
                         video: bool = True, resume=None, quality: str = "draft",
                         progress: bool = True) -> RenderResult:
    """Run ``scene`` and render up to ``frames`` frames (default all) with Blender (PNG, MP4, .blend).

    resume: a checkpoint to start from (its frame is the first rendered); progress: a tqdm bar.
    """
    from tqdm import tqdm

    spec = scene.render
    run = RenderRun(scene, output_dir, cache_dir, frames, video, resume)
    runner = run.runner
    shot = BlenderShot(runner.geometry, UsdSettings.from_scene(scene), spec, quality)

    def draw(path: Path) -> np.ndarray:
        shot.show(frame_fields(runner.simulation), runner.simulation.time)
        shot.show_bodies(runner.simulation.bodies)
        return shot.render(path)

    result = run.render(draw, partial(tqdm, unit="frame", desc=scene.name, disable=not progress))
    shot.save(run.directory / f"{scene.name}.blend")
    return result
