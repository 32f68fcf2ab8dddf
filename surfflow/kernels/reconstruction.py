"""Limited gradients for the second-order reconstruction of the HLL stages: the conservative
scheme's and the default's bore patch's (schemes/bores.py; SPEC §10).

For a quantity f stored per vertex (depth, each velocity component in i's frame) the one-ring
least-squares gradient (``ring_fit.py``)

    g_i = sum_j w_ij (f_j - f_i)

is limited by Barth and Jespersen's factor, so the value reconstructed at every edge midpoint,
f_i + phi_i g_i . c_ij / 2 (c_ij the ``neighbor_coords``), stays within the range of f over i
and its one-ring:

    phi_i = min over j of  p_ij phi_ij + (1 - p_ij)
    phi_ij = min(1, (f_max - f_i) / Delta_ij)   if Delta_ij > 0
             min(1, (f_min - f_i) / Delta_ij)   if Delta_ij < 0

with Delta_ij = g_i . c_ij / 2 and p_ij = min(1, |Delta_ij| / (EXPANSION_RAMP max_j |Delta_ij|))
the entry's share of the ring's largest change (``bounded_factor``): an entry nearly across the
gradient, whose Delta_ij round-off makes just positive or just negative, has no say, so
round-off cannot set phi_i to 0 at a vertex that is its ring's extremum (a wall corner's). Such
an entry's value may leave the range by EXPANSION_RAMP / 4 of the largest change; the depth
reconstructed is never negative (a bound of its own). Velocities of
the neighbours enter in i's frame (carried by M_ij, the ``edge_transforms``). Next to a dry
vertex (d < d_min, in the ring or at i) every gradient is zero: the reconstruction is first
order at a shoreline, where a dry cell has no velocity or concentration to interpolate. At a
wall the gradients lose their component across it (the wall mirrors the flow); at an
inflow's and a held level's vertices the stage takes them as zero (schemes/hll_stage.py).
"""

import math

import numba

from ._jit import parallel_kernel, serial_kernel
from .tuning import EXPANSION_RAMP


@serial_kernel
def offset_dot(g0, g1, coords, e, back0, back1):
    """g . (c_e / 2 - b): the change along g from a vertex to its edge e's midpoint moved back
    by b."""
    return g0 * (0.5 * coords[e, 0] - back0) + g1 * (0.5 * coords[e, 1] - back1)


@serial_kernel
def bounded_factor(start, stop, coords, value, low, high, floor, g0, g1):
    """phi_i of the module docstring over the CSR entries e = start..stop of a vertex whose
    value is ``value`` and ring range [low, high], for the gradient (g0, g1): Barth and
    Jespersen's bound of each entry (Delta_e = ``offset_dot``, no shift) weighed by its share
    p_e of the ring's largest change, and value + phi Delta_e >= ``floor`` at every entry
    outright (0 for the depth, -inf for a velocity)."""
    largest = 0.0
    for e in range(start, stop):
        largest = max(largest, abs(offset_dot(g0, g1, coords, e, 0.0, 0.0)))
    if largest == 0.0:
        return 1.0
    phi = 1.0
    for e in range(start, stop):
        delta = offset_dot(g0, g1, coords, e, 0.0, 0.0)
        share = min(1.0, abs(delta) / (EXPANSION_RAMP * largest))
        if delta > 0.0:
            phi = min(phi, share * min(1.0, (high - value) / delta) + (1.0 - share))
        elif delta < 0.0:
            phi = min(phi, share * min(1.0, (low - value) / delta) + (1.0 - share),
                      (floor - value) / delta)
    return max(phi, 0.0)


@serial_kernel
def along_wall(wall_projections, i, g0, g1):
    """The gradient (g0, g1) of vertex i without its component across a wall at i: a wall
    mirrors the flow, so nothing changes across it (the one-sided ring's fit would
    extrapolate one)."""
    return (wall_projections[i, 0, 0] * g0 + wall_projections[i, 0, 1] * g1,
            wall_projections[i, 1, 0] * g0 + wall_projections[i, 1, 1] * g1)


@parallel_kernel
def limited_gradients(reached, offsets, indices, edge_transforms, neighbor_coords, fit_weights,
                      wall_projections, depth, velocity, min_depth, grad_depth, grad_velocity):
    """Write the limited gradients of depth and velocity at the vertices ``reached`` (m,)
    int64 (every vertex, or those a bore's stages reach: schemes/bores.py).

    offsets (n + 1,), indices (nnz,); edge_transforms (nnz, 2, 2); neighbor_coords (nnz, 2);
    fit_weights (nnz, 2); wall_projections (n, 2, 2) (state.wall_projections: I - n n^T at a
    wall, n its normal; I elsewhere); depth (n,); velocity (n, 2). Writes grad_depth (n, 2) and
    grad_velocity (n, 2, 2) (row a: the gradient of component a), in each vertex's frame.
    The dyes' limited slopes are kernels/tracers.py's.
    """
    for k in numba.prange(0, reached.shape[0]):
        i = reached[k]
        start, stop = offsets[i], offsets[i + 1]
        wet = depth[i] >= min_depth
        for e in range(start, stop):
            wet = wet and depth[indices[e]] >= min_depth
        grad_depth[i, 0] = 0.0
        grad_depth[i, 1] = 0.0
        for a in range(2):
            grad_velocity[i, a, 0] = 0.0
            grad_velocity[i, a, 1] = 0.0
        if not wet:
            continue
        # depth
        g0, g1, low, high = 0.0, 0.0, depth[i], depth[i]
        for e in range(start, stop):
            diff = depth[indices[e]] - depth[i]
            g0 += fit_weights[e, 0] * diff
            g1 += fit_weights[e, 1] * diff
            low, high = min(low, depth[indices[e]]), max(high, depth[indices[e]])
        g0, g1 = along_wall(wall_projections, i, g0, g1)
        phi = bounded_factor(start, stop, neighbor_coords, depth[i], low, high, 0.0, g0, g1)
        grad_depth[i, 0], grad_depth[i, 1] = phi * g0, phi * g1
        # velocity components, neighbours carried into i's frame
        for a in range(2):
            g0, g1, low, high = 0.0, 0.0, velocity[i, a], velocity[i, a]
            for e in range(start, stop):
                j = indices[e]
                carried = edge_transforms[e, a, 0] * velocity[j, 0] + edge_transforms[e, a, 1] * velocity[j, 1]
                diff = carried - velocity[i, a]
                g0 += fit_weights[e, 0] * diff
                g1 += fit_weights[e, 1] * diff
                low, high = min(low, carried), max(high, carried)
            g0, g1 = along_wall(wall_projections, i, g0, g1)
            phi = bounded_factor(start, stop, neighbor_coords, velocity[i, a], low, high,
                                 -math.inf, g0, g1)
            grad_velocity[i, a, 0], grad_velocity[i, a, 1] = phi * g0, phi * g1
