"""The damped wave equation of the ripple mode, one leapfrog step (``surfflow.ripples``).

    z_tt = c^2 Lap(z + p / (rho g)) - mu_i z_t

with the cotangent Laplacian (Lap y)_i = (1 / A_i) sum_j w_ij (y_j - y_i). Central differences
in time on two buffers, the height z^n and the rate v^(n-1/2) = (z^n - z^(n-1)) / dt, the
damping centred, (v^(n+1/2) + v^(n-1/2)) / 2:

    v^(n+1/2) = ((1 - mu_i dt / 2) v^(n-1/2) + dt c^2 Lap(z^n + head)_i) / (1 + mu_i dt / 2)
    z^(n+1)   = z^n + dt v^(n+1/2)

which is z^(n+1) - 2 z^n + z^(n-1) = dt^2 c^2 Lap - mu dt (z^(n+1) - z^(n-1)) / 2: second order
and explicit. A held vertex (a fixed edge, a shore coefficient of 0) keeps v = 0 and its height.
Each vertex gathers from its one-ring and writes only itself: the same result for any number of
threads.
"""

from __future__ import annotations

import numba

from ._jit import parallel_kernel


@parallel_kernel
def wave_step(neighbor_offsets, neighbor_indices, weights, dual_areas, held, damping, c2, dt,
              head, height, rate):
    """One step of the scheme above, in place on ``height`` (n,) (m) and ``rate`` (n,) (m/s).

    neighbor_offsets (n + 1,), neighbor_indices and weights (nnz,): the CSR one-rings with the
    cotangent weights w_ij; dual_areas (n,) A_i (m^2); held (n,) bool; damping (n,) mu_i (1/s);
    c2 the squared wave speed (m^2/s^2); dt (s); head (n,) p / (rho g) (m).
    """
    n = height.shape[0]
    for i in numba.prange(n):
        if held[i]:
            rate[i] = 0.0
            continue
        own = height[i] + head[i]
        pull = 0.0
        for k in range(neighbor_offsets[i], neighbor_offsets[i + 1]):
            j = neighbor_indices[k]
            pull += weights[k] * (height[j] + head[j] - own)
        half_damping = 0.5 * damping[i] * dt
        rate[i] = ((1.0 - half_damping) * rate[i] + dt * c2 * pull / dual_areas[i]) / (1.0 + half_damping)
    for i in numba.prange(n):
        height[i] += dt * rate[i]
