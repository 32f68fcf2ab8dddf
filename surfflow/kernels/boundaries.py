"""Wall boundaries of open meshes: the slip condition u . n_wall = 0 (SPEC §3).

A vertex on a wall sits on the boundary curve, so its velocity must run along it:

    u_i <- P_i u_i,   P_i = I - nb_i nb_i^T   (nb_i the unit outward boundary normal)

P_i is the identity inside the mesh and on outflow boundaries, and zero at a wall corner, where
no direction runs along the wall. Besides the physics this removes the wall-normal component of
the pressure gradient, the one part of the dual-cell gradient that is not exact at a boundary
vertex.
"""

import numba

from ._jit import parallel_kernel


@parallel_kernel
def apply_wall_slip(wall_projections, is_boundary, velocity):
    """u_i <- P_i u_i on the boundary vertices, in place.

    wall_projections (n, 2, 2); is_boundary (n,) bool; velocity (n, 2) in each vertex's frame.
    """
    for i in numba.prange(0, velocity.shape[0]):
        if is_boundary[i]:
            u0, u1 = velocity[i, 0], velocity[i, 1]
            velocity[i, 0] = wall_projections[i, 0, 0] * u0 + wall_projections[i, 0, 1] * u1
            velocity[i, 1] = wall_projections[i, 1, 0] * u0 + wall_projections[i, 1, 1] * u1


@parallel_kernel
def slip_along_shorelines(moving, offsets, dual_edge_vectors, wall, velocity):
    """The slip condition at the walls the step found inside the mesh (a dry bank standing above
    the level, a pinned contact line: ``wall`` (nnz,) bool, no mass crosses them): at each vertex
    of ``moving`` (m,) int64, the velocity's component into every walled dual edge N_ij
    (dual_edge_vectors (nnz, 2), i's frame) is removed,

        u_i <- u_i - max(0, u_i . N_ij) N_ij / |N_ij|^2,

    twice over i's walls, which leaves no component into two walls at an angle. A wall takes
    the normal momentum as the boundary's does (``apply_wall_slip``): liquid pressed against a
    bank rests there, it does not gather speed it cannot use. velocity (n, 2), in place."""
    for k in numba.prange(0, moving.shape[0]):
        i = moving[k]
        for _ in range(2):
            for e in range(offsets[i], offsets[i + 1]):
                if not wall[e]:
                    continue
                n0, n1 = dual_edge_vectors[e, 0], dual_edge_vectors[e, 1]
                into = velocity[i, 0] * n0 + velocity[i, 1] * n1
                size2 = n0 * n0 + n1 * n1
                if into > 0.0 and size2 > 0.0:
                    velocity[i, 0] -= into * n0 / size2
                    velocity[i, 1] -= into * n1 / size2
