"""Connectivity: ordered one-rings in CSR form, reverse edges, boundary flags, components.

Computed once per mesh (it depends only on the faces). The one-ring of vertex i lists its
neighbours counter-clockwise about the outward normal (the faces' orientation), so consecutive
entries (j_t, j_t+1) span the triangle (i, j_t, j_t+1). An interior ring wraps round; a boundary
ring starts at the neighbour across the boundary edge that leaves i and ends at the one across the
edge that arrives at i. Non-manifold vertices (several fans) are rejected by ``validate_mesh``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import scipy.sparse
import scipy.sparse.csgraph

from ..errors import MeshError
from ..kernels._jit import serial_kernel


class Topology(NamedTuple):
    """CSR one-rings and derived flags; shapes as in SurfaceGeometry."""

    neighbor_offsets: np.ndarray   # (n + 1,) int64
    neighbor_indices: np.ndarray   # (nnz,) int64
    reverse_edges: np.ndarray      # (nnz,) int64
    is_boundary: np.ndarray        # (n,) bool
    components: np.ndarray         # (n,) int64


def build_topology(F: np.ndarray, n_vertices: int) -> Topology:
    """Ordered one-rings of a consistently oriented, manifold triangle mesh.

    F: (m, 3) int triangles. Returns a :class:`Topology`.
    """
    F = np.asarray(F, dtype=np.int64)
    corner_vertex = F.ravel()
    # around corner vertex v of face (a, b, c) the ring steps from the next corner to the previous
    ring_from = np.roll(F, -1, axis=1).ravel()
    ring_to = np.roll(F, -2, axis=1).ravel()
    order = np.argsort(corner_vertex, kind="stable")
    pair_offsets = np.zeros(n_vertices + 1, dtype=np.int64)
    np.cumsum(np.bincount(corner_vertex, minlength=n_vertices), out=pair_offsets[1:])
    offsets, indices, is_boundary, bad_vertex = _chain_rings(
        pair_offsets, ring_from[order], ring_to[order], n_vertices)
    if bad_vertex >= 0:
        raise MeshError(
            f"vertex {bad_vertex} is non-manifold (its faces do not form one fan); "
            "run the mesh through surfflow.load_mesh, which reports and explains such vertices"
        )
    reverse = _reverse_edges(offsets, indices, n_vertices)
    adjacency = scipy.sparse.csr_matrix(
        (np.ones(len(indices), dtype=np.int8), indices, offsets), shape=(n_vertices, n_vertices))
    _, components = scipy.sparse.csgraph.connected_components(adjacency, directed=False)
    return Topology(offsets, indices, reverse, is_boundary, components.astype(np.int64))


@serial_kernel
def _has_predecessor(a, p0, p1, ring_from, ring_to):
    """Whether some corner pair among p0:p1 steps onto the start of pair a."""
    for b in range(p0, p1):
        if ring_to[b] == ring_from[a]:
            return True
    return False


@serial_kernel
def _chain_rings(pair_offsets, ring_from, ring_to, n_vertices):
    """Chain each vertex's (from, to) corner pairs into one ordered ring.

    Returns (offsets, indices, is_boundary, bad_vertex); bad_vertex is -1 unless some vertex's
    pairs do not form a single fan.
    """
    is_boundary = np.zeros(n_vertices, dtype=np.bool_)
    sizes = np.zeros(n_vertices, dtype=np.int64)
    for v in range(n_vertices):
        p0, p1 = pair_offsets[v], pair_offsets[v + 1]
        for a in range(p0, p1):
            if not _has_predecessor(a, p0, p1, ring_from, ring_to):
                is_boundary[v] = True
        sizes[v] = p1 - p0 + (1 if is_boundary[v] else 0)
    offsets = np.zeros(n_vertices + 1, dtype=np.int64)
    for v in range(n_vertices):  # a running sum (a slice assignment compiles numba's messages)
        offsets[v + 1] = offsets[v] + sizes[v]
    indices = np.empty(offsets[-1], dtype=np.int64)
    for v in range(n_vertices):
        p0, p1 = pair_offsets[v], pair_offsets[v + 1]
        current = ring_from[p0] if p1 > p0 else -1
        if is_boundary[v]:
            for a in range(p0, p1):
                if not _has_predecessor(a, p0, p1, ring_from, ring_to):
                    current = ring_from[a]
        for k in range(sizes[v]):
            indices[offsets[v] + k] = current
            found = False
            for a in range(p0, p1):
                if ring_from[a] == current:
                    current = ring_to[a]
                    found = True
                    break
            if not found and k != sizes[v] - 1:
                return offsets, indices, is_boundary, v
            if found and k < sizes[v] - 1 and current == indices[offsets[v]]:
                return offsets, indices, is_boundary, v
        if not is_boundary[v] and current != indices[offsets[v]]:
            return offsets, indices, is_boundary, v
    return offsets, indices, is_boundary, -1


def _reverse_edges(offsets: np.ndarray, indices: np.ndarray, n_vertices: int) -> np.ndarray:
    """For every CSR entry (i, j) the position of the entry (j, i); (nnz,) int64."""
    rows = np.repeat(np.arange(n_vertices, dtype=np.int64), np.diff(offsets))
    keys = rows * n_vertices + indices
    order = np.argsort(keys)
    position = np.searchsorted(keys[order], indices * n_vertices + rows)
    return order[position]
