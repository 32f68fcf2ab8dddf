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
def wave_step(neighbor_offsets, neighbor_indices, stencil, held, damping, dt, head, level, height,
              rate):
    """One step of the scheme above, in place on ``height`` (n,) (m) and ``rate`` (n,) (m/s).

    neighbor_offsets (n + 1,) and neighbor_indices (nnz,): the CSR one-rings (int32 or int64);
    stencil (nnz,) c^2 w_ij / A_i (1/s^2), so that c^2 Lap(y)_i = sum_k stencil_k (y_j - y_i);
    held (n,) bool; damping (n,) mu_i (1/s); dt (s); head (n,) p / (rho g) (m); level (n,) a
    scratch buffer (m) for z + head.
    """
    n = height.shape[0]
    for i in numba.prange(0, n):
        level[i] = height[i] + head[i]
    for i in numba.prange(0, n):
        if held[i]:
            rate[i] = 0.0
            continue
        pull = 0.0
        for k in range(neighbor_offsets[i], neighbor_offsets[i + 1]):
            pull += stencil[k] * (level[neighbor_indices[k]] - level[i])
        half_damping = 0.5 * damping[i] * dt
        rate[i] = ((1.0 - half_damping) * rate[i] + dt * pull) / (1.0 + half_damping)
    for i in numba.prange(0, n):
        height[i] += dt * rate[i]
