"""Wind: the grid sampler and the drag kernel against known answers and tests/naive_physics.py,
then the steady film velocity c_w w / (c_w + gamma) through the Simulation."""

import numpy as np
import pytest

import builders
import naive_physics
import surfflow as sf
from runtime_cases import both_schemes, curved_patch, random_state
from surfflow.errors import ParameterError
from surfflow.kernels.wind import WindGrid, evaluate_wind, wind_acceleration

MIN_DEPTH = 1e-6


@pytest.fixture(scope="module")
def geom():
    return curved_patch(seed=3)


def run_drag(geom, wind, depth, velocity, coefficient, dt):
    """u + dt a, a the drag's acceleration."""
    acceleration = np.zeros_like(velocity)
    wind_acceleration(geom.tangent_frames, wind, depth, velocity, coefficient, MIN_DEPTH,
                      acceleration)
    return velocity + dt * acceleration


def test_grid_sampling_reproduces_a_linear_field_exactly():
    origin, spacing = np.array([-1.0, 0.0, 2.0]), np.array([0.5, 0.25, 1.0])
    axes = np.meshgrid(*[origin[a] + spacing[a] * np.arange(n) for a, n in enumerate((5, 6, 3))],
                       indexing="ij")
    values = np.stack([2 * axes[0] - axes[1], axes[2] + 0.5, axes[0] + axes[1] + axes[2]], -1)
    grid = WindGrid(origin, spacing, values)
    points = np.random.default_rng(0).uniform([-1, 0, 2], [1, 1.25, 4], (50, 3))
    out = np.zeros((50, 3))
    grid.sample(points, out)
    expected = np.stack([2 * points[:, 0] - points[:, 1], points[:, 2] + 0.5, points.sum(1)], 1)
    assert np.allclose(out, expected, atol=1e-12)


def test_grid_sampling_matches_scipy_and_clamps_outside(tmp_path):
    rng = np.random.default_rng(1)
    origin, spacing = np.array([0.0, 1.0, -1.0]), np.array([0.3, 0.2, 0.5])
    values = rng.normal(size=(4, 5, 3, 3))
    np.savez(tmp_path / "wind.npz", origin=origin, spacing=spacing, values=values)
    grid = WindGrid.load(tmp_path / "wind.npz")
    points = rng.uniform([-0.5, 0.5, -2.0], [1.5, 2.5, 1.0], (80, 3))
    out = np.zeros((80, 3))
    grid.sample(points, out)
    expected = naive_physics.wind_grid_sample(origin, spacing, values, points)
    assert np.allclose(out, expected, atol=1e-12)


def test_bad_wind_grids_are_refused(tmp_path):
    with pytest.raises(ParameterError, match="nx, ny, nz, 3"):
        WindGrid(np.zeros(3), np.ones(3), np.zeros((2, 2, 3)))
    with pytest.raises(ParameterError, match="spacing"):
        WindGrid(np.zeros(3), np.array([1.0, 0.0, 1.0]), np.zeros((2, 2, 2, 3)))
    with pytest.raises(ParameterError, match="cannot be read"):
        WindGrid.load(tmp_path / "missing.npz")


def test_wind_function_with_the_wrong_shape_is_refused():
    out = np.zeros((4, 3))
    with pytest.raises(ParameterError, match="shape"):
        evaluate_wind(lambda x, t: np.zeros(3), np.zeros((4, 3)), 0.0, out)


def test_drag_matches_naive(geom):
    depth, velocity, _, _ = random_state(geom, seed=2)
    wind = np.random.default_rng(3).normal(0.0, 2.0, (geom.n_vertices, 3))
    expected = naive_physics.wind_drag(geom, wind, depth, 0.7, MIN_DEPTH, 0.05, velocity)
    assert np.allclose(run_drag(geom, wind, depth, velocity, 0.7, 0.05), expected, rtol=1e-12,
                       atol=1e-14)


def test_wind_along_the_normal_only_brakes(geom):
    depth = np.full(geom.n_vertices, 0.01)
    _, velocity, _, _ = random_state(geom, seed=4, dry_fraction=0.0)
    out = run_drag(geom, np.ascontiguousarray(3.0 * geom.normals), depth, velocity, 2.0, 0.1)
    assert np.allclose(out, 0.8 * velocity, rtol=1e-12, atol=1e-14)


def steady_film_velocity(wind, gamma=1.3, coefficient=2.0, scheme="momentum"):
    V, F = builders.rectangle(0.0, 1.0, 0.0, 1.0, 10, 10, jitter=0.25, seed=5)
    geom = sf.precompute((V, F), smoothing_iterations=0)
    params = sf.Params(gravity=(0.0, 0.0, 0.0), friction=gamma, wind=wind,
                       wind_coefficient=coefficient, boundary="outflow", max_dt=0.05,
                       scheme=scheme)
    sim = sf.Simulation(geom, params)
    sim.set_depth(np.full(geom.n_vertices, 0.01))
    sim.advance(8.0)
    return geom, sim


@pytest.mark.parametrize("scheme", both_schemes())
@pytest.mark.parametrize("form", ["constant", "function", "grid"])
def test_steady_film_velocity_is_cw_w_over_cw_plus_gamma(form, scheme):
    w = np.array([0.02, -0.01, 0.5])
    wind = {"constant": tuple(w),
            "function": lambda x, t: np.tile(w, (len(x), 1)),
            "grid": sf.WindGrid(np.zeros(3), np.ones(3), np.tile(w, (2, 2, 2, 1)))}[form]
    geom, sim = steady_film_velocity(wind, scheme=scheme)
    expected = 2.0 * np.array([0.02, -0.01, 0.0]) / (2.0 + 1.3)
    interior = np.all(np.abs(geom.vertices[:, :2] - 0.5) < 0.25, axis=1)
    assert np.allclose(sim.velocity[interior], expected, rtol=1e-9, atol=1e-12)
