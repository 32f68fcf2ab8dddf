"""The collision query: where does a particle's path first cross the mesh?

A uniform grid of cells over the mesh's bounding box lists, for each cell, the triangles whose
bounding boxes touch it (CSR: ``cell_start`` (n_cells + 1,), ``cell_triangles``). It is built
once; :meth:`TriangleGrid.refit` rebuilds the lists in place of the old ones when the mesh moves
(same triangles, new positions; a counting pass, cheap next to a step).

Memory is bounded whatever the mesh: at most 256 cells along an axis, and at most
``MAX_CELLS_PER_TRIANGLE`` list entries per triangle on average. Long slivers and large
triangles beside small ones (a fan, a CAD face) touch many cells each; where they would pass
that, the cells are doubled in size until the lists fit.

A path is the segment p0 -> p1 of one time step. Each particle visits the cells its segment's
bounding box covers and tests their triangles with the Moller-Trumbore segment-triangle test;
the first crossing (smallest t in [0, 1], ties to the lower triangle index) wins. One particle
per iteration, each writing only its own row: the same answer for any thread count.
"""

from __future__ import annotations

import numba
import numpy as np

from ..kernels._jit import parallel_kernel, serial_kernel

PARALLEL_EPSILON = 1e-300  # |det| below this: the segment runs parallel to the triangle
MAX_CELLS_PER_TRIANGLE = 64


class TriangleGrid:
    """A uniform grid over the triangles (vertices (n, 3), faces (m, 3)) for segment queries.

    cells_per_triangle: the grid is sized so that about this many cells exist per triangle.
    """

    def __init__(self, vertices: np.ndarray, faces: np.ndarray, cells_per_triangle: float = 2.0):
        self.faces = np.ascontiguousarray(faces, dtype=np.int64)
        self.cells_per_triangle = cells_per_triangle
        self.refit(vertices)

    def refit(self, vertices: np.ndarray) -> None:
        """Rebuild the cell lists for new vertex positions (n, 3) of the same triangles."""
        self.vertices = np.ascontiguousarray(vertices, dtype=np.float64)
        low, high = self.vertices.min(axis=0), self.vertices.max(axis=0)
        extent = np.maximum(high - low, 1e-9 * max(float(np.max(high - low)), 1e-300))
        n_cells = self.cells_per_triangle * len(self.faces)
        cell = float(np.cbrt(np.prod(extent) / n_cells))
        cell = max(cell, float(extent.max()) / 256.0)
        while True:
            self.origin = low - 1e-6 * cell
            self.shape = np.minimum(np.ceil((high - self.origin) / cell).astype(np.int64) + 1, 256)
            counts = np.zeros(int(np.prod(self.shape)) + 1, dtype=np.int64)
            count_triangle_cells(self.vertices, self.faces, self.origin, cell, self.shape, counts)
            if counts.sum() <= MAX_CELLS_PER_TRIANGLE * len(self.faces) or self.shape.max() <= 2:
                break
            cell *= 2.0
        self.cell_size = cell
        self.cell_start = np.zeros_like(counts)
        np.cumsum(counts[:-1], out=self.cell_start[1:])
        self.cell_triangles = np.empty(self.cell_start[-1], dtype=np.int64)
        fill_triangle_cells(self.vertices, self.faces, self.origin, cell, self.shape,
                            self.cell_start, self.cell_triangles)

    def first_hits(self, start: np.ndarray, end: np.ndarray, hit_triangle: np.ndarray,
                   hit_weights: np.ndarray) -> None:
        """For each segment start[k] -> end[k] ((p, 3) each), the first triangle it crosses
        into hit_triangle (p,) (-1: none) and that point's barycentric weights into
        hit_weights (p, 3)."""
        first_crossings(start, end, self.vertices, self.faces, self.origin, self.cell_size,
                        self.shape, self.cell_start, self.cell_triangles, hit_triangle,
                        hit_weights)


@serial_kernel
def cell_range(low, high, origin, cell, shape, out):
    """The cells [out[a], out[3 + a]] (inclusive, clipped) that the box [low, high] covers;
    returns False when the box misses the grid."""
    for a in range(3):
        first = int(np.floor((low[a] - origin[a]) / cell))
        last = int(np.floor((high[a] - origin[a]) / cell))
        if last < 0 or first >= shape[a]:
            return False
        out[a] = max(first, 0)
        out[3 + a] = min(last, shape[a] - 1)
    return True


@serial_kernel
def triangle_box(vertices, face, low, high):
    for a in range(3):
        low[a] = min(vertices[face[0], a], vertices[face[1], a], vertices[face[2], a])
        high[a] = max(vertices[face[0], a], vertices[face[1], a], vertices[face[2], a])


