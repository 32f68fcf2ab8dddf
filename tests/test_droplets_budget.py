"""Droplets bounded at any scale (issue 21): the particle size follows the cell, the count
stays within ``max_particles`` (merging, never dropping), the collision grid's memory is
bounded, and the ledger stays exact however many drops land on one vertex."""

import math
import tracemalloc

import numpy as np
import pytest
from builders import rectangle
from fuzz_scenes import heavy_rain_sphere
from test_droplets import naive_first_crossing

import surfflow as sf
from surfflow.errors import ParameterError, SimulationError
from surfflow.particles import Droplets
from surfflow.particles.budget import BYTES_PER_PARTICLE, available_memory
from surfflow.particles.triangle_grid import MAX_CELLS_PER_TRIANGLE, TriangleGrid

DOWN = (0.0, 0.0, -9.81)


def ceiling(size: float, depth: float, **droplets) -> sf.Simulation:
    """A square plate of side ``size`` facing down (16 x 16 cells) under a film ``depth`` deep."""
    V, F = rectangle(0.0, size, 0.0, size, 16, 16, jitter=0.2)
    geom = sf.precompute((V, F[:, ::-1]), smoothing_iterations=0)
    sim = sf.Simulation(geom, sf.Params(gravity=DOWN), particles=Droplets(floor=-size, **droplets))
    sim.set_depth(np.full(geom.n_vertices, depth))
    return sim


@pytest.mark.parametrize("size", [0.1, 30.0])
def test_a_cell_sheds_drops_or_parcels_as_wide_as_itself(size):
    """On a 10 cm plate (6 mm cells) the film leaves as 0.05 mL drops; on a 30 m one (1.9 m
    cells) as parcels as wide as a cell: a few particles per vertex either way, where
    drops alone would be 10^5 per vertex."""
    sim = ceiling(size, 5e-3)
    A, keep = sim.geometry.dual_areas, sim.params.keep_depth
    excess = (5e-3 - keep) * A
    parcel = np.maximum(sim.particles.max_volume, math.pi / 6.0 * A ** 1.5)
    per_vertex = np.ceil(excess / parcel).astype(int)
    emitted, runoff = sim.term("droplets").emit(sim.state)
    assert runoff == 0.0
    assert sim.particles.count == per_vertex.sum() < 10 * sim.geometry.n_vertices
    shares = np.repeat(excess / per_vertex, per_vertex)
    assert np.allclose(sim.particles.volumes, shares, rtol=1e-14)
    assert emitted == pytest.approx(excess.sum(), rel=1e-14)
    assert np.array_equal(sim.depth, np.full(sim.geometry.n_vertices, keep))
    if size > 1.0:
        assert np.ceil(excess / sim.particles.max_volume).sum() > 5e7  # the old split


def test_merging_keeps_volume_and_momentum():
    """Two drops in one cell become one at their volume-weighted centre and velocity; a third
    far away stays as it was."""
    drops = Droplets(max_particles=3, bounds=((-10, -10, -10), (10, 10, 10)))
    drops.add([[0.0, 0.0, 0.0], [1e-3, 0.0, 0.0], [5.0, 5.0, 5.0]],
              [[1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 3.0]], [1e-7, 3e-7, 2e-7])
    drops.merge_down_to(2)
    assert drops.count == 2
    assert np.allclose(drops.positions, [[0.75e-3, 0.0, 0.0], [5.0, 5.0, 5.0]], rtol=1e-15)
    assert np.allclose(drops.velocities, [[0.25, 1.5, 0.0], [0.0, 0.0, 3.0]], rtol=1e-15)
    assert np.array_equal(drops.volumes, [4e-7, 2e-7])
    drops.merge_down_to(1)  # no two share a cell: the cells grow until they do
    assert drops.count == 1 and drops.volumes[0] == pytest.approx(6e-7, rel=1e-15)
    momentum = np.array([1e-7, 6e-7, 6e-7])
    assert np.allclose(drops.volumes[0] * drops.velocities[0], momentum, rtol=1e-14)


def test_a_full_budget_merges_drops_in_flight_and_drops_nothing():
    """A 30 m ceiling under 5 cm of water with a budget of two particles per vertex: every
    step stays within it, the excess rides in larger particles, the ledger stays exact."""
    sim = ceiling(30.0, 0.05, max_particles=2 * 289)
    assert sim.geometry.n_vertices == 289
    counts = []
    for _ in range(20):
        sim.set_depth(np.maximum(sim.depth, 0.05))  # keep it pouring off (restarts the ledger)
        sim.step()
        counts.append(sim.particles.count)
        book = sim.ledger()
        assert abs(book["balance_error"]) < 1e-12 * book["initial"]
    assert max(counts) == sim.particles.max_particles == 578
    parcel = math.pi / 6.0 * sim.geometry.dual_areas.max() ** 1.5
    assert sim.particles.volumes.max() > 2.0 * parcel


