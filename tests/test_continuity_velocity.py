"""The continuity velocity's advective increment (kernels/continuity_velocity.py): known answers
on an irregular curved patch, then its place in the step."""

import numpy as np

import surfflow as sf
from runtime_cases import curved_patch
from surfflow.kernels.continuity_velocity import advective_increment
from surfflow.kernels.records import rings_of
from surfflow.schemes.active import ActiveSet
from surfflow.state import surface_fields

MIN_DEPTH = 1e-6
STIFFNESS = 9.81  # K (m/s^2): the wave speed on d = 0.01 m is 0.313 m/s


def increment(geom, depth, depth_next, velocity, velocity_next, active, share=None):
    out = np.full((geom.n_vertices, 2), np.nan)
    share = np.zeros(geom.n_vertices) if share is None else share
    fields = surface_fields(geom, (0.0, 0.0, -9.81), "wall")
    advective_increment(active.moving, active.resting, rings_of(geom, fields), depth, depth_next,
                        velocity, velocity_next, np.full(geom.n_vertices, STIFFNESS), share,
                        MIN_DEPTH, out)
    return out


def ring(geom, i):
    return geom.neighbor_indices[geom.neighbor_offsets[i]:geom.neighbor_offsets[i + 1]]


def test_increment_is_the_transports_change_where_the_ring_stays_wet_and_subcritical():
    """delta = u' - u where a vertex and its ring are wet before and after the step and the
    flow is inertial and subcritical; 0 where the vertex or a neighbour is dry before or after
    (a front, a contact line); half of it at a Froude number of 1.5 (the supercritical share
    over FROUDE_RAMP = 1), and 0.3 of it at a friction share of 0.7."""
    geom = curved_patch()
    n = geom.n_vertices
    rng = np.random.default_rng(3)
    depth = np.full(n, 0.01)
    velocity = rng.normal(0.0, 0.02, (n, 2))
    change = rng.normal(0.0, 0.01, (n, 2))
    interior = np.flatnonzero(~geom.is_boundary)
    drying, wetting, fast, slaved = interior[[5, len(interior) // 2, -5, 30]]
    depth_next = depth.copy()
    depth_next[drying] = 0.0           # dries during the step
    depth[wetting] = 0.0               # wets during the step
    velocity_next = velocity + change
    speed = 1.5 * np.sqrt(STIFFNESS * 0.01)  # Fr = 1.5 at the fast vertex after the step
    velocity_next[fast] = (speed, 0.0)
    share = np.zeros(n)
    share[slaved] = 0.7
    active = ActiveSet(n)
    out = increment(geom, depth, depth_next, velocity, velocity_next, active, share)
    held = {drying, wetting, *ring(geom, drying), *ring(geom, wetting)}
    assert not {fast, slaved} & held
    for i in range(n):
        if i in held:
            assert np.array_equal(out[i], (0.0, 0.0)), i
        elif i == fast:
            np.testing.assert_allclose(out[i], 0.5 * (velocity_next[i] - velocity[i]), rtol=1e-12)
        elif i == slaved:
            np.testing.assert_allclose(out[i], 0.3 * (velocity_next[i] - velocity[i]), rtol=1e-12)
        else:
            assert np.array_equal(out[i], velocity_next[i] - velocity[i]), i


def test_resting_vertices_get_no_increment():
    geom = curved_patch()
    n = geom.n_vertices
    depth = np.where(geom.vertices[:, 0] < 0.7, 0.01, 0.0)
    active = ActiveSet(n)
    active.rebuild(geom, depth, MIN_DEPTH)
    assert 0 < len(active.resting) < n
    out = increment(geom, depth, depth, np.zeros((n, 2)), np.full((n, 2), 0.01), active)
    assert not np.isnan(out).any()
    assert np.array_equal(out[active.resting], np.zeros((len(active.resting), 2)))


def test_setting_the_depth_or_the_velocity_clears_the_increment():
    """The increment belongs to the flow the last step made: ``set_depth`` and ``set_velocity``
    start a new one."""
    geom = curved_patch()
    sim = sf.Simulation(geom, sf.Params(surface_tension=0.0))
    sim.set_depth(np.full(geom.n_vertices, 0.01))
    sim.advance(0.05)
    assert np.abs(sim.state.advection).max() > 0.0
    sim.set_velocity(sim.velocity)
    assert not sim.state.advection.any()
    sim.advance(0.05)
    sim.set_depth(sim.depth)
    assert not sim.state.advection.any()
