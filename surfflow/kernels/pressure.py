"""Gravity plus hydrostatic pressure, well balanced (SPEC §3, §4).

With e = -g / |g| the "up" direction, the free-surface point of vertex i is x_i + h_i n_i,
h_i = b_i + d_i, and its height is

    H_i = e . x_i + h_i (e . n_i)        (``vertex_height`` + h_i ``normal_rise``)

The tangential pull of gravity plus the hydrostatic pressure gradient is F_i = -|g| grad_S H,
with grad H_i a blend, by the vertex's friction share phi_i (``friction.friction_shares``), of
two gradients, both sums of differences H_j - H_i over the one-ring:

    grad H_i = (1 - phi_i) (1 / A_i) sum_j 0.5 (H_j - H_i) N_ij  +  phi_i sum_j w_ij (H_j - H_i)

The first is the barycentric Green-Gauss gradient: minus the adjoint of the continuity's centred
divergence, so the discrete pressure work matches the potential energy change and round-off
around an inviscid lake at rest cannot grow; but it is first order in H's curvature wherever
the ring is not symmetric (low next to an icosphere's valence-5 vertex). The second is the
one-ring least-squares quadratic fit (``ring_fit.py``), exact for quadratic H on a flat ring but
not an adjoint: used alone it lets round-off grow without bound in an inviscid lake. The
continuity blends its centred and upwind fluxes by the same phi (kernels/continuity.py): where
friction slaves the velocity to the depth (phi = 1, a creeping film) the flux is upwind, there is
no centred flux left to pair with, and friction removes energy far faster than the fit's
mismatch can add it; where inertia rules (phi = 0, lakes, waves, dam breaks) the pair is exact,
and the blend is Green-Gauss alone, bit for bit. Both parts are exactly zero for a constant H
(a lake at rest on any surface shape) and exact for a linear H on a flat triangulation. On an
open boundary the Green-Gauss component normal to the wall carries an O(1) error; the wall-slip
condition (kernels/boundaries.py) removes that component. At a shoreline a dry neighbour
standing above the wet vertex's level is a wall (H_j := H_i). Where the surface faces away from
gravity (e . n_i < 0, the underside of an overhang) there is no hydrostatic support: only the
tangential gravity g_t acts. Dry vertices feel no force."""

import numba

from ._jit import parallel_kernel, serial_kernel
from .reconstruction import along_wall
from .shocks import shock_sensor


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
def apply_gravity_pressure(vertices, rings, levels, tangent_gravity, friction_share, depth,
                           min_depth, dt, velocity, sensor, wall_projections):
    """u_i += dt F_i on every wet vertex, in place; and, unless ``sensor`` is empty, in the same
    walk over the ring the continuity's shock sensor s_i (kernels/shocks.py), where the ring is
    wet and friction does not slave the velocity (phi_i < 1: the flux is upwind there, no
    Landshoff term acts).

    vertices (int64 list): the vertices looked at, every wet one among them (all, or an active
    set's ``moving``, schemes/active.py); rings a ``records.Rings`` (offsets, indices,
    dual_edge_vectors, dual_areas, neighbor_coords and the fit_weights w_ij of
    ``ring_fit.ring_fit_weights`` read); levels a ``records.Levels`` (e . x_i, e . n_i, the
    bottom, |g|); tangent_gravity (n, 2) = g in i's frame; friction_share (n,) = phi_i in
    [0, 1]; depth (n,); velocity (n, 2) in each frame; sensor (n,) written at the vertices
    looked at (0 where not computed), or (0,): no sensor wanted (a scheme without the Landshoff
    term); wall_projections (n, 2, 2) the walls' slip projections P_i, which the sensor's
    fitted plane takes. Reads no velocity of a neighbour.
    """
    offsets, indices, dual_areas = rings.offsets, rings.indices, rings.dual_areas
    dual_edge_vectors, neighbor_coords = rings.dual_edge_vectors, rings.neighbor_coords
    fit_weights = rings.fit_weights
    vertex_height, normal_rise, bottom = levels.vertex_height, levels.normal_rise, levels.bottom
    gravity_magnitude = levels.gravity_magnitude
    sense = sensor.shape[0] > 0
    for k in numba.prange(0, vertices.shape[0]):
        i = vertices[k]
        if sense:
            sensor[i] = 0.0
        if depth[i] < min_depth:
            continue
        if normal_rise[i] < 0.0:
            velocity[i, 0] += dt * tangent_gravity[i, 0]
            velocity[i, 1] += dt * tangent_gravity[i, 1]
            continue
        level = free_surface_height(i, vertex_height, normal_rise, bottom, depth)
        dual0 = 0.0
        dual1 = 0.0
        fit0 = 0.0
        fit1 = 0.0
        sensed = sense and friction_share[i] < 1.0  # the shock sensor's sums, over a wet ring
        depth_fit0, depth_fit1, ring0, ring1, rises, spread = 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
        for e in range(offsets[i], offsets[i + 1]):
            j = indices[e]
            rise = seen_level(j, level, vertex_height, normal_rise, bottom, depth,
                              min_depth) - level
            dual0 += 0.5 * rise * dual_edge_vectors[e, 0]
            dual1 += 0.5 * rise * dual_edge_vectors[e, 1]
            fit0 += rise * fit_weights[e, 0]
            fit1 += rise * fit_weights[e, 1]
            if sensed:
                sensed = depth[j] >= min_depth
                deeper = depth[j] - depth[i]
                depth_fit0 += deeper * fit_weights[e, 0]
                depth_fit1 += deeper * fit_weights[e, 1]
                ring0 += neighbor_coords[e, 0]
                ring1 += neighbor_coords[e, 1]
                rises += deeper
                spread += abs(deeper)
        if sensed:
            depth_fit0, depth_fit1 = along_wall(wall_projections, i, depth_fit0, depth_fit1)
            sensor[i] = shock_sensor(rises, spread, depth_fit0 * ring0 + depth_fit1 * ring1,
                                     depth[i])
        scale = dt * gravity_magnitude
        dual_scale = scale / dual_areas[i] * (1.0 - friction_share[i])
        fit_scale = scale * friction_share[i]
        velocity[i, 0] -= dual_scale * dual0 + fit_scale * fit0
        velocity[i, 1] -= dual_scale * dual1 + fit_scale * fit1
