"""Geometry-derived fields of a simulation, filled in place (see ``state.SurfaceFields``).

A still surface fills them once (their numpy twins); a deforming one every step, into the same
arrays, so these kernels only gather: each iteration writes its own vertex or its own CSR
entries.
"""

import numba
import numpy as np

from ._jit import parallel_kernel, serial_kernel


@parallel_kernel
def vertex_gravity_fields(vertices, normals, tangent_frames, gravity, up, vertex_height,
                          normal_rise, tangent_gravity):
    """vertex_height (n,) = e . x_i, normal_rise (n,) = e . n_i, tangent_gravity (n, 2) =
    (t1 . g, t2 . g), written; vertices, normals (n, 3), tangent_frames (n, 2, 3), gravity g and
    up e (3,)."""
    for i in numba.prange(0, vertices.shape[0]):
        vertex_height[i] = vertices[i, 0] * up[0] + vertices[i, 1] * up[1] + vertices[i, 2] * up[2]
        normal_rise[i] = normals[i, 0] * up[0] + normals[i, 1] * up[1] + normals[i, 2] * up[2]
        for a in range(2):
            t = tangent_frames[i, a]
            tangent_gravity[i, a] = t[0] * gravity[0] + t[1] * gravity[1] + t[2] * gravity[2]


@parallel_kernel
def ring_edge_fields(offsets, dual_edge_vectors, reverse_edges, dual_areas, ring_spacing,
                     reverse_dual_edge_vectors):
    """ring_spacing (n,) = ``dual_cell_size`` and reverse_dual_edge_vectors (nnz, 2) = N_ji at
    the entry (i, j), written; offsets (n + 1,), dual_edge_vectors (nnz, 2), reverse_edges
    (nnz,): the entry (j, i) of each (i, j); dual_areas (n,)."""
    for i in numba.prange(0, offsets.shape[0] - 1):
        for e in range(offsets[i], offsets[i + 1]):
            reverse_dual_edge_vectors[e, 0] = dual_edge_vectors[reverse_edges[e], 0]
            reverse_dual_edge_vectors[e, 1] = dual_edge_vectors[reverse_edges[e], 1]
        ring_spacing[i] = dual_cell_size(offsets, dual_edge_vectors, dual_areas, i)


@serial_kernel
def dual_cell_size(offsets, dual_edge_vectors, dual_areas, i):
    """4 A_i / P_i (m), P_i = sum_j |N_ij| the length of the dual edges through which vertex i
    exchanges liquid with its neighbours: the edge length on a mesh of equilateral triangles,
    and the cell's width (area over perimeter, the finite-volume CFL length) on any other. A
    sliver triangle or a short edge at i does not collapse it: its dual edges and its area are
    those of the cell around it."""
    perimeter = 0.0
    for e in range(offsets[i], offsets[i + 1]):
        perimeter += np.sqrt(dual_edge_vectors[e, 0] ** 2 + dual_edge_vectors[e, 1] ** 2)
    return 4.0 * dual_areas[i] / perimeter


@parallel_kernel
def wall_slip_projections(offsets, neighbor_coords, boundary_normals, is_boundary, walls,
                          cos_corner, projections):
    """projections (n, 2, 2), written: the identity inside (and everywhere unless ``walls``, the
    boundary kind being "outflow"), I - nb nb^T on a wall (nb the unit
    boundary normal (n, 2)), zero at a corner, where the normals of the two boundary edges (the
    first and last ring vectors turned by -90 and +90 degrees) meet at an angle cosine below
    ``cos_corner``."""
    for i in numba.prange(0, is_boundary.shape[0]):
        projections[i, 0, 0] = 1.0
        projections[i, 0, 1] = 0.0
        projections[i, 1, 0] = 0.0
        projections[i, 1, 1] = 1.0
        if not (walls and is_boundary[i]):
            continue
        fx, fy = neighbor_coords[offsets[i], 0], neighbor_coords[offsets[i], 1]
        lx, ly = neighbor_coords[offsets[i + 1] - 1, 0], neighbor_coords[offsets[i + 1] - 1, 1]
        first_x, first_y = unit2(fy, -fx)
        last_x, last_y = unit2(-ly, lx)
        if first_x * last_x + first_y * last_y < cos_corner:
            projections[i] = 0.0
            continue
        nx, ny = unit2(boundary_normals[i, 0], boundary_normals[i, 1])
        projections[i, 0, 0] -= nx * nx
        projections[i, 0, 1] -= nx * ny
        projections[i, 1, 0] -= ny * nx
        projections[i, 1, 1] -= ny * ny


@serial_kernel
def unit2(x, y):
    """(x, y) / |(x, y)|."""
    length = np.sqrt(x * x + y * y)
    return x / length, y / length


# a still surface fills the fields once, at the set-up, in numpy: the kernels' operations in the
# same order (the same numbers bit for bit), compiling nothing (the serial twins were 0.5 s of a
# cold start's compiling, ``benchmarks/cold_start.py``; these take 10 ms on 28k vertices)
def vertex_gravity_fields_numpy(vertices, normals, tangent_frames, gravity, up, vertex_height,
                                normal_rise, tangent_gravity):
    """:func:`vertex_gravity_fields` in numpy."""
    vertex_height[:] = vertices[:, 0] * up[0] + vertices[:, 1] * up[1] + vertices[:, 2] * up[2]
    normal_rise[:] = normals[:, 0] * up[0] + normals[:, 1] * up[1] + normals[:, 2] * up[2]
    for a in range(2):
        t = tangent_frames[:, a]
        tangent_gravity[:, a] = t[:, 0] * gravity[0] + t[:, 1] * gravity[1] + t[:, 2] * gravity[2]


def ring_edge_fields_numpy(offsets, dual_edge_vectors, reverse_edges, dual_areas, ring_spacing,
                           reverse_dual_edge_vectors):
    """:func:`ring_edge_fields` in numpy: each ring's perimeter summed in ring order, over the
    vertices of one valence at a time."""
    reverse_dual_edge_vectors[:] = dual_edge_vectors[reverse_edges]
    lengths = np.sqrt(dual_edge_vectors[:, 0] ** 2 + dual_edge_vectors[:, 1] ** 2)
    valences = np.diff(offsets)
    for k in np.unique(valences):
        vertices = np.flatnonzero(valences == k)
        perimeter = np.zeros(len(vertices))
        for m in range(k):
            perimeter += lengths[offsets[vertices] + m]
        ring_spacing[vertices] = 4.0 * dual_areas[vertices] / perimeter


def wall_slip_projections_numpy(offsets, neighbor_coords, boundary_normals, is_boundary, walls,
                                cos_corner, projections):
    """:func:`wall_slip_projections` in numpy."""
    projections[:] = np.eye(2)
    if not walls:
        return
    wall = np.flatnonzero(is_boundary)
    first, last = neighbor_coords[offsets[wall]], neighbor_coords[offsets[wall + 1] - 1]
    unit = getattr(unit2, "py_func", unit2)  # numpy's operations on arrays, as the kernel's
    first_x, first_y = unit(first[:, 1], -first[:, 0])
    last_x, last_y = unit(-last[:, 1], last[:, 0])
    corner = first_x * last_x + first_y * last_y < cos_corner
    nx, ny = unit(boundary_normals[wall, 0], boundary_normals[wall, 1])
    projections[wall, 0, 0] -= nx * nx
    projections[wall, 0, 1] -= nx * ny
    projections[wall, 1, 0] -= ny * nx
    projections[wall, 1, 1] -= ny * ny
    projections[wall[corner]] = 0.0

