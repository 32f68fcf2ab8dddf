"""Gravity plus hydrostatic pressure, well balanced (SPEC §3, §4).

With e = -g / |g| the "up" direction, the free-surface point of vertex i is x_i + h_i n_i,
h_i = b_i + d_i, and its height is

    H_i = e . x_i + h_i (e . n_i)        (``vertex_height`` + h_i ``normal_rise``)

The tangential pull of gravity plus the hydrostatic pressure gradient is F_i = -|g| grad_S H,

    grad H_i = (1 / A_i) sum_j 0.5 (H_j - H_i) N_ij

which is exactly zero for a constant H (a lake at rest on any surface shape) and exact for a
linear H on a flat triangulation. It is minus the adjoint of the continuity's divergence, so the
discrete pressure work matches the potential energy change (no energy from nowhere). On an open
boundary the component normal to the wall carries an O(1) error; the wall-slip condition
(kernels/boundaries.py) removes that component. At a shoreline a
dry neighbour standing above the wet vertex's level is a wall (H_j := H_i). Where the surface
faces away from gravity (e . n_i < 0, the underside of an overhang) there is no hydrostatic
support: only the tangential gravity g_t acts. Dry vertices feel no force.
"""

import numba

from ._jit import parallel_kernel, serial_kernel


@serial_kernel
def free_surface_height(i, vertex_height, normal_rise, bottom, depth):
    """H_i = e . x_i + (b_i + d_i) (e . n_i), the height of vertex i's free-surface point."""
    return vertex_height[i] + (bottom[i] + depth[i]) * normal_rise[i]


@serial_kernel
def seen_level(j, level, vertex_height, normal_rise, bottom, depth, min_depth):
    """H_j as a wet vertex at height ``level`` sees it: a dry neighbour above it is a wall."""
    neighbor_level = free_surface_height(j, vertex_height, normal_rise, bottom, depth)
    if depth[j] < min_depth and neighbor_level > level:
        return level
    return neighbor_level


@parallel_kernel
def apply_gravity_pressure(offsets, indices, dual_edge_vectors, dual_areas, vertex_height,
                           normal_rise, tangent_gravity, gravity_magnitude, bottom, depth,
                           min_depth, dt, velocity):
    """u_i += dt F_i on every wet vertex, in place.

    offsets (n + 1,), indices (nnz,): CSR one-rings; dual_edge_vectors (nnz, 2); dual_areas (n,);
    vertex_height (n,) = e . x_i; normal_rise (n,) = e . n_i; tangent_gravity (n, 2) = g in i's
    frame; bottom, depth (n,); velocity (n, 2) in each frame. Reads no velocity of a neighbour.
    """
    for i in numba.prange(depth.shape[0]):
        if depth[i] < min_depth:
            continue
        if normal_rise[i] < 0.0:
            velocity[i, 0] += dt * tangent_gravity[i, 0]
            velocity[i, 1] += dt * tangent_gravity[i, 1]
            continue
        level = free_surface_height(i, vertex_height, normal_rise, bottom, depth)
        grad0 = 0.0
        grad1 = 0.0
        for e in range(offsets[i], offsets[i + 1]):
            rise = seen_level(indices[e], level, vertex_height, normal_rise, bottom, depth,
                              min_depth) - level
            grad0 += 0.5 * rise * dual_edge_vectors[e, 0]
            grad1 += 0.5 * rise * dual_edge_vectors[e, 1]
        scale = dt * gravity_magnitude / dual_areas[i]
        velocity[i, 0] -= scale * grad0
        velocity[i, 1] -= scale * grad1
