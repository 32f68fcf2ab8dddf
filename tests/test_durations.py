"""Runs end at their duration, with a last frame there (issue 21): the scene's frame times, and
``run``, ``render``, ``view --play`` and sweeps on a duration that is not a whole number of
frames (0.1 s at 25 fps was frames at 0, 0.04 and 0.08 s, and nothing at 0.1 s)."""

import numpy as np
import polyscope as ps
import pytest
from scene_helpers import TINY_SCENE, write_scene
from test_viewer import open_viewer

from surfflow.batch.worker import run_case
from surfflow.cli import EXAMPLES_DIR, main
from surfflow.io.checkpoint import load_checkpoint
from surfflow.scene.rendering import RenderRun
from surfflow.scene.scene import load_scene, parse_scene

SHORT_SCENE = TINY_SCENE.replace("duration = 0.2", "duration = 0.25")
"""The tiny scene for 0.25 s at 10 fps: frames at 0, 0.1, 0.2 and 0.25 s."""


@pytest.mark.parametrize("duration, fps, times", [
    (0.1, 25, [0.0, 0.04, 0.08, 0.1]),
    (0.1, 30, [0.0, 1 / 30, 2 / 30, 0.1]),      # 0.1 * 30 = 3.0000000000000004 frames
    (2.0, 25, list(np.arange(51) / 25)),
    (0.01, 25, [0.0, 0.01]),
])
def test_frames_are_every_1_over_fps_and_the_last_at_the_duration(duration, fps, times):
    text = TINY_SCENE.replace("duration = 0.2", f"duration = {duration}").replace(
        "fps = 10", f"fps = {fps}")
    scene = parse_scene(text, "tiny.toml")
    assert scene.n_frames == len(times) - 1
    assert [scene.frame_time(k) for k in range(scene.n_frames + 1)] == pytest.approx(times, rel=1e-15)
    assert scene.frame_time(scene.n_frames) == duration


def test_run_of_drop_in_wind_ends_at_its_duration(tmp_path, capsys):
    text = (EXAMPLES_DIR / "drop_in_wind.toml").read_text().replace("duration = 2.0", "duration = 0.1")
    path = write_scene(tmp_path, text, "drop.toml")
    assert load_scene(path).fps == 25
    assert main(["run", str(path), "--output", str(tmp_path / "out"), "--quiet"]) == 0
    frames = sorted((tmp_path / "out").glob("frame_*.npz"))
    assert [float(np.load(f)["time"]) for f in frames] == pytest.approx([0.0, 0.04, 0.08, 0.1])
    assert float(np.load(frames[-1])["time"]) == 0.1
    assert load_checkpoint(tmp_path / "out" / "checkpoint.npz").time == 0.1


def test_render_ends_at_the_duration(tmp_path):
    run = RenderRun(parse_scene(SHORT_SCENE, tmp_path / "tiny.toml"), tmp_path / "render",
                    video=False)
    times = []
    result = run.render(lambda path: times.append(run.runner.simulation.time))
    assert len(result.images) == 4 and times == pytest.approx([0.0, 0.1, 0.2, 0.25])
    assert times[-1] == 0.25


def test_sweep_case_ends_at_the_duration(tmp_path):
    path = write_scene(tmp_path, SHORT_SCENE)
    row = run_case(str(path), {})
    assert row["status"] == "ok" and row["time"] == 0.25
    assert len(list(tmp_path.glob("frame_*.npz"))) == 4


def test_view_play_stops_at_the_duration_with_a_last_frame_there(tmp_path):
    app = open_viewer(SHORT_SCENE, tmp_path)
    app.playing = True
    times = []
    for _ in range(5):
        ps.frame_tick()
        times.append(app.simulation.time)
    assert times == pytest.approx([0.1, 0.2, 0.25, 0.25, 0.25])
    assert times[2] == 0.25 and not app.playing
    app.playing = True                  # Play again goes on past the end
    ps.frame_tick()
    assert app.simulation.time == pytest.approx(0.35)
