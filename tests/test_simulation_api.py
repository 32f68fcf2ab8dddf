"""The public Simulation API: clock, sources, ledger, checkpoints, moving meshes, errors."""

import math

import numpy as np
import pytest

import surfflow as sf
from runtime_cases import curved_patch, wet_simulation


@pytest.fixture(scope="module")
def geom():
    return curved_patch(seed=4)


def test_advance_lands_exactly(geom):
    sim = wet_simulation(geom, seed=1)
    sim.advance(0.123456789)
    assert sim.time == 0.123456789
    sim.advance(0.2)
    assert sim.time == 0.123456789 + 0.2
    steps = sim.state.step_count
    sim.advance(0.0)
    assert sim.state.step_count == steps


def test_advance_over_a_remainder_of_round_off_lands_without_a_step(geom):
    """Ten steps of 0.01 s end at 0.09999999999999999; advancing to 0.1 is no interval (a step
    of 1.4e-17 s would make velocities from differences over dt meaningless), but 1e-15 s is."""
    sim = wet_simulation(geom, seed=1)
    sim.state.time = sum([0.01] * 10)
    steps = sim.state.step_count
    sim.advance(0.1 - sim.time)
    assert sim.time == 0.1 and sim.state.step_count == steps
    sim.advance(1e-15)
    assert sim.time == 0.1 + 1e-15 and sim.state.step_count == steps + 1


def test_step_returns_the_time_it_took(geom):
    sim = wet_simulation(geom, sf.Params(gravity=(0, 0, -9.81), max_dt=1e-3), seed=2)
    dt = sim.step()
    assert 0.0 < dt <= 1e-3
    assert sim.time == dt


def test_velocity_is_projected_onto_the_tangent_planes(geom):
    sim = sf.Simulation(geom)
    world = np.random.default_rng(0).normal(size=(geom.n_vertices, 3))
    sim.set_velocity(world)
    tangential = world - np.einsum("ij,ij->i", world, geom.normals)[:, None] * geom.normals
    assert np.allclose(sim.velocity, tangential, atol=1e-14)


def test_pour_books_exactly_its_rate_times_the_active_time(geom):
    sim = sf.Simulation(geom, sf.Params(gravity=(0, 0, -9.81), max_dt=0.007, boundary="wall"))
    handle = sim.add_source(geom.vertices[30], 0.2, 3e-4, start=0.01, stop=0.05)
    assert isinstance(handle, sf.Source) and handle.vertices.size > 1
    sim.advance(0.1)
    book = sim.ledger()
    assert book["poured"] == pytest.approx(3e-4 * 0.04, rel=1e-12)
    assert book["current"] == pytest.approx(3e-4 * 0.04, rel=1e-12)


def test_a_tiny_source_falls_on_the_nearest_vertex(geom):
    sim = sf.Simulation(geom)
    handle = sim.add_source(geom.vertices[17] + 1e-4, 1e-9, 1e-4)
    assert handle.vertices.tolist() == [17]


def test_sink_removes_only_what_is_there(geom):
    sim = sf.Simulation(geom, sf.Params(gravity=(0, 0, -9.81)))
    depth = np.full(geom.n_vertices, 1e-3)
    sim.set_depth(depth)
    sim.add_sink(geom.vertices[0], 10.0, 1e3)
    sim.step()
    book = sim.ledger()
    assert sim.depth.max() == 0.0
    assert book["sunk"] == pytest.approx(book["initial"], rel=1e-14)


def test_state_dict_round_trip_continues_bit_identically(geom, tmp_path):
    sim = wet_simulation(geom, n_dyes=1, seed=3)
    sim.add_source(geom.vertices[3], 0.1, 1e-4, dye=0, stop=0.4)
    sim.add_rain(1e-5, mask=geom.vertices[:, 1] > 0.5)
    sim.set_damping(np.linspace(0, 2, geom.n_vertices))
    sim.advance(0.1)
    np.savez(tmp_path / "state.npz", **sim.state_dict())
    sim.advance(0.2)
    copy = sf.Simulation(geom, sim.params, n_dyes=1)
    with np.load(tmp_path / "state.npz") as data:
        copy.load_state_dict(dict(data))
    copy.advance(0.2)
    for name in ("depth", "velocity", "dye", "bottom"):
        assert np.array_equal(getattr(copy, name), getattr(sim, name))
    assert copy.time == sim.time and copy.ledger() == sim.ledger()


def test_load_state_dict_rejects_another_mesh(geom):
    other = sf.Simulation(curved_patch(nx=5, ny=5))
    with pytest.raises(sf.ParameterError, match="depth"):
        sf.Simulation(geom).load_state_dict(other.state_dict())


def test_set_geometry_keeps_each_vertex_volume(geom):
    sim = wet_simulation(geom, seed=5)
    sim.advance(0.05)
    volumes = geom.dual_areas * sim.depth
    V = geom.vertices * np.array([1.3, 0.9, 1.1])
    moved = sf.precompute((V, geom.faces), smoothing_iterations=0)
    sim.set_geometry(moved)
    assert np.allclose(moved.dual_areas * sim.depth, volumes, rtol=1e-14)
    assert sim.total_volume() == pytest.approx(volumes.sum(), rel=1e-14)
    sim.advance(0.05)
    assert np.isfinite(sim.depth).all()


def test_set_geometry_rejects_new_connectivity(geom):
    with pytest.raises(sf.ParameterError, match="connectivity"):
        sf.Simulation(geom).set_geometry(curved_patch(nx=5, ny=5))


def test_non_finite_state_raises_and_writes_the_last_good_state(geom, tmp_path):
    # without droplets: their collision grid cannot be fitted to a surface at +-1.7e308
    sim = sf.Simulation(geom, sf.Params(gravity=(0, 0, -9.81)), crash_dir=tmp_path, particles=None)
    sim.set_depth(np.full(geom.n_vertices, 0.01))
    sim.step()
    # free-surface heights of +-1.7e308 overflow in the pressure gradient
    sim.set_bottom(np.where(np.arange(geom.n_vertices) % 2, 1.7e308, -1.7e308))
    last_good_time = sim.time
    with pytest.raises(sf.SimulationError, match=r"non-finite at t=.* vertex \d+") as info:
        sim.step()
    path = str(info.value).split(" is in ")[1].split(";")[0]
    with np.load(path) as saved:
        assert np.isfinite(saved["depth"]).all() and np.isfinite(saved["velocity"]).all()
        assert float(saved["time"]) == last_good_time


@pytest.mark.parametrize("call, match", [
    (lambda sim, n: sim.set_depth(-np.ones(n)), "depth is below 0"),
    (lambda sim, n: sim.set_depth(np.ones(n + 1)), "shape"),
    (lambda sim, n: sim.set_velocity(np.full((n, 3), np.nan)), "not finite at vertex 0"),
    (lambda sim, n: sim.add_source((0, 0, 0), 0.1, -1.0), "pour rate"),
    (lambda sim, n: sim.add_source((0, 0, 0), 0.1, 1.0, start=2.0, stop=1.0), "stop"),
    (lambda sim, n: sim.add_source((0, 0, 0), 0.1, 1.0, dye=0), "n_dyes"),
    (lambda sim, n: sim.add_rain(1e-3, mask=np.ones(3, bool)), "mask"),
    (lambda sim, n: sim.advance(math.inf), "duration"),
])
def test_bad_input_is_refused_with_a_clear_message(geom, call, match):
    with pytest.raises(sf.ParameterError, match=match):
        call(sf.Simulation(geom), geom.n_vertices)
