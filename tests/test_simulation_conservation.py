"""Whole-step invariants: booked volume balance, non-negative depth, lake at rest, threads, rotation."""

import numba
import numpy as np
import pytest

import builders
import surfflow as sf
from runtime_cases import (both_schemes, curved_patch, dyed_pour_on_threads, lumpy_sphere,
                           wet_simulation)


def test_volume_balance_over_2000_steps_with_every_source_booked():
    geom = curved_patch(seed=3)
    params = sf.Params(gravity=(0.5, 0.2, -9.81), boundary="outflow", friction=0.5, max_dt=0.005)
    sim = wet_simulation(geom, params, n_dyes=1, seed=3)
    center = geom.vertices[geom.n_vertices // 2]
    sim.add_source(center, 0.15, 2e-4, start=0.0, stop=3.0, dye=0)
    sim.add_rain(1e-4, mask=geom.vertices[:, 0] > 0.7, start=1.0)
    sim.add_sink(geom.vertices[7], 0.2, 5e-4, start=0.5, stop=8.0)
    lowest = np.inf
    for _ in range(2000):
        sim.step()
        lowest = min(lowest, sim.state.depth.min())
    book = sim.ledger()
    assert book["poured"] > 0 and book["rained"] > 0 and book["sunk"] > 0 and book["outflow"] > 0
    throughput = book["initial"] + book["poured"] + book["rained"]
    assert abs(book["balance_error"]) < 1e-12 * throughput
    assert lowest >= 0.0
    assert np.isfinite(sim.velocity).all()
    assert 0.0 <= sim.dye.min() and sim.dye.max() <= 1.0


@pytest.mark.parametrize("scheme", both_schemes())
def test_rain_on_a_moving_film_keeps_its_momentum(scheme):
    """A film 1 cm deep sliding at 2 cm/s over a flat square, no gravity, no friction, under
    rain of 1 mm/s for 2 s: rain arrives at rest and brings mass but no momentum, so away from
    the edges d = d0 + r t and the velocity falls to u0 d0 / d (exact: the uniform film's
    fluxes balance; measured within 4e-17 m/s, the depth within 3e-13 of it, 0.6 m and more
    from the upwind edge, whose thinning the upwind flux spreads a little way downstream)."""
    V, F = builders.rectangle(0.0, 1.0, 0.0, 1.0, 20, 20, jitter=0.25, seed=5)
    geom = sf.precompute((V, F), smoothing_iterations=0)
    sim = sf.Simulation(geom, sf.Params(gravity=(0.0, 0.0, 0.0), friction=0.0,
                                        boundary="outflow", max_dt=0.05, scheme=scheme))
    d0, u0, rate = 0.01, np.array([0.02, 0.0, 0.0]), 1e-3
    sim.set_depth(np.full(geom.n_vertices, d0))
    sim.set_velocity(np.tile(u0, (geom.n_vertices, 1)))
    sim.add_rain(rate)
    sim.advance(2.0)
    x, y = geom.vertices[:, 0], geom.vertices[:, 1]
    interior = (x > 0.6) & (x < 0.9) & (np.abs(y - 0.5) < 0.3)  # the upwind edge thins the film
    depth = d0 + rate * sim.time
    assert np.allclose(sim.depth[interior], depth, rtol=1e-12, atol=0.0)
    assert np.allclose(sim.velocity[interior], u0 * d0 / depth, rtol=0.0, atol=1e-12)


@pytest.mark.parametrize("scheme", both_schemes())
def test_a_pour_on_a_vertical_plate_runs_no_faster_than_a_fall_from_its_top(scheme):
    """A 10 cm square plate standing upright (40 x 40 cells, h = 2.5 mm), 2 cm^3/s poured at
    rest over a disc of 1 cm radius at its top, the default linear friction: friction only takes
    energy, so no wet vertex runs faster than a fall from the footprint's top, plus one cell
    (the liquid poured on a vertex fills its dual cell), sqrt(2 g (z_top + h - z)). Measured over
    0.5 s: at most 0.95 of it (conservative 0.92)."""
    V, F = builders.rectangle(-0.05, 0.05, 0.0, 0.1, 40, 40, jitter=0.25, seed=3)
    V = np.column_stack([V[:, 0], np.zeros(len(V)), V[:, 1]])
    geom = sf.precompute((V, F), smoothing_iterations=0)
    sim = sf.Simulation(geom, sf.Params(gravity=(0.0, 0.0, -9.81), scheme=scheme))
    pour = sim.add_source(center=(0.0, 0.0, 0.095), radius=0.01, rate=2e-6)
    z = geom.vertices[:, 2]
    fall = np.sqrt(2.0 * 9.81 * (z[pour.vertices].max() + 0.1 / 40 - z))
    fastest = 0.0
    while sim.time < 0.5:
        sim.step()
        wet = sim.depth >= sim.params.min_depth
        fastest = max(fastest, (np.linalg.norm(sim.velocity, axis=1) / fall)[wet].max())
    assert fastest <= 1.0, fastest
    assert abs(sim.ledger()["balance_error"]) <= 1e-12 * sim.ledger()["poured"]


def test_closed_surface_conserves_volume_to_round_off():
    """Film plus droplets: the films of up to 2 cm under the sphere drip (their pendant limit is
    3.8 to 7.7 mm), so what the film lost is in the air or fell past the droplets' bounds."""
    sim = wet_simulation(lumpy_sphere(seed=3), sf.Params(gravity=(1.0, -2.0, -9.5), friction=0.2),
                         seed=4)
    start = sim.total_volume()
    sim.advance(1.0)
    book = sim.ledger()
    assert book["emitted"] > 0.0
    assert abs(sim.total_volume() + book["airborne"] + book["lost"] - start) < 1e-13 * start
    assert abs(book["balance_error"]) < 1e-13 * start


@pytest.mark.parametrize("level", [0.5, 0.1])
def test_lake_at_rest_with_a_bump_stays_at_rest(level):
    """Immersed (level 0.5) and emerged (level 0.1) bump on an irregular strip, zero velocity; the
    strip is a channel, its edges walls (free edges would let the lake run off them)."""
    V, F = builders.strip(25.0, 1.0, 60, 3, seed=1)
    geom = sf.precompute((V, F), smoothing_iterations=0)
    x = geom.vertices[:, 0]
    bottom = np.maximum(0.0, 0.2 - 0.05 * (x - 10.0) ** 2)
    sim = sf.Simulation(geom, sf.Params(gravity=(0, 0, -9.81), friction=0.0, max_dt=0.05,
                                        boundary="wall"))
    sim.set_bottom(bottom)
    sim.set_depth(np.maximum(level - bottom, 0.0))
    depth = sim.depth
    for _ in range(300):
        sim.step()
    assert np.abs(sim.velocity).max() < 1e-12
    assert np.abs(sim.depth - depth).max() < 1e-14


def test_lake_at_rest_in_a_bowl():
    V, F = builders.hemispherical_bowl(1.0, 8)
    geom = sf.precompute((V, F), smoothing_iterations=0)
    up = np.array([0.0, 0.0, 1.0])
    level = -0.6
    rise = geom.normals @ up
    depth = np.maximum(0.0, (level - geom.vertices @ up) / rise)
    sim = sf.Simulation(geom, sf.Params(gravity=(0, 0, -9.81), friction=0.0))
    sim.set_depth(depth)
    sim.set_bottom(np.zeros(geom.n_vertices))
    sim.advance(0.5)
    assert np.abs(sim.velocity).max() < 1e-8


def test_one_and_two_threads_agree_bit_for_bit():
    params = sf.Params(gravity=(0.3, 0, -9.81))
    two = min(2, numba.config.NUMBA_NUM_THREADS)
    for a, b in zip(dyed_pour_on_threads(1, params), dyed_pour_on_threads(two, params)):
        assert np.array_equal(a, b)


def test_rotating_mesh_and_gravity_together_changes_nothing():
    V, F = builders.icosphere(1.0, 2)
    rng = np.random.default_rng(6)
    V = V * (1.0 + 0.05 * rng.uniform(-1, 1, (len(V), 1)))
    rotation = builders.rotation_onto(np.array([0.2, 0.9, -0.3]), np.array([-0.5, 0.1, 0.8]))
    depth = np.where(V[:, 2] > 0.2, 0.01, 0.0)
    results = []
    for points, gravity in ((V, np.array([0.0, 0.0, -9.81])),
                            (V @ rotation.T, rotation @ np.array([0.0, 0.0, -9.81]))):
        sim = sf.Simulation(sf.precompute((points, F), smoothing_iterations=0), sf.Params(gravity=gravity))
        sim.set_depth(depth)
        sim.advance(0.3)
        results.append(sim.depth)
    assert np.abs(results[0] - results[1]).max() < 1e-12
    assert np.abs(results[0] - depth).max() > 1e-4


def test_round_off_around_an_inviscid_lake_at_rest_does_not_grow():
    """The centred (energy-consistent) flux: noise of 1e-14 relative on a bowl lake's depth
    stays at round-off size (a purely upwind flux grows it to 3e-9 m/s here, 0.45 m/s by 4,000
    steps)."""
    V, F = builders.hemispherical_bowl(1.0, 32)
    geom = sf.precompute((V, F), smoothing_iterations=0)
    up = np.array([0.0, 0.0, 1.0])
    depth = np.maximum(0.0, (-0.5 - geom.vertices @ up) / (geom.normals @ up))
    depth *= 1.0 + 1e-14 * np.random.default_rng(0).uniform(-1.0, 1.0, len(depth))
    sim = sf.Simulation(geom, sf.Params(gravity=(0, 0, -9.81), friction=0.0))
    sim.set_depth(depth)
    for _ in range(2500):
        sim.step()
    assert np.abs(sim.velocity).max() < 1e-11
