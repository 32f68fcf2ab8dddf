"""Advection and continuity kernels: known answers, then against tests/naive.py on irregular meshes."""

import math

import numpy as np
import pytest

import builders
import naive
import surfflow as sf
from runtime_cases import curved_patch, lumpy_sphere, random_state
from surfflow.kernels.advection import advect_velocity
from surfflow.kernels.continuity import (edge_fluxes, mixed_velocity, shoreline_walls,
                                        update_depth)
from surfflow.kernels.reconstruction import bounded_factor
from surfflow.kernels.records import (NO_ENERGY_HEAD, CarrierFluxes, ContinuityFluxes,
                                      DepthUpdate, FluxInputs, TracerUpdate, energy_head)
from surfflow.kernels.tracers import carry, limited_faces
from surfflow.kernels.tuning import EXPANSION_RAMP
from surfflow.schemes.active import ActiveSet
from surfflow.state import surface_fields

MIN_DEPTH = 1e-6
GRAVITY = np.array([0.3, -1.0, -9.7])


@pytest.fixture(scope="module", params=["patch", "sphere"])
def geom(request):
    return curved_patch() if request.param == "patch" else lumpy_sphere()


def run_advection(geom, depth, velocity, dt):
    out = np.full_like(velocity, np.nan)
    advect_velocity(geom.neighbor_offsets, geom.neighbor_indices, geom.is_boundary,
                    geom.neighbor_coords, geom.edge_transforms, depth, velocity, MIN_DEPTH, dt, out)
    return out


def run_continuity(geom, depth, velocity, dye, dt, outflow=False, bottom=None, share=None,
                   split=True, sensor=None, expansion_head=True, min_depth=MIN_DEPTH):
    """One continuity step with its dyes; split: over the active set's moving vertices
    (schemes/active.py), else over every vertex; sensor (n,) the Landshoff term's shock sensor
    (zeros if None); expansion_head: the energy head where the flow expands (``update_depth``),
    else momentum everywhere; min_depth d_min (m)."""
    n, nnz = geom.n_vertices, len(geom.neighbor_indices)
    bottom = np.zeros(n) if bottom is None else bottom
    share = np.zeros(n) if share is None else share
    sensor = np.zeros(n) if sensor is None else sensor
    fields = surface_fields(geom, GRAVITY, "outflow" if outflow else "wall")
    flux, boundary, alpha = np.full(nnz, np.nan), np.full(n, np.nan), np.full(n, np.nan)
    wall = np.ones(nnz, bool)
    shoreline_walls(geom.neighbor_offsets, geom.neighbor_indices, fields.vertex_height,
                    fields.normal_rise, bottom, depth, min_depth, wall)
    active = ActiveSet(n)
    if split:
        active.rebuild(geom, depth, min_depth)
    moving, resting = active.moving, active.resting
    slopes, excess = np.full((n, 2, 2), np.nan), np.full((n, 2), np.nan)
    rings = naive.donor_velocity_rings(geom)  # the naive continuity's donor velocities
    inputs = FluxInputs(wall, fields.vertex_height + (bottom + depth) * fields.normal_rise,
                        np.linalg.norm(GRAVITY) * fields.normal_rise,
                        np.linalg.norm(GRAVITY) * fields.normal_rise, sensor,
                        fields.boundary_outflow_normals, np.zeros(n))
    fluxes = ContinuityFluxes(flux, boundary, alpha, slopes, excess, np.zeros((0, 3)),
                              geom.tangent_frames, geom.normals)
    edge_fluxes(moving, resting, rings, inputs, depth, velocity, share, min_depth, dt, fluxes)
    depth_out, leaving = np.full(n, np.nan), np.full(n, np.nan)
    velocity_out, dye_out = np.full_like(velocity, np.nan), np.full_like(dye, np.nan)
    energy = (energy_head(inputs.wave_stiffness, np.linalg.norm(GRAVITY) * inputs.head, nnz)
              if expansion_head else NO_ENERGY_HEAD)
    update_depth(moving, resting, rings, depth, velocity, velocity, fluxes, np.zeros((n, 2)),
                 min_depth, energy, dt, DepthUpdate(depth_out, velocity_out, leaving))
    faces = np.zeros((nnz, dye.shape[1]))
    carrier = CarrierFluxes(flux, boundary, alpha)
    dye_rings = rings._replace(neighbor_coords=geom.neighbor_coords, fit_weights=fields.fit_weights)
    limited_faces(moving, dye_rings, depth, min_depth, dye, velocity, 0.5 * dt, carrier, dt, faces)
    carry(moving, resting, rings, depth, depth_out, dye, faces, carrier, dt, 1.0,
          TracerUpdate(dye_out, np.full_like(dye, np.nan)))
    return depth_out, velocity_out, dye_out, leaving, flux


