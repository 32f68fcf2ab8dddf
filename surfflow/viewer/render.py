"""Headless rendering: ``surfflow render SCENE`` or ``render_scene(scene)``.

Polyscope draws through EGL without a display (``set_allow_headless_backends``); each frame of
the scene becomes ``frame_00000.png`` ... in the render folder, and with ``video=True`` the
frames are also encoded to ``<scene name>.mp4`` at the scene's fps (the frame loop, shared with
Blender, is :mod:`surfflow.scene.rendering`).
The camera is the scene's ``[render] camera`` looking at ``target`` (default: the mesh centre),
or one that frames the mesh and the sources (``camera``), with the axis against gravity up; the
liquid's look (material, opacity, ground) follows the ``[render]`` table (``materials``,
:mod:`surfflow.look`).
"""

from __future__ import annotations

from pathlib import Path

import imageio.v2 as imageio
import numpy as np
import polyscope as ps

from ..scene.rendering import RenderResult, RenderRun
from .body_view import draw_bodies
from .camera import place_camera
from .emitter_view import draw_emitters
from .materials import apply_scene_look
from .ripple_view import run_view


def init_headless(width: int, height: int, backend: str = "openGL3_egl") -> None:
    """Start polyscope without a window (EGL unless ``backend`` names another), quietly; a
    polyscope the caller already started (a script, a notebook, a second render) is reused."""
    ps.set_allow_headless_backends(True)
    ps.set_verbosity(0)
    if not ps.is_initialized():
        ps.init(backend)
    ps.set_window_size(width, height)


def render_frame(path: Path) -> np.ndarray:
    """Draw the current scene, save it as a PNG at ``path`` and return the (h, w, 3) image."""
    image = ps.screenshot_to_buffer(transparent_bg=False)[:, :, :3]
    imageio.imwrite(path, image)
    return image


def render_scene(scene, output_dir=None, cache_dir=None, frames: int | None = None,
                 video: bool = True, backend: str = "openGL3_egl", resume=None) -> RenderResult:
    """Run ``scene`` and render up to ``frames`` frames (default all) to PNG (and an MP4).

    resume: a checkpoint to start from (its frame is the first rendered).
    """
    spec = scene.render
    run = RenderRun(scene, output_dir, cache_dir, frames, video, resume)
    runner = run.runner
    init_headless(spec.width, spec.height, backend)
    apply_scene_look(spec)
    view = run_view(scene, runner.geometry)
    place_camera(scene, runner.geometry)

    size = float(np.linalg.norm(np.ptp(runner.geometry.vertices, axis=0)))

    def draw(path: Path) -> np.ndarray:
        view.update(runner.simulation)
        draw_emitters(getattr(runner.simulation, "emitters", ()), size)
        draw_bodies(runner.simulation.bodies)
        return render_frame(path)

    return run.render(draw)
