"""The polyscope viewer under the mock backend, and one real headless (EGL) render."""

import dataclasses
import subprocess
import sys

import imageio.v2 as imageio
import numpy as np
import polyscope as ps
import pytest
from scene_helpers import TINY_SCENE, write_scene
from viewer_helpers import open_viewer

from surfflow.scene.scene import parse_scene
from surfflow.scene.scene_setup import scene_geometry, scene_mesh
from surfflow.viewer.pace import KEEPING_UP


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return open_viewer(TINY_SCENE, tmp_path_factory.mktemp("cache"))


def test_structures_and_quantities(app):
    assert ps.has_surface_mesh("object") and ps.has_surface_mesh("liquid")
    app.view.liquid_mesh.get_quantity_buffer("color", "colors")
    app.view.liquid_mesh.get_quantity_buffer("opacity", "values")
    app.view.object_mesh.get_quantity_buffer("wet", "colors")
    app.view.color_by, app.view.show_velocity = "depth", True
    app.view.update(app.simulation)
    app.view.liquid_mesh.get_quantity_buffer("depth", "values")
    app.view.liquid_mesh.get_quantity_buffer("velocity", "values")
    app.view.color_by, app.view.show_velocity = "dye", False
    app.view.update(app.simulation)
    with pytest.raises(ValueError):
        app.view.liquid_mesh.get_quantity_buffer("velocity", "values")


def test_velocity_arrows_only_where_the_film_is(app):
    """A vertex below min_depth keeps its residue's velocity in the state (kernels/riemann.py);
    the viewer draws no arrow there."""
    n = len(app.simulation.depth)
    depth = np.where(np.arange(n) % 2 == 0, 1e-3, 1e-7)
    app.view.draw(depth, np.zeros(n), np.zeros((n, 0)), 1e-6, 0.0, velocity=np.ones((n, 3)))
    arrows = app.view.liquid_mesh.get_quantity_buffer("velocity", "values")
    drawn = np.array([arrows.get_value(i).as_tuple() for i in range(arrows.size())])
    assert np.array_equal(drawn[::2], np.ones((len(drawn[::2]), 3)))
    assert np.array_equal(drawn[1::2], np.zeros((len(drawn[1::2]), 3)))
    app.view.update(app.simulation)


def test_scripted_pour_through_the_callback(app):
    """A click pours from a spout above the point (the plate's normal is +y, gravity -y), at
    the scene's pour rate; the stream lands around the point."""
    app.reset()
    app.simulation.sources.clear()
    assert (app.pour_rate, app.pour_radius) == (1e-6, 0.05)  # the scene's [[sources]] pour
    app.pour_rate, app.pour_radius, app.pour_seconds = 2e-6, 0.01, 10.0
    app.pending_pours.append(np.array([0.05, 0.0, 0.05]))
    app.playing = True
    for _ in range(2):
        ps.frame_tick()
    app.playing = False
    sim = app.simulation
    (spout,) = sim.emitters
    assert spout.position[1] > 0.0 and tuple(spout.direction) == (0.0, -1.0, 0.0)
    assert ps.has_surface_mesh("nozzles") and sim.time == pytest.approx(2.0 / app.scene.fps)
    assert sim.ledger()["poured"] == pytest.approx(2e-6 * sim.time, rel=1e-9)
    assert 0.0 < sim.total_volume() < sim.ledger()["poured"]
    wet = sim.depth >= sim.params.min_depth
    near = np.linalg.norm(app.geometry.vertices - [0.05, 0.0, 0.05], axis=1) < 0.05
    assert wet.any() and np.all(near[wet])


def test_dry_liquid_is_clear_and_over_the_object(app):
    app.reset()
    sim = app.simulation
    positions = app.view.liquid_positions(sim.depth * 0, sim.bottom)
    assert np.all(positions[:, 1] > 0.0)
    app.view.update(sim)
    opacity = app.view.liquid_mesh.get_quantity_buffer("opacity", "values")
    assert opacity is not None and np.all(app.view.film.wetness == 0.0)


