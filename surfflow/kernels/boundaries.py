"""Wall boundaries of open meshes: the slip condition u . n_wall = 0 (SPEC §3).

A vertex on a wall sits on the boundary curve, so its velocity must run along it:

    u_i <- P_i u_i,   P_i = I - nb_i nb_i^T   (nb_i the unit outward boundary normal)

P_i is the identity inside the mesh and on outflow boundaries, and zero at a wall corner, where
no direction runs along the wall. Besides the physics this removes the wall-normal component of
the pressure gradient, the one part of the dual-cell gradient that is not exact at a boundary
vertex.
"""

import math

import numba

from ._jit import parallel_kernel, serial_kernel


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
def slip_along_shorelines(moving, offsets, dual_edge_vectors, wall, corner_share, velocity):
    """The slip condition at the walls the step found inside the mesh (a dry bank standing above
    the level, a pinned contact line: ``wall`` (nnz,) bool, no mass crosses them), as at a mesh
    wall (``apply_wall_slip``): at each vertex of ``moving`` (m,) int64 with a wall, the
    velocity's component into the shoreline is removed,

        u_i <- u_i - max(0, u_i . N_w) N_w / |N_w|^2,   N_w = sum_walled N_ij,

    N_w the walled part of i's dual cell boundary (dual_edge_vectors (nnz, 2), i's frame), the
    shoreline's outward normal, so that what runs along the shoreline stays. At a corner, where
    no direction runs along it, a velocity that runs into any walled dual edge is set to zero, as
    at a mesh wall's corner: where |N_w| < corner_share sum_walled |N_ij|. On a round dual cell
    whose walled part spans the angle phi the share is sin(phi / 2) / (phi / 2): 2 / pi for a
    straight shoreline (phi = pi), less the more the shoreline turns around i; corner_share is
    its value at pi plus the corner angle of a mesh wall (``geometry.topology.CORNER_ANGLE``,
    ``shoreline_corner_share``).
    Liquid pressed against a bank rests there; it does not gather speed it cannot use.
    velocity (n, 2), in place; offsets (n + 1,)."""
    for k in numba.prange(0, moving.shape[0]):
        i = moving[k]
        n0 = n1 = length = 0.0
        for e in range(offsets[i], offsets[i + 1]):
            if wall[e]:
                n0 += dual_edge_vectors[e, 0]
                n1 += dual_edge_vectors[e, 1]
                length += math.hypot(dual_edge_vectors[e, 0], dual_edge_vectors[e, 1])
        if length == 0.0:
            continue
        if math.hypot(n0, n1) >= corner_share * length:
            remove_into(velocity, i, n0, n1)
            continue
        for e in range(offsets[i], offsets[i + 1]):
            if wall[e] and (velocity[i, 0] * dual_edge_vectors[e, 0]
                            + velocity[i, 1] * dual_edge_vectors[e, 1]) > 0.0:
                velocity[i, 0] = velocity[i, 1] = 0.0
                break


def shoreline_corner_share(corner_angle: float) -> float:
    """sin(phi / 2) / (phi / 2) at phi = pi + corner_angle (rad): ``slip_along_shorelines``'
    corner_share, |N_w| / sum |N_ij| of a round dual cell walled over the angle phi."""
    half = 0.5 * (math.pi + corner_angle)
    return math.sin(half) / half


@serial_kernel
def remove_into(velocity, i, n0, n1):
    """velocity[i] less its component into (n0, n1): u - max(0, u . n) n / |n|^2."""
    into = velocity[i, 0] * n0 + velocity[i, 1] * n1
    size2 = n0 * n0 + n1 * n1
    if into > 0.0 and size2 > 0.0:
        velocity[i, 0] -= into * n0 / size2
        velocity[i, 1] -= into * n1 / size2
