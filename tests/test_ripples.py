"""The ripple mode (``surfflow.ripples``) against known answers: standing modes of a square
pond (clamped: sin modes; reflecting: cos modes) and of a sphere, the energy's decay at the rate
mu sets, the stability bound, shores, drops, rain and a pressure on the surface; invariants:
threads, restarts; bad input."""

import math

import numba
import numpy as np
import pytest
import trimesh
from runtime_cases import numba_threads

import surfflow as sf
from surfflow.io.procedural import plane
from surfflow.kernels.ripples import wave_step
from surfflow.ripples import Rain
from surfflow.ripples.laplacian import cotangent_weights, largest_eigenvalue, stiffness_matrix

SIDE, CELLS = 1.0, 32
MODE_K = math.pi * math.sqrt(5.0) / SIDE  # the (1, 2) mode of the square


def square(jitter=0.0, cells=CELLS):
    """The flat SIDE x SIDE square of cells x cells; interior vertices moved by up to
    ``jitter`` cells (a fixed seed) for an irregular mesh."""
    V, F = plane((SIDE, SIDE), (cells, cells))
    inner = (np.abs(V[:, :2]) < 0.5 * SIDE - 1e-9).all(axis=1)
    V[inner, :2] += jitter * SIDE / cells * np.random.default_rng(1).uniform(-1, 1, (inner.sum(), 2))
    return sf.precompute((V, F), feature_size=0)


def standing_mode(geom, edge):
    """The (1, 2) mode: sin sin for a clamped edge, cos cos for a reflecting one."""
    x, y = (geom.vertices[:, k] / SIDE + 0.5 for k in (0, 1))
    wave = np.sin if edge == "fixed" else np.cos
    return wave(math.pi * x) * wave(2 * math.pi * y)


def mode_amplitudes(ripples, shape, dt, steps):
    """The projection of the height on ``shape`` after each of ``steps`` steps of dt."""
    weights = ripples.geometry.dual_areas * shape
    amplitudes = []
    for _ in range(steps):
        ripples.step(dt)
        amplitudes.append(weights @ ripples.height / (weights @ shape))
    return (np.arange(steps) + 1) * dt, np.array(amplitudes)


def measured_period(times, amplitudes):
    """Twice the mean spacing of the zero crossings (linear interpolation)."""
    k = np.flatnonzero(np.sign(amplitudes[1:]) != np.sign(amplitudes[:-1]))
    zeros = times[k] - amplitudes[k] * (times[k + 1] - times[k]) / (amplitudes[k + 1] - amplitudes[k])
    return 2.0 * np.mean(np.diff(zeros))


@pytest.mark.parametrize("jitter, tolerance", [(0.0, 0.01), (0.3, 0.02)])
@pytest.mark.parametrize("edge", ["fixed", "reflect"])
def test_a_standing_mode_has_the_period_2_pi_over_c_k(edge, jitter, tolerance):
    geom, c = square(jitter), 0.8
    ripples = sf.Ripples(geom, wave_speed=c, edge=edge)
    shape = standing_mode(geom, edge)
    ripples.set_height(1e-3 * shape)
    period = 2 * math.pi / (c * MODE_K)
    dt = 0.5 * ripples.max_time_step
    measured = measured_period(*mode_amplitudes(ripples, shape, dt, int(3 * period / dt)))
    assert abs(measured / period - 1.0) < tolerance


@pytest.mark.parametrize("jitter, tolerance", [(0.0, 0.01), (0.3, 0.02)])
def test_the_energy_decays_as_exp_minus_mu_t(jitter, tolerance):
    geom, c, mu = square(jitter), 0.8, 0.4
    ripples = sf.Ripples(geom, wave_speed=c, damping=mu)
    ripples.set_height(1e-3 * standing_mode(geom, "fixed"))
    dt = 0.5 * ripples.max_time_step
    energies = []
    for _ in range(int(5 * 2 * math.pi / (c * MODE_K) / dt)):
        ripples.step(dt)
        energies.append(ripples.energy())
    times = (np.arange(len(energies)) + 1) * dt
    rate = -np.polyfit(times, np.log(energies), 1)[0]
    assert abs(rate / mu - 1.0) < tolerance


def test_without_damping_the_energy_is_kept_to_round_off():
    ripples = sf.Ripples(square(0.3), wave_speed=0.8, edge="reflect")
    ripples.drop((0.1, -0.2, 0.0), 0.08, 1e-3)
    dt = 0.7 * ripples.max_time_step
    ripples.step(dt)
    start = ripples.energy()
    for _ in range(300):
        ripples.step(dt)
    assert abs(ripples.energy() / start - 1.0) < 1e-12