def test_real_time_advances_by_the_wall_clock(app):
    """A fake clock 0.04 s per read: playing in real time covers exactly the wall time between
    drawn frames (not one 1/fps frame per draw), and the panel's meter reads 1 s per s."""
    app.reset()
    wall = [0.0]

    def clock():
        wall[0] += 0.02  # read twice per frame: 0.04 s of wall time per drawn frame
        return wall[0]

    app.clock, app.real_time, app.playing = clock, True, True
    for _ in range(6):
        ps.frame_tick()
    app.playing = app.real_time = False
    ps.frame_tick()
    assert app.simulation.time == pytest.approx(5 * 0.04)
    assert app.simulation.time != pytest.approx(6 / app.scene.fps)
    assert not app.meter.samples


@pytest.mark.parametrize("speed", [2.0, 0.5])
def test_real_time_keeps_up_when_stepping_is_fast_enough(app, monkeypatch, speed):
    """A fake clock on which stepping costs 1 / speed wall seconds per simulated second and
    each drawn frame 10 ms more: at twice real time the simulation follows the wall clock (the
    meter reads 1 s per s, keeping up), at half it falls behind and the panel says so."""
    app.reset()
    monkeypatch.setattr(app, "scene", dataclasses.replace(app.scene, duration=100.0))
    wall = [0.0]
    advance = app.simulation.advance

    def costly_advance(duration):
        advance(duration)
        wall[0] += duration / speed + 0.01

    monkeypatch.setattr(app.simulation, "advance", costly_advance)
    app.clock, app.real_time, app.playing = lambda: wall[0], True, True
    for _ in range(150):
        ps.frame_tick()
    app.playing = app.real_time = False
    rate = app.meter.rates()[1]
    ps.frame_tick()
    if speed > 1.0:
        assert rate == pytest.approx(1.0, abs=0.02) and app.simulation.time > 0.9 * wall[0]
    else:
        assert rate < KEEPING_UP and app.simulation.time < 0.6 * wall[0]


def test_parameter_change_keeps_the_state(app):
    app.reset()
    app.step_frame()
    before = app.simulation.state_dict()
    app.set_params(friction=5.0, gravity=(0.0, -9.81, 1.0))
    assert app.simulation.params.friction == 5.0
    assert np.array_equal(app.simulation.depth, before["depth"])
    assert len(app.simulation.sources) == len(app.scene.sources)


RENDER_SCENE = TINY_SCENE.replace("[[sources]]", """[initial]
depth = 0.005
center = [-0.1, 0.0, 0.0]
radius = 0.1

[render]
width = 320
height = 240
color_by = "liquid"
camera = [0.0, 0.25, 0.25]
target = [0.0, 0.0, 0.0]

[[sources]]""").replace('preset = "water"', 'preset = "paint"')


