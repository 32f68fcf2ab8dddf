"""Emitters (issue 23): nozzles and rain pour particles that fall, land and join the film, with
known landing points, exact volumes, dyes carried and reproducible runs."""

import math

import numba
import numpy as np
import meshio
import pytest
from builders import icosphere, rectangle
from runtime_cases import numba_threads
from scene_helpers import TINY_SCENE

import surfflow as sf
from surfflow.cli import EXAMPLES_DIR
from surfflow.io.writers import frame_fields, make_writers
from surfflow.scene.scene import parse_scene
from surfflow.scene.scene_setup import scene_geometry, scene_mesh, scene_simulation

G = 9.81
DOWN = (0.0, 0.0, -G)


def plate_simulation(size=1.0, cells=40, n_dyes=0, extra=None, **params):
    """A square plate [0, size]^2 in z = 0 (normals +z), gravity -z, droplets without drag, its
    edges walls unless ``boundary`` says otherwise (what lands stays to be counted); the
    ``extra`` (V, F) triangles are added to the mesh."""
    V, F = rectangle(0.0, size, 0.0, size, cells, cells)
    if extra is not None:
        V, F = np.vstack([V, extra[0]]), np.vstack([F, extra[1] + len(V)])
    geom = sf.precompute((V, F), smoothing_iterations=0)
    return sf.Simulation(geom, sf.Params(**{"gravity": DOWN, "boundary": "wall", **params}),
                         n_dyes=n_dyes,
                         particles=sf.Droplets(drag=0.0, floor=-0.5))


def film_centroid(sim) -> np.ndarray:
    volume = sim.geometry.dual_areas * sim.depth
    return sim.geometry.vertices.T @ volume / volume.sum()


def advance_until_absorbed(sim, limit):
    """Step until the first particle lands; returns the time of the end of that step."""
    while sim.ledger()["absorbed"] == 0.0:
        sim.step()
        assert sim.time < limit, "nothing landed"
    return sim.time


def test_a_vertical_jet_lands_below_the_nozzle_when_it_should_and_the_film_forms_there():
    """From H = 0.3 m at v = 0.5 m/s straight down: it lands at t = (sqrt(v^2 + 2 g H) - v) / g
    right below the nozzle. A strong friction holds the film where the drops land."""
    sim = plate_simulation(friction=1e4)
    H, v, q = 0.3, 0.5, 1e-5
    nozzle = sim.add_emitter(sf.Nozzle(position=(0.5, 0.4, H), direction=(0, 0, -1), speed=v,
                                       radius=0.002, rate=q))
    spacing = nozzle.parcel_diameter(q)  # the stream's parcels leave a diameter apart
    landed = advance_until_absorbed(sim, 1.0)
    expected = (math.sqrt(v * v + 2 * G * H) - v) / G
    dt = sim.params.max_dt
    assert expected <= landed <= expected + dt + spacing / v
    sim.advance(0.05)
    x, y, _ = film_centroid(sim)
    assert math.hypot(x - 0.5, y - 0.4) < spacing
    assert sim.depth.max() > 0.0 and abs(sim.ledger()["balance_error"]) < 1e-12 * sim.ledger()["poured"]


def test_a_horizontal_jet_lands_at_v_sqrt_2h_over_g():
    sim = plate_simulation(friction=1e4)
    H, v, q = 0.2, 0.8, 1e-5
    nozzle = sim.add_emitter(sf.Nozzle(position=(0.1, 0.5, H), direction=(1, 0, 0), speed=v,
                                       radius=0.001, rate=q))
    advance_until_absorbed(sim, 1.0)
    sim.advance(0.05)
    x, y, _ = film_centroid(sim)
    assert abs(x - (0.1 + v * math.sqrt(2 * H / G))) < nozzle.parcel_diameter(q)
    assert abs(y - 0.5) < nozzle.parcel_diameter(q)


