"""What every renderer shares: a scene run frame by frame into PNGs and an MP4.

A renderer (polyscope's ``viewer/render.py``, Blender's ``blender/render.py``) builds its picture
of the run and hands :meth:`RenderRun.render` a ``draw(path)`` that shows the runner's current
state, saves it as a PNG at ``path`` and returns the (h, w, 3) image. Frames go to
``frame_00000.png`` ... in the render folder (the scene's ``[render] directory`` unless given),
and with ``video`` (and the scene's ``[render] video``) also to ``<scene name>.mp4``
(imageio-ffmpeg, H.264) at the scene's fps.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import imageio.v2 as imageio

from .runner import SceneRunner


@dataclass(frozen=True)
class RenderResult:
    directory: Path
    images: tuple
    video: Path | None


class RenderRun:
    """The run of ``scene`` to render: its runner (output in the render folder), the last frame
    (``frames`` after the first, default all) and the MP4's path (None without video).

    cache_dir: the geometry cache folder; resume: a checkpoint to start from (its frame is the
    first rendered).
    """

    def __init__(self, scene, output_dir: str | os.PathLike | None = None,
                 cache_dir: str | os.PathLike | None = None, frames: int | None = None,
                 video: bool = True, resume: str | os.PathLike | None = None):
        spec = scene.render
        self.scene = scene
        self.directory = Path(output_dir or spec.directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.runner = SceneRunner(scene, output_dir=self.directory, cache_dir=cache_dir, resume=resume)
        first = self.runner.frame
        self.last = scene.n_frames if frames is None else min(first + frames, scene.n_frames)
        self.video = self.directory / f"{scene.name}.mp4" if video and spec.video else None

    def render(self, draw, progress=None) -> RenderResult:
        """Advance the runner from its current frame to the last; ``draw(path)`` renders each to
        ``frame_NNNNN.png`` (see the module docstring). progress: wraps the range of frames
        (tqdm) when given."""
        first = self.runner.frame
        frames = range(first, self.last + 1)
        images = []
        writer = (imageio.get_writer(self.video, fps=self.scene.fps, macro_block_size=2)
                  if self.video else None)
        try:
            for frame in progress(frames) if progress else frames:
                if frame > first:
                    self.runner.advance_frame()
                path = self.directory / f"frame_{frame:05d}.png"
                image = draw(path)
                images.append(path)
                if writer is not None:
                    writer.append_data(image)
        finally:
            if writer is not None:
                writer.close()
        return RenderResult(self.directory, tuple(images), self.video)
