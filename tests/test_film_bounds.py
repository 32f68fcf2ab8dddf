"""Two bounds on the film's velocity (kernels/boundaries.py ``slip_along_shorelines`` and
kernels/invariant_domain.py ``keep_speed_bound``), each on hand-made rings with known answers,
and on the real meshes where their absence let a film outrun a free fall (the nut's rim, the
cow under the conservative scheme)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from surfflow.kernels.boundaries import slip_along_shorelines
from surfflow.kernels.invariant_domain import keep_speed_bound


def one_ring(normals):
    """CSR arrays of vertex 0 with one entry per dual edge vector of ``normals`` (k, 2)."""
    k = len(normals)
    offsets = np.array([0, k] + [k] * k, dtype=np.int64)
    indices = np.arange(1, k + 1, dtype=np.int64)
    return offsets, indices, np.asarray(normals, dtype=np.float64)


def test_velocity_into_two_walls_at_an_angle_is_removed_and_along_them_kept():
    offsets, _, normals = one_ring([[1.0, 0.0], [0.0, 2.0], [-1.0, 0.0]])
    wall = np.array([True, True, False])
    velocity = np.array([[3.0, -1.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]])
    slip_along_shorelines(np.array([0]), offsets, normals, wall, velocity)
    assert velocity[0] == pytest.approx([0.0, -1.0])  # into the x wall removed, along it kept
    velocity[0] = (2.0, 5.0)  # into both walls: nothing of it may remain
    slip_along_shorelines(np.array([0]), offsets, normals, wall, velocity)
    assert velocity[0] == pytest.approx([0.0, 0.0])
    velocity[0] = (-2.0, -5.0)  # away from both: untouched
    slip_along_shorelines(np.array([0]), offsets, normals, wall, velocity)
    assert velocity[0].tolist() == [-2.0, -5.0]


def test_a_stage_velocity_past_the_riemann_invariant_bound_is_scaled_to_it():
    """Ring speeds 1 (dry) and 0.5 on 4 mm under g_n = 9.81: the bound is
    max(1, 0.5 + 2 sqrt(9.81 * 0.004)) + dt (|a| + |a_t|)."""
    offsets, indices, _ = one_ring([[1.0, 0.0], [0.0, 1.0]])
    depth = np.array([0.004, 0.0, 0.004])
    velocity = np.array([[0.5, 0.0], [0.0, 1.0], [0.0, -0.5]])
    normal_gravity = np.full(3, 9.81)
    acceleration = np.array([[3.0, 4.0], [0.0, 0.0], [0.0, 0.0]])
    terms = np.array([[0.0, 2.0], [0.0, 0.0], [0.0, 0.0]])
    dt = 0.01
    bound = max(1.0, 0.5 + 2.0 * math.sqrt(9.81 * 0.004)) + dt * (5.0 + 2.0)
    out = np.array([[30.0, 40.0], [0.0, 0.0], [0.0, 0.0]])
    keep_speed_bound(np.array([0]), offsets, indices, depth, velocity, normal_gravity,
                     acceleration, terms, 1e-6, dt, depth, out)
    assert np.hypot(*out[0]) == pytest.approx(bound, rel=1e-14)
    assert out[0, 1] / out[0, 0] == pytest.approx(4.0 / 3.0)  # its direction kept
    slower = np.array([[0.3, 0.4], [0.0, 0.0], [0.0, 0.0]])
    keep_speed_bound(np.array([0]), offsets, indices, depth, velocity, normal_gravity,
                     acceleration, terms, 1e-6, dt, depth, slower)
    assert slower[0].tolist() == [0.3, 0.4]
