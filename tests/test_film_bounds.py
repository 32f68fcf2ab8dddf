"""Two bounds on the film's velocity (kernels/boundaries.py ``slip_along_shorelines`` and
kernels/invariant_domain.py ``keep_speed_bound``), each on hand-made rings with known answers,
and on the real meshes where their absence let a film outrun a free fall (the nut's rim, the
cow under the conservative scheme)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from surfflow.geometry.topology import CORNER_ANGLE
from surfflow.kernels.boundaries import shoreline_corner_share, slip_along_shorelines
from surfflow.kernels.invariant_domain import keep_speed_bound


def one_ring(normals):
    """CSR arrays of vertex 0 with one entry per dual edge vector of ``normals`` (k, 2)."""
    k = len(normals)
    offsets = np.array([0, k] + [k] * k, dtype=np.int64)
    indices = np.arange(1, k + 1, dtype=np.int64)
    return offsets, indices, np.asarray(normals, dtype=np.float64)


def hexagon(walled):
    """A one-ring of six unit dual edges at 0, 60, ..., 300 degrees, the entries at the angles
    (degrees) of ``walled`` walls: (offsets, normals, wall)."""
    angles = np.radians(np.arange(0.0, 360.0, 60.0))
    offsets, _, normals = one_ring(np.column_stack([np.cos(angles), np.sin(angles)]))
    wall = np.isin(np.round(np.degrees(angles)) % 360, np.asarray(walled) % 360)
    return offsets, normals, wall


CORNER = shoreline_corner_share(CORNER_ANGLE)


def slipped(offsets, normals, wall, u):
    velocity = np.zeros((len(normals) + 1, 2))
    velocity[0] = u
    slip_along_shorelines(np.array([0]), offsets, normals, wall, CORNER, velocity)
    return velocity[0]


def test_along_a_straight_shoreline_the_velocity_runs_on_and_into_it_stops():
    """Walls on the three dual edges facing +x (-60, 0, 60 degrees): a straight shoreline, whose
    normal is N_w = (2, 0). What runs along it stays, even where it runs into the walls at
    +-60 degrees one by one (no mass crosses them, and it crosses the open ones); the part into
    N_w goes; what leaves the bank is untouched."""
    offsets, normals, wall = hexagon([-60, 0, 60])
    assert slipped(offsets, normals, wall, (0.0, 1.5)).tolist() == [0.0, 1.5]
    assert slipped(offsets, normals, wall, (1.0, 1.5)).tolist() == [0.0, 1.5]
    assert slipped(offsets, normals, wall, (-1.0, 1.5)).tolist() == [-1.0, 1.5]


def test_in_a_corner_of_the_shoreline_no_velocity_into_any_wall_is_left():
    """Walls on five of six dual edges (a wet wedge: the shoreline turns by 120 degrees, past
    the 60 of a corner; |N_w| / sum |N_ij| = 1 / 5 against the corner's 0.41): nothing runs
    along a corner, so a velocity into any wall stops, as at a mesh wall's corner. Two walls at
    a right angle on a ring of three dual edges are no corner (|N_w| / sum |N_ij| = 0.75): there
    only the part into N_w = (1, 2) goes."""
    offsets, normals, wall = hexagon([60, 120, 180, 240, 300])
    for u in [(0.0, 1.5), (-2.0, 0.5), (3.0, -1.0)]:
        assert slipped(offsets, normals, wall, u).tolist() == [0.0, 0.0]
    offsets, _, normals = one_ring([[1.0, 0.0], [0.0, 2.0], [-1.0, 0.0]])
    wall = np.array([True, True, False])
    assert slipped(offsets, normals, wall, (3.0, -1.0)) == pytest.approx([2.8, -1.4], rel=1e-15)
    assert slipped(offsets, normals, wall, (-2.0, -5.0)).tolist() == [-2.0, -5.0]


def test_the_corner_share_is_that_of_a_round_cell_walled_over_pi_plus_the_corner_angle():
    """sin(phi / 2) / (phi / 2) at phi = 240 degrees; a straight shoreline's 2 / pi lies above it,
    and so do the hexagon's three walls, 2 / 3; five walls, 1 / 5, below."""
    assert CORNER == pytest.approx(math.sin(math.radians(120.0)) / math.radians(120.0), rel=1e-15)
    assert 1.0 / 5.0 < CORNER < 2.0 / math.pi < 2.0 / 3.0


def test_a_stage_velocity_past_the_riemann_invariant_bound_is_scaled_to_it():
    """A ring whose fastest |u| + 2 c is 1 m/s (a dry neighbour at 1 m/s; the vertex and its
    other neighbour at 0.5 m/s on 4 mm under g_n = 9.81, 0.5 + 2 sqrt(9.81 * 0.004) = 0.896):
    a stage's new state of depth d' keeps |u'| <= 1 - 2 sqrt(9.81 min(d', 4 mm)) + dt (|a| +
    |a_t|), its own wave speed counted up to the ring's deepest depth; its direction kept, a
    slower one untouched."""
    offsets, indices, _ = one_ring([[1.0, 0.0], [0.0, 1.0]])
    depth = np.array([0.004, 0.0, 0.004])
    velocity = np.array([[0.5, 0.0], [0.0, 1.0], [0.0, -0.5]])
    normal_gravity = np.full(3, 9.81)
    acceleration = np.array([[3.0, 4.0], [0.0, 0.0], [0.0, 0.0]])
    terms = np.array([[0.0, 2.0], [0.0, 0.0], [0.0, 0.0]])
    dt = 0.01
    for new_depth, counted in ((0.001, 0.001), (0.004, 0.004), (0.02, 0.004)):
        bound = 1.0 - 2.0 * math.sqrt(9.81 * counted) + dt * (5.0 + 2.0)
        depth_out = np.array([new_depth, 0.0, 0.004])
        out = np.array([[30.0, 40.0], [0.0, 0.0], [0.0, 0.0]])
        keep_speed_bound(np.array([0]), offsets, indices, depth, velocity, normal_gravity,
                         acceleration, terms, 1e-6, dt, depth_out, out)
        assert np.hypot(*out[0]) == pytest.approx(bound, rel=1e-14), new_depth
        assert out[0, 1] / out[0, 0] == pytest.approx(4.0 / 3.0)  # its direction kept
    slower = np.array([[0.3, 0.4], [0.0, 0.0], [0.0, 0.0]])
    keep_speed_bound(np.array([0]), offsets, indices, depth, velocity, normal_gravity,
                     acceleration, terms, 1e-6, dt, depth, slower)
    assert slower[0].tolist() == [0.3, 0.4]


def test_still_water_keeps_no_speed_past_what_its_accelerations_give():
    """A lake at rest, 4 mm deep under g_n = 9.81: every |u| + 2 c is 2 sqrt(9.81 * 0.004), so a
    stage's velocity at a vertex that stays 4 mm deep is bounded by dt |a| alone, and one whose
    depth fell to 1 mm by 2 (sqrt(9.81 * 0.004) - sqrt(9.81 * 0.001)) + dt |a|."""
    offsets, indices, _ = one_ring([[1.0, 0.0], [0.0, 1.0]])
    depth = np.full(3, 0.004)
    velocity = np.zeros((3, 2))
    normal_gravity = np.full(3, 9.81)
    acceleration = np.array([[0.3, 0.4], [0.0, 0.0], [0.0, 0.0]])
    terms = np.zeros((3, 2))
    dt = 0.01
    for new_depth, bound in ((0.004, dt * 0.5),
                             (0.001, 2.0 * (math.sqrt(9.81 * 0.004) - math.sqrt(9.81 * 0.001))
                              + dt * 0.5)):
        out = np.array([[3.0, 4.0], [0.0, 0.0], [0.0, 0.0]])
        keep_speed_bound(np.array([0]), offsets, indices, depth, velocity, normal_gravity,
                         acceleration, terms, 1e-6, dt, np.array([new_depth, 0.004, 0.004]), out)
        assert np.hypot(*out[0]) == pytest.approx(bound, rel=1e-12), new_depth