def test_advection_of_still_liquid_is_exactly_still(geom):
    depth, _, _, _ = random_state(geom)
    velocity = np.zeros((geom.n_vertices, 2))
    assert np.array_equal(run_advection(geom, depth, velocity, 0.01), velocity)


def test_advection_keeps_uniform_flow_on_a_flat_patch():
    V, F = builders.rectangle(0.0, 1.0, 0.0, 1.0, 8, 8, jitter=0.25, seed=3)
    geom = sf.precompute((V, F), smoothing_iterations=0)
    world = np.tile([0.3, -0.2, 0.0], (geom.n_vertices, 1))
    velocity = np.einsum("iaj,ij->ia", geom.tangent_frames, world)
    out = run_advection(geom, np.full(geom.n_vertices, 0.01), velocity, 0.05)
    assert np.allclose(np.einsum("ia,iaj->ij", out, geom.tangent_frames), world, atol=1e-13)


@pytest.mark.parametrize("dt", [0.02, 0.5])
def test_advection_matches_naive(geom, dt):
    depth, velocity, _, _ = random_state(geom, seed=1)
    expected = naive.advection(geom, depth, velocity, MIN_DEPTH, dt)
    assert np.allclose(run_advection(geom, depth, velocity, dt), expected, rtol=1e-12, atol=1e-14)


def test_continuity_flux_is_antisymmetric_bit_for_bit(geom):
    depth, velocity, bottom, dye = random_state(geom, seed=2)
    rng = np.random.default_rng(2)
    share = rng.uniform(0.0, 1.0, geom.n_vertices)
    sensor = rng.uniform(0.0, 1.0, geom.n_vertices)  # with the Landshoff term
    flux = run_continuity(geom, depth, velocity, dye, 0.01, bottom=bottom, share=share,
                          sensor=sensor)[4]
    assert np.array_equal(flux, -flux[geom.reverse_edges])


def test_continuity_known_answer_wet_corner():
    """A wet corner of a flat square with dry, still neighbours (below its free surface) sends
    dt d sum_j max(0, u . N_0j), and the wetted neighbours take on its velocity."""
    V = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], float)
    F = np.array([[0, 1, 2], [0, 2, 3]])
    geom = sf.precompute((V, F), smoothing_iterations=0)
    depth = np.array([0.1, 0.0, 0.0, 0.0])
    world = np.array([[1.0, 0.0, 0.0]] + [[0.0, 0.0, 0.0]] * 3)
    velocity = np.einsum("iaj,ij->ia", geom.tangent_frames, world)
    out, velocity_out, _, _, _ = run_continuity(geom, depth, velocity, np.zeros((4, 0)), 0.01)
    normal_speed = geom.dual_edge_vectors[:geom.neighbor_offsets[1]] @ velocity[0]
    sent = 0.01 * 0.1 * np.maximum(normal_speed, 0.0).sum()
    assert np.isclose(sent, 0.01 * 0.1 * 2.0 / 3.0, rtol=1e-14)
    assert np.isclose(geom.dual_areas[0] * (0.1 - out[0]), sent, rtol=1e-13)
    assert np.isclose((geom.dual_areas * out).sum(), geom.dual_areas[0] * 0.1, rtol=1e-15)
    wetted = out[1:] > 0
    assert wetted.sum() == 2
    world_out = np.einsum("ia,iaj->ij", velocity_out, geom.tangent_frames)
    assert np.allclose(world_out[1:][wetted], [1.0, 0.0, 0.0], atol=1e-15)


