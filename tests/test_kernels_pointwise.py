"""Time step, sources and the per-step checks against known answers and tests/naive.py."""

import math

import numpy as np
import pytest

import naive
from runtime_cases import curved_patch, random_state
from surfflow.kernels.boundaries import apply_wall_slip
from surfflow.kernels.checks import clear_dry_find_nonfinite
from surfflow.kernels.records import Levels, Openings
from surfflow.kernels.riemann import DISCHARGE, LEVEL, TRANSMISSIVE, boundary_fluxes
from surfflow.kernels.sources import add_footprint, apply_sources
from surfflow.kernels.timestep import cfl_time_step
from surfflow.state import empty_surface_fields, surface_fields, update_surface_fields


@pytest.fixture(scope="module")
def geom():
    return curved_patch(seed=2)


@pytest.mark.parametrize("boundary", ["wall", "outflow"])
def test_the_set_ups_numpy_fields_are_the_kernels_bit_for_bit(geom, boundary):
    """A still surface's one fill (numpy) against a deforming one's (the parallel kernels), on an
    open curved patch: walls with corners, valences 2 to 8."""
    gravity = np.array([0.4, -1.1, -9.7])
    kernels = empty_surface_fields(geom.n_vertices, len(geom.neighbor_indices))
    update_surface_fields(kernels, geom, gravity, boundary)
    for still, moving in zip(surface_fields(geom, gravity, boundary), kernels):
        assert np.array_equal(still, moving)
    assert (kernels.wall_projections == 0.0).all(axis=(1, 2)).any() == (boundary == "wall")


def gravity_time_step(depth, velocity, spacing, max_dt):
    """The CFL step under |g| = 9.81, cfl 0.5, d_min 1e-6, without surface tension (whose limit
    is then none), at most max_dt."""
    flow, at_flow, capillary, at_capillary = cfl_time_step(depth, velocity, spacing, 9.81, 1e-6,
                                                           0.5, spacing, 0.0, 1.0, 1.0)
    assert capillary == math.inf and at_capillary == -1
    speed = np.sqrt(velocity[:, 0] ** 2 + velocity[:, 1] ** 2) + np.sqrt(9.81 * depth)
    with np.errstate(divide="ignore"):
        limits = np.where((depth >= 1e-6) & (speed > 0), 0.5 * spacing / speed, math.inf)
    if np.isfinite(limits).any():   # the vertex named is the one attaining the limit
        assert at_flow == int(np.argmin(limits))
        assert flow == pytest.approx(limits[at_flow], rel=1e-14)
    else:
        assert (flow, at_flow) == (math.inf, -1)
    return min(max_dt, flow)


def test_time_step_matches_naive(geom):
    depth, velocity, _, _ = random_state(geom, seed=10)
    spacing = surface_fields(geom, (0, 0, -9.81), "wall").ring_spacing
    got = gravity_time_step(depth, velocity, spacing, 1.0)
    assert math.isclose(got, naive.time_step(geom, depth, velocity, 9.81, 1e-6, 0.5, 1.0), rel_tol=1e-12)


def test_time_step_known_answers():
    spacing = np.array([0.1, 0.2, 0.05])
    depth = np.array([0.1, 0.1, 0.0])
    velocity = np.array([[3.0, 4.0], [0.0, 0.0], [100.0, 0.0]])
    expected = 0.5 * 0.1 / (5.0 + math.sqrt(9.81 * 0.1))
    assert gravity_time_step(depth, velocity, spacing, 1.0) == pytest.approx(expected, rel=1e-15)
    assert cfl_time_step(depth, velocity, spacing, 9.81, 1e-6, 0.5, spacing, 0.0, 1.0, 1.0)[1] == 0
    assert gravity_time_step(depth, velocity, spacing, 1e-3) == 1e-3
    assert gravity_time_step(np.zeros(3), velocity, spacing, 0.02) == 0.02


def test_sources_match_naive():
    rng = np.random.default_rng(11)
    n = 50
    depth = rng.uniform(0, 0.01, n) * (rng.random(n) > 0.3)
    dye = rng.uniform(0, 1, (n, 2))
    inflow, sink = rng.uniform(0, 0.1, n), rng.uniform(0, 0.5, n)
    dye_inflow = inflow[:, None] * rng.uniform(0, 1, (n, 2))
    velocity = rng.normal(0.0, 1.0, (n, 2))
    expected = naive.sources(depth, velocity, dye, inflow, sink, dye_inflow, 0.05)
    removed = np.zeros(n)
    apply_sources(inflow, sink, dye_inflow, 0.05, depth, velocity, dye, removed)
    for a, b in zip((depth, velocity, dye, removed), expected):
        assert np.allclose(a, b, rtol=1e-14, atol=0)
    assert depth.min() >= 0.0
    assert (removed <= 0.05 * sink).all()


