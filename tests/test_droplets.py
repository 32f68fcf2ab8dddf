"""Droplets (SPEC §8): liquid leaves the film as particles and comes back, with exact volume."""

import math

import numba
import numpy as np
import pytest
from builders import icosphere, inclined_plane, rectangle
from runtime_cases import numba_threads

import surfflow as sf
from surfflow.particles import Droplets
from surfflow.particles.droplets import MOST_WIDE
from surfflow.particles.raindrops import DropSizes
from surfflow.particles.shedding import pendant_depth
from surfflow.particles.triangle_grid import TriangleGrid, segment_crosses_triangle

DOWN = (0.0, 0.0, -9.81)


@pytest.fixture(scope="module")
def plate():
    """A 10 cm square plate in z = 0, 16 x 16 cells, normals +z."""
    return rectangle(0.0, 0.1, 0.0, 0.1, 16, 16, jitter=0.2)


def film_on_plate(V, F, underside: bool, depth: float, **params):
    """A uniform film on the plate's upper side or underside; its edges are walls (the rule for
    pendant films and pools is tested here, free edges in test_droplets_rule.py)."""
    faces = F[:, ::-1] if underside else F
    geom = sf.precompute((V, faces), smoothing_iterations=0)
    sim = sf.Simulation(geom, sf.Params(gravity=DOWN, boundary="wall", **params),
                        particles=Droplets(drag=0.0, floor=-0.2))
    sim.set_depth(np.full(geom.n_vertices, depth))
    return sim


def test_film_under_a_plate_drips_off_and_on_top_stays(plate):
    """5 mm of water: above the 3.8 mm pendant limit under the plate; on top a pool never sheds.
    Underneath, everything above keep_depth drips and falls to the floor."""
    keep = 1e-4
    below = film_on_plate(*plate, underside=True, depth=5e-3, keep_depth=keep)
    above = film_on_plate(*plate, underside=False, depth=5e-3, keep_depth=keep)
    assert np.all(below.geometry.normals[:, 2] < -0.99)
    for sim in (below, above):
        sim.advance(0.5)
    book = below.ledger()
    assert book["lost"] / book["initial"] > 0.95
    assert book["lost"] == pytest.approx(book["initial"] * (1.0 - keep / 5e-3), rel=1e-12)
    assert book["emitted"] == pytest.approx(book["lost"], rel=1e-12)
    assert np.allclose(below.depth, keep, rtol=1e-12) and below.particles.count == 0
    assert abs(book["balance_error"]) < 1e-12 * book["initial"]
    top = above.ledger()
    assert top["emitted"] == 0.0 and top["lost"] == 0.0 and above.particles.count == 0
    assert top["current"] == pytest.approx(top["initial"], rel=1e-12)


def test_column_of_drops_on_an_incline_is_absorbed_exactly_then_runs_down():
    angle = math.radians(30.0)
    V, F = inclined_plane(0.3, 0.1, angle, 30, 10)
    geom = sf.precompute((V, F), smoothing_iterations=0)
    sim = sf.Simulation(geom, sf.Params(gravity=DOWN, boundary="wall"), particles=True)
    s0 = 0.08  # drops land at downhill distance s0 from the top edge, mid-width
    landing = np.array([s0 * math.cos(angle), 0.05, -s0 * math.sin(angle)])
    heights = 0.02 + 0.006 * np.arange(12)
    positions = landing + heights[:, None] * np.array([0.0, 0.0, 1.0])
    volumes = np.full(12, 2e-8)
    sim.particles.add(positions, np.zeros((12, 3)), volumes)
    sim.set_depth(np.zeros(geom.n_vertices))
    downhill = np.array([math.cos(angle), 0.0, -math.sin(angle)])

    def film_centre():
        volume = geom.dual_areas * sim.depth
        return float((sim.geometry.vertices @ downhill) @ volume / volume.sum())

    sim.advance(0.07)  # the lowest drop (2 cm up) lands at 0.064 s
    assert 0 < sim.ledger()["absorbed"] < volumes.sum()
    assert abs(film_centre() - s0) < 0.01
    sim.advance(0.13)  # the highest (8.6 cm up) at 0.133 s
    book = sim.ledger()
    assert sim.particles.count == 0 and book["lost"] == 0.0 and book["emitted"] == 0.0
    assert book["absorbed"] == pytest.approx(volumes.sum(), rel=1e-12)
    assert book["current"] == pytest.approx(volumes.sum(), rel=1e-12)
    assert abs(book["balance_error"]) < 1e-12 * volumes.sum()
    landed = film_centre()
    sim.advance(0.3)
    assert film_centre() > landed + 0.05  # the film runs down the plane
    assert abs(sim.ledger()["balance_error"]) < 1e-12 * volumes.sum()