def test_a_subnormal_inflow_wets_its_dry_neighbours_at_its_velocity():
    """The wet corner above holding 1e-310 m (subnormal, with d_min below it): the neighbour it
    wets takes a subnormal volume, dt / (A d') overflows, and the inflow must still give it its
    velocity (``continuity.mixed_velocity``), finite, with the volume kept. (The far corner,
    uphill under the tilted gravity, stands above so thin a free surface: a shoreline wall.)"""
    V = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], float)
    F = np.array([[0, 1, 2], [0, 2, 3]])
    geom = sf.precompute((V, F), smoothing_iterations=0)
    depth = np.array([1e-310, 0.0, 0.0, 0.0])
    world = np.array([[1.0, 0.0, 0.0]] + [[0.0, 0.0, 0.0]] * 3)
    velocity = np.einsum("iaj,ij->ia", geom.tangent_frames, world)
    out, velocity_out, _, _, _ = run_continuity(geom, depth, velocity, np.zeros((4, 0)), 0.01,
                                                min_depth=1e-320)
    assert out[1] > 0.0 and np.all(out[2:] == 0.0)
    assert 0.01 / float(geom.dual_areas[1] * out[1]) == math.inf
    assert np.all(np.isfinite(velocity_out))
    world_out = np.einsum("ia,iaj->ij", velocity_out, geom.tangent_frames)
    assert np.allclose(world_out[1], [1.0, 0.0, 0.0], atol=1e-9)
    assert np.isclose((geom.dual_areas * out).sum(), geom.dual_areas[0] * 1e-310, rtol=1e-9)


def test_mixed_velocity_is_the_momentum_over_the_volume_at_any_scale():
    """u + dt G / V: a dry cell (u = 0) filled by an inflow w at velocity v over dt
    (G = w v, V = dt w) takes v, whether V is a millilitre (1e-6 m^3), 1e-303 m^3 or
    subnormal (1e-319 m^3); nothing to add (G = 0) leaves u as it is."""
    for inflow in (1e-3, 1e-300, 1e-316):
        dt = 1e-3
        u = mixed_velocity(0.0, 0.0, inflow * 2.0, -inflow * 0.5, dt, dt * inflow)
        assert np.allclose(u, (2.0, -0.5), rtol=1e-4, atol=0.0), (inflow, u)
    assert mixed_velocity(1.5, -2.0, 0.0, 0.0, 1e-3, 1e-320) == (1.5, -2.0)


@pytest.mark.parametrize("expansion_head", [True, False])
@pytest.mark.parametrize("dt, outflow", [(0.005, False), (0.5, False), (0.5, True)])
def test_continuity_matches_naive(geom, dt, outflow, expansion_head):
    """With the shock sensor's Landshoff term on, at random strengths; with the energy head
    carried where the flow expands and with momentum carried everywhere."""
    depth, velocity, bottom, dye = random_state(geom, seed=3)
    rng = np.random.default_rng(3)
    share = rng.choice([0.0, 0.3, 1.0], geom.n_vertices)
    sensor = rng.choice([0.0, 0.2, 1.0], geom.n_vertices)  # the Landshoff term's
    normals = geom.boundary_normals if outflow else np.zeros((geom.n_vertices, 2))
    expected = naive.continuity(geom, bottom, depth, velocity, dye, share, GRAVITY, normals,
                                MIN_DEPTH, dt, sensor=sensor, expansion_head=expansion_head)
    got = run_continuity(geom, depth, velocity, dye, dt, outflow, bottom, share, sensor=sensor,
                         expansion_head=expansion_head)
    assert np.allclose(got[0], expected[0], rtol=1e-11, atol=1e-17)
    assert np.allclose(got[1], expected[1], rtol=1e-12, atol=1e-15)
    assert np.allclose(got[3], expected[3], rtol=1e-11, atol=1e-17)
    # a cell drained to round-off has an ill-defined concentration: compare dye depths d c
    assert np.allclose(got[0][:, None] * got[2], expected[0][:, None] * expected[2],
                       rtol=1e-11, atol=1e-15)
    assert got[0].min() >= 0.0