def test_on_a_sphere_the_first_harmonic_has_omega_squared_2_c_squared_over_r_squared():
    radius, c = 0.5, 1.0
    geom = sf.precompute(sf.load_mesh(trimesh.creation.icosphere(3, radius=radius)), feature_size=0)
    ripples = sf.Ripples(geom, wave_speed=c)
    shape = geom.vertices[:, 2] / radius
    ripples.set_height(1e-3 * shape)
    period = 2 * math.pi * radius / (c * math.sqrt(2.0))
    dt = 0.5 * ripples.max_time_step
    measured = measured_period(*mode_amplitudes(ripples, shape, dt, int(3 * period / dt)))
    assert abs(measured / period - 1.0) < 0.01


@pytest.mark.parametrize("jitter", [0.0, 0.3])
def test_lambda_max_is_the_largest_generalised_eigenvalue(jitter):
    geom = square(jitter, cells=16)
    weights = cotangent_weights(geom)
    K = stiffness_matrix(geom, weights).toarray()
    for held in (geom.is_boundary, np.zeros(geom.n_vertices, bool)):
        free = ~held
        scale = 1.0 / np.sqrt(geom.dual_areas[free])
        exact = np.linalg.eigvalsh(scale[:, None] * K[np.ix_(free, free)] * scale[None, :]).max()
        bound = largest_eigenvalue(geom, weights, held)
        assert exact <= bound < exact * (1 + 2e-4)


def grows(geom, dt_fraction, steps=400):
    """Whether checkerboard noise grows when stepped at dt_fraction of the bound (the kernel
    called directly, past the check)."""
    ripples = sf.Ripples(geom, wave_speed=1.0)
    z = np.where(ripples.held, 0.0, np.random.default_rng(2).uniform(-1, 1, geom.n_vertices))
    rate = np.zeros_like(z)
    dt = dt_fraction * ripples.max_time_step
    for _ in range(steps):
        wave_step(geom.neighbor_offsets, geom.neighbor_indices, ripples.weights, geom.dual_areas,
                  ripples.held, ripples.vertex_damping, 1.0, dt, np.zeros_like(z), z, rate)
    return np.abs(z).max() > 10.0


def test_the_bound_is_sharp():
    geom = square(0.3)
    assert not grows(geom, 0.99) and grows(geom, 1.02)


def test_a_step_above_the_bound_is_refused_with_the_largest_dt_and_c():
    ripples = sf.Ripples(square(), wave_speed=1.0)
    limit = ripples.max_time_step
    with pytest.raises(sf.ParameterError, match=r"use dt < [0-9.e-]+ s, or wave_speed < [0-9.e-]+") as info:
        ripples.step(1.5 * limit)
    assert f"{limit:.6g}" in str(info.value)
    assert f"{1.0 / 1.5:.6g}" in str(info.value)
    ripples.step(0.99 * limit)


def test_advance_lands_on_the_time_with_stable_steps():
    ripples = sf.Ripples(square(), wave_speed=2.0, damping=0.1)
    ripples.drop((0.0, 0.0, 0.0), 0.05, 1e-3)
    ripples.advance(0.5)
    assert ripples.time == 0.5
    assert ripples.state.last_dt <= ripples.cfl * ripples.max_time_step
    assert ripples.state.step_count == math.ceil(0.5 / (ripples.cfl * ripples.max_time_step))


def test_a_drop_states_its_volume_minus_pi_r_squared_depth():
    ripples = sf.Ripples(square(), wave_speed=0.8)
    volume = ripples.drop((0.0, 0.0, 0.0), 0.06, 2e-3)
    assert volume == pytest.approx(-math.pi * 0.06 ** 2 * 2e-3, rel=1e-6)
    assert ripples.total_volume() == volume


def test_a_reflecting_edge_keeps_the_volume():
    ripples = sf.Ripples(square(0.3), wave_speed=0.8, damping=0.3, edge="reflect")
    volume = ripples.drop((0.1, 0.0, 0.0), 0.06, 2e-3)
    ripples.advance(1.0)
    assert ripples.total_volume() == pytest.approx(volume, rel=1e-12)


def test_a_pressure_presses_the_surface_down_by_its_head_and_the_volume_stays():
    """Steady state of z_tt = c^2 Lap(z + p / (rho g)) - mu z_t with a reflecting edge:
    z = -p / (rho g) + its mean (the water pushed aside rises evenly), volume 0."""
    geom = square()
    ripples = sf.Ripples(geom, wave_speed=1.0, damping=20.0, edge="reflect")
    head = 0.004 * (np.linalg.norm(geom.vertices[:, :2], axis=1) < 0.15)
    ripples.surface_pressure[:] = 1000.0 * 9.81 * head
    ripples.advance(6.0)
    expected = -head + np.dot(geom.dual_areas, head) / geom.area
    assert np.abs(ripples.height - expected).max() < 1e-8
    assert abs(ripples.total_volume()) < 1e-15