def test_landing_drops_bring_their_momentum_into_the_film():
    """Onto a dry frictionless plate: right after the first landing the film's momentum is the
    absorbed volume times the drops' horizontal velocity (v, 0), their tangential part."""
    sim = plate_simulation(friction=0.0, surface_tension=0.0)
    v = 0.8
    sim.add_emitter(sf.Nozzle(position=(0.1, 0.5, 0.2), direction=(1, 0, 0), speed=v,
                              radius=0.001, rate=1e-5))
    advance_until_absorbed(sim, 1.0)
    book = sim.ledger()
    momentum = (sim.geometry.dual_areas * sim.depth) @ sim.velocity
    assert momentum[0] == pytest.approx(v * book["absorbed"], rel=1e-12)
    assert abs(momentum[1]) < 1e-12 * momentum[0] and abs(momentum[2]) < 1e-12 * momentum[0]


def test_rain_on_a_square_metre_lands_intensity_times_duration():
    """36 mm/h for 1 s on a 1 m^2 plate, released over the plate from a box above it: 1e-5 m^3
    lands, every drop of it, spread evenly to the drop discretisation: each quarter's volume
    within 4 sigma of its area's share, sigma^2 = s (1 - s) N E[V^2] the spread of N drops of
    Marshall-Palmer volumes V (the few large drops carry much of the volume: sigma is 9 %)."""
    sim = plate_simulation()
    rain = sim.add_emitter(sf.Rain(region=((0, 0, 0.4), (1, 1, 0.5)), intensity=36.0, stop=1.0))
    sim.advance(1.2)
    book = sim.ledger()
    assert book["rained"] == pytest.approx(36e-3 / 3600 * 1.0, rel=1e-12)
    assert sim.particles.count == 0 and rain.pending == 0.0 and book["lost"] == 0.0
    assert book["current"] == pytest.approx(book["rained"], rel=1e-12)
    drops = np.pi / 6.0 * rain.sizes((np.arange(100000) + 0.5) / 100000) ** 3
    mean_volume, mean_square = drops.mean(), (drops ** 2).mean()
    V, A = sim.geometry.vertices, sim.geometry.dual_areas
    volume = A * sim.depth
    for quarter in ((V[:, 0] < 0.5) & (V[:, 1] < 0.5), (V[:, 0] >= 0.5) & (V[:, 1] < 0.5),
                    (V[:, 0] < 0.5) & (V[:, 1] >= 0.5), (V[:, 0] >= 0.5) & (V[:, 1] >= 0.5)):
        share = A[quarter].sum() / A.sum()
        sigma = math.sqrt(share * (1.0 - share) * book["rained"] / mean_volume * mean_square)
        assert abs(volume[quarter].sum() - share * book["rained"]) < 4.0 * sigma


def test_raindrops_follow_marshall_palmer_in_0_5_to_6_mm():
    sizes = sf.Rain(region=((0, 0, 0), (1, 1, 1)), intensity=10.0).sizes
    u = (np.arange(20000) + 0.5) / 20000
    diameters = sizes(u)
    assert diameters.min() >= 0.5e-3 and diameters.max() <= 6e-3
    # the flux N(D) v(D) of Marshall-Palmer at 10 mm/h: Lambda = 4.1 * 10^-0.21 per mm
    slope = 4.1e3 * 10.0 ** -0.21
    grid = np.linspace(0.5e-3, 6e-3, 200001)
    flux = np.exp(-slope * grid) * (9.65 - 10.3 * np.exp(-600.0 * grid))
    assert diameters.mean() == pytest.approx((grid * flux).sum() / flux.sum(), rel=1e-3)


def test_an_overhang_shelters_the_floor_beneath():
    """A roof over the floor's left half, 0.2 m up: the rain on the left half lands on the roof,
    none on the floor under it; the right half of the floor gets its share."""
    roof_V, roof_F = rectangle(-0.05, 0.5, -0.05, 1.05, 12, 24)
    roof_V[:, 2] = 0.2
    sim = plate_simulation(extra=(roof_V, roof_F))
    sim.add_emitter(sf.Rain(region=((0, 0, 0.4), (1, 1, 0.5)), intensity=360.0, stop=0.2))
    sim.advance(0.4)
    V, depth = sim.geometry.vertices, sim.depth
    floor = V[:, 2] == 0.0
    assert np.all(depth[floor & (V[:, 0] < 0.45)] == 0.0)
    exposed = floor & (V[:, 0] > 0.55)
    assert np.all(depth[exposed] > 0.0)
    book = sim.ledger()
    assert abs(book["balance_error"]) < 1e-12 * book["rained"]


