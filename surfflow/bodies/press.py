"""The bodies' pressure on the free surface and its push on the liquid (``coupling.py``).

Under a body the liquid column's level L_i = b_i + d_i (along the normal) may reach into the
solid, whose bottom lies at s_lo_i: the body then presses on the liquid with

    p_i = rho g_n min(k (L_i - s_lo_i), T_i),   g_n = |g| (e . n_i),  T_i = s_hi_i - s_lo_i

a penalty of stiffness k on the liquid entering the solid (the lid a floating body puts on the
column), never more than the hydrostatic pressure of the body's whole thickness T_i (a body
under water displaces its thickness, the free surface above it rising by T_i). The liquid feels
-grad p / rho with the gravity pressure's own discrete gradient (``kernels/pressure.py``: the
Green-Gauss and ring-fit blend by the friction share), so g H + p / rho level is a rest state
bit for bit, and the body feels sum_i A_i p_i n_i: equal and opposite.
"""

from __future__ import annotations

import numba
import numpy as np

from ..kernels._jit import parallel_kernel


def body_pressure(gravity_normal, level, low, high, stiffness, density):
    """p (k,) in Pa on footprint rows: gravity_normal g_n (k,), level L (k,), low s_lo and high
    s_hi (k,) (the solid's span along the normal, above the bottom), stiffness k."""
    thickness = np.maximum(high - low, 0.0)
    entered = np.maximum(level - low, 0.0)
    return density * np.maximum(gravity_normal, 0.0) * np.minimum(stiffness * entered, thickness)


@parallel_kernel
def apply_surface_pressure(offsets, indices, dual_edge_vectors, dual_areas, fit_weights,
                           friction_share, depth, pressure, inverse_density, min_depth,
                           acceleration):
    """acceleration (n, 2) += -grad p / rho on every wet vertex, grad the gravity pressure's
    blend (kernels/pressure.py) of the Green-Gauss and the ring-fit gradients of p (n,) Pa.

    offsets (n + 1,), indices (nnz,); dual_edge_vectors, fit_weights (nnz, 2); dual_areas,
    friction_share, depth (n,).
    """
    for i in numba.prange(depth.shape[0]):
        if depth[i] < min_depth:
            continue
        dual0 = 0.0
        dual1 = 0.0
        fit0 = 0.0
        fit1 = 0.0
        for e in range(offsets[i], offsets[i + 1]):
            rise = (pressure[indices[e]] - pressure[i]) * inverse_density
            dual0 += 0.5 * rise * dual_edge_vectors[e, 0]
            dual1 += 0.5 * rise * dual_edge_vectors[e, 1]
            fit0 += rise * fit_weights[e, 0]
            fit1 += rise * fit_weights[e, 1]
        dual_scale = (1.0 - friction_share[i]) / dual_areas[i]
        fit_scale = friction_share[i]
        acceleration[i, 0] -= dual_scale * dual0 + fit_scale * fit0
        acceleration[i, 1] -= dual_scale * dual1 + fit_scale * fit1


def pressed_time_step(spacing, depth, speed, gravity_normal, stiffness, cfl) -> float:
    """The CFL limit where bodies press (s): the penalty stiffens gravity to (1 + k) g_n under
    them; spacing, depth, speed (k,) on the footprint rows."""
    celerity = np.sqrt((1.0 + stiffness) * np.maximum(gravity_normal, 0.0) * depth) + speed
    moving = celerity > 0.0
    return float(cfl * (spacing[moving] / celerity[moving]).min()) if moving.any() else np.inf
