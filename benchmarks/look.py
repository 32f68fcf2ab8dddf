"""Blinking: the flicker measure (:func:`surfflow.look.flicker`) of an example rendered by
polyscope or Blender, over a range of frames.

    python benchmarks/look.py                                   # bunny_pour, polyscope, frames 0..90
    python benchmarks/look.py --engine blender --first 30 --last 60 --width 200
    python benchmarks/look.py --frames-dir render/bunny_pour    # frames already rendered

Renders the example (``surfflow render`` with the [render] width set to ``--width``, the height
in proportion; Blender at its draft quality, which halves both) into a temporary folder, or reads
the ``frame_*.png`` of ``--frames-dir``, and prints the flicker over frames ``--first`` to
``--last`` with that over each 30-frame window: the share of frame-to-frame change that comes
back the next frame (blinking) rather than staying (motion), 0 for steady motion. Frames before
``--first`` are rendered too (the run starts at 0) but not measured.
"""

from __future__ import annotations

import argparse
import dataclasses
import tempfile
import time
from pathlib import Path

import imageio.v2 as imageio
import numpy as np

import surfflow as sf
from surfflow.look import flicker

EXAMPLES = Path(__file__).resolve().parents[1] / "surfflow" / "examples"


def render_frames(example: str, engine: str, last: int, width: int, out: Path) -> None:
    """Render frames 0..last of ``example`` with ``engine`` at ``width`` pixels into ``out``."""
    scene = sf.load_scene(EXAMPLES / f"{example}.toml")
    spec = scene.render
    spec = dataclasses.replace(spec, width=width, height=round(spec.height * width / spec.width))
    scene = dataclasses.replace(scene, render=spec)
    if engine == "blender":
        from surfflow.blender import render_scene_blender
        render_scene_blender(scene, out, out / "cache", frames=last, video=False, progress=False)
    else:
        from surfflow.viewer.render import render_scene
        render_scene(scene, out, out / "cache", frames=last, video=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--example", default="bunny_pour")
    parser.add_argument("--engine", choices=("polyscope", "blender"), default="polyscope")
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--last", type=int, default=90)
    parser.add_argument("--width", type=int, default=800, help="the [render] width (px)")
    parser.add_argument("--frames-dir", type=Path, help="measure these frame_*.png instead")
    args = parser.parse_args()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        directory = args.frames_dir
        if directory is None:
            directory = Path(scratch)
            render_frames(args.example, args.engine, args.last, args.width, directory)
        paths = sorted(directory.glob("frame_*.png"))[args.first: args.last + 1]
        images = np.array([imageio.imread(p)[..., :3] for p in paths], dtype=np.float64)
    windows = ", ".join(f"{args.first + k}: {flicker(images[k:k + 31]):.3f}"
                        for k in range(0, len(images) - 2, 30))
    print(f"{args.example} ({args.engine}, {images.shape[2]}x{images.shape[1]}), frames "
          f"{args.first}..{args.first + len(images) - 1}: flicker {flicker(images):.3f} "
          f"(per 30 frames from {windows}); {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