def test_bunny_pour_keeps_the_ledger_exact_and_the_streams_land_in_their_colours():
    scene = sf.load_scene(EXAMPLES_DIR / "bunny_pour.toml")
    assert [e.kind for e in scene.emitters] == ["nozzle", "nozzle"] and scene.sources == ()
    sim = scene_simulation(scene, scene_geometry(scene, *scene_mesh(scene.mesh)))
    assert len(sim.emitters) == 2 and sim.n_dyes == 2
    worst = 0.0
    for _ in range(300):
        sim.step()
        book = sim.ledger()
        worst = max(worst, abs(book["balance_error"]) / max(book["poured"], 1e-300))
    assert worst < 1e-12 and book["absorbed"] > 0.0
    film = sim.geometry.dual_areas * sim.depth
    waiting = [nozzle.pending for nozzle in sim.emitters]  # in the spouts, not yet released
    dye_volume = film @ sim.dye + sim.particles.volumes @ sim.particles.dyes + waiting
    red = min(sim.time, 2.0) * 2e-5
    yellow = max(0.0, min(sim.time, 2.5) - 0.5) * 1e-5
    assert dye_volume == pytest.approx([red, yellow], rel=1e-9)
    below_red = np.linalg.norm(sim.geometry.vertices[:, [0, 2]] - [0.39, 0.365], axis=1) < 0.01
    assert np.all(sim.dye[below_red & (sim.depth > 1e-4), 0] > 0.9)


def stream_on_plate():
    sim = plate_simulation(cells=16, n_dyes=1)
    sim.add_emitter(sf.Nozzle(position=(0.2, 0.5, 0.15), direction=(1, 0, 0.5), speed=0.6,
                              radius=0.01, rate=2e-5, stop=0.3, dye=0))
    return sim


def test_a_restart_in_the_middle_of_a_stream_is_bit_identical():
    """Stopped at 0.15 s with parcels in flight and one filling in the nozzle, then continued
    by a simulation with the nozzle added again and by one that rebuilds it from the state."""
    straight, first = stream_on_plate(), stream_on_plate()
    for sim, pieces in ((straight, 2), (first, 1)):
        for _ in range(pieces):
            sim.advance(0.15)
    assert first.particles.count > 0 and first.emitters[0].pending > 0.0
    state = {key: np.copy(value) for key, value in first.state_dict().items()}
    for resumed in (stream_on_plate(), plate_simulation(cells=16, n_dyes=1)):  # re-added, rebuilt
        resumed.load_state_dict(state)
        resumed.advance(0.15)
        for name in ("positions", "velocities", "volumes", "dyes"):
            assert np.array_equal(getattr(straight.particles, name), getattr(resumed.particles, name))
        for name in ("depth", "velocity", "dye"):
            assert np.array_equal(getattr(straight, name), getattr(resumed, name))
        assert straight.ledger() == resumed.ledger()


def test_a_frame_holds_the_particles_dyes(tmp_path):
    """The stream's parcels carry its dye 0 into the npz frame and the particles' VTU."""
    sim = stream_on_plate()
    sim.advance(0.1)
    writers = make_writers(tmp_path, ("npz", "vtu"), sim.geometry)
    for writer in writers:
        writer.write(0, sim.time, frame_fields(sim))
    with np.load(tmp_path / "frame_00000.npz") as frame:
        dyes, volumes = frame["particle_dyes"], frame["particle_volumes"]
    assert len(volumes) > 0 and dyes.shape == (len(volumes), 1) and np.all(dyes == 1.0)
    points = meshio.read(tmp_path / "particles_00000.vtu")
    assert np.array_equal(np.reshape(points.point_data["dye"], (-1, 1)), dyes)


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs 2 numba threads")
def test_one_and_two_threads_pour_identically():
    runs = []
    for threads in (1, 2):
        with numba_threads(threads):
            sim = stream_on_plate()
            sim.add_emitter(sf.Rain(region=((0, 0, 0.3), (1, 1, 0.4)), intensity=100.0))
            sim.advance(0.25)
            runs.append(sim)
    one, two = runs
    assert one.particles.count == two.particles.count > 0
    for name in ("positions", "velocities", "volumes", "dyes"):
        assert np.array_equal(getattr(one.particles, name), getattr(two.particles, name))
    assert np.array_equal(one.depth, two.depth) and one.ledger() == two.ledger()


