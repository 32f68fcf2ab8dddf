"""Bottom friction and sponge damping, implicit in time (SPEC §3, §4).

    du/dt = -(K_i + sigma_i I) u,   K_i = (c_lin + c_lam / max(d_i, d_floor)^2) T_i

T_i the dimensionless friction anisotropy of vertex i, c_lin = gamma for the "linear" model and
c_lam = 3 nu for the "laminar" (Poiseuille film) model (the other coefficient is zero), sigma_i
the damping rate. Backward Euler: u_new = (I + dt (K_i + sigma_i I))^-1 u, stable for any dt.
"""

import numba

from ._jit import parallel_kernel, serial_kernel


@serial_kernel
def implicit_diagonal(friction_tensors, depth, damping, linear_coefficient, laminar_coefficient,
                      laminar_min_depth, dt, i):
    """(rate, a00, a11): the friction rate c_lin + c_lam / max(d_i, d_floor)^2 and the diagonal
    of I + dt (K_i + sigma_i I)."""
    floor = max(depth[i], laminar_min_depth)
    rate = linear_coefficient + laminar_coefficient / (floor * floor)
    a00 = 1.0 + dt * (rate * friction_tensors[i, 0, 0] + damping[i])
    a11 = 1.0 + dt * (rate * friction_tensors[i, 1, 1] + damping[i])
    return rate, a00, a11


@parallel_kernel
def friction_shares(moving, friction_tensors, depth, damping, linear_coefficient,
                    laminar_coefficient, laminar_min_depth, dt, friction_share):
    """friction_share (n,), written at the vertices ``moving``: min(1, dt k), k the mean
    friction rate (half the trace of K_i + sigma_i I): how far friction slaves the velocity to
    the local depth within one step (0 inviscid, 1 for a creeping film). Computed before the
    forces from the step's depth and dt; the pressure gradient and the continuity blend by it.

    moving (m,) int64: the step's active vertices (schemes/active.py: every wet vertex and its
    neighbours), the only ones whose share is read (at a wet vertex, or a wet pair's ends); the
    others keep what they had.
    """
    for k in numba.prange(0, moving.shape[0]):
        i = moving[k]
        _, a00, a11 = implicit_diagonal(friction_tensors, depth, damping, linear_coefficient,
                                        laminar_coefficient, laminar_min_depth, dt, i)
        friction_share[i] = min(1.0, 0.5 * (a00 + a11) - 1.0)


@parallel_kernel
def apply_friction(moving, friction_tensors, depth, damping, linear_coefficient,
                   laminar_coefficient, laminar_min_depth, dt, velocity):
    """Solve the 2x2 implicit friction system per vertex of ``moving``, in place.

    moving (m,) int64: the vertices solved (schemes/active.py; every vertex, or every wet one
    and its neighbours where the others are at rest); friction_tensors (n, 2, 2); depth (n,);
    damping (n,) 1/s; velocity (n, 2) in each frame. A vertex at rest stays at rest: its row is
    not read (every vertex without liquid, as the schemes leave them).
    """
    for k in numba.prange(0, moving.shape[0]):
        i = moving[k]
        if velocity[i, 0] == 0.0 and velocity[i, 1] == 0.0:
            continue
        rate, a00, a11 = implicit_diagonal(friction_tensors, depth, damping, linear_coefficient,
                                           laminar_coefficient, laminar_min_depth, dt, i)
        a01 = dt * rate * friction_tensors[i, 0, 1]
        a10 = dt * rate * friction_tensors[i, 1, 0]
        det = a00 * a11 - a01 * a10
        u0, u1 = velocity[i, 0], velocity[i, 1]
        velocity[i, 0] = (a11 * u0 - a01 * u1) / det
        velocity[i, 1] = (a00 * u1 - a10 * u0) / det