@serial_kernel
def count_triangle_cells(vertices, faces, origin, cell, shape, counts):
    """counts[c] = the number of triangles whose box touches cell c (serial pass)."""
    low, high, span = np.empty(3), np.empty(3), np.empty(6, dtype=np.int64)
    for f in range(faces.shape[0]):
        triangle_box(vertices, faces[f], low, high)
        if cell_range(low, high, origin, cell, shape, span):
            for x in range(span[0], span[3] + 1):
                for y in range(span[1], span[4] + 1):
                    for z in range(span[2], span[5] + 1):
                        counts[(x * shape[1] + y) * shape[2] + z] += 1


@serial_kernel
def fill_triangle_cells(vertices, faces, origin, cell, shape, cell_start, cell_triangles):
    """cell_triangles[cell_start[c]:cell_start[c + 1]] = the triangles of cell c, ascending."""
    cursor = cell_start[:-1].copy()
    low, high, span = np.empty(3), np.empty(3), np.empty(6, dtype=np.int64)
    for f in range(faces.shape[0]):
        triangle_box(vertices, faces[f], low, high)
        if cell_range(low, high, origin, cell, shape, span):
            for x in range(span[0], span[3] + 1):
                for y in range(span[1], span[4] + 1):
                    for z in range(span[2], span[5] + 1):
                        c = (x * shape[1] + y) * shape[2] + z
                        cell_triangles[cursor[c]] = f
                        cursor[c] += 1


@serial_kernel
def axis_cells(a, b, origin, cell, size):
    """The cells [first, last] of one axis (``size`` of them, from ``origin``, ``cell`` wide)
    that the interval between a and b covers, clipped: first > last when it misses them."""
    first = int(np.floor((min(a, b) - origin) / cell))
    last = int(np.floor((max(a, b) - origin) / cell))
    return max(first, 0), min(last, size - 1)


@serial_kernel
def segment_crosses_triangle(p0, p1, a, b, c):
    """Moller-Trumbore: (t, u, v), the parameter t in [0, 1] where p0 + t (p1 - p0) crosses the
    triangle (a, b, c) (each (3,)) and the point's barycentric weights (1 - u - v, u, v);
    t = -1 if it misses. Scalar arithmetic only (no temporary arrays)."""
    dx, dy, dz = p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]
    e1x, e1y, e1z = b[0] - a[0], b[1] - a[1], b[2] - a[2]
    e2x, e2y, e2z = c[0] - a[0], c[1] - a[1], c[2] - a[2]
    hx, hy, hz = dy * e2z - dz * e2y, dz * e2x - dx * e2z, dx * e2y - dy * e2x  # d x e2
    det = e1x * hx + e1y * hy + e1z * hz
    if abs(det) < PARALLEL_EPSILON:
        return -1.0, 0.0, 0.0
    sx, sy, sz = p0[0] - a[0], p0[1] - a[1], p0[2] - a[2]
    u = (sx * hx + sy * hy + sz * hz) / det
    if u < 0.0 or u > 1.0:
        return -1.0, 0.0, 0.0
    qx, qy, qz = sy * e1z - sz * e1y, sz * e1x - sx * e1z, sx * e1y - sy * e1x  # s x e1
    v = (dx * qx + dy * qy + dz * qz) / det
    if v < 0.0 or u + v > 1.0:
        return -1.0, 0.0, 0.0
    t = (e2x * qx + e2y * qy + e2z * qz) / det
    if t < 0.0 or t > 1.0:
        return -1.0, 0.0, 0.0
    return t, u, v


@parallel_kernel
def first_crossings(start, end, vertices, faces, origin, cell, shape, cell_start, cell_triangles,
                    hit_triangle, hit_weights):
    """See :meth:`TriangleGrid.first_hits`; one particle per iteration, no allocation in it
    (a falling drop's path covers one or two cells: allocating cost more than their tests)."""
    for k in numba.prange(start.shape[0]):
        p0 = start[k]
        p1 = end[k]
        x0, x1 = axis_cells(p0[0], p1[0], origin[0], cell, shape[0])
        y0, y1 = axis_cells(p0[1], p1[1], origin[1], cell, shape[1])
        z0, z1 = axis_cells(p0[2], p1[2], origin[2], cell, shape[2])
        best_t = 2.0
        best = -1
        for x in range(x0, x1 + 1):
            for y in range(y0, y1 + 1):
                for z in range(z0, z1 + 1):
                    c = (x * shape[1] + y) * shape[2] + z
                    for entry in range(cell_start[c], cell_start[c + 1]):
                        f = cell_triangles[entry]
                        face = faces[f]
                        t, u, v = segment_crosses_triangle(p0, p1, vertices[face[0]],
                                                           vertices[face[1]], vertices[face[2]])
                        if t >= 0.0 and (t < best_t or (t == best_t and f < best)):
                            best_t = t
                            best = f
                            hit_weights[k, 0] = 1.0 - u - v
                            hit_weights[k, 1] = u
                            hit_weights[k, 2] = v
        hit_triangle[k] = best