def test_collision_grid_follows_a_moved_mesh(plate):
    """Drops over a plate that moves 1 m aside before they arrive fall through where it was."""
    V, F = plate
    geom = sf.precompute((V, F), smoothing_iterations=0)
    moved = sf.update_positions(geom, geom.vertices + np.array([1.0, 0.0, 0.0]))
    outcomes = []
    for move in (False, True):
        sim = sf.Simulation(geom, sf.Params(gravity=DOWN),
                            particles=Droplets(bounds=((-2, -2, -0.5), (2, 2, 2))))
        sim.particles.add([[0.05, 0.05, 0.05]], [[0.0, 0.0, 0.0]], [1e-8])
        sim.set_depth(np.zeros(geom.n_vertices))
        if move:
            sim.set_geometry(moved)
        sim.advance(0.5)
        outcomes.append((sim.ledger()["absorbed"], sim.ledger()["lost"]))
    assert outcomes == [(pytest.approx(1e-8, rel=1e-12), 0.0), (0.0, pytest.approx(1e-8, rel=1e-12))]


@pytest.mark.parametrize("drag", [0.0, 2.0])
def test_free_flight_matches_the_analytic_path(drag):
    drops = Droplets(drag=drag, separation=0.0, smoothing=0.0)
    drops.gravity = np.array([0.3, -9.81, 0.0])
    x0, v0 = np.array([[0.0, 1.0, 0.5]]), np.array([[1.5, 2.0, -0.7]])
    drops.add(x0, v0, [1e-9])
    t = 0.0
    for dt in (0.01, 0.003, 0.0171, 0.01, 0.02):
        drops.step(dt)
        t += dt
    g = drops.gravity
    if drag == 0.0:
        expected = x0 + v0 * t + 0.5 * g * t * t
        velocity = v0 + g * t
    else:
        decay = math.exp(-drag * t)
        velocity = g / drag + (v0 - g / drag) * decay
        expected = x0 + g / drag * t + (v0 - g / drag) * (1.0 - decay) / drag
    assert np.allclose(drops.positions, expected, rtol=0.0, atol=1e-14)
    assert np.allclose(drops.velocities, velocity, rtol=0.0, atol=1e-14)


def test_interaction_undoes_overlap_and_smooths_velocities():
    """Two equal drops, no gravity: separation s = 1 puts overlapping ones exactly at contact
    in one step, without throwing them apart (at rest they stay at rest; closing on each other
    at 1 mm/s, slower than the push, they stop: an inelastic contact); XSPH smoothing pulls
    their velocities together and keeps their sum."""
    volume = 1e-9
    r = (0.75 * volume / math.pi) ** (1.0 / 3.0)
    for speed in (0.0, 1e-3):
        drops = Droplets(drag=0.0, separation=1.0, smoothing=0.0)
        drops.gravity = np.zeros(3)
        drops.add([[0.0, 0.0, 0.0], [1.2 * r, 0.0, 0.0]],
                  [[speed, 0.0, 0.0], [-speed, 0.0, 0.0]], [volume, volume])
        drops.step(0.01)
        gap = drops.positions[1] - drops.positions[0]
        assert gap[0] == pytest.approx(2.0 * r, rel=1e-12) and not gap[1:].any()
        assert np.all(drops.velocities == 0.0), drops.velocities
    drops = Droplets(drag=0.0, separation=0.0, smoothing=0.5)
    drops.gravity = np.zeros(3)
    drops.add([[0.0, 0.0, 0.0], [3.0 * r, 0.0, 0.0]], [[0.0, 1.0, 0.0], [0.0, -1.0, 0.0]],
              [volume, volume])
    drops.step(1e-9)
    w = 1.0 - 3.0 / 4.0
    expected = 1.0 - 0.5 * w * 2.0 / (1.0 + w)
    assert drops.velocities[:, 1] == pytest.approx([expected, -expected], rel=1e-9)
    assert drops.velocities[:, 1].sum() == pytest.approx(0.0, abs=1e-15)



