"""State checks run once per step: wet/dry cleanup and the non-finite check (SPEC §4, §7)."""

import math

from ._jit import serial_kernel


@serial_kernel
def clear_dry_find_nonfinite(depth, rest_depth, velocity, dye):
    """Vertices with no liquid (d = 0), and those below ``rest_depth`` (m), get zero velocity, in
    place; returns the lowest vertex index whose depth, velocity or dye is then NaN or infinite,
    -1 if none. One pass over the state. ``rest_depth``: the wet/dry threshold d_min where the
    scheme counts the residue below it at rest, 0 where it carries it (kernels/riemann.py).

    depth (n,), velocity (n, 2), dye (n, n_dyes). One thread: a parallel reduction compiles
    about 0.3 s longer on a cold start than this pass of tens of microseconds saves in a run.
    """
    n = depth.shape[0]
    first = n
    for i in range(n):
        d = depth[i]
        if d < rest_depth or d == 0.0:
            velocity[i, 0] = 0.0
            velocity[i, 1] = 0.0
        finite = math.isfinite(d) and math.isfinite(velocity[i, 0]) and math.isfinite(velocity[i, 1])
        for k in range(dye.shape[1]):
            finite = finite and math.isfinite(dye[i, k])
        if not finite:
            first = min(first, i)
    return -1 if first == n else first