def test_headless_render_shows_liquid_where_it_is(tmp_path):
    """Left half (x < 0) wet with red paint, right half dry grey: compare the pixel colours."""
    scene = write_scene(tmp_path, RENDER_SCENE)
    result = subprocess.run([sys.executable, "-m", "surfflow", "render", str(scene), "-o", "img",
                             "--frames", "1"], cwd=tmp_path, capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stderr
    assert "rendered 2 frames" in result.stdout
    with imageio.get_reader(tmp_path / "img" / "tiny.mp4") as video:
        assert video.count_frames() == 2
    image = imageio.imread(tmp_path / "img" / "frame_00000.png").astype(float)
    h, w = image.shape[:2]
    wet = image[h // 3: 2 * h // 3, w // 4: 3 * w // 8].reshape(-1, 3).mean(axis=0)
    dry = image[h // 3: 2 * h // 3, 5 * w // 8: 3 * w // 4].reshape(-1, 3).mean(axis=0)
    assert wet[0] - wet[2] > 60, wet
    assert abs(dry[0] - dry[2]) < 25, dry


def test_boundary_segments_are_drawn_by_kind(tmp_path):
    """A conservative channel with an inflow at x = -0.1 and a transmissive end at x = +0.1:
    the viewer shows exactly those boundary vertices, blue and orange, on the surface."""
    import surfflow as sf
    from surfflow.viewer.boundary_view import BOUNDARIES_NAME, KIND_COLORS, boundary_points
    from surfflow.viewer.liquid_view import LiquidView

    scene = parse_scene(TINY_SCENE, tmp_path / "tiny.toml")
    geometry = scene_geometry(scene, *scene_mesh(scene.mesh), cache_dir=tmp_path)
    ps.init("openGL_mock")
    view = LiquidView(geometry, scene.liquid_color, scene.dye_colors)
    still = sf.Simulation(geometry, sf.Params(gravity=scene.params.gravity))
    view.update(still)
    assert not ps.has_point_cloud(BOUNDARIES_NAME)
    sim = sf.Simulation(geometry, sf.Params(gravity=scene.params.gravity, scheme="conservative"))
    x = geometry.vertices[:, 0]
    sim.set_boundary("inflow", discharge=0.01, plane=((x.min(), 0, 0), (-1, 0, 0)))
    sim.set_boundary("transmissive", plane=((x.max(), 0, 0), (1, 0, 0)))
    view.update(sim)
    assert ps.has_point_cloud(BOUNDARIES_NAME)
    positions, colors = boundary_points(sim)
    inflow = np.all(colors == KIND_COLORS["inflow"], axis=1)
    outlet = np.all(colors == KIND_COLORS["transmissive"], axis=1)
    assert inflow.sum() == outlet.sum() == 7 and (inflow | outlet).all()  # 6 x 6 cells: 7 a side
    assert np.allclose(positions[inflow, 0], x.min()) and np.allclose(positions[outlet, 0], x.max())
    assert ps.get_point_cloud(BOUNDARIES_NAME).n_points() == 14


def test_the_live_viewer_draws_a_scenes_asset_with_its_texture_darkened_where_wet(tmp_path):
    """jar_pour's jar in the viewer (its geometry as ``view_scene`` loads it) carries its texture;
    after the stream has landed the drawn texture is the jar's own where dry and darker, down to
    1 - WET_DARKENING of it, where wet."""
    from surfflow.cli import EXAMPLES_DIR
    from surfflow.look import WET_DARKENING
    from surfflow.scene.scene import load_scene
    from surfflow.viewer.app import ViewerApp, viewer_geometry

    scene = load_scene(EXAMPLES_DIR / "jar_pour.toml")
    geometry = viewer_geometry(scene, tmp_path)
    ps.init("openGL_mock")
    app = ViewerApp(scene, geometry)
    textured = app.view.textured
    assert textured is not None and app.view.object_mesh.get_quantity_buffer("texture", "colors")
    app.advance(0.3)
    drawn, own = textured.colors, textured.texture
    share = drawn.sum(axis=2) / np.maximum(own.sum(axis=2), 1e-6)
    assert share.max() == pytest.approx(1.0, abs=1e-6)
    assert share.min() == pytest.approx(1.0 - WET_DARKENING, abs=0.02)
    assert 0.0 < np.mean(share < 0.99) < 0.5  # a wet patch, not the whole jar


def test_the_vertex_that_set_the_step_is_shown_where_asked(tmp_path):
    """With "where the step is set" ticked, one sphere sits on the vertex that set the last
    step (``Simulation.step_limit_vertex``), and it follows the step; unticked, none.
    (The plate's own max_dt is lifted and a film laid, so that the flow's limit sets it.)"""
    from surfflow.viewer.step_limit_view import STEP_LIMIT_NAME, step_limit_point

    app = open_viewer(TINY_SCENE, tmp_path)
    app.set_params(max_dt=1.0)                           # the flow's limit, not max_dt's
    app.simulation.set_depth(np.full(len(app.simulation.depth), 1e-3))
    app.show_step_limit = True
    app.update_view()
    assert not ps.has_point_cloud(STEP_LIMIT_NAME)      # no step taken yet
    app.step_frame()
    vertex = app.simulation.step_limit_vertex
    assert app.simulation.step_limit == "flow" and vertex is not None
    assert ps.get_point_cloud(STEP_LIMIT_NAME).n_points() == 1
    assert np.array_equal(step_limit_point(app.simulation),
                          app.simulation.geometry.original_vertices[[vertex]])
    app.simulation.step()
    assert np.array_equal(step_limit_point(app.simulation),
                          app.simulation.geometry.original_vertices[[app.simulation.step_limit_vertex]])
    app.show_step_limit = False
    app.update_view()
    assert not ps.has_point_cloud(STEP_LIMIT_NAME)