def test_poured_liquid_arrives_at_rest_and_keeps_the_films_momentum():
    """1 mm moving at (0.3, -0.4) m/s, 1 mm poured on it: 2 mm at half the speed, the momentum
    d u = (3e-4, -4e-4) m^2/s unchanged; a sink then takes liquid at that speed and leaves it."""
    depth, velocity = np.array([1e-3, 1e-3]), np.array([[0.3, -0.4], [0.3, -0.4]])
    dye, removed = np.zeros((2, 1)), np.zeros(2)
    apply_sources(np.array([0.01, 0.01]), np.array([0.0, 0.005]), np.zeros((2, 1)), 0.1, depth,
                  velocity, dye, removed)
    assert depth == pytest.approx([2e-3, 1.5e-3], rel=1e-15)
    assert velocity.ravel() == pytest.approx([0.15, -0.2, 0.15, -0.2], rel=1e-15)


def test_add_footprint_accumulates_repeated_vertices():
    rate = np.zeros(4)
    add_footprint(np.array([1, 3, 1]), np.array([1.0, 2.0, 4.0]), 0.5, rate)
    assert np.array_equal(rate, [0.0, 2.5, 0.0, 1.0])


def test_clear_dry_find_nonfinite_zeroes_dry_velocities():
    velocity, dye = np.ones((3, 2)), np.zeros((3, 1))
    assert clear_dry_find_nonfinite(np.array([1e-3, 1e-7, 0.0]), 1e-6, velocity, dye) == -1
    assert np.array_equal(velocity, [[1, 1], [0, 0], [0, 0]])


def test_clear_dry_find_nonfinite_keeps_a_carried_residues_velocity():
    velocity, dye = np.ones((3, 2)), np.zeros((3, 1))
    assert clear_dry_find_nonfinite(np.array([1e-3, 1e-7, 0.0]), 0.0, velocity, dye) == -1
    assert np.array_equal(velocity, [[1, 1], [1, 1], [0, 0]])


def test_clear_dry_find_nonfinite_finds_the_first_bad_vertex():
    depth, velocity, dye = np.ones(6), np.zeros((6, 2)), np.zeros((6, 1))
    assert clear_dry_find_nonfinite(depth, 1e-6, velocity, dye) == -1
    velocity[4, 1] = np.inf
    dye[2, 0] = np.nan
    assert clear_dry_find_nonfinite(depth, 1e-6, velocity, dye) == 2
    depth[1], velocity[0, 0] = np.nan, np.nan
    depth[0] = 0.0                  # dry: its velocity is cleared before the check
    assert clear_dry_find_nonfinite(depth, 1e-6, velocity, dye) == 1


def test_boundary_fluxes_write_at_the_open_vertices_alone():
    """F_b, G_b and P_b at the listed vertices are those of a walk over every vertex; the
    others keep what they hold (zeros, as the schemes clear them: OpenSegments.clear)."""
    n = 8
    rng = np.random.default_rng(3)
    kind = np.array([0, TRANSMISSIVE, 0, LEVEL, DISCHARGE, 0, TRANSMISSIVE, 0])
    openings = (kind, rng.uniform(0.1, 0.2, n), rng.normal(size=(n, 2)))
    levels = Levels(np.zeros(n), np.ones(n), np.zeros(n), 9.81)
    depth, velocity = rng.uniform(0.01, 0.1, n), rng.normal(size=(n, 2))
    every = [np.zeros(n), np.zeros((n, 2)), np.zeros(n)]
    boundary_fluxes(Openings(*openings, np.arange(n)), levels, depth, velocity, 1e-6, True, *every)
    listed = np.flatnonzero(kind)
    some = [np.full(n, 7.0), np.full((n, 2), 7.0), np.full(n, 7.0)]
    boundary_fluxes(Openings(*openings, listed), levels, depth, velocity, 1e-6, True, *some)
    for all_of_them, written in zip(every, some):
        assert np.array_equal(written[listed], all_of_them[listed])
        assert np.all(written[kind == 0] == 7.0)
        assert np.all(all_of_them[kind == 0] == 0.0)
    assert np.all(every[0][listed] != 0.0)


def test_wall_slip_keeps_only_the_velocity_along_the_wall(geom):
    projections = surface_fields(geom, (0, 0, -9.81), "wall").wall_projections
    _, velocity, _, _ = random_state(geom, seed=12)
    out = velocity.copy()
    apply_wall_slip(projections, geom.is_boundary, out)
    wall = geom.is_boundary
    normal = geom.boundary_normals[wall] / np.linalg.norm(geom.boundary_normals[wall], axis=1)[:, None]
    along = velocity[wall] - np.einsum("ia,ia->i", velocity[wall], normal)[:, None] * normal
    corner = ~projections[wall].any(axis=(1, 2))
    assert corner.sum() == 4  # the patch is a rectangle
    assert np.allclose(out[wall][~corner], along[~corner], rtol=1e-14, atol=1e-16)
    assert np.array_equal(out[wall][corner], np.zeros((4, 2)))
    assert np.array_equal(out[~wall], velocity[~wall])
    outflow = surface_fields(geom, (0, 0, -9.81), "outflow").wall_projections
    assert np.array_equal(outflow, np.tile(np.eye(2), (geom.n_vertices, 1, 1)))
