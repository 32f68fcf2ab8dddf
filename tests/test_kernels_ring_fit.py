"""One-ring least-squares gradient weights (kernels/ring_fit.py) and the pressure gradient that
uses them: known answers on an irregular flat patch, then against tests/naive.py."""

import numpy as np
import pytest

import builders
import naive
import surfflow as sf
from runtime_cases import lumpy_sphere
from surfflow.kernels.pressure import apply_gravity_pressure
from surfflow.kernels.records import Levels, rings_of
from surfflow.kernels.ring_fit import ring_fit_weights, ring_fit_weights_numpy
from surfflow.state import surface_fields

GRAVITY = np.array([0.0, 0.0, -9.81])


@pytest.fixture(scope="module")
def flat_patch():
    """A jittered, randomly split flat rectangle: valences 2 to 8, no two rings alike."""
    V, F = builders.rectangle(-0.5, 0.7, -0.4, 0.6, 12, 10, jitter=0.28, seed=11)
    return sf.precompute((V, F), smoothing_iterations=0)


def fit_weights(geom):
    weights = np.full_like(geom.neighbor_coords, np.nan)
    ring_fit_weights(geom.neighbor_offsets, geom.neighbor_coords, weights)
    return weights


def test_the_numpy_fill_is_the_kernel_bit_for_bit(flat_patch):
    """The set-up's numpy fill against the kernel: the flat patch (valences 2 to 8), and rings
    where the quadratic is singular (every uv = 0: the linear fit) or no fit is (on a line: zero
    weights), or one neighbour."""
    rng = np.random.default_rng(0)
    rings = [rng.normal(size=(k, 2)) for k in (1, 3, 5, 9)] + [
        np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0], [2.0, 0.0], [0.0, 3.0]]),
        np.array([[1.0, 1.0], [2.0, 2.0], [-1.0, -1.0], [3.0, 3.0], [-2.0, -2.0]])]
    synthetic = (np.concatenate([[0], np.cumsum([len(r) for r in rings])]), np.concatenate(rings))
    fills = []
    for offsets, coords in (synthetic, (flat_patch.neighbor_offsets, flat_patch.neighbor_coords)):
        compiled, numpy = np.full_like(coords, np.nan), np.full_like(coords, np.nan)
        ring_fit_weights(offsets, coords, compiled)
        ring_fit_weights_numpy(offsets, coords, numpy)
        assert np.array_equal(compiled, numpy)
        fills.append(numpy)
    singular, on_a_line = synthetic[0][-3:-1]
    assert fills[0][singular:on_a_line].any() and not fills[0][on_a_line:].any()


def ring_gradients(geom, weights, values):
    """(n, 2) sum_j w_ij (f_j - f_i) in each vertex's frame."""
    rows = np.repeat(np.arange(geom.n_vertices), np.diff(geom.neighbor_offsets))
    differences = values[geom.neighbor_indices] - values[rows]
    return np.add.reduceat(weights * differences[:, None], geom.neighbor_offsets[:-1], axis=0)


def in_frames(geom, world_vectors):
    return np.einsum("iaj,ij->ia", geom.tangent_frames, world_vectors)


def test_fit_is_exact_for_quadratics_where_the_ring_has_five_neighbours(flat_patch):
    geom = flat_patch
    x, y = geom.vertices[:, 0], geom.vertices[:, 1]
    values = 0.3 + 1.7 * x - 0.9 * y + 2.5 * x * x - 1.1 * x * y + 0.6 * y * y
    exact = in_frames(geom, np.stack([1.7 + 5.0 * x - 1.1 * y, -0.9 - 1.1 * x + 1.2 * y,
                                      np.zeros_like(x)], axis=1))
    got = ring_gradients(geom, fit_weights(geom), values)
    quadratic = np.diff(geom.neighbor_offsets) >= 5
    assert quadratic.sum() > 0.7 * geom.n_vertices and (~quadratic).any()
    assert np.allclose(got[quadratic], exact[quadratic], rtol=0.0, atol=1e-8)
    assert not np.allclose(got[~quadratic], exact[~quadratic], atol=1e-3)


def test_fit_is_exact_for_linear_fields_on_every_vertex(flat_patch):
    geom = flat_patch
    values = 0.3 + geom.vertices @ np.array([1.7, -0.9, 0.0])
    got = ring_gradients(geom, fit_weights(geom), values)
    assert np.allclose(got, in_frames(geom, np.tile([1.7, -0.9, 0.0], (geom.n_vertices, 1))),
                       rtol=0.0, atol=1e-8)


def test_fitted_pressure_gradient_is_exact_for_a_quadratic_free_surface(flat_patch):
    """Share 1: F = -g grad H for H = b + d quadratic, where the Green-Gauss gradient is not."""
    geom = flat_patch
    n = geom.n_vertices
    x, y = geom.vertices[:, 0], geom.vertices[:, 1]
    bottom = 0.02 * x * x - 0.03 * x * y + 0.01 * y - 0.01 * y * y
    exact = -9.81 * in_frames(geom, np.stack([0.04 * x - 0.03 * y, -0.03 * x + 0.01 - 0.02 * y,
                                              np.zeros(n)], axis=1))
    fields = surface_fields(geom, GRAVITY, "wall")
    got = {}
    for share in (0.0, 1.0):
        velocity = np.zeros((n, 2))
        apply_gravity_pressure(np.arange(n), rings_of(geom, fields),
                               Levels(fields.vertex_height, fields.normal_rise, bottom, 9.81),
                               fields.tangent_gravity, np.full(n, share), np.full(n, 0.01), 1e-6,
                               1.0, velocity, np.zeros(n), fields.wall_projections)
        got[share] = velocity
    quadratic = np.diff(geom.neighbor_offsets) >= 5
    assert np.allclose(got[1.0][quadratic], exact[quadratic], rtol=0.0, atol=1e-9)
    green_gauss_error = np.abs(got[0.0][quadratic] - exact[quadratic]).max()
    assert green_gauss_error > 1e-4, green_gauss_error


def test_constant_field_and_dry_walls_give_zero_gradient(flat_patch):
    """H constant on the wet part (to the round-off of e . n_i), dry neighbours above it: the
    fitted force is zero to round-off, like the Green-Gauss one."""
    geom = flat_patch
    n = geom.n_vertices
    x = geom.vertices[:, 0]
    depth = np.where(x < 0.1, 0.01, 0.0)
    bottom = np.where(x < 0.1, 0.0, 0.05 + x)
    fields = surface_fields(geom, GRAVITY, "wall")
    velocity = np.zeros((n, 2))
    apply_gravity_pressure(np.arange(n), rings_of(geom, fields),
                           Levels(fields.vertex_height, fields.normal_rise, bottom, 9.81),
                           fields.tangent_gravity, np.ones(n), depth, 1e-6, 1.0, velocity,
                           np.zeros(n), fields.wall_projections)
    assert (depth > 0).sum() > 10 and (depth == 0).sum() > 10
    assert np.abs(velocity).max() < 1e-13


def test_gradients_match_naive_on_a_lumpy_sphere():
    geom = lumpy_sphere(seed=4)
    values = np.random.default_rng(4).normal(size=geom.n_vertices)
    got = ring_gradients(geom, fit_weights(geom), values)
    expected = np.array([naive.ring_fit_gradient(geom, i, values) for i in range(geom.n_vertices)])
    assert np.allclose(got, expected, rtol=1e-9, atol=1e-9)
