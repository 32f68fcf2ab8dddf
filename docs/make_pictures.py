"""The README's pictures: a polyscope picture of every shipped example and the Blender one of
the flagship, re-made from the current code.

    python docs/make_pictures.py                         # all: docs/gallery/<example>.png,
                                                         #   docs/jar_pour.png, docs/bunny_blender.png
    python docs/make_pictures.py --examples bunny_pour   # some polyscope pictures only (and the README's)
    python docs/make_pictures.py --no-blender            # without the Blender picture
    python docs/make_pictures.py --examples --no-blender # the README's first picture alone

Each example runs from its start for ``--seconds`` of simulated time (the whole scene if shorter),
drawn headless by polyscope at ``--width`` pixels (the [render] height in proportion) frame by
frame as ``surfflow render`` does; its most coloured frame (``make_media.best_frame``) becomes
docs/gallery/<example>.png. The Blender picture (the extra "blender") is bunny_pour at
``--blender-frame``, rendered by Cycles at the draft quality (half the scene's 800 x 600), saved
as docs/bunny_blender.png. The README's first picture is jar_pour (the asset with its own
texture, liquid on it, darker where wet) at ``--readme-frame`` in its scene's 800 x 600, drawn
by polyscope, saved as docs/jar_pour.png (``--no-readme`` skips it). Frames go to a temporary
folder; the pictures are written with Pillow's optimiser (a few tens of kB each).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import tempfile
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "docs"))

import surfflow as sf  # noqa: E402
from make_media import best_frame  # noqa: E402
from surfflow.cli import example_names  # noqa: E402

EXAMPLES = ROOT / "surfflow" / "examples"
GALLERY = ROOT / "docs" / "gallery"


def example_scene(name: str, width: int | None = None):
    """The shipped example ``name``, its [render] width set to ``width`` (height in proportion)."""
    scene = sf.load_scene(EXAMPLES / f"{name}.toml")
    if width is None:
        return scene
    spec = scene.render
    spec = dataclasses.replace(spec, width=width, height=round(spec.height * width / spec.width))
    return dataclasses.replace(scene, render=spec)


def polyscope_picture(name: str, seconds: float, width: int, scratch: Path) -> Path:
    """Render ``seconds`` of example ``name`` and write its most coloured frame to the gallery."""
    from surfflow.viewer.render import render_scene

    scene = example_scene(name, width)
    frames = min(scene.n_frames, round(seconds * scene.fps))
    result = render_scene(scene, scratch / name, scratch / "cache", frames=frames, video=False)
    destination = GALLERY / f"{name}.png"
    Image.open(best_frame(list(result.images))).convert("RGB").save(destination, optimize=True)
    return destination


def readme_picture(frame: int, scratch: Path) -> Path:
    """jar_pour's frame ``frame`` drawn headless by polyscope at its scene's size to docs/jar_pour.png."""
    from surfflow.viewer.render import render_scene

    scene = example_scene("jar_pour")
    result = render_scene(scene, scratch / "readme", scratch / "cache", frames=frame, video=False)
    destination = ROOT / "docs" / "jar_pour.png"
    Image.open(result.images[frame]).convert("RGB").save(destination, optimize=True)
    return destination


def blender_picture(frame: int, scratch: Path) -> Path:
    """bunny_pour at ``frame`` by Cycles (draft) to docs/bunny_blender.png."""
    from surfflow.blender import BlenderShot
    from surfflow.io import usd, writers
    from surfflow.scene.runner import SceneRunner

    scene = example_scene("bunny_pour")
    runner = SceneRunner(scene, output_dir=scratch / "blender", cache_dir=scratch / "cache")
    while runner.frame < frame:
        runner.advance_frame()
    shot = BlenderShot(runner.geometry, usd.UsdSettings.from_scene(scene), scene.render, "draft")
    shot.show(writers.frame_fields(runner.simulation))
    destination = ROOT / "docs" / "bunny_blender.png"
    shot.render(scratch / "bunny_blender.png")
    Image.open(scratch / "bunny_blender.png").convert("RGB").save(destination, optimize=True)
    return destination


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", nargs="*", help="examples to picture (default: all)")
    parser.add_argument("--seconds", type=float, default=2.0, help="simulated seconds per example")
    parser.add_argument("--width", type=int, default=320, help="width of the pictures (px)")
    parser.add_argument("--blender-frame", type=int, default=30, help="bunny_pour's frame for Blender")
    parser.add_argument("--no-blender", action="store_true", help="skip the Blender picture")
    parser.add_argument("--readme-frame", type=int, default=40, help="jar_pour's frame for the README")
    parser.add_argument("--no-readme", action="store_true", help="skip the README's first picture")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        for name in example_names() if args.examples is None else args.examples:
            print(polyscope_picture(name, args.seconds, args.width, Path(scratch)), flush=True)
        if not args.no_readme:
            print(readme_picture(args.readme_frame, Path(scratch)), flush=True)
        if not args.no_blender:
            print(blender_picture(args.blender_frame, Path(scratch)))


if __name__ == "__main__":
    main()