def test_a_rate_function_is_integrated_and_a_removed_nozzle_lets_its_rest_go():
    sim = plate_simulation(cells=8)
    nozzle = sim.add_emitter(sf.Nozzle(position=(0.5, 0.5, 0.3), direction=(0, 0, -1), speed=0.2,
                                       radius=0.0, rate=lambda t: 1e-4 * t * t))
    sim.advance(0.1)
    assert sim.ledger()["poured"] == pytest.approx(1e-4 * 0.1 ** 3 / 3, rel=1e-12)
    assert nozzle.pending > 0.0
    sim.remove_emitter(nozzle)
    assert sim.emitters == () and nozzle.pending == 0.0
    book = sim.ledger()
    assert abs(book["balance_error"]) < 1e-12 * book["poured"]


def test_an_emitter_brings_the_default_droplets():
    geom = sf.precompute(rectangle(0.0, 1.0, 0.0, 1.0, 4, 4), smoothing_iterations=0)
    sim = sf.Simulation(geom, sf.Params(gravity=DOWN), particles=None)
    assert sim.particles is None and sim.emitters == ()
    sim.add_emitter(sf.Rain(region=((0, 0, 1), (1, 1, 2)), intensity=10.0))
    assert isinstance(sim.particles, sf.Droplets) and sim.term("droplets") is not None


def test_bad_emitters_are_refused_with_the_fix():
    with pytest.raises(sf.ParameterError, match=r"rate=0.*\(0.0, inf\]"):
        sf.Nozzle((0, 0, 1), (0, 0, -1), 1.0, 0.01, rate=0.0)
    with pytest.raises(sf.ParameterError, match="rate=-1e-05"):
        sf.Nozzle((0, 0, 1), (0, 0, -1), 1.0, 0.01, rate=-1e-5)
    with pytest.raises(sf.ParameterError, match="Rain needs region="):
        sf.Rain(intensity=10.0)
    with pytest.raises(sf.ParameterError, match="direction"):
        sf.Nozzle((0, 0, 1), (0, 0, 0), 1.0, 0.01, rate=1e-5)
    ball = sf.Simulation(sf.precompute(icosphere(0.2, 2), smoothing_iterations=0),
                         sf.Params(gravity=DOWN))
    with pytest.raises(sf.ParameterError, match="inside the mesh.*move the nozzle outside"):
        ball.add_emitter(sf.Nozzle((0.0, 0.0, 0.05), (1, 0, 0), 1.0, 0.0, rate=1e-5))
    ball.add_emitter(sf.Nozzle((0.0, 0.0, 0.3), (0, 0, -1), 1.0, 0.0, rate=1e-5))  # above: fine
    plate = plate_simulation(cells=4)
    with pytest.raises(sf.ParameterError, match="under its surface"):
        plate.add_emitter(sf.Nozzle((0.5, 0.5, -0.1), (0, 0, 1), 1.0, 0.0, rate=1e-5))
    with pytest.raises(sf.ParameterError, match="n_dyes=0"):
        plate.add_emitter(sf.Nozzle((0.5, 0.5, 0.1), (0, 0, -1), 1.0, 0.0, rate=1e-5, dye=0))


BALL_SCENE = """
[mesh]
procedural = "icosphere"
subdivisions = 2
radius = 0.2
{emitter}
"""


