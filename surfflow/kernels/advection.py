"""Semi-Lagrangian advection of the velocity, (u . grad_S) u of the momentum equation (SPEC §4).

For a wet vertex i the foot point p = -dt u_i lies in i's tangent plane. Find the one-ring
triangle (0, c_k, c_k+1) (c the ``neighbor_coords``) containing p, with barycentric coordinates
(l0, l1, l2), and take

    u_i_new = l0 u_i + l1 M_ij u_j + l2 M_ik u_k

M the ``edge_transforms`` carrying a neighbour's velocity into i's frame. The CFL condition keeps
p near i; should p still fall outside every ring triangle (a distorted or open ring), it is
clamped to the ring: the triangle whose smallest barycentric coordinate is largest is used, with
negative coordinates set to zero and the rest renormalised. Dry vertices get zero velocity.
"""

import math

import numba

from ._jit import parallel_kernel, serial_kernel


@serial_kernel
def ring_barycentric(p0, p1, a0, a1, b0, b1):
    """Barycentric coordinates (l0, l1, l2) of point p in the triangle (0, a, b), 2D.

    Returns (nan, nan, nan) for a degenerate triangle.
    """
    det = a0 * b1 - a1 * b0
    if det == 0.0:
        return math.nan, math.nan, math.nan
    l1 = (p0 * b1 - p1 * b0) / det
    l2 = (a0 * p1 - a1 * p0) / det
    return 1.0 - l1 - l2, l1, l2


@serial_kernel
def foot_triangle(start, n_triangles, ring_size, coords, p0, p1):
    """The ring triangle that holds the foot point p, or the nearest one (clamped).

    Returns (first CSR entry, second CSR entry, l0, l1, l2) with l >= 0 summing to 1.
    """
    best = (start, start, 1.0, 0.0, 0.0)
    best_score = -math.inf
    for k in range(n_triangles):
        e0 = start + k
        e1 = start + (k + 1) % ring_size
        l0, l1, l2 = ring_barycentric(p0, p1, coords[e0, 0], coords[e0, 1],
                                      coords[e1, 0], coords[e1, 1])
        score = min(l0, min(l1, l2))
        if score >= 0.0:
            return e0, e1, l0, l1, l2
        if score > best_score:
            best_score = score
            best = (e0, e1, l0, l1, l2)
    e0, e1, l0, l1, l2 = best
    l0, l1, l2 = max(l0, 0.0), max(l1, 0.0), max(l2, 0.0)
    total = l0 + l1 + l2
    if not total > 0.0:
        return start, start, 1.0, 0.0, 0.0
    return e0, e1, l0 / total, l1 / total, l2 / total


@parallel_kernel
def advect_velocity(offsets, indices, is_boundary, neighbor_coords, edge_transforms, depth,
                    velocity, min_depth, dt, velocity_out):
    """Back-trace and interpolate the velocity of every wet vertex.

    offsets (n + 1,), indices (nnz,): CSR one-rings; is_boundary (n,) bool (an open ring has one
    triangle fewer); neighbor_coords (nnz, 2); edge_transforms (nnz, 2, 2); depth (n,);
    velocity (n, 2) read, velocity_out (n, 2) written, both in each vertex's frame.
    """
    for i in numba.prange(0, depth.shape[0]):
        if depth[i] < min_depth:
            velocity_out[i, 0] = 0.0
            velocity_out[i, 1] = 0.0
            continue
        start = offsets[i]
        ring_size = offsets[i + 1] - start
        n_triangles = ring_size - 1 if is_boundary[i] else ring_size
        u0, u1 = velocity[i, 0], velocity[i, 1]
        e0, e1, l0, l1, l2 = foot_triangle(start, n_triangles, ring_size, neighbor_coords,
                                           -dt * u0, -dt * u1)
        j, k = indices[e0], indices[e1]
        mj, mk = edge_transforms[e0], edge_transforms[e1]
        uj0 = mj[0, 0] * velocity[j, 0] + mj[0, 1] * velocity[j, 1]
        uj1 = mj[1, 0] * velocity[j, 0] + mj[1, 1] * velocity[j, 1]
        uk0 = mk[0, 0] * velocity[k, 0] + mk[0, 1] * velocity[k, 1]
        uk1 = mk[1, 0] * velocity[k, 0] + mk[1, 1] * velocity[k, 1]
        velocity_out[i, 0] = l0 * u0 + l1 * uj0 + l2 * uk0
        velocity_out[i, 1] = l0 * u1 + l1 * uj1 + l2 * uk1
