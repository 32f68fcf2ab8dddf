"""State checks run once per step: wet/dry cleanup and the non-finite check (SPEC §4, §7)."""

import math

import numba

from ._jit import parallel_kernel


@parallel_kernel
def clear_dry_velocity(depth, min_depth, velocity):
    """Dry vertices (d < d_min) have zero velocity. depth (n,); velocity (n, 2) in place."""
    for i in numba.prange(depth.shape[0]):
        if depth[i] < min_depth:
            velocity[i, 0] = 0.0
            velocity[i, 1] = 0.0


@parallel_kernel
def first_nonfinite_vertex(depth, velocity, dye):
    """The lowest vertex index whose depth, velocity or dye is NaN or infinite; -1 if none.

    depth (n,), velocity (n, 2), dye (n, n_dyes). The min reduction is exact for any threads.
    """
    n = depth.shape[0]
    first = n
    for i in numba.prange(n):
        bad = not (math.isfinite(depth[i]) and math.isfinite(velocity[i, 0])
                   and math.isfinite(velocity[i, 1]))
        for k in range(dye.shape[1]):
            bad = bad or not math.isfinite(dye[i, k])
        if bad:
            first = min(first, i)
    return -1 if first == n else first
