"""The rigid bodies' sums over their many sample points (``surfflow/bodies``): where straight
lines cross a convex solid, and the contact rows' implicit system.

``convex_span``: for a point p and a direction v, the interval of s where p + s v lies inside
every half-space N_k . y <= c_k of the solid,

    s_lo = max over N_k . v < 0 of (c_k - N_k . p) / (N_k . v),
    s_hi = min over N_k . v > 0 of (c_k - N_k . p) / (N_k . v),

and empty (s_hi = -inf) where a plane parallel to v (N_k . v = 0) has p outside it.

``add_rows``: the semi-implicit step's matrix A (6, 6) and right-hand side b (6,)
(``bodies/dynamics.py``) summed over the contact rows r (point x_r, unit normal n_r, force f_r,
normal stiffness K_r, normal and tangential damping c_n, c_t, target velocity u_r). With
r = x_r - x_c and the point's Jacobian J_r = [I, -[r]x] (3, 6),

    A += J^T S J,   S = (dt^2 K + dt (c_n - c_t)) n n^T + dt c_t I,
    b += J^T h,     h = f + C u,   C = (c_n - c_t) n n^T + c_t I,

written with J^T n = (n, r x n), J^T h = (h, r x h) and
J^T J = [[I, -[r]x], [[r]x, |r|^2 I - r r^T]], so a row costs a few dozen operations.
"""

import math

from ._jit import serial_kernel


@serial_kernel
def convex_span(points, directions, planes, offsets, low, high):
    """low, high (k,) = s_lo, s_hi of each line points[i] + s directions[i] (k, 3) through the
    solid of planes (p, 3) (unit outward normals) and offsets (p,), in the solid's frame."""
    for i in range(points.shape[0]):
        s_lo, s_hi, outside = -math.inf, math.inf, False
        for k in range(planes.shape[0]):
            rate = (directions[i, 0] * planes[k, 0] + directions[i, 1] * planes[k, 1]
                    + directions[i, 2] * planes[k, 2])
            room = offsets[k] - (points[i, 0] * planes[k, 0] + points[i, 1] * planes[k, 1]
                                 + points[i, 2] * planes[k, 2])
            if rate < 0.0:
                s_lo = max(s_lo, room / rate)
            elif rate > 0.0:
                s_hi = min(s_hi, room / rate)
            elif rate == 0.0 and room < 0.0:
                outside = True
        low[i] = s_lo
        high[i] = -math.inf if outside else s_hi


@serial_kernel
def add_rows(points, normals, forces, stiffness, normal_damping, tangent_damping, targets,
             centre, dt, system, rhs):
    """system (6, 6) += sum_r J_r^T S_r J_r and rhs (6,) += sum_r J_r^T h_r (module docstring)
    over the rows: points, normals, forces, targets (k, 3); stiffness, normal_damping,
    tangent_damping (k,); centre x_c (3,); dt the step."""
    for i in range(points.shape[0]):
        r0, r1, r2 = points[i, 0] - centre[0], points[i, 1] - centre[1], points[i, 2] - centre[2]
        n0, n1, n2 = normals[i, 0], normals[i, 1], normals[i, 2]
        alpha = dt * dt * stiffness[i] + dt * (normal_damping[i] - tangent_damping[i])
        beta = dt * tangent_damping[i]
        g = (n0, n1, n2, r1 * n2 - r2 * n1, r2 * n0 - r0 * n2, r0 * n1 - r1 * n0)  # J^T n
        for a in range(6):
            for b in range(6):
                system[a, b] += alpha * g[a] * g[b]
        # beta J^T J: [[I, -[r]x], [[r]x, |r|^2 I - r r^T]]
        radius2 = r0 * r0 + r1 * r1 + r2 * r2
        r = (r0, r1, r2)
        cross = ((0.0, -r2, r1), (r2, 0.0, -r0), (-r1, r0, 0.0))  # [r]x
        for a in range(3):
            system[a, a] += beta
            system[a + 3, a + 3] += beta * radius2
            for b in range(3):
                system[a, b + 3] -= beta * cross[a][b]
                system[a + 3, b] += beta * cross[a][b]
                system[a + 3, b + 3] -= beta * r[a] * r[b]
        u0, u1, u2 = targets[i, 0], targets[i, 1], targets[i, 2]
        along = (normal_damping[i] - tangent_damping[i]) * (n0 * u0 + n1 * u1 + n2 * u2)
        h0 = forces[i, 0] + along * n0 + tangent_damping[i] * u0
        h1 = forces[i, 1] + along * n1 + tangent_damping[i] * u1
        h2 = forces[i, 2] + along * n2 + tangent_damping[i] * u2
        rhs[0] += h0
        rhs[1] += h1
        rhs[2] += h2
        rhs[3] += r1 * h2 - r2 * h1
        rhs[4] += r2 * h0 - r0 * h2
        rhs[5] += r0 * h1 - r1 * h0
