"""Small irregular surfaces and random flow states for the runtime's kernel and simulation tests."""

import contextlib

import numba
import numpy as np
import pytest

import builders
import surfflow as sf


def both_schemes(conservative_fails: str | None = None) -> list:
    """The two momentum schemes as a pytest parameter list for ``scheme``; with
    ``conservative_fails`` (what it measures), the conservative one a strict xfail (issue 20)."""
    marks = () if conservative_fails is None else pytest.mark.xfail(
        strict=True, reason=f"issue 20: under the conservative scheme {conservative_fails}")
    return ["momentum", pytest.param("conservative", marks=marks)]


def curved_patch(nx=14, ny=11, seed=0):
    """An open, irregular, curved patch: a jittered rectangle lifted onto z = 0.2 sin(2x) cos(3y)."""
    V, F = builders.rectangle(0.0, 1.4, 0.0, 1.1, nx, ny, jitter=0.25, seed=seed)
    V[:, 2] = 0.2 * np.sin(2.0 * V[:, 0]) * np.cos(3.0 * V[:, 1])
    return sf.precompute((V, F), smoothing_iterations=0)


def lumpy_sphere(subdivisions=2, seed=0):
    """A closed, irregular surface: an icosphere with radially and tangentially jittered vertices."""
    V, F = builders.icosphere(1.0, subdivisions)
    rng = np.random.default_rng(seed)
    V = V * (1.0 + 0.05 * rng.uniform(-1, 1, (len(V), 1))) + 0.02 * rng.uniform(-1, 1, V.shape)
    return sf.precompute((V, F), smoothing_iterations=0)


def random_state(geom, seed=0, n_dyes=2, dry_fraction=0.3):
    """Random depth (a fraction dry), velocity (n, 2) in frame coordinates, bottom and dyes."""
    rng = np.random.default_rng(seed)
    n = geom.n_vertices
    depth = rng.uniform(0.001, 0.02, n) * (rng.random(n) > dry_fraction)
    velocity = rng.normal(0.0, 0.3, (n, 2)) * (depth > 0)[:, None]
    bottom = rng.uniform(-0.005, 0.005, n)
    dye = rng.uniform(0.0, 1.0, (n, n_dyes))
    return depth, velocity, bottom, dye


def wet_simulation(geom, params=None, n_dyes=0, seed=0):
    """A Simulation on ``geom`` with a random wet state loaded through the public API."""
    depth, velocity, bottom, dye = random_state(geom, seed, n_dyes)
    sim = sf.Simulation(geom, params or sf.Params(gravity=(0.0, 0.0, -9.81)), n_dyes=n_dyes)
    sim.set_depth(depth)
    sim.set_bottom(bottom)
    sim.set_velocity(np.einsum("ia,iaj->ij", velocity, geom.tangent_frames))
    if n_dyes:
        sim.set_dye(dye)
    return sim


@contextlib.contextmanager
def numba_threads(threads):
    """Run the block on ``threads`` numba threads, then restore the previous count."""
    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        yield
    finally:
        numba.set_num_threads(previous)


def dyed_pour_on_threads(threads, params):
    """(depth, velocity, dye) after 0.3 s of a dyed pour onto a wet curved patch under
    ``params``, run on ``threads`` numba threads (the thread count is restored afterwards)."""
    with numba_threads(threads):
        sim = wet_simulation(curved_patch(seed=5), params, n_dyes=1, seed=5)
        sim.add_source(sim.geometry.vertices[20], 0.1, 1e-4, dye=0)
        sim.advance(0.3)
        return sim.depth, sim.velocity, sim.dye
