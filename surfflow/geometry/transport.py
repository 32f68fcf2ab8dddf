"""Per-edge geometry in each vertex's tangent plane (SPEC §2 item 4).

For every CSR entry (i, j):

* ``edge_transforms`` M_ij (2, 2): the minimal rotation R taking n_j to n_i (about n_j x n_i)
  applied to j's frame, expressed in i's frame: M_ij[a, b] = t_a^i . R t_b^j. It carries a
  tangent vector stored at j into i's frame (discrete parallel transport); M_ji = M_ij^T.
* ``neighbor_coords`` (2,): x_j - x_i projected onto i's tangent plane and rescaled to the edge
  length |x_j - x_i| (for semi-Lagrangian back-tracing).
* ``dual_edge_vectors`` (2,): the dual boundary between i and j is the two segments from the edge
  midpoint to the centroids of the triangles on either side. Each segment's normal (in its
  triangle's plane, length = segment length, pointing from i towards j) is rotated from the
  triangle's normal onto n_i and written in i's frame; the two are summed.

And per vertex ``boundary_normals`` (2,): for a boundary vertex, the halves of its two boundary
edges (vertex to midpoint) with their outward normals, length-weighted, rotated into i's plane.

On a flat mesh sum_j N_ij + Nb_i = 0 for every vertex (the dual cell is a closed polygon).
"""

from __future__ import annotations

import numba
import numpy as np

from ..kernels._jit import parallel_kernel, serial_kernel, serial_twin
from .frames import add3, cross3, dot3, edge3, normalize3, scale3


@serial_kernel
def rotation_onto(a, b, hint):
    """The minimal rotation taking unit vector a to unit vector b, for :func:`rotate`:
    R = I + [w]x + [w]x^2 / (1 + a.b) with w = a x b, as (w, 1 / (1 + a.b), axis, half_turn); for
    a = -b (half_turn) a half-turn about the part of ``hint`` (a 3-tuple of the mesh, say an edge,
    so that the choice turns with the mesh) perpendicular to a."""
    c = dot3(a, b)
    if 1.0 + c < 1e-12:
        axis = normalize3(add3(hint, scale3(-dot3(hint, a), a)))
        return (0.0, 0.0, 0.0), 0.0, axis, True
    return cross3(a, b), 1.0 / (1.0 + c), (0.0, 0.0, 0.0), False


@serial_kernel
def rotate(rotation, v):
    """Apply a rotation from :func:`rotation_onto` to the 3-tuple v."""
    w, s, axis, half_turn = rotation
    if half_turn:
        return add3(scale3(2.0 * dot3(axis, v), axis), scale3(-1.0, v))
    wv = cross3(w, v)
    return add3(add3(v, wv), scale3(s, cross3(w, wv)))


@serial_kernel
def row3(array, i):
    """Row i of an (n, 3) array as a 3-tuple."""
    return (array[i, 0], array[i, 1], array[i, 2])


@serial_kernel
def frame_row(frames, i, a):
    """Tangent vector t_a of vertex i's frame (frames is (n, 2, 3)) as a 3-tuple."""
    return (frames[i, a, 0], frames[i, a, 1], frames[i, a, 2])


@serial_kernel
def toward(vector, direction):
    """vector, its sign flipped if needed so that it points along direction."""
    if dot3(vector, direction) < 0.0:
        return scale3(-1.0, vector)
    return vector


@serial_kernel
def in_frame(frames, i, vector):
    """The 3-tuple vector's coordinates (t_0 . vector, t_1 . vector) in i's frame."""
    first = (frames[i, 0, 0], frames[i, 0, 1], frames[i, 0, 2])
    second = (frames[i, 1, 0], frames[i, 1, 1], frames[i, 1, 2])
    return dot3(vector, first), dot3(vector, second)


@serial_kernel
def add_in_frame(out, row, frames, i, vector):
    """out[row] += vector (a 3-tuple in i's tangent plane) in i's frame coordinates."""
    u, v = in_frame(frames, i, vector)
    out[row, 0] += u
    out[row, 1] += v


@parallel_kernel
def ring_edge_geometry(V, neighbor_offsets, neighbor_indices, is_boundary, normals, tangent_frames,
                       edge_transforms, neighbor_coords, dual_edge_vectors, boundary_normals):
    """Fill edge_transforms (nnz, 2, 2), neighbor_coords (nnz, 2), dual_edge_vectors (nnz, 2)
    and boundary_normals (n, 2); see the module docstring."""
    for i in numba.prange(0, V.shape[0]):
        start, stop = neighbor_offsets[i], neighbor_offsets[i + 1]
        ring = stop - start
        n_i = row3(normals, i)
        for e in range(start, stop):
            j = neighbor_indices[e]
            offset = edge3(V, i, j)
            onto_i = rotation_onto(row3(normals, j), n_i, offset)
            for b in range(2):
                carried = rotate(onto_i, frame_row(tangent_frames, j, b))
                for a in range(2):
                    edge_transforms[e, a, b] = dot3(frame_row(tangent_frames, i, a), carried)
            u, v = in_frame(tangent_frames, i, offset)
            scale = np.sqrt(dot3(offset, offset) / max(u * u + v * v, 1e-300))
            neighbor_coords[e, 0] = u * scale
            neighbor_coords[e, 1] = v * scale
            dual_edge_vectors[e, 0] = 0.0
            dual_edge_vectors[e, 1] = 0.0
        boundary_normals[i, 0] = 0.0
        boundary_normals[i, 1] = 0.0
        n_tri = ring - 1 if is_boundary[i] else ring
        for t in range(n_tri):
            # triangle (i, a, b), counter-clockwise; its dual segments run from the midpoints of
            # ia and ib to its centroid; their normals are rotated from the face onto i's plane
            row_a = start + t
            row_b = row_a + 1 if t + 1 < ring else start
            e_a = edge3(V, i, neighbor_indices[row_a])
            e_b = edge3(V, i, neighbor_indices[row_b])
            face_normal = normalize3(cross3(e_a, e_b))
            face_onto_i = rotation_onto(face_normal, n_i, e_a)
            centroid = scale3(1.0 / 3.0, add3(e_a, e_b))
            normal_a = toward(cross3(add3(centroid, scale3(-0.5, e_a)), face_normal), e_a)
            normal_b = toward(cross3(add3(centroid, scale3(-0.5, e_b)), face_normal), e_b)
            add_in_frame(dual_edge_vectors, row_a, tangent_frames, i, rotate(face_onto_i, normal_a))
            add_in_frame(dual_edge_vectors, row_b, tangent_frames, i, rotate(face_onto_i, normal_b))
            if is_boundary[i] and t == 0:
                half = toward(cross3(scale3(0.5, e_a), face_normal), scale3(-1.0, e_b))
                add_in_frame(boundary_normals, i, tangent_frames, i, rotate(face_onto_i, half))
            if is_boundary[i] and t == n_tri - 1:
                half = toward(cross3(scale3(0.5, e_b), face_normal), scale3(-1.0, e_a))
                add_in_frame(boundary_normals, i, tangent_frames, i, rotate(face_onto_i, half))


ring_edge_geometry_serial = serial_twin(ring_edge_geometry)
