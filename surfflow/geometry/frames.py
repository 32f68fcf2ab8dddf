"""Vertex normals, barycentric control areas and tangent frames (SPEC §2 items 2 and 3).

For vertex i with ordered one-ring j_0 .. j_{k-1} the ring triangles are (i, j_t, j_{t+1}) (the
last one wraps round for interior vertices). With e1 = x_{j_t} - x_i, e2 = x_{j_t+1} - x_i:

* control area  A_i = sum_t |e1 x e2| / 6      (the barycentric dual cell: a third of each
  triangle, bounded by the segments from centroids to edge midpoints; sum_i A_i = surface area)
* normal        n_i = normalise(sum_t w_t (e1 x e2) / |e1 x e2|), w_t the triangle's area
  ("area") or its angle at i ("angle")
* frame         t1 = normalise(x_{j_0} - x_i projected onto the tangent plane), t2 = n x t1

The frame follows the first ring edge, so it moves continuously with a deforming mesh and
rotates with the mesh (rotation invariance).
"""

from __future__ import annotations

import numba
import numpy as np

from ..kernels._jit import parallel_kernel, serial_kernel, serial_twin


def vertex_normals(V: np.ndarray, F: np.ndarray, weighting: str = "area") -> np.ndarray:
    """Unit vertex normals of any triangle mesh, plain numpy.

    V: (n, 3) positions; F: (m, 3) triangles; weighting: "area" or "angle".
    Returns (n, 3). A vertex in no face gets the zero vector.
    """
    V = np.asarray(V, dtype=np.float64)
    F = np.asarray(F, dtype=np.int64)
    corners = V[F]                                        # (m, 3, 3)
    face_cross = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    if weighting == "area":
        weights = np.repeat(face_cross[:, None, :], 3, axis=1) * 0.5
    else:
        length = np.linalg.norm(face_cross, axis=1, keepdims=True)
        unit = np.divide(face_cross, length, out=np.zeros_like(face_cross), where=length > 0)
        angles = _corner_angles(corners)                  # (m, 3)
        weights = unit[:, None, :] * angles[:, :, None]
    normals = np.zeros_like(V)
    for axis in range(3):
        normals[:, axis] = np.bincount(F.ravel(), weights[:, :, axis].ravel(), minlength=len(V))
    length = np.linalg.norm(normals, axis=1, keepdims=True)
    return np.divide(normals, length, out=np.zeros_like(normals), where=length > 0)


def _corner_angles(corners: np.ndarray) -> np.ndarray:
    """Interior angles (m, 3) of triangles given as corner positions (m, 3, 3)."""
    angles = np.empty(corners.shape[:2])
    for k in range(3):
        a = corners[:, (k + 1) % 3] - corners[:, k]
        b = corners[:, (k + 2) % 3] - corners[:, k]
        angles[:, k] = np.arctan2(np.linalg.norm(np.cross(a, b), axis=1), np.einsum("ij,ij->i", a, b))
    return angles


@serial_kernel
def cross3(a, b):
    """Cross product of two 3-tuples."""
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


@serial_kernel
def dot3(a, b):
    """Dot product of two 3-tuples."""
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


@serial_kernel
def edge3(V, i, j):
    """The vector x_j - x_i as a 3-tuple; V is (n, 3)."""
    return (V[j, 0] - V[i, 0], V[j, 1] - V[i, 1], V[j, 2] - V[i, 2])


@serial_kernel
def scale3(s, a):
    return (s * a[0], s * a[1], s * a[2])


@serial_kernel
def add3(a, b):
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


@serial_kernel
def normalize3(a):
    """a / |a| (the zero tuple stays zero)."""
    length = np.sqrt(dot3(a, a))
    if length == 0.0:
        return a
    return scale3(1.0 / length, a)


@parallel_kernel
def ring_normals_areas_frames(V, neighbor_offsets, neighbor_indices, is_boundary, angle_weighted,
                              normals, dual_areas, tangent_frames):
    """Fill normals (n, 3), dual_areas (n,) and tangent_frames (n, 2, 3) from ordered one-rings."""
    for i in numba.prange(0, V.shape[0]):
        start, stop = neighbor_offsets[i], neighbor_offsets[i + 1]
        ring = stop - start
        n_tri = ring - 1 if is_boundary[i] else ring
        normal = (0.0, 0.0, 0.0)
        area = 0.0
        for t in range(n_tri):
            e1 = edge3(V, i, neighbor_indices[start + t])
            e2 = edge3(V, i, neighbor_indices[start + (t + 1) % ring])
            c = cross3(e1, e2)
            twice_area = np.sqrt(dot3(c, c))
            area += twice_area / 6.0
            weight = 0.5
            if angle_weighted:
                weight = np.arctan2(twice_area, dot3(e1, e2)) / max(twice_area, 1e-300)
            normal = add3(normal, scale3(weight, c))
        normal = normalize3(normal)
        first = edge3(V, i, neighbor_indices[start])
        t1 = normalize3(add3(first, scale3(-dot3(first, normal), normal)))
        t2 = cross3(normal, t1)
        dual_areas[i] = area
        for axis in range(3):
            normals[i, axis] = normal[axis]
            tangent_frames[i, 0, axis] = t1[axis]
            tangent_frames[i, 1, axis] = t2[axis]


@parallel_kernel
def offset_along_normals(vertices, heights, normals, out):
    """out (n, 3), written: x_i + b_i n_i, from vertices and normals (n, 3) and heights (n,)."""
    for i in numba.prange(vertices.shape[0]):
        for axis in range(3):
            out[i, axis] = vertices[i, axis] + heights[i] * normals[i, axis]


ring_normals_areas_frames_serial = serial_twin(ring_normals_areas_frames)