@pytest.mark.parametrize("outflow", [False, True])
def test_resting_vertices_end_as_a_scan_of_every_vertex_leaves_them(geom, outflow):
    """The active set (schemes/active.py) changes nothing, bit for bit: mostly dry ground,
    films below min_depth holding dye, velocities left on dry vertices."""
    depth, _, bottom, dye = random_state(geom, seed=7, dry_fraction=0.8)
    rng = np.random.default_rng(7)
    films = (depth == 0.0) & (rng.random(geom.n_vertices) < 0.5)
    depth[films] = rng.uniform(0.0, MIN_DEPTH, films.sum())
    velocity = rng.normal(0.0, 0.3, (geom.n_vertices, 2))
    active = ActiveSet(geom.n_vertices)
    active.rebuild(geom, depth, MIN_DEPTH)
    assert 0 < len(active.resting) < geom.n_vertices
    assert np.array_equal(np.sort(np.concatenate([active.moving, active.resting])),
                          np.arange(geom.n_vertices))
    split = run_continuity(geom, depth, velocity, dye, 0.05, outflow, bottom)
    every = run_continuity(geom, depth, velocity, dye, 0.05, outflow, bottom, split=False)
    for got, expected in zip(split, every):
        assert np.array_equal(got, expected, equal_nan=False)
    assert np.array_equal(split[0][active.resting], depth[active.resting])


def test_continuity_conserves_volume_with_limiting(geom):
    depth, velocity, _, dye = random_state(geom, seed=4)
    depth_out, _, dye_out, _, _ = run_continuity(geom, depth, velocity, dye, 2.0)
    before, after = geom.dual_areas @ depth, geom.dual_areas @ depth_out
    assert abs(after - before) <= 1e-14 * before
    dye_before = geom.dual_areas @ (depth[:, None] * dye)
    dye_after = geom.dual_areas @ (depth_out[:, None] * dye_out)
    assert np.allclose(dye_after, dye_before, rtol=1e-12)
    assert depth_out.min() >= 0.0


def test_dry_vertices_send_nothing(geom):
    depth, velocity, _, dye = random_state(geom, seed=5)
    depth = np.where(depth > 0, depth, 0.5 * MIN_DEPTH)
    velocity = np.random.default_rng(5).normal(0, 1, velocity.shape)
    depth_out = run_continuity(geom, depth, velocity, dye, 0.01)[0]
    dry = depth < MIN_DEPTH
    assert np.all(depth_out[dry] >= depth[dry] * (1 - 1e-15))


def test_dry_ground_above_the_free_surface_is_a_wall():
    geom = curved_patch()  # normals all within 60 degrees of up: a raised bottom is higher
    depth, velocity, _, dye = random_state(geom, seed=6)
    velocity = np.random.default_rng(6).normal(0, 1, velocity.shape)
    dry = depth < MIN_DEPTH
    bottom = np.where(dry, 10.0, 0.0)  # dry ground far above every free surface
    depth_out = run_continuity(geom, depth, velocity, dye, 0.01, bottom=bottom)[0]
    assert np.array_equal(depth_out[dry], depth[dry])
    lowered = run_continuity(geom, depth, velocity, dye, 0.01, bottom=-bottom)[0]
    assert (lowered[dry] > 0).sum() > 5


def test_a_face_whose_flux_round_off_turns_leaves_its_donors_other_faces_as_they_were(geom):
    """The dyes' limiter (kernels/tracers.py) bounds the faces a donor sends through; a face whose
    flux is a small share of the donor's largest fades to first order with it (``face_share``).
    So whether round-off makes a face's flux just positive or just negative (1e-20 of order-one
    fluxes), every other face of its donor is the same to round-off. Counted outright, the face
    would switch the donor's bound and move its other faces by up to 5.5e-3 here."""
    n, nnz = geom.n_vertices, len(geom.neighbor_indices)
    depth, velocity, _, dye = random_state(geom, seed=8)
    depth[:] = 0.1
    fields = surface_fields(geom, GRAVITY, "wall")
    rings = naive.donor_velocity_rings(geom)._replace(neighbor_coords=geom.neighbor_coords,
                                                      fit_weights=fields.fit_weights)
    rng = np.random.default_rng(8)
    flux = rng.standard_normal(nnz)
    lower = np.arange(nnz) < geom.reverse_edges
    flux[~lower] = -flux[geom.reverse_edges[~lower]]  # antisymmetric, as every carrier's
    moving = np.arange(n, dtype=np.int64)

    def faces_with(e, sign):
        turned = flux.copy()
        turned[e], turned[geom.reverse_edges[e]] = sign * 1e-20, -sign * 1e-20
        faces = np.zeros((nnz, dye.shape[1]))
        limited_faces(moving, rings, depth, MIN_DEPTH, dye, velocity, 0.0,
                      CarrierFluxes(turned, np.zeros(n), np.ones(n)), 0.01, faces)
        return faces

    for i in range(0, n, 3):
        e = geom.neighbor_offsets[i]
        others = [k for k in range(e + 1, geom.neighbor_offsets[i + 1]) if flux[k] > 0.0]
        sending, receiving = faces_with(e, 1.0)[others], faces_with(e, -1.0)[others]
        assert np.abs(sending - receiving).max(initial=0.0) < 1e-12, i