@pytest.mark.parametrize("emitter,message", [
    ('type = "nozzle"\nposition = [0, 1, 0]\ndirection = [0, -1, 0]\nspeed = 1\nradius = 0.01\nrate = 0',
     r"emitters\[0\]\.rate: 0 is out of range; it must lie in \(0.0, inf\]"),
    ('type = "nozzle"\nposition = [0, 1, 0]\ndirection = [0, -1, 0]\nspeed = 1\nradius = 0.01\nrate = -2e-5',
     r"emitters\[0\]\.rate: -2e-05 is out of range"),
    ('type = "rain"\nintensity = 10.0', r"emitters\[0\]: a rain needs 'region'"),
    ('type = "rain"\nregion = [[0, 1, 0], [1, 2, 1]]\nintensity = 10\nrate = 1e-5',
     r"emitters\[0\]\.rate: a rain takes no 'rate'"),
])
def test_bad_emitter_tables_name_the_table_the_key_and_the_fix(emitter, message):
    with pytest.raises(sf.SceneError, match=message):
        parse_scene(BALL_SCENE.format(emitter="[[emitters]]\n" + emitter), "ball.toml")


def test_a_scene_nozzle_inside_the_mesh_names_the_entry_and_its_position(tmp_path):
    text = BALL_SCENE.format(emitter='[[emitters]]\ntype = "nozzle"\nposition = [0, 0.01, 0]\n'
                                     'direction = [0, 1, 0]\nspeed = 1\nradius = 0.0\nrate = 1e-5')
    scene = parse_scene(text, "ball.toml")
    with pytest.raises(sf.SceneError, match=r"ball.toml: emitters\[0\]\.position: .*inside the mesh"):
        scene_simulation(scene, scene_geometry(scene, *scene_mesh(scene.mesh), tmp_path))


def test_the_viewer_draws_nozzles_as_spouts_and_rain_as_boxes():
    import polyscope as ps

    from surfflow.viewer.emitter_view import draw_emitters, spout_mesh

    ps.init("openGL_mock")
    nozzle = sf.Nozzle((0, 1, 0), (0, -1, 0), 1.0, 0.01, rate=1e-5)
    V, F = spout_mesh(nozzle.position, nozzle.direction, nozzle.radius)
    exit_ring, upstream = V[:16], V[16:]
    assert np.allclose(np.linalg.norm(exit_ring - nozzle.position, axis=1), 0.01)
    assert np.all(upstream[:, 1] > 1.0) and F.max() == len(V) - 1
    draw_emitters([nozzle, sf.Rain(region=((0, 2, 0), (1, 3, 1)), intensity=5.0)], 1.0)
    assert ps.has_surface_mesh("nozzles") and ps.has_curve_network("rain regions")
    draw_emitters([], 1.0)
    assert not ps.has_surface_mesh("nozzles") and not ps.has_curve_network("rain regions")


SPOUT = """[[emitters]]
type = "nozzle"
position = [0.0, 0.05, 0.0]
direction = [0.3, -1.0, 0.0]
speed = 0.5
radius = 0.01
rate = 2e-6
color = [1.0, 0.0, 0.0]

"""
SPOUT_SCENE = (TINY_SCENE[:TINY_SCENE.index("[[sources]]")] + SPOUT
               + TINY_SCENE[TINY_SCENE.index("[output]"):])
"""The tiny plate (0.2 m, normal +y) with a red spout 5 cm above it instead of its pour."""


def test_a_scene_run_resumed_from_its_checkpoint_file_continues_the_stream(tmp_path):
    from surfflow.io.checkpoint import save_checkpoint

    scene = parse_scene(SPOUT_SCENE, tmp_path / "tiny.toml")
    assert scene.dye_colors == ((1.0, 0.0, 0.0),)
    runner = sf.SceneRunner(scene, output_dir=tmp_path, cache_dir=tmp_path / "cache")
    runner.advance_frame()
    path = save_checkpoint(tmp_path / "c.npz", runner.simulation, frame=1)
    resumed = sf.SceneRunner(scene, output_dir=tmp_path / "b", cache_dir=tmp_path / "cache",
                             resume=path)
    runner.advance_frame()
    resumed.advance_frame()
    a, b = runner.simulation, resumed.simulation
    assert a.particles.count > 0 and a.ledger()["absorbed"] > 0.0 and a.dye.max() > 0.0
    for name in ("positions", "velocities", "volumes", "dyes"):
        assert np.array_equal(getattr(a.particles, name), getattr(b.particles, name))
    assert np.array_equal(a.depth, b.depth) and np.array_equal(a.dye, b.dye)
    assert a.ledger() == b.ledger()
