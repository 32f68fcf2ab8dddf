"""Headless rendering: ``surfflow render SCENE`` or ``render_scene(scene)``.

Polyscope draws through EGL without a display (``set_allow_headless_backends``); each frame of
the scene becomes ``frame_00000.png`` ... in the render folder, and with ``video=True`` the
frames are also encoded to ``<scene name>.mp4`` (imageio-ffmpeg, H.264) at the scene's fps.
The camera is the scene's ``[render] camera`` looking at ``target`` (default: the mesh centre),
or one that frames the mesh and the sources (``camera``), with the axis against gravity up; the
liquid's look (material, opacity, ground) follows the ``[render]`` table (``look``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import imageio.v2 as imageio
import numpy as np
import polyscope as ps

from ..runner import SceneRunner
from .camera import place_camera
from .liquid_view import LiquidView
from .look import apply_scene_look


@dataclass(frozen=True)
class RenderResult:
    directory: Path
    images: tuple
    video: Path | None


def init_headless(width: int, height: int, backend: str = "openGL3_egl") -> None:
    """Start polyscope without a window (EGL unless ``backend`` names another), quietly."""
    ps.set_allow_headless_backends(True)
    ps.set_verbosity(0)
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
    directory = Path(output_dir or spec.directory)
    directory.mkdir(parents=True, exist_ok=True)
    runner = SceneRunner(scene, output_dir=directory, cache_dir=cache_dir, resume=resume)
    init_headless(spec.width, spec.height, backend)
    apply_scene_look(spec)
    view = LiquidView(runner.geometry, scene.liquid_color, scene.dye_colors, spec.color_by, spec)
    place_camera(scene, runner.geometry)
    first = runner.frame
    last = scene.n_frames if frames is None else min(first + frames, scene.n_frames)
    video_path = directory / f"{scene.name}.mp4" if video and spec.video else None

    def draw(path: Path) -> np.ndarray:
        view.update(runner.simulation)
        return render_frame(path)

    images = render_frames(runner, directory, last, draw, video_path, scene.fps)
    return RenderResult(directory, images, video_path)


def render_frames(runner, directory: Path, last: int, draw, video_path: Path | None, fps: float,
                  progress=None) -> tuple:
    """Advance ``runner`` frame by frame from its current frame to ``last``; ``draw(path)`` renders
    each to ``directory/frame_NNNNN.png`` and returns the (h, w, 3) image, which also goes into
    the MP4 at ``video_path`` when given. progress: wraps the range of frames (tqdm) when given.
    Returns the PNG paths."""
    first = runner.frame
    frames = range(first, last + 1)
    images = []
    writer = imageio.get_writer(video_path, fps=fps, macro_block_size=2) if video_path else None
    try:
        for frame in progress(frames) if progress else frames:
            if frame > first:
                runner.advance_frame()
            path = directory / f"frame_{frame:05d}.png"
            image = draw(path)
            images.append(path)
            if writer is not None:
                writer.append_data(image)
    finally:
        if writer is not None:
            writer.close()
    return tuple(images)
