"""Droplets in scenes: the [droplets] table, particle outputs (npz, VTU point sets + PVD), the
viewer's point cloud, and restarts from a checkpoint file."""

import importlib.util

import meshio
import numpy as np
import polyscope as ps
import pytest
from scene_helpers import write_scene

from surfflow.errors import SceneError
from surfflow.io.checkpoint import save_checkpoint
from surfflow.scene.scene import load_scene, parse_scene
from surfflow.io.writers import read_pvd
from surfflow.scene.describe import describe_file
from surfflow.scene.runner import SceneRunner
from surfflow.viewer.droplet_view import DROPLETS_NAME, draw_droplets

# A 0.2 m square facing down (normal -y, gravity -y) under a 5 mm film: past the 3.8 mm pendant
# limit everywhere, so it drips from the first step.
CEILING = """\
name = "ceiling"
duration = 0.2
fps = 10

[mesh]
procedural = "plane"
size = [0.2, 0.2]
resolution = [6, 6]
rotation = [90.0, 0.0, 0.0]

[precompute]
smoothing_iterations = 0

[initial]
depth = 0.005

[droplets]
floor = -0.5
drag = 0.5

[output]
formats = ["npz", "vtu"]
"""


@pytest.fixture(scope="module")
def ceiling(tmp_path_factory):
    return load_scene(write_scene(tmp_path_factory.mktemp("scene"), CEILING, "ceiling.toml"))


def test_frames_carry_the_particles(ceiling, tmp_path):
    runner = SceneRunner(ceiling, output_dir=tmp_path, cache_dir=tmp_path / "cache")
    runner.run()
    assert runner.simulation.particles is not None and runner.simulation.particles.drag == 0.5
    with np.load(tmp_path / "frame_00001.npz") as frame:
        positions, volumes = frame["particle_positions"], frame["particle_volumes"]
    assert len(positions) > 0 and positions.shape == (len(volumes), 3)
    points = meshio.read(tmp_path / "particles_00001.vtu")
    assert np.array_equal(points.points, positions)
    assert np.array_equal(points.point_data["volume"], volumes)
    assert np.allclose(points.point_data["radius"] ** 3 * 4.0 / 3.0 * np.pi, volumes)
    assert [t for t, _ in read_pvd(tmp_path / "particles.pvd")] == pytest.approx([0.0, 0.1, 0.2])


def test_restart_from_a_checkpoint_file_keeps_the_particles(ceiling, tmp_path):
    runner = SceneRunner(ceiling, output_dir=tmp_path, cache_dir=tmp_path / "cache")
    runner.advance_frame()
    path = save_checkpoint(tmp_path / "c.npz", runner.simulation, frame=1)
    resumed = SceneRunner(ceiling, output_dir=tmp_path / "b", cache_dir=tmp_path / "cache",
                          resume=path)
    runner.advance_frame()
    resumed.advance_frame()
    a, b = runner.simulation, resumed.simulation
    assert a.particles.count > 0
    assert np.array_equal(a.particles.positions, b.particles.positions)
    assert np.array_equal(a.particles.volumes, b.particles.volumes)
    assert np.array_equal(a.depth, b.depth) and a.ledger() == b.ledger()


def test_the_droplet_budget_comes_from_the_scene(tmp_path):
    text = CEILING.replace("drag = 0.5", "drag = 0.5\nmax_particles = 500")
    path = write_scene(tmp_path, text, "budget.toml")
    runner = SceneRunner(load_scene(path), output_dir=tmp_path / "out",
                         cache_dir=tmp_path / "cache")
    assert runner.simulation.particles.max_particles == 500
    assert not runner.simulation.particles.default_budget
    assert describe_file(path)["droplets"] == "embedded, max_particles 500"
    assert describe_file(write_scene(tmp_path, CEILING, "plain.toml"))["droplets"] == (
        "embedded, max_particles default")


@pytest.mark.parametrize("table, message", [
    ('[droplets]\nengine = "flip"', "engine.*'embedded'"),
    ("[droplets]\nkeep_depth = 0.02", "keep_depth.*must be below the shallowest pendant"),
    ("[droplets]\nemit_depth = 0.1", "emit_depth.*removed.*never sheds"),
    ("[droplets]\noverhang_emit_depth = 0.003", "overhang_emit_depth.*removed"),
    ("[droplets]\nbounds = [[0, 0, 0], [1, -1, 1]]", "bounds.*below"),
    ("[droplets]\nsmoothing = 2.0", "smoothing.*range"),
    ("[droplets]\nfloors = 0.0", "did you mean 'floor'"),
    ("[droplets]\nmax_particles = 1", "max_particles.*whole number >= 2"),
])
def test_bad_droplet_tables_name_the_key(table, message):
    """Including the removed thresholds of older scenes, which say what replaced them."""
    text = CEILING.replace("[droplets]\nfloor = -0.5\ndrag = 0.5", table)
    with pytest.raises(SceneError, match=message):
        parse_scene(text, "bad.toml")


@pytest.mark.skipif(importlib.util.find_spec("pysplishsplash") is not None,
                    reason="the SPH extra is installed: the scene would load")
def test_a_scene_asking_for_the_missing_sph_engine_names_the_extra(tmp_path):
    text = CEILING.replace("[droplets]\n", '[droplets]\nengine = "splishsplash"\n')
    scene = load_scene(write_scene(tmp_path, text, "sph.toml"))
    with pytest.raises(SceneError, match=r'sph\.toml: \[droplets\] engine = "splishsplash" needs '
                                         r'the SPH extra.*surfflow\[sph\]'):
        SceneRunner(scene, output_dir=tmp_path, cache_dir=tmp_path / "cache")


def test_viewer_draws_droplets_as_spheres_of_their_volume(ceiling, tmp_path):
    runner = SceneRunner(ceiling, output_dir=tmp_path, cache_dir=tmp_path / "cache")
    runner.advance_frame()
    ps.init("openGL_mock")
    particles = runner.simulation.particles
    draw_droplets(particles, (0.2, 0.4, 0.9))
    assert ps.has_point_cloud(DROPLETS_NAME)
    radius = ps.get_point_cloud(DROPLETS_NAME).get_quantity_buffer("radius", "values")
    assert radius is not None
    particles.remove(np.ones(particles.count, dtype=bool))
    draw_droplets(particles, (0.2, 0.4, 0.9))
    assert not ps.has_point_cloud(DROPLETS_NAME)


def test_droplets_are_on_without_the_table_and_enabled_false_turns_them_off(tmp_path):
    without = CEILING.replace("[droplets]\nfloor = -0.5\ndrag = 0.5\n", "")
    off = CEILING.replace("[droplets]\n", "[droplets]\nenabled = false\n")
    on = SceneRunner(parse_scene(without, "on.toml"), output_dir=tmp_path / "on",
                     cache_dir=tmp_path / "cache")
    assert on.simulation.particles is not None
    runner = SceneRunner(parse_scene(off, "off.toml"), output_dir=tmp_path / "off",
                         cache_dir=tmp_path / "cache")
    assert runner.simulation.particles is None
    runner.run()
    book = runner.simulation.ledger()  # the pendant film drips out of the scene, booked
    assert book["dripped"] > 0.2 * book["initial"] and book["emitted"] == 0.0
    assert abs(book["balance_error"]) < 1e-12 * book["initial"]
