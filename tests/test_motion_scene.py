"""The scene's [motion] table, the runner and outputs of a moving mesh, the viewer following it."""

import meshio
import numpy as np
import polyscope as ps
import pytest
from scene_helpers import TINY_SCENE, straight_and_resumed, write_scene

from surfflow.errors import SceneError
from surfflow.scene.scene import load_scene, parse_scene
from surfflow.motion import Keyframes, MeshSequence, Twist
from surfflow.scene.runner import SceneRunner
from surfflow.viewer.liquid_view import LiquidView

TWISTING = TINY_SCENE.replace("duration = 0.2", "duration = 0.4") + """
[motion]
type = "twist"
rate = 200.0
period = 0.5
axis = [1.0, 0.0, 0.0]
"""


def scene_error(text):
    with pytest.raises(SceneError) as info:
        parse_scene(text, "bad.toml")
    return str(info.value)


def test_motion_tables_build_their_motions(tmp_path):
    scene = parse_scene(TWISTING, tmp_path / "t.toml")
    assert isinstance(scene.motion.build(), Twist) and scene.motion.args["rate"] == 200.0
    keyframes = parse_scene(TINY_SCENE + """
[motion]
type = "keyframes"
times = [0.0, 1.0]
rotations = [[0, 0, 0], [0, 0, 90]]
""", tmp_path / "k.toml").motion.build()
    assert isinstance(keyframes, Keyframes)
    assert np.allclose(keyframes(np.array([[1.0, 0.0, 0.0]]), 1.0), [[0.0, 1.0, 0.0]], atol=1e-14)
    frames = tmp_path / "frames"
    frames.mkdir()
    for k in range(2):
        (frames / f"f{k}.obj").write_text(f"v 0 0 {k}\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    sequence = parse_scene(TINY_SCENE + '[motion]\ntype = "sequence"\nfiles = "frames/f*.obj"\n'
                           'fps = 24\n', tmp_path / "s.toml").motion.build()
    assert isinstance(sequence, MeshSequence) and len(sequence.paths) == 2


def test_motion_table_errors_name_the_key_and_the_fix():
    message = scene_error(TINY_SCENE + '[motion]\ntype = "spin"\n')
    assert "bad.toml, line" in message and "motion.type" in message and "'twist'" in message
    message = scene_error(TINY_SCENE + '[motion]\ntype = "bend"\nperiod = 1.0\n')
    assert "motion.type" in message and "needs curvature" in message
    message = scene_error(TINY_SCENE + '[motion]\ntype = "pulse"\namplitude = 0.1\nperiod = 1.0\n'
                                       'wavelength = 2.0\n')
    assert "motion.wavelength" in message and "takes amplitude, period, center" in message
    message = scene_error(TINY_SCENE + '[motion]\ntype = "keyframes"\ntimes = [0.0, 1.0]\n'
                                       'rotations = [[0, 0, 0]]\n')
    assert "motion" in message and "2 finite [x, y, z] rows" in message
    message = scene_error(TINY_SCENE + '[motion]\ntype = "sequence"\nfiles = "none/*.obj"\nfps = 24\n')
    assert "matches no file" in message
    message = scene_error(TINY_SCENE + '[motion]\ntype = "twist"\nrate = 1.0\nperiod = -1.0\n')
    assert "motion.period" in message and "out of range" in message


@pytest.fixture(scope="module")
def twisting(tmp_path_factory):
    return load_scene(write_scene(tmp_path_factory.mktemp("twist"), TWISTING))


def test_frames_carry_the_moving_vertices_and_a_restart_mid_motion_is_bit_identical(twisting,
                                                                                     tmp_path):
    straight, resumed = straight_and_resumed(twisting, tmp_path)
    a, b = straight.simulation, resumed.simulation
    assert np.array_equal(a.depth, b.depth) and np.array_equal(a.velocity, b.velocity)
    assert np.array_equal(a.geometry.vertices, b.geometry.vertices) and a.ledger() == b.ledger()
    rest = straight.geometry.vertices
    with np.load(tmp_path / "straight" / "frame_00003.npz") as frame:
        assert np.abs(frame["vertices"] - rest).max() > 0.01
        mesh = meshio.read(tmp_path / "straight" / "frame_00003.vtu")
        assert np.array_equal(mesh.points, frame["vertices"].astype(np.float32))
        assert np.array_equal(mesh.point_data["normal"], frame["normals"].astype(np.float32))


def test_the_view_follows_the_moving_surface(twisting, tmp_path):
    ps.init("openGL_mock")
    runner = SceneRunner(twisting, output_dir=tmp_path, cache_dir=tmp_path / "cache")
    view = LiquidView(runner.geometry, twisting.liquid_color, twisting.dye_colors)
    runner.advance_frame()
    view.update(runner.simulation)
    geometry = runner.simulation.geometry
    assert view.geometry is geometry and np.abs(geometry.vertices - runner.geometry.vertices).max() > 0.01
    liquid = view.liquid_positions(runner.simulation.depth, runner.simulation.bottom)
    assert np.abs(liquid - geometry.vertices).max() < 0.01