def test_budgets_that_cannot_work_are_refused_at_set_up():
    with pytest.raises(ParameterError, match="max_particles=1 must be a whole number >= 2"):
        Droplets(max_particles=1)
    too_many = 2 * available_memory() // BYTES_PER_PARTICLE
    with pytest.raises(SimulationError, match=rf"max_particles={too_many}\) needs .* GiB.*lower "
                                              "max_particles"):
        Droplets(max_particles=too_many)
    with pytest.raises(ParameterError, match=r"max_particles=10\) is below two particles per "
                                             r"vertex of this 289-vertex mesh.*at least 578"):
        ceiling(1.0, 0.0, max_particles=10)
    assert ceiling(1.0, 0.0).particles.max_particles >= 578  # the default fits any mesh


def test_many_drops_landing_on_a_deep_film_add_their_volume_once():
    """10^4 small drops land on a film 1 m deep in one step: the film gains their volume to
    round-off of one addition per vertex (one by one, the error grew with the drop count)."""
    V, F = rectangle(0.0, 1.0, 0.0, 1.0, 4, 4)
    geom = sf.precompute((V, F), smoothing_iterations=0)
    sim = sf.Simulation(geom, sf.Params(gravity=DOWN),  # a pool facing up: it never sheds
                        particles=Droplets(separation=0.0, smoothing=0.0))
    sim.set_depth(np.ones(geom.n_vertices))
    rng = np.random.default_rng(1)
    volumes = rng.uniform(0.5e-9, 1.5e-9, 10_000)
    sim.particles.add(np.column_stack([rng.uniform(0.3, 0.7, (10_000, 2)), np.full(10_000, 1e-3)]),
                      np.tile([0.0, 0.0, -1.0], (10_000, 1)), volumes)
    before = geom.dual_areas * sim.state.depth
    book = sim.term("droplets").exchange(geom, sim.state, 1e-2)
    gained = geom.dual_areas * sim.state.depth - before
    assert book["absorbed"] == pytest.approx(volumes.sum(), rel=1e-14)
    assert abs(gained.sum() - volumes.sum()) < 8 * np.finfo(float).eps * before.sum()


def test_the_collision_grid_stays_small_for_a_fan_of_slivers():
    """A disc of 20,000 slivers fanning out from its centre (a CAD cap): each sliver's box spans
    up to half the disc, so cells sized to the triangle count would list 32 million entries
    (250 MB); the grid coarsens to at most MAX_CELLS_PER_TRIANGLE per triangle on average and
    still finds the first crossings."""
    n = 20_000
    angle = np.linspace(0.0, 2.0 * np.pi, n, endpoint=False)
    V = np.vstack([[0.0, 0.0, 0.0], np.column_stack([np.cos(angle), np.sin(angle), 0.1 * np.sin(
        5 * angle)])])
    F = np.column_stack([np.zeros(n, int), 1 + np.arange(n), 1 + (np.arange(n) + 1) % n])
    grid = TriangleGrid(V, F)
    assert len(grid.cell_triangles) <= MAX_CELLS_PER_TRIANGLE * n
    assert grid.cell_size >= 3.0 * np.cbrt(np.prod(np.ptp(V, axis=0)) / (2 * n))  # coarsened
    rng = np.random.default_rng(0)
    start = np.column_stack([rng.uniform(-0.7, 0.7, (200, 2)), np.full(200, 0.5)])
    end = start + np.column_stack([rng.uniform(-0.2, 0.2, (200, 2)), np.full(200, -1.0)])
    hit, weights = np.empty(200, dtype=np.int64), np.empty((200, 3))
    grid.first_hits(start, end, hit, weights)
    expected = [naive_first_crossing(a, b, V, F) for a, b in zip(start, end)]
    assert hit.tolist() == [f for _, f in expected] and (hit >= 0).sum() > 150


def test_a_30m_sphere_under_heavy_rain_runs_a_second_within_the_memory_budget():
    """The issue's case: a sphere 30 m across under 5 cm of water and 100 mm/h of rain, with
    droplets. Drops of 0.05 mL would be 10^9 particles; parcels as wide as the
    2.6 m cells are a few thousand at most. The ledger stays exact and the peak memory under
    64 MiB."""
    sim = heavy_rain_sphere()
    geom = sim.geometry
    tracemalloc.start()
    try:
        sim.advance(1.0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    book = sim.ledger()
    entered = book["initial"] + book["rained"]
    assert book["emitted"] > 0.1 * book["initial"] and book["lost"] + book["absorbed"] > 0.0
    assert 0 < sim.particles.count <= 10 * geom.n_vertices
    assert abs(book["balance_error"]) < 1e-12 * entered
    assert peak < 64 * 2**20
