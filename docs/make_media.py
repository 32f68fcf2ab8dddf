"""Render a short MP4 of each shipped example with `surfflow render`, and the best frames of
some of them as small PNGs for the README.

    python docs/make_media.py                      # every example, 2 s each, into render/media/
    python docs/make_media.py --seconds 1 --examples bunny_pour drop_in_wind
    python docs/make_media.py --pictures bunny_pour bumpy_sphere_rain   # also docs/<name>.png

Each example runs from its start for ``--seconds`` of simulated time (the whole scene with
``--seconds 0``); the video is render/media/<name>/<name>.mp4 (not committed). The best frame
of an example is its most coloured one (``best_frame``), scaled to ``--width`` pixels and
written to docs/<name>.png.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import surfflow as sf  # noqa: E402
from surfflow.cli import example_names  # noqa: E402


def render_example(name: str, seconds: float, out: Path) -> list[Path]:
    """Render ``seconds`` of example ``name`` into ``out``; returns its PNG frames in order."""
    scene = sf.load_scene(ROOT / "surfflow" / "examples" / f"{name}.toml")
    frames = scene.n_frames if seconds <= 0 else min(scene.n_frames, round(seconds * scene.fps))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    subprocess.run([sys.executable, "-m", "surfflow", "render", "--example", name, "-o", str(out),
                    "--frames", str(frames)], cwd=ROOT, env=env, check=True)
    return sorted(out.glob("frame_*.png"))[: frames + 1]


def best_frame(frames: list[Path]) -> Path:
    """The most coloured frame (highest mean saturation: the most liquid and dye in view), the
    latest of equals."""
    def saturation(frame: Path) -> float:
        rgb = np.asarray(Image.open(frame).convert("RGB"), dtype=np.float64)
        return float(np.mean((rgb.max(axis=-1) - rgb.min(axis=-1)) / np.maximum(rgb.max(axis=-1), 1.0)))

    scores = [saturation(f) for f in frames]
    return frames[len(scores) - 1 - int(np.argmax(scores[::-1]))]


def write_picture(frame: Path, destination: Path, width: int) -> None:
    image = Image.open(frame).convert("RGB")
    image = image.resize((width, round(image.height * width / image.width)), Image.LANCZOS)
    image.save(destination, optimize=True)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="simulated seconds per example (0: all)")
    parser.add_argument("--examples", nargs="*", help="examples to render (default: all)")
    parser.add_argument("--pictures", nargs="*", default=[], help="examples whose best frame goes to docs/")
    parser.add_argument("--width", type=int, default=480, help="width of the README pictures (px)")
    parser.add_argument("--out", type=Path, default=ROOT / "render" / "media")
    args = parser.parse_args(argv)
    names = args.examples or example_names()
    for name in dict.fromkeys([*names, *args.pictures]):
        frames = render_example(name, args.seconds, args.out / name)
        best = best_frame(frames)
        print(f"{name}: {len(frames)} frames, video {args.out / name / f'{name}.mp4'}, best {best.name}")
        if name in args.pictures:
            write_picture(best, ROOT / "docs" / f"{name}.png", args.width)


if __name__ == "__main__":
    main()
