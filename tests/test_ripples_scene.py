"""Ripple mode through the doors: ``mode = "ripples"`` scenes (checks naming table and key),
the runner's frames and checkpoints, the live viewer (mock backend) and a headless render."""

import subprocess
import sys

import imageio.v2 as imageio
import numpy as np
import polyscope as ps
import pytest
from scene_helpers import write_scene
from viewer_helpers import open_viewer

import surfflow as sf
from surfflow.errors import SceneError
from surfflow.scene.describe import describe_file
from surfflow.scene.scene import parse_scene
from surfflow.scene.scene_setup import scene_geometry, scene_mesh, scene_simulation
from surfflow.viewer.ripple_app import RippleViewerApp

POND = """\
name = "puddle"
mode = "ripples"
duration = 0.2
fps = 10
gravity = [0.0, -9.81, 0.0]

[mesh]
procedural = "plane"
size = [0.4, 0.4]
resolution = [24, 24]
rotation = [-90.0, 0.0, 0.0]

[precompute]
feature_size = 0.0

[ripples]
depth = 0.01
damping = 0.5
edge = "reflect"
shore_width = 0.05
rain_rate = 40.0
rain_radius = 0.01
rain_depth = 0.001

[[ripples.drops]]
center = [0.0, 0.0, 0.0]
radius = 0.03
depth = 0.004

[[ripples.drops]]
center = [0.1, 0.0, 0.1]
radius = 0.02
depth = 0.002
time = 0.15

[output]
formats = ["npz", "vtu"]

[render]
width = 320
height = 240
color_by = "depth"
camera = [0.0, 0.45, 0.3]
target = [0.0, 0.0, 0.0]
"""


def scene_error(text):
    with pytest.raises(SceneError) as info:
        parse_scene(text, "pond.toml")
    return str(info.value)


def test_a_ripple_scene_builds_its_ripples(tmp_path):
    scene = parse_scene(POND, tmp_path / "pond.toml")
    assert scene.mode == "ripples" and len(scene.ripples.drops) == 2
    geom = scene_geometry(scene, *scene_mesh(scene.mesh), cache_dir=tmp_path)
    ripples = scene_simulation(scene, geom)
    assert isinstance(ripples, sf.Ripples)
    assert ripples.wave_speed == pytest.approx(np.sqrt(9.81 * 0.01)) and ripples.depth == 0.01
    assert ripples.held.sum() == geom.is_boundary.sum()          # the beach's edge is held
    assert ripples.height.min() == pytest.approx(-0.004, rel=1e-3)  # the first drop is in
    assert len(ripples.rain) == 1 and ripples.rain[0].rate == 40.0


def test_the_runner_writes_height_frames_and_resumes_bit_identically(tmp_path):
    scene = parse_scene(POND, tmp_path / "pond.toml")
    whole = sf.SceneRunner(scene, output_dir=tmp_path / "whole", cache_dir=tmp_path)
    assert whole.run()
    frame = np.load(tmp_path / "whole" / "frame_00002.npz")
    assert frame["time"] == 0.2 and np.array_equal(frame["height"], whole.simulation.height)
    assert np.array_equal(frame["depth"], 0.01 + frame["height"])
    assert (tmp_path / "whole" / "frame_00002.vtu").is_file()
    first = sf.SceneRunner(scene, output_dir=tmp_path / "first", cache_dir=tmp_path)
    first.advance_frame()
    first.write_checkpoint()
    resumed = sf.SceneRunner(scene, output_dir=tmp_path / "first", cache_dir=tmp_path,
                             resume=first.checkpoint_path)
    resumed.run()
    assert np.array_equal(resumed.simulation.height, whole.simulation.height)
    assert np.array_equal(resumed.simulation.height_rate, whole.simulation.height_rate)
    info = describe_file(first.checkpoint_path)
    assert info["type"] == "checkpoint (ripples)" and info["vertices"] == whole.geometry.n_vertices
    assert describe_file(write_scene(tmp_path, POND, "pond.toml"))["waves"] == (
        "speed sqrt(g 0.01 m), damping 0.5 1/s, edge reflect")


