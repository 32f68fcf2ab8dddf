"""The rendered liquid, measured on PNGs (EGL): partly transparent and glossy, unlike the old
opaque clay coat; dyes tint it without hiding the object; a draining film does not blink.
``look_renders.py`` draws one state in several looks from one camera, or a short run."""

import subprocess
import sys
from pathlib import Path

import imageio.v2 as imageio
import numpy as np
import pytest
from scene_helpers import write_scene
from test_look import DRAINING_FILM

from surfflow.look import flicker

CAP = """\
name = "cap"
duration = 1.0
fps = 30

[mesh]
procedural = "bumpy_sphere"
subdivisions = 4
radius = 0.1
bump_height = 0.006
bump_frequency = 25.0

[precompute]
smoothing_iterations = 0

[liquid]
preset = "water"

[initial]
depth = 0.001
center = [0.0, 0.1, 0.0]
radius = 0.09

[render]
width = 320
height = 240
camera = [0.0, 0.2, 0.25]
target = [0.0, 0.03, 0.0]
"""
"""A bumpy grey ball with a 1 mm cap of water on its top half, seen from above the side."""


def look_renders(scene: Path, directory: Path, *frames: str) -> None:
    """Run look_renders.py on ``scene`` into ``directory`` (``frames``: the number of frames)."""
    result = subprocess.run([sys.executable, str(Path(__file__).with_name("look_renders.py")),
                             str(scene), str(directory), *frames], capture_output=True, text=True,
                            timeout=180)
    assert result.returncode == 0, result.stderr


@pytest.fixture(scope="module")
def looks(tmp_path_factory):
    directory = tmp_path_factory.mktemp("looks")
    scene = write_scene(directory, CAP, "cap.toml")
    look_renders(scene, directory)
    images = {name: imageio.imread(directory / f"{name}.png")[..., :3].astype(float)
              for name in ("default", "opaque", "flat", "old", "dry", "dyed")}
    liquid = np.linalg.norm(images["flat"] - images["dry"], axis=-1) > 40
    assert liquid.sum() > 5000  # the cap covers a good part of the picture
    return images, liquid


def test_the_object_shows_through_the_liquid(looks):
    """Default look minus the same look made opaque (opacity 1), in the red channel (the grey
    object has much red, the water little): it follows the bare object's shading (correlation)
    with a partial weight (regression slope: 0 if opaque, about 1 - alpha if see-through)."""
    images, liquid = looks
    shows = (images["default"] - images["opaque"])[..., 0][liquid]
    bare = (images["dry"] - images["opaque"])[..., 0][liquid]
    correlation = np.corrcoef(shows, bare)[0, 1]
    slope = np.dot(shows, bare) / np.dot(bare, bare)
    assert correlation > 0.5, correlation
    assert 0.05 < slope < 0.5, slope


def highlight_share(image, images, liquid) -> float:
    """Share of the liquid's pixels brighter (by 25 of 255) than both the liquid's own colour
    under full light (the "flat" material) and the bare object there."""
    diffuse_limit = np.maximum(images["flat"].mean(axis=-1), images["dry"].mean(axis=-1))
    return float(np.mean((image.mean(axis=-1) > diffuse_limit + 25)[liquid]))


def test_the_liquid_has_specular_highlights(looks):
    images, liquid = looks
    glossy = highlight_share(images["default"], images, liquid)
    assert 0.02 < glossy < 0.5, glossy  # spots of highlight, not a white sheet
    assert highlight_share(images["old"], images, liquid) < 0.005  # the old opaque clay coat


def test_a_dyed_film_tints_the_object_and_still_shows_it(looks):
    """The cap as a film DYE_DEPTH / 2 deep fully dyed red, drawn flat (a layer without shading of
    its own): redder than the clear water, and the bare object's shading shows through it in the
    red channel (correlation; regression slope well above 0, as it would be under paint)."""
    images, liquid = looks
    redness = {name: float(np.mean((images[name][..., 0] - images[name][..., 1:].mean(axis=-1))[liquid]))
               for name in ("default", "dyed")}
    assert redness["dyed"] > redness["default"] + 40.0, redness
    shows, bare = (images[name][..., 0][liquid] for name in ("dyed", "dry"))
    shows, bare = shows - shows.mean(), bare - bare.mean()
    assert np.corrcoef(shows, bare)[0, 1] > 0.5, np.corrcoef(shows, bare)[0, 1]
    assert np.dot(shows, bare) / np.dot(bare, bare) > 0.1, np.dot(shows, bare) / np.dot(bare, bare)


def test_a_draining_film_does_not_blink_on_screen(tmp_path):
    """A 2 mm cap draining off a plate tilted 60 degrees, 20 frames at 30 fps drawn at 200 x 150:
    flicker (the change that comes back the next frame, over the change that stays) <= 0.5, and
    the liquid is on the pictures."""
    scene_text = DRAINING_FILM + "\n[render]\nwidth = 200\nheight = 150\ncamera = [0.0, 0.1, 0.35]\n"
    look_renders(write_scene(tmp_path, scene_text, "film.toml"), tmp_path, "20")
    pictures = np.array([imageio.imread(tmp_path / f"frame_{k:03d}.png")[..., :3] for k in range(21)],
                        dtype=float)
    assert np.abs(pictures[-1] - pictures[0]).mean() > 2.0  # the film drains: the picture changes
    assert flicker(pictures) <= 0.5, flicker(pictures)
