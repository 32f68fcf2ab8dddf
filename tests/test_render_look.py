"""The rendered liquid, measured on PNGs (EGL): partly transparent and glossy, unlike the old
opaque clay coat. ``look_renders.py`` draws one state in several looks from one camera."""

import subprocess
import sys
from pathlib import Path

import imageio.v2 as imageio
import numpy as np
import pytest
from scene_helpers import write_scene

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


@pytest.fixture(scope="module")
def looks(tmp_path_factory):
    directory = tmp_path_factory.mktemp("looks")
    scene = write_scene(directory, CAP, "cap.toml")
    result = subprocess.run([sys.executable, str(Path(__file__).with_name("look_renders.py")),
                             str(scene), str(directory)], capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stderr
    images = {name: imageio.imread(directory / f"{name}.png")[..., :3].astype(float)
              for name in ("default", "opaque", "flat", "old", "dry")}
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