def test_separation_never_throws_drops_apart():
    """400 drops heaped into a 1 cm box, many overlapping (as drops made or merged next to each
    other are), no gravity or drag: a step of the separation moves them apart and does not add
    kinetic energy, however short the step (shift / dt taken as velocity would be 1e2 m/s for a
    millimetre at 1e-5 s)."""
    rng = np.random.default_rng(5)
    drops = Droplets(drag=0.0, separation=0.5, smoothing=0.0)
    drops.gravity = np.zeros(3)
    drops.add(rng.uniform(0.0, 0.01, (400, 3)), rng.normal(scale=0.1, size=(400, 3)),
              np.full(400, 5e-10))
    energy = float((drops.velocities ** 2).sum())
    drops.step(1e-5)
    assert float((drops.velocities ** 2).sum()) <= energy
    assert np.abs(drops.velocities).max() < 1.0

def naive_first_crossing(p0, p1, V, F):
    """Moller-Trumbore against every triangle (numpy): (t, triangle) of the first crossing of
    the segment p0 -> p1, or (inf, -1)."""
    a, b, c = V[F[:, 0]], V[F[:, 1]], V[F[:, 2]]
    d = p1 - p0
    e1, e2 = b - a, c - a
    h = np.cross(d, e2)
    det = np.einsum("ij,ij->i", e1, h)
    s = p0 - a
    u = np.einsum("ij,ij->i", s, h) / det
    q = np.cross(s, e1)
    v = q @ d / det
    t = np.einsum("ij,ij->i", e2, q) / det
    hit = (u >= 0) & (u <= 1) & (v >= 0) & (u + v <= 1) & (t >= 0) & (t <= 1)
    if not hit.any():
        return math.inf, -1
    first = np.flatnonzero(hit)[np.argmin(t[hit])]
    return t[first], first


def test_grid_query_finds_the_first_crossing_like_brute_force():
    V, F = icosphere(0.1, 2)
    grid = TriangleGrid(V, F)
    rng = np.random.default_rng(3)
    start = rng.uniform(-0.15, 0.15, (400, 3))
    end = start + rng.normal(0.0, 0.05, (400, 3))
    hits, weights = np.empty(400, np.int64), np.empty((400, 3))
    grid.first_hits(start, end, hits, weights)
    for k in range(400):
        t, triangle = naive_first_crossing(start[k], end[k], V, F)
        assert hits[k] == triangle
        if triangle >= 0:
            point = weights[k] @ V[F[triangle]]
            assert np.allclose(point, start[k] + t * (end[k] - start[k]), atol=1e-12)
    assert 20 < np.count_nonzero(hits >= 0) < 400
    t, u, v = segment_crosses_triangle(np.array([0.2, 0.2, 1.0]), np.array([0.2, 0.2, -1.0]),
                                       np.zeros(3), np.array([1.0, 0, 0]), np.array([0, 1.0, 0]))
    assert t == 0.5 and np.allclose([1.0 - u - v, u, v], [0.6, 0.2, 0.2])


def dripping_sphere(subdivisions=2):
    """Water poured on top of a 5 cm sphere: it runs round and drips off the underside."""
    V, F = icosphere(0.05, subdivisions)
    geom = sf.precompute((V, F), smoothing_iterations=0)
    sim = sf.Simulation(geom, sf.Params(gravity=DOWN), n_dyes=1,
                        particles=Droplets(floor=-0.15))
    sim.set_depth(np.zeros(geom.n_vertices))
    sim.add_source(center=(0.0, 0.0, 0.05), radius=0.015, rate=2e-5, stop=0.4, dye=0)
    return sim


def run_threads(threads, duration=0.6):
    with numba_threads(threads):
        sim = dripping_sphere()
        sim.advance(duration)
    return sim


def test_dripping_sphere_keeps_the_invariants():
    sim = run_threads(numba.get_num_threads())
    book = sim.ledger()
    assert book["emitted"] > 0.3 * book["poured"] and book["lost"] > 0.0
    assert abs(book["balance_error"]) < 1e-12 * book["poured"]
    threshold = pendant_depth(sim.geometry.normals[:, 2], sim.params)
    assert np.all(sim.depth <= threshold) and np.all(sim.depth >= 0.0)
    assert np.isfinite(sim.particles.positions).all()


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs 2 numba threads")
def test_one_and_two_threads_give_identical_droplets():
    one, two = run_threads(1), run_threads(2)
    assert one.particles.count == two.particles.count > 0
    for name in ("positions", "velocities", "volumes"):
        assert np.array_equal(getattr(one.particles, name), getattr(two.particles, name))
    assert np.array_equal(one.depth, two.depth) and one.ledger() == two.ledger()


