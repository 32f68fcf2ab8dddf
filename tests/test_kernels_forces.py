"""Gravity/pressure and friction kernels: known answers, then against tests/naive.py."""

import numpy as np
import pytest

import builders
import naive
import surfflow as sf
from runtime_cases import curved_patch, lumpy_sphere, random_state
from surfflow.kernels.boundaries import apply_wall_slip
from surfflow.kernels.friction import apply_friction, friction_shares
from surfflow.kernels.pressure import apply_gravity_pressure
from surfflow.kernels.records import Levels, rings_of
from surfflow.kernels.tuning import SENSOR_SMOOTH as SMOOTH
from surfflow.state import surface_fields

MIN_DEPTH = 1e-6
GRAVITY = (0.3, -1.0, -9.7)


@pytest.fixture(scope="module", params=["patch", "sphere"])
def geom(request):
    return curved_patch(seed=1) if request.param == "patch" else lumpy_sphere(seed=1)


def run_pressure(geom, bottom, depth, velocity, gravity, dt, share=0.0, sensor=False):
    """The kernel with friction share ``share`` (a scalar or (n,)) on every vertex: the new
    velocity, and with ``sensor`` the shock sensor too (``sensor=None``: an empty sensor array,
    none wanted)."""
    fields = surface_fields(geom, gravity, "wall")
    out = velocity.copy()
    sensed = np.full(geom.n_vertices if sensor is not None else 0, np.nan)
    shares = np.broadcast_to(np.asarray(share, dtype=float), (geom.n_vertices,)).copy()
    levels = Levels(fields.vertex_height, fields.normal_rise, bottom,
                    float(np.linalg.norm(gravity)))
    apply_gravity_pressure(np.arange(geom.n_vertices), rings_of(geom, fields), levels,
                           fields.tangent_gravity, shares, depth, MIN_DEPTH, dt, out, sensed,
                           fields.wall_projections)
    return (out, sensed) if sensor else out


def run_friction(geom, depth, velocity, damping, linear, laminar, dt):
    out, share = velocity.copy(), np.full(geom.n_vertices, np.nan)
    every = np.arange(geom.n_vertices)
    friction_shares(every, geom.friction_tensors, depth, damping, linear, laminar, 1e-5, dt, share)
    apply_friction(every, geom.friction_tensors, depth, damping, linear, laminar, 1e-5, dt, out)
    return out, share


def test_pressure_matches_naive(geom):
    depth, velocity, bottom, _ = random_state(geom, seed=7)
    share = np.random.default_rng(7).choice([0.0, 0.3, 1.0], geom.n_vertices)
    expected = naive.gravity_pressure(geom, bottom, depth, velocity, GRAVITY, MIN_DEPTH, 0.01,
                                      share)
    got = run_pressure(geom, bottom, depth, velocity, GRAVITY, 0.01, share)
    assert np.allclose(got, expected, rtol=1e-10, atol=1e-13)


@pytest.mark.parametrize("wet", [False, True])
def test_shock_sensor_matches_naive(geom, wet):
    """On a random state (shores, dry patches), and with every vertex wet."""
    depth, velocity, bottom, _ = random_state(geom, seed=7)
    depth = depth + 1e-3 if wet else depth
    share = np.random.default_rng(7).choice([0.0, 0.3, 1.0], geom.n_vertices)
    _, got = run_pressure(geom, bottom, depth, velocity, GRAVITY, 0.01, share, sensor=True)
    expected = naive.shock_sensor(geom, depth, MIN_DEPTH, share, GRAVITY,
                                  surface_fields(geom, GRAVITY, "wall").wall_projections)
    assert np.allclose(got, expected, rtol=1e-9, atol=1e-12)
    with_sensor = run_pressure(geom, bottom, depth, velocity, GRAVITY, 0.01, share)
    without = run_pressure(geom, bottom, depth, velocity, GRAVITY, 0.01, share, sensor=None)
    assert np.array_equal(with_sensor, without)  # the sensor moves no velocity
    assert (expected > 1e-3).sum() >= (20 if wet else 3) and (expected == 0.0).sum() > 10


def test_shock_sensor_is_zero_on_a_plane_and_of_order_one_at_a_step():
    """The sensor of a depth that is a tilted plane is 0 (the ring fit is exact for a linear
    field, on an irregular mesh too), along the walls it slopes along too; at the walls it slopes
    into, the fitted plane has no slope across them (the wall mirrors the flow: mirrored, the
    plane has a kink there), so all of the ring's rise is unexplained and the sensor reads 1. At
    a step in the depth the rings that cross it read nu of order 1, those that do not (an even
    depth) read 0, and it lies in [0, 1] everywhere."""
    geom = sf.precompute(builders.strip(2.0, 0.4, 40, 8, jitter=0.25, seed=3),
                         smoothing_iterations=0)
    x, n = geom.vertices[:, 0], geom.n_vertices
    still, gravity = np.zeros((n, 2)), (0.0, 0.0, -9.81)
    _, plane = run_pressure(geom, np.zeros(n), 0.01 + 0.002 * x, still, gravity, 0.0,
                            sensor=True)
    ends = (x == 0.0) | (x == 2.0)  # the walls the plane slopes into
    assert ends.sum() == 18 and geom.is_boundary[~ends].sum() > 60
    assert plane[~ends].max() == 0.0
    assert np.allclose(plane[ends], 1.0, rtol=0.0, atol=1e-6)  # less SENSOR_ROUND_OFF d's share
    _, step = run_pressure(geom, np.zeros(n), np.where(x < 1.0, 0.02, 0.01), still, gravity,
                           0.0, sensor=True)
    nu = np.where(step > 0.0, SMOOTH + (1.0 - SMOOTH) * np.cbrt(step), 0.0)
    side = x < 1.0
    crosses = np.array([(side[geom.neighbor_indices[a:b]] != side[i]).any() for i, (a, b)
                        in enumerate(zip(geom.neighbor_offsets[:-1], geom.neighbor_offsets[1:]))])
    assert crosses.sum() > 20
    assert np.mean(nu[crosses]) > 0.6, nu[crosses]
    assert step[~crosses].max() == 0.0
    assert ((step >= 0.0) & (step <= 1.0)).all()