@pytest.mark.parametrize("change, where, says", [
    (('mode = "ripples"\n', ''), "ripples", 'needs mode = "ripples"'),
    (("[output]", '[[sources]]\ntype = "rain"\nrate = 1e-6\n\n[output]'), "sources",
     'a mode = "ripples" scene has no film'),
    (("depth = 0.01\n", ""), "ripples.wave_speed", "give the wave speed"),
    (("damping = 0.5", "dampin = 0.5"), "ripples.dampin", "did you mean 'damping'"),
    (('edge = "reflect"', 'edge = "open"'), "ripples.edge", "'open' is not allowed"),
    (("radius = 0.03", "radus = 0.03"), "ripples.drops", "drop 0 needs center"),
    (("time = 0.15", "time = 0.15\nsize = 1"), "ripples.drops", "drop 1: unknown key 'size'"),
    (("shore_width = 0.05", 'shore_file = "nowhere.npy"'), "ripples.shore_file", "does not exist"),
    (("shore_width = 0.05", "cfl = 1.0"), "ripples.cfl", "must lie below 1"),
])
def test_bad_ripple_tables_are_refused_naming_table_and_key(change, where, says):
    message = scene_error(POND.replace(*change))
    assert f"{where}:" in message and says in message


def test_a_bad_shore_file_names_the_table(tmp_path):
    np.save(tmp_path / "shore.npy", np.ones(7))
    scene = parse_scene(POND.replace("shore_width = 0.05", 'shore_file = "shore.npy"'),
                        tmp_path / "pond.toml")
    geom = scene_geometry(scene, *scene_mesh(scene.mesh), cache_dir=tmp_path)
    with pytest.raises(SceneError, match=r"\[ripples\]: shore has shape \(7,\)"):
        scene_simulation(scene, geom)


@pytest.fixture(scope="module")
def viewer(tmp_path_factory):
    return open_viewer(POND, tmp_path_factory.mktemp("cache"), RippleViewerApp, "pond.toml")


def test_a_click_drops_a_drop_and_play_advances(viewer):
    viewer.reset()
    before = viewer.simulation.height
    viewer.drop_radius, viewer.drop_depth = 0.02, 0.003
    viewer.pending_pours.append(np.array([-0.1, 0.0, -0.1]))
    ps.frame_tick()
    dent = viewer.simulation.height - before
    nearest = np.argmin(np.linalg.norm(viewer.geometry.vertices - [-0.1, 0.0, -0.1], axis=1))
    assert dent[nearest] == pytest.approx(-0.003, rel=1e-6)
    viewer.playing = True
    ps.frame_tick()
    viewer.playing = False
    assert viewer.simulation.time == pytest.approx(0.1)


def test_the_view_draws_the_water_over_the_bottom(viewer):
    viewer.reset()
    view, ripples = viewer.view, viewer.simulation
    view.show_velocity = True
    view.update(ripples)
    view.liquid_mesh.get_quantity_buffer("height", "values")
    view.liquid_mesh.get_quantity_buffer("velocity", "values")
    view.show_velocity = False
    view.update(ripples)
    with pytest.raises(ValueError):
        view.liquid_mesh.get_quantity_buffer("velocity", "values")


def test_headless_render_shows_the_dent(tmp_path):
    """The first frame: the drop's dent (z < 0) in the middle is blue on the diverging map,
    the calm water near the edge is not."""
    scene = write_scene(tmp_path, POND.replace("rain_rate = 40.0", "rain_rate = 0.0"), "pond.toml")
    result = subprocess.run([sys.executable, "-m", "surfflow", "render", str(scene), "-o", "img",
                             "--frames", "0", "--no-video"], cwd=tmp_path, capture_output=True,
                            text=True, timeout=180)
    assert result.returncode == 0, result.stderr
    image = imageio.imread(tmp_path / "img" / "frame_00000.png").astype(float)
    h, w = image.shape[:2]
    middle = image[h // 2 - 8: h // 2 + 8, w // 2 - 8: w // 2 + 8].reshape(-1, 3).mean(axis=0)
    assert middle[2] - middle[0] > 40, middle


def test_the_usd_stage_holds_the_rippled_water(tmp_path):
    pxr = pytest.importorskip("pxr", reason="the USD writer needs the extra 'usd' (usd-core)")
    scene = parse_scene(POND.replace('formats = ["npz", "vtu"]', 'formats = ["usd"]'),
                        tmp_path / "pond.toml")
    runner = sf.SceneRunner(scene, output_dir=tmp_path / "out", cache_dir=tmp_path)
    runner.run()
    stage = pxr.Usd.Stage.Open(str(tmp_path / "out" / "run.usdc"))
    points = np.array(pxr.UsdGeom.Mesh(stage.GetPrimAtPath("/surfflow/liquid")).GetPointsAttr().Get(2))
    ripples, geom = runner.simulation, runner.geometry
    expected = geom.vertices + (ripples.depth + ripples.height)[:, None] * geom.normals
    assert np.abs(points - expected).max() < 1e-6  # stored as float32
