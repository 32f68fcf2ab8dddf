"""Adaptive time step from the CFL condition on the one-ring (SPEC §4).

    dt = min(max_dt, cfl * min over wet i of r_i / (|u_i| + sqrt(|g| d_i)))

r_i is the size of i's dual cell (``ring_spacing``, ``kernels/fields.dual_cell_size``): 4 A_i over
its perimeter, the finite-volume CFL length, equal to the edge length on equilateral triangles.
A sliver triangle or a short edge at i does not collapse it, so one bad triangle does not set
the pace of the whole run (tests/test_sliver_pace.py). A surface with no wet vertex, or with
still water and no gravity, gets max_dt.
"""

import math

import numba

from ._jit import parallel_kernel


@parallel_kernel
def cfl_time_step(depth, velocity, ring_spacing, gravity_magnitude, min_depth, cfl, max_dt):
    """The largest stable time step.

    depth (n,), velocity (n, 2) in each vertex's frame, ring_spacing (n,) metres.
    Returns a float (seconds). The min reduction is exact, so any thread count agrees.
    """
    shortest = math.inf
    for i in numba.prange(depth.shape[0]):
        d = depth[i]
        if d >= min_depth:
            flow = math.sqrt(velocity[i, 0] ** 2 + velocity[i, 1] ** 2)
            speed = flow + math.sqrt(gravity_magnitude * d)
            if speed > 0.0:
                shortest = min(shortest, ring_spacing[i] / speed)
    return min(max_dt, cfl * shortest)
