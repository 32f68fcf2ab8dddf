"""The surface's own acceleration felt by the film: gravity becomes g - a_i (SPEC §9).

In the frame of a moving surface the liquid feels, besides gravity, the inertial body force
-a_i (a_i (n, 3) the acceleration of the surface at vertex i). Both together are an effective
gravity g - a_i, and the well-balanced form of ``pressure.py`` carries over to it vertex by
vertex: with p_j = x_j + h_j n_j the free-surface point of j (h_j = b_j + d_j), the potential
plus pressure head that vertex i sees at j is

    Q_j = -(g - a_i) . p_j = |g| H_j + a_i . p_j

and the force is F_i = -grad_S Q at i. ``pressure.py`` applies the |g| H part; this kernel adds

    F^a_i = -grad_S (a_i . p)  =  -P_i a_i  -  grad_S (h (a_i . n))  + O(curvature)

with the same gradient (the Green-Gauss / one-ring-fit blend by the friction share phi_i) and
the same dry-neighbour walls. Its tangential part is -P_i a_i (P_i the tangent projection) and
its normal part changes the hydrostatic support from |g| e . n_i to |g| e . n_i + a_i . n_i.
Because the two parts use one linear gradient, a lake at rest under a uniform g - a stays at
rest to round-off, and a uniform acceleration a of everything is gravity g - a (equivalence
principle).

Where gravity gives no hydrostatic support (e . n_i < 0, the overhang rule of ``pressure.py``)
or the surface accelerates away from the liquid faster than gravity presses it on
(|g| e . n_i + a_i . n_i < 0), only the tangential part -P_i a_i acts: the film stays on the
surface and piles up (lifting off as droplets is not modelled here). The Coriolis force of a
rotating surface, -2 Omega x u, is ``coriolis.py``'s. Dry vertices feel no force.

The second time difference a_i is the acceleration at the middle one of the last three moves;
``carry_with_frames`` turns it with the surface's local frame (t0, t1, n) from there to the
last move, so that the centripetal acceleration of a steadily turning surface, fixed in the
surface, points where the surface is now: a_i' = sum_k (b_k . a_i) b'_k over the frame's three
axes b = (t0, t1, t0 x t1) then and b' now.
"""

import numba
import numpy as np

from ._jit import parallel_kernel, serial_kernel
from .pressure import free_surface_height


@serial_kernel
def along(acceleration, i, vectors, j):
    """a_i . v_j for (n, 3) arrays."""
    return (acceleration[i, 0] * vectors[j, 0] + acceleration[i, 1] * vectors[j, 1]
            + acceleration[i, 2] * vectors[j, 2])


@parallel_kernel
def apply_inertial_force(rings, levels, friction_share, vertices, normals, tangent_frames,
                         acceleration, depth, min_depth, dt, velocity):
    """u_i += dt F^a_i on every wet vertex, in place.

    rings a ``records.Rings`` (offsets, indices, dual_edge_vectors, dual_areas, fit_weights
    read); levels a ``records.Levels`` (as in ``pressure.py``); friction_share (n,) = phi_i;
    vertices, normals (n, 3); tangent_frames (n, 2, 3); acceleration (n, 3) = a_i in world
    space; depth (n,); velocity (n, 2) in each frame. Reads no velocity of a neighbour.
    """
    offsets, indices, dual_areas = rings.offsets, rings.indices, rings.dual_areas
    dual_edge_vectors, fit_weights = rings.dual_edge_vectors, rings.fit_weights
    vertex_height, normal_rise, bottom = levels.vertex_height, levels.normal_rise, levels.bottom
    gravity_magnitude = levels.gravity_magnitude
    for i in numba.prange(0, depth.shape[0]):
        if depth[i] < min_depth:
            continue
        support = gravity_magnitude * normal_rise[i] + along(acceleration, i, normals, i)
        if normal_rise[i] < 0.0 or support < 0.0:
            velocity[i, 0] -= dt * along(acceleration, i, tangent_frames[:, 0, :], i)
            velocity[i, 1] -= dt * along(acceleration, i, tangent_frames[:, 1, :], i)
            continue
        level = free_surface_height(i, vertex_height, normal_rise, bottom, depth)
        own = along(acceleration, i, vertices, i) + (bottom[i] + depth[i]) * along(
            acceleration, i, normals, i)
        dual0 = 0.0
        dual1 = 0.0
        fit0 = 0.0
        fit1 = 0.0
        for e in range(offsets[i], offsets[i + 1]):
            j = indices[e]
            if depth[j] < min_depth and free_surface_height(j, vertex_height, normal_rise, bottom,
                                                            depth) > level:
                continue
            rise = along(acceleration, i, vertices, j) + (bottom[j] + depth[j]) * along(
                acceleration, i, normals, j) - own
            dual0 += 0.5 * rise * dual_edge_vectors[e, 0]
            dual1 += 0.5 * rise * dual_edge_vectors[e, 1]
            fit0 += rise * fit_weights[e, 0]
            fit1 += rise * fit_weights[e, 1]
        dual_scale = dt / dual_areas[i] * (1.0 - friction_share[i])
        fit_scale = dt * friction_share[i]
        velocity[i, 0] -= dual_scale * dual0 + fit_scale * fit0
        velocity[i, 1] -= dual_scale * dual1 + fit_scale * fit1


@parallel_kernel
def second_time_difference(x0, x1, x2, t0, t1, t2, acceleration):
    """acceleration (n, 3), written: a = 2 / (t2 - t0) [(x2 - x1) / (t2 - t1) - (x1 - x0) /
    (t1 - t0)] from the positions x0, x1, x2 (n, 3) at the times t0 < t1 < t2."""
    for i in numba.prange(0, x0.shape[0]):
        for axis in range(3):
            acceleration[i, axis] = 2.0 / (t2 - t0) * ((x2[i, axis] - x1[i, axis]) / (t2 - t1)
                                                       - (x1[i, axis] - x0[i, axis]) / (t1 - t0))


@parallel_kernel
def carry_with_frames(frames_before, frames_now, vectors):
    """vectors (n, 3) carried in place from the frames (n, 2, 3) ``frames_before`` to
    ``frames_now``: the same components on the axes (t0, t1, t0 x t1)."""
    for i in numba.prange(0, vectors.shape[0]):
        a = frames_before[i, 0]
        b = frames_before[i, 1]
        normal = (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])
        c0 = a[0] * vectors[i, 0] + a[1] * vectors[i, 1] + a[2] * vectors[i, 2]
        c1 = b[0] * vectors[i, 0] + b[1] * vectors[i, 1] + b[2] * vectors[i, 2]
        c2 = normal[0] * vectors[i, 0] + normal[1] * vectors[i, 1] + normal[2] * vectors[i, 2]
        a = frames_now[i, 0]
        b = frames_now[i, 1]
        normal = (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])
        for axis in range(3):
            vectors[i, axis] = c0 * a[axis] + c1 * b[axis] + c2 * normal[axis]


@serial_kernel
def largest_length(vectors):
    """max_i |v_i| over the rows of vectors (n, 3); 0 for no rows."""
    largest = 0.0
    for i in range(vectors.shape[0]):
        largest = max(largest, vectors[i, 0] ** 2 + vectors[i, 1] ** 2 + vectors[i, 2] ** 2)
    return np.sqrt(largest)
