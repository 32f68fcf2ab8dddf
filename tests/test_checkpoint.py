"""Checkpoints: save/load round trip, refusal on another mesh, bit-identical restart."""

import numpy as np
import pytest
from scene_helpers import TINY_SCENE, straight_and_resumed, write_scene

from surfflow.errors import CacheError
from surfflow.io.checkpoint import load_checkpoint, restore_checkpoint, save_checkpoint
from surfflow.scene.scene import load_scene
from surfflow.scene.runner import SceneRunner

FOUR_FRAMES = TINY_SCENE.replace("duration = 0.2", "duration = 0.4")


@pytest.fixture(scope="module")
def scene(tmp_path_factory):
    return load_scene(write_scene(tmp_path_factory.mktemp("scene"), FOUR_FRAMES))


def test_round_trip_is_exact(scene, tmp_path):
    runner = SceneRunner(scene, output_dir=tmp_path, cache_dir=tmp_path / "cache")
    runner.advance_frame()
    state = runner.simulation.state_dict()
    path = save_checkpoint(tmp_path / "c.npz", runner.simulation, frame=1, meta={"note": "x"})
    checkpoint = load_checkpoint(path)
    assert checkpoint.frame == 1 and checkpoint.meta == {"note": "x"}
    assert checkpoint.time == runner.simulation.time
    assert set(checkpoint.state) == set(state)
    for key, value in state.items():
        assert np.array_equal(np.asarray(checkpoint.state[key]), np.asarray(value)), key


def test_restart_is_bit_identical(scene, tmp_path):
    straight, resumed = straight_and_resumed(scene, tmp_path)
    a, b = straight.simulation, resumed.simulation
    assert a.time == b.time and a.time == pytest.approx(0.4)
    assert np.array_equal(a.depth, b.depth) and np.array_equal(a.velocity, b.velocity)
    assert np.array_equal(a.dye, b.dye) and a.ledger() == b.ledger()
    # the tally of what set the steps goes on across the restart
    assert a.step_limits.steps == a.state.step_count
    assert (a.step_limits.limits, a.step_limits.vertices) == (b.step_limits.limits,
                                                              b.step_limits.vertices)
    assert (tmp_path / "straight" / "step_limits.json").read_text() == \
        (tmp_path / "split" / "step_limits.json").read_text()
    for frame in (3, 4):
        with np.load(tmp_path / "straight" / f"frame_{frame:05d}.npz") as x, \
                np.load(tmp_path / "split" / f"frame_{frame:05d}.npz") as y:
            assert np.array_equal(x["depth"], y["depth"])


def test_checkpoint_of_another_mesh_is_refused(scene, tmp_path):
    runner = SceneRunner(scene, output_dir=tmp_path, cache_dir=tmp_path / "cache")
    path = save_checkpoint(tmp_path / "c.npz", runner.simulation, frame=0)
    other = load_scene(write_scene(tmp_path, FOUR_FRAMES.replace("[6, 6]", "[5, 5]"), "other.toml"))
    other_runner = SceneRunner(other, output_dir=tmp_path, cache_dir=tmp_path / "cache")
    with pytest.raises(CacheError, match="another|geometry"):
        restore_checkpoint(other_runner.simulation, path)


def test_missing_checkpoint(tmp_path):
    with pytest.raises(CacheError, match="does not exist"):
        load_checkpoint(tmp_path / "none.npz")
