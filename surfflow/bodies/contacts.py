"""Contacts: a body against the surface mesh and against the other bodies, as penalty rows for
the integrator (``dynamics.py``): a spring along the normal, critically damped, and Coulomb
friction regularised below ``SLIP`` m/s (a viscous tangential damping mu f_n / max(|v_t|,
SLIP), implicit, so a body on a slope gentler than its friction angle creeps at most
SLIP tan(slope) / mu).

Against the surface: the line through each vertex x_i along its normal n_i crosses the solid
over [s_lo, s_hi] (``shapes.py``); where the solid reaches below the ground, s_lo < b_i < s_hi,
the point x_i + s_lo n_i is pushed out along n_i by an area spring K A_i (b_i - s_lo). K =
m omega_c^2 / V^(2/3): the body's own weight on its own face's area sinks it g / omega_c^2
(0.6 mm at omega_c = 2 pi 20 Hz).

Between bodies: sphere against sphere exactly; a convex body's corners inside the other
(vertex-face, the nearest face's normal), a sphere's centre nearer a convex body's faces than
its radius. Edge-edge contacts of two boxes are not seen (a box's edge can rest across
another's edge while neither corner is inside).
"""

from __future__ import annotations

import math

import numpy as np

from .dynamics import Rows
from .shapes import Ball

CONTACT_FREQUENCY = 2.0 * math.pi * 20.0  # omega_c, rad/s
SLIP = 1e-4                               # m/s: friction's regularisation


def spring_rows(points, normals, depth, stiffness, friction, velocity, target) -> Rows:
    """Rows of penalty springs at points (k, 3) along normals (k, 3) for penetrations depth (k,)
    with stiffness (k,) N/m, damped critically at omega_c, with Coulomb ``friction``;
    velocity (k, 3) the points' velocities now, target (k, 3) what they rub against."""
    slide = velocity - target
    slide -= np.einsum("ka,ka->k", slide, normals)[:, None] * normals
    normal_force = stiffness * depth
    damping = 2.0 * stiffness / CONTACT_FREQUENCY
    tangent = friction * normal_force / np.maximum(np.linalg.norm(slide, axis=1), SLIP)
    return Rows(points, normals, normal_force[:, None] * normals, stiffness, damping, tangent,
                target)


def ground_rows(body, rows, vertices, normals, areas, bottom, low, high) -> Rows:
    """The ground's rows for ``body`` on its footprint (vertex ``rows`` (k,), the solid over
    [low, high] along the normals above each vertex)."""
    under = (low < bottom[rows]) & (high > bottom[rows])
    v = rows[under]
    depth = np.minimum(bottom[v] - low[under], high[under] - low[under])
    points = vertices[v] + low[under][:, None] * normals[v]
    stiffness = body.mass * CONTACT_FREQUENCY ** 2 / body.volume ** (2.0 / 3.0) * areas[v]
    return spring_rows(points, normals[v], depth, stiffness, body.friction,
                       point_velocity(body, points), np.zeros_like(points))


def point_velocity(body, points: np.ndarray) -> np.ndarray:
    """(k, 3) velocities of the body's points (k, 3) (world)."""
    return body._velocity + np.cross(body._angular_velocity, points - body._position)


def touching(a, b) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(points (k, 3), normals (k, 3) pushing ``a`` away from ``b``, depths (k,)) where the
    bodies overlap (the module docstring's cases)."""
    if isinstance(a.shape, Ball) and isinstance(b.shape, Ball):
        gap = a._position - b._position
        length = float(np.linalg.norm(gap))
        depth = a.shape.radius + b.shape.radius - length
        if depth <= 0.0 or length == 0.0:
            return np.zeros((0, 3)), np.zeros((0, 3)), np.zeros(0)
        n = gap / length
        return (b._position + n * (b.shape.radius - 0.5 * depth))[None], n[None], np.array([depth])
    points, normals, depths = [], [], []
    for one, other, sign in ((a, b, 1.0), (b, a, -1.0)):
        p, n, d = inside(one, other)
        points.append(p)
        normals.append(sign * n)
        depths.append(d)
    return np.concatenate(points), np.concatenate(normals), np.concatenate(depths)


def inside(one, other) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``one``'s corners (or its centre, a sphere) inside ``other``: points, the outward
    normals of ``other`` there (world), depths."""
    r = other.rotation
    if isinstance(one.shape, Ball):
        if isinstance(other.shape, Ball):
            return np.zeros((0, 3)), np.zeros((0, 3)), np.zeros(0)
        local = (one._position - other._position) @ r
        room, normal = other.shape.distance(local[None])
        depth = room + one.shape.radius
        n = normal @ r.T
        keep = depth > 0.0
        return (one._position - one.shape.radius * n)[keep], n[keep], depth[keep]
    corners = one.shape.corners @ one.rotation.T + one._position
    depth, normal = other.shape.distance((corners - other._position) @ r)
    keep = depth > 0.0
    return corners[keep], (normal @ r.T)[keep], depth[keep]


def pair_rows(a, b) -> tuple[Rows, Rows]:
    """The rows of the contacts between bodies a and b: (a's, b's); a kinematic body is moved
    by nothing but pushes the other with its own mass's stiffness."""
    points, normals, depth = touching(a, b)
    masses = [x.mass for x in (a, b) if x.kinematic is None] or [a.mass]
    reduced = 1.0 / sum(1.0 / m for m in masses)
    stiffness = np.full(len(depth), reduced * CONTACT_FREQUENCY ** 2)
    friction = 0.5 * (a.friction + b.friction)
    va, vb = point_velocity(a, points), point_velocity(b, points)
    return (spring_rows(points, normals, depth, stiffness, friction, va, vb),
            spring_rows(points, -normals, depth, stiffness, friction, vb, va))
