"""`surfflow view` in a real X window: Xvfb, GLX on Mesa (llvmpipe), driven by xdotool.

``window_driver.py`` runs under ``xvfb-run``; this test reads its screenshots. It needs the
xvfb and xdotool packages (CI installs them); without them it is skipped, saying so.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from scene_helpers import write_scene

XVFB_RUN, XDOTOOL = shutil.which("xvfb-run"), shutil.which("xdotool")
pytestmark = pytest.mark.skipif(
    not (XVFB_RUN and XDOTOOL),
    reason="the real-window viewer test needs xvfb-run and xdotool: apt-get install xvfb xdotool")

PLATE = """\
name = "plate"
duration = 60.0
fps = 30

[mesh]
procedural = "plane"
size = [0.2, 0.2]
resolution = [24, 24]
rotation = [-90.0, 0.0, 0.0]

[precompute]
smoothing_iterations = 0

[liquid]
preset = "water"

[render]
ground = "none"
"""
"""A dry horizontal plate, water by default; no ground plane (a software renderer is slow)."""

PANEL_GREY = (76, 76, 76)
BUTTON_GREEN = (100, 158, 132)


def count_color(image: np.ndarray, color, tolerance: int = 6) -> int:
    return int(np.sum(np.all(np.abs(image - np.array(color)) <= tolerance, axis=-1)))


def liquid_pixels(image: np.ndarray) -> int:
    """Pixels of the water's blue: blue above red by 40 or more (the panel's greens and greys,
    the plate and the background all stay within 32)."""
    return int(np.sum((image[..., 2] - image[..., 0] >= 40) & (image[..., 2] > 100)))


@pytest.fixture(scope="module")
def window_run(tmp_path_factory):
    directory = tmp_path_factory.mktemp("window")
    scene = write_scene(directory, PLATE, "plate.toml")
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])}
    result = subprocess.run([XVFB_RUN, "-a", "-s", "-screen 0 1280x1024x24", sys.executable,
                             str(Path(__file__).with_name("window_driver.py")), str(scene),
                             str(directory / "out")],
                            cwd=directory, env=env, capture_output=True, text=True, timeout=240)
    out = directory / "out"
    log = out / "viewer.log"
    assert result.returncode == 0, (result.stdout, result.stderr, log.exists() and log.read_text())
    report = json.loads((out / "report.json").read_text())
    images = {name: np.asarray(Image.open(out / f"{name}.png").convert("RGB")).astype(int)
              for name in ("before", "poured", "later")}
    return report, images


def test_window_shows_the_controls(window_run):
    report, images = window_run
    assert "openGL3_glfw" in report["log"], report["log"]
    for name, image in images.items():
        right = image[:, image.shape[1] // 2:]
        assert count_color(right, PANEL_GREY) > 20000, name  # the control panel's background
        assert count_color(right, BUTTON_GREEN) > 300, name  # its buttons (Play, Step, Reset, ...)
        assert np.sum(np.all(right > 200, axis=-1) & (np.abs(right[..., 0] - 76) > 100)) > 500, name


def test_shift_click_pours_and_the_liquid_shows(window_run):
    report, images = window_run
    assert report["poured"] and "pouring" in report["log"], report
    window = report["window"]
    x0, x1 = window["X"] + int(0.28 * window["WIDTH"]), window["X"] + int(0.6 * window["WIDTH"])
    view = slice(window["Y"], window["Y"] + window["HEIGHT"]), slice(x0, x1)  # between the panels
    before, poured, later = (liquid_pixels(images[k][view]) for k in ("before", "poured", "later"))
    assert before < 50, before
    assert poured > 500, poured
    # A click pours for 1 s of simulated time; an idle machine covers that, and the plate, before
    # the second picture, so the pool need not grow after it: it must stay shown, not blink off.
    assert "for 1 s" in report["log"] and later > poured // 2, (poured, later)