# a corner vertex's one-sided ring (coords c_ij, m): along the wall, across it, between them
CORNER_RING = np.array([[0.1, 0.0], [0.0, 0.1], [0.07, 0.07]])


@pytest.mark.parametrize("value, low, high", [(1.0, 0.2, 1.0), (0.2, 0.2, 1.0), (0.6, 0.2, 1.0)])
def test_an_entry_across_the_gradient_has_no_say_in_the_reconstructions_limiter(value, low, high):
    """At a wall corner the depth's gradient runs along the wall, g = (-1, 0) per m, across the
    entry to the vertex beyond the corner (Delta = g . c / 2 = 0 there). Whether round-off makes
    that entry's Delta +-1e-19, phi is the same to 1e-12: at its ring's extremum (value = high
    or low) Barth and Jespersen's bound, taken whole, gives phi = 0 for one sign and 1 for the
    other."""
    phis = []
    for tilt in (1e-18, -1e-18):
        coords = CORNER_RING.copy()
        coords[1, 0] = tilt
        phis.append(bounded_factor(0, 3, coords, value, low, high, 0.0, -1.0, 0.0))
    assert 0.0 <= phis[0] <= 1.0 and abs(phis[0] - phis[1]) < 1e-12
    # the bound of the entries along the gradient holds: value + phi Delta within [low, high]
    for c in CORNER_RING[[0, 2]]:
        assert low - 1e-15 <= value + phis[0] * (-0.5 * c[0]) <= high + 1e-15


def test_the_reconstruction_stays_near_its_rings_range_and_the_depth_non_negative():
    """Random rings, gradients and ranges: every value reconstructed at an entry stays within
    [low, high] but for EXPANSION_RAMP / 4 of the ring's largest change (the entries nearly
    across the gradient), and never below the floor (the depth's 0, even where the ring's range
    spans 1e6 times its low end)."""
    # a dry-bed front's ring: the vertex at its low end (1 um), an entry at half the ramp's share
    # of the largest change: its say lets the value go 2.5e-4 below, and the floor holds it at 0
    coords, g = np.array([[1.0, 0.0], [-0.5e-3, 1.0]]), (2.0, 0.0)
    phi = bounded_factor(0, 2, coords, 1e-6, 1e-6, 1.0, 0.0, *g)
    assert 0.0 < phi and 1e-6 + phi * 0.5 * coords[1] @ g >= 0.0
    assert bounded_factor(0, 2, coords, 1e-6, 1e-6, 1.0, -np.inf, *g) == 0.5
    rng = np.random.default_rng(3)
    for _ in range(2000):
        m = rng.integers(3, 9)
        coords = rng.normal(size=(m, 2))
        if rng.uniform() < 0.5:  # one entry across the gradient, to round-off
            g = rng.normal(size=2)
            coords[0] = np.array([-g[1], g[0]]) + rng.normal(scale=1e-17, size=2)
        else:
            g = rng.normal(size=2)
        low = 10.0 ** rng.uniform(-6, 0)
        high = low + 10.0 ** rng.uniform(-3, 0)
        value = rng.uniform(low, high)
        phi = bounded_factor(0, m, coords, value, low, high, 0.0, g[0], g[1])
        changes = phi * 0.5 * coords @ g
        allowed = EXPANSION_RAMP / 4.0 * np.abs(0.5 * coords @ g).max() + 1e-15
        assert 0.0 <= phi <= 1.0
        assert np.all(value + changes >= low - allowed)
        assert np.all(value + changes <= high + allowed)
        assert np.all(value + changes >= 0.0)