@pytest.mark.parametrize("share", [0.0, 0.4, 1.0])
def test_flat_free_surface_feels_no_force_on_any_shape(geom, share):
    """A horizontal free surface (H constant) with the bottom taking up the difference, for the
    Green-Gauss gradient, the least-squares fit and a blend of them."""
    up = -np.asarray(GRAVITY) / np.linalg.norm(GRAVITY)
    level = (geom.vertices @ up).max() + 0.01
    rise = geom.normals @ up
    total = np.where(rise > 0.2, (level - geom.vertices @ up) / np.where(rise > 0.2, rise, 1), 0.0)
    depth = np.where(rise > 0.2, 0.005, 0.0)
    bottom = total - depth
    level_points = geom.vertices @ up + (bottom + depth) * rise
    wet = depth > 0
    assert np.allclose(level_points[wet], level)
    velocity = np.zeros((geom.n_vertices, 2))
    got = run_pressure(geom, bottom, depth, velocity, GRAVITY, 0.01, share)
    interior = wet.copy()
    for i in np.flatnonzero(wet):
        ring = geom.neighbor_indices[geom.neighbor_offsets[i]:geom.neighbor_offsets[i + 1]]
        interior[i] = wet[ring].all() or (level_points[ring][~wet[ring]] >= level).all()
    assert interior.sum() > 5
    assert np.abs(got[interior]).max() < 1e-13


@pytest.mark.parametrize("share", [0.0, 1.0])
def test_uniform_slope_pull_on_an_inclined_plane(share):
    """On a plane tilted by beta with uniform depth, F = g sin(beta) down the slope: exact inside,
    and at the walls exact along the wall once the slip condition has removed the normal part."""
    beta = 0.3
    V, F = builders.inclined_plane(2.0, 1.0, beta, 12, 6, seed=2)
    geom = sf.precompute((V, F), smoothing_iterations=0)
    n = geom.n_vertices
    got = run_pressure(geom, np.zeros(n), np.full(n, 0.01), np.zeros((n, 2)), (0, 0, -9.81), 1.0,
                       share)
    exact = 9.81 * np.sin(beta) * np.einsum("iaj,j->ia", geom.tangent_frames,
                                             [np.cos(beta), 0.0, -np.sin(beta)])
    inside = ~geom.is_boundary
    assert np.allclose(got[inside], exact[inside], atol=1e-12)
    projections = surface_fields(geom, (0, 0, -9.81), "wall").wall_projections
    apply_wall_slip(projections, geom.is_boundary, got)
    apply_wall_slip(projections, geom.is_boundary, exact)
    assert np.allclose(got, exact, atol=1e-12)


def test_underside_keeps_only_the_tangential_pull():
    geom = lumpy_sphere(seed=2)
    n = geom.n_vertices
    gravity = np.array([0.0, 0.0, -9.81])
    got = run_pressure(geom, np.zeros(n), np.full(n, 0.01), np.zeros((n, 2)), gravity, 0.1)
    under = geom.normals @ gravity > 0
    assert np.allclose(got[under], 0.1 * np.einsum("iaj,j->ia", geom.tangent_frames[under], gravity))


@pytest.mark.parametrize("model", ["linear", "laminar"])
def test_friction_matches_naive(geom, model):
    depth, velocity, _, _ = random_state(geom, seed=8)
    damping = np.random.default_rng(8).uniform(0, 3, geom.n_vertices)
    linear, laminar = (1.3, 0.0) if model == "linear" else (0.0, 3e-6)
    expected, expected_share = naive.friction(geom, depth, velocity, damping, model, 1.3, 1e-6,
                                              1e-5, 0.02)
    got, share = run_friction(geom, depth, velocity, damping, linear, laminar, 0.02)
    assert np.allclose(got, expected, rtol=1e-13, atol=1e-16)
    assert np.allclose(share, expected_share, rtol=1e-14)
    assert 0.0 < share.min() and share.max() <= 1.0


def test_isotropic_friction_known_answer(geom):
    _, velocity, _, _ = random_state(geom, seed=9)
    n = geom.n_vertices
    depth, damping = np.full(n, 0.002), np.full(n, 0.5)
    got, share = run_friction(geom, depth, velocity, damping, 0.0, 3e-6, 0.1)
    # only where the precomputed anisotropy is the identity (no smoothing: flat detail)
    identity = np.all(np.isclose(geom.friction_tensors, np.eye(2)), axis=(1, 2))
    assert identity.any()
    rate = 3e-6 / 0.002 ** 2 + 0.5
    assert np.allclose(got[identity], velocity[identity] / (1 + 0.1 * rate), rtol=1e-14)
    assert np.allclose(share[identity], min(1.0, 0.1 * rate), rtol=1e-14)