def test_a_steep_shore_reflects_and_a_sloping_one_absorbs():
    geom = sf.precompute(plane((2.0, 0.5), (128, 32)), feature_size=0)
    x = geom.vertices[:, 0]
    left = {}
    for name, shore in (("steep", np.where(x > 0.7, 0.0, 1.0)), ("sloping", np.clip((0.9 - x) / 0.4, 0, 1))):
        ripples = sf.Ripples(geom, wave_speed=0.5, edge="reflect", shore=shore)
        ripples.set_height(-2e-3 * np.exp(-((x + 0.5) / 0.06) ** 2))  # both halves reach the shore
        dt = 0.9 * ripples.max_time_step
        ripples.step(dt)
        start = ripples.energy()
        for _ in range(int(5.0 / dt)):
            ripples.step(dt)
        left[name] = ripples.energy() / start
    assert abs(left["steep"] - 1.0) < 1e-12
    assert left["sloping"] < 0.05


def test_rain_falls_at_its_rate_and_is_reproducible():
    geom = square()
    areas = np.full(geom.n_faces, geom.area / geom.n_faces)
    rain = Rain(rate=50.0, radius=0.02, depth=1e-3, seed=7)
    counts = [len(rain.drops(geom.vertices, geom.faces, areas, k, 0.01)) for k in range(2000)]
    mean = 50.0 * geom.area * 0.01
    assert abs(np.mean(counts) - mean) < 5 * math.sqrt(mean / 2000)
    points = rain.drops(geom.vertices, geom.faces, areas, 3, 1.0)
    assert np.array_equal(points, rain.drops(geom.vertices, geom.faces, areas, 3, 1.0))
    assert np.abs(points[:, :2]).max() <= 0.5 and np.all(points[:, 2] == 0.0)


def rainy_pond(geom):
    ripples = sf.Ripples(geom, wave_speed=0.8, damping=0.2)
    ripples.add_rain(rate=20.0, radius=0.03, depth=1e-3, seed=3)
    ripples.surface_pressure[:] = 5.0 * (geom.vertices[:, 0] > 0.2)
    return ripples


def test_one_and_two_threads_agree_bit_for_bit():
    geom = square(0.3)
    runs = []
    for threads in (1, min(2, numba.config.NUMBA_NUM_THREADS)):
        with numba_threads(threads):
            ripples = rainy_pond(geom)
            ripples.advance(0.5)
            runs.append((ripples.height, ripples.height_rate))
    assert all(np.array_equal(a, b) for a, b in zip(*runs))


def test_a_restart_is_bit_identical():
    geom = square(0.3)
    ripples = rainy_pond(geom)
    ripples.advance(0.3)
    saved = {k: np.copy(v) for k, v in ripples.state_dict().items()}
    ripples.advance(0.3)
    restarted = sf.Ripples(geom, wave_speed=0.8, damping=0.2)
    restarted.load_state_dict(saved)
    restarted.advance(0.3)
    assert len(restarted.rain) == 1 and restarted.time == ripples.time
    assert np.array_equal(restarted.height, ripples.height)
    assert np.array_equal(restarted.height_rate, ripples.height_rate)


@pytest.mark.parametrize("arguments, message", [
    ({"wave_speed": 0.0}, r"wave_speed=0.0 is out of range"),
    ({"wave_speed": 1.0, "damping": -1.0}, r"damping=-1.0 is out of range"),
    ({"wave_speed": 1.0, "edge": "open"}, r"edge='open' is not allowed; use one of 'fixed', 'reflect'"),
    ({"wave_speed": 1.0, "shore": np.full(1089, 1.5)}, r"shore is above 1 at vertex 0"),
    ({"wave_speed": 1.0, "shore": np.ones(5)}, r"shore has shape \(5,\)"),
])
def test_bad_settings_are_refused_naming_them(arguments, message):
    with pytest.raises(sf.ParameterError, match=message):
        sf.Ripples(square(), **arguments)


def test_bad_calls_are_refused_naming_them():
    ripples = sf.Ripples(square(), wave_speed=1.0)
    with pytest.raises(sf.ParameterError, match="pass the SurfaceGeometry"):
        sf.Ripples(np.zeros((3, 3)), wave_speed=1.0)
    with pytest.raises(sf.ParameterError, match=r"height has shape \(3,\)"):
        ripples.set_height(np.zeros(3))
    with pytest.raises(sf.ParameterError, match="surface_pressure is not finite at vertex 4"):
        ripples.surface_pressure = np.where(np.arange(1089) == 4, np.nan, 0.0)
    with pytest.raises(sf.ParameterError, match="radius=0.0 is out of range"):
        ripples.drop((0, 0, 0), 0.0, 1e-3)
    with pytest.raises(sf.ParameterError, match="duration must be finite"):
        ripples.advance(-1.0)
    with pytest.raises(sf.ParameterError, match="rain rate=-1.0 is out of range"):
        ripples.add_rain(-1.0, 0.01, 1e-3)
