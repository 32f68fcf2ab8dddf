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