def test_restart_with_particles_is_bit_identical():
    straight = dripping_sphere()
    straight.advance(0.3)
    straight.advance(0.3)
    first = dripping_sphere()
    first.advance(0.3)
    assert first.particles.count > 0
    state = {key: np.copy(value) for key, value in first.state_dict().items()}
    resumed = dripping_sphere()
    resumed.load_state_dict(state)
    resumed.advance(0.3)
    for name in ("positions", "velocities", "volumes"):
        assert np.array_equal(getattr(straight.particles, name), getattr(resumed.particles, name))
    assert np.array_equal(straight.depth, resumed.depth)
    assert np.array_equal(straight.velocity, resumed.velocity)
    assert straight.ledger() == resumed.ledger()


def test_bad_droplet_settings_are_refused():
    with pytest.raises(sf.ParameterError, match="keep_depth"):
        sf.Params(keep_depth=0.005)
    with pytest.raises(sf.ParameterError, match="drag"):
        Droplets(drag=-1.0)
    with pytest.raises(sf.ParameterError, match="bounds"):
        Droplets(bounds=((0, 0, 0), (1, -1, 1)))
    with pytest.raises(sf.ParameterError, match="volumes"):
        Droplets().add(np.zeros((2, 3)), np.zeros((2, 3)), [1e-9, 0.0])
    geom = sf.precompute(rectangle(0.0, 1.0, 0.0, 1.0, 2, 2), smoothing_iterations=0)
    with pytest.raises(sf.ParameterError, match="sf.Droplets"):
        sf.Simulation(geom, particles="yes")


def stream_among_drops(rng, n):
    """3 % wide parcels among small drops: met through the wide list."""
    return np.where(rng.uniform(size=n) < 0.03, 4e-7, rng.uniform(2e-10, 2e-9, n))


def raindrops(rng, n):
    """Marshall-Palmer sizes: a third wider than the mean volume's, so each size class gets its
    own grid."""
    return np.pi / 6.0 * DropSizes(720.0)(rng.uniform(size=n)) ** 3


def broad_spray(rng, n):
    """Radii spread log-uniformly over two decades (0.03 to 3 mm): grids on three levels."""
    return 4.0 / 3.0 * np.pi * (3e-5 * 100.0 ** rng.uniform(size=n)) ** 3


@pytest.mark.parametrize("sizes", [stream_among_drops, raindrops, broad_spray])
def test_interaction_of_drops_of_mixed_sizes_matches_all_pairs(sizes):
    """Wide particles (a stream's parcels among small drops) are met through their own list,
    not the grid (whose cell follows the mean size); where more than MOST_WIDE are wide (rain, a
    broad spray) each size class is met through a grid of its own, its cell 2^L times the
    first: either way the interaction equals the all-pairs sum."""
    rng = np.random.default_rng(3)
    n = 400
    volumes = sizes(rng, n)
    drops = Droplets(separation=0.5, smoothing=0.1)
    drops.add(rng.uniform(0.0, 0.03, (n, 3)), rng.normal(size=(n, 3)), volumes)
    before = drops.positions.copy(), drops.velocities.copy()
    drops.gravity = np.zeros(3)
    drops.drag = 0.0
    dt = 1e-3
    drops.step(dt)
    x, v = before[0] + before[1] * dt, before[1]
    r = np.cbrt(0.75 * volumes / np.pi)
    d = x[:, None, :] - x[None, :, :]
    distance = np.linalg.norm(d, axis=2)
    contact = r[:, None] + r[None, :]
    near = (distance < 2.0 * contact) & (distance > 0.0)
    push = np.where(near & (distance < contact), 0.5 * 0.5 * (contact - distance) / np.where(near, distance, 1.0), 0.0)
    shift = (push[:, :, None] * d).sum(axis=1)
    unit = d / np.where(near, distance, 1.0)[:, :, None]
    closing = np.maximum(np.einsum("ija,ija->ij", v[None, :, :] - v[:, None, :], unit), 0.0)
    bounce = np.where(push > 0.0, np.minimum(push * distance / dt, 0.5 * closing), 0.0)
    w = np.where(near, 1.0 - distance / (2.0 * contact), 0.0)
    change = 0.1 * (w[:, :, None] * (v[None, :, :] - v[:, None, :])).sum(axis=1) / (1.0 + w.sum(axis=1))[:, None]
    change += (bounce[:, :, None] * unit).sum(axis=1)
    assert (near.sum(axis=1) > 0).sum() > n // 4  # many pairs interact, wide ones among them
    mean_cell = 4.2 * np.cbrt(0.75 * volumes.mean() / np.pi)
    assert (np.sum(4.0 * r > mean_cell) > MOST_WIDE) == (sizes is not stream_among_drops)
    assert np.allclose(drops.positions, x + shift, rtol=0.0, atol=1e-15)
    assert np.allclose(drops.velocities, v + change, rtol=1e-12, atol=1e-12)
