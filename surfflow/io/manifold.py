"""Manifold and orientation tests of a triangle list, vectorised with numpy and scipy.

Half-edge ``h = 3 f + k`` runs from ``F[f, k]`` to ``F[f, (k + 1) % 3]``. Corner ``h`` is face f's
corner at vertex ``F[f, k]``, so half-edge h starts at corner h and ends at corner ``next(h)``.
These functions only find things; :mod:`surfflow.io.mesh` turns what they find into errors.
"""

from __future__ import annotations

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components


def _next_half_edge(h: np.ndarray) -> np.ndarray:
    """The half-edge after ``h`` in its face, (k,) -> (k,)."""
    return h - h % 3 + (h % 3 + 1) % 3


def _component_labels(a: np.ndarray, b: np.ndarray, size: int) -> np.ndarray:
    """Connected-component label (size,) of the undirected graph with edges (a[k], b[k])."""
    graph = coo_matrix((np.ones(len(a), dtype=np.int8), (a, b)), shape=(size, size))
    return connected_components(graph, directed=False)[1]


def interior_edge_pairs(F: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Match the half-edges of each edge.

    F: (m, 3) int64 triangles over n vertices, no repeated index within a face.
    Returns ``pairs`` (p, 2) int64, the two half-edges of every edge in exactly two faces;
    ``crowded_edges`` (k, 2) int64, the vertex pairs of the edges in more than two faces; and
    ``crowded_counts`` (k,) int64, how many faces each of those is in. Edges in one face (the
    boundary of an open mesh) appear in neither.
    """
    start, end = F.ravel(), F[:, [1, 2, 0]].ravel()
    low, high = np.minimum(start, end), np.maximum(start, end)
    key = low * n + high
    order = np.argsort(key, kind="stable")
    sorted_key = key[order]
    first = np.flatnonzero(np.r_[True, sorted_key[1:] != sorted_key[:-1]])
    counts = np.diff(np.r_[first, len(key)])
    paired = first[counts == 2]
    pairs = np.stack([order[paired], order[paired + 1]], axis=1)
    crowded = order[first[counts > 2]]
    crowded_edges = np.stack([low[crowded], high[crowded]], axis=1)
    return pairs, crowded_edges, counts[counts > 2]


def _same_direction(F: np.ndarray, pairs: np.ndarray) -> np.ndarray:
    """(p,) bool: the two half-edges of each pair run the same way (inconsistent orientation)."""
    start = F.ravel()
    return start[pairs[:, 0]] == start[pairs[:, 1]]


def vertex_fan_counts(F: np.ndarray, pairs: np.ndarray, n: int) -> np.ndarray:
    """Number of fans (n,) int64 around each vertex: 1 on a manifold vertex, 0 if unreferenced.

    Two corners at the same vertex are in one fan when their faces share an edge at that vertex;
    a vertex whose corners fall into more than one fan is pinched (non-manifold).
    """
    h1, h2 = pairs[:, 0], pairs[:, 1]
    n1, n2 = _next_half_edge(h1), _next_half_edge(h2)
    same = _same_direction(F, pairs)
    a = np.concatenate([h1, n1])
    b = np.concatenate([np.where(same, h2, n2), np.where(same, n2, h2)])
    fan = _component_labels(a, b, F.size)
    fan_vertex = np.empty(fan.max() + 1, dtype=np.int64)
    fan_vertex[fan] = F.ravel()  # all corners of a fan sit at one vertex
    return np.bincount(fan_vertex, minlength=n)


def orientation_flips(F: np.ndarray, pairs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which faces to flip so that every shared edge is walked both ways.

    Solves flip[f1] xor flip[f2] = same_direction(f1, f2) over the shared edges with the
    orientation double cover: node f is face f as given, node f + m is face f flipped, and an edge
    links the two states that agree. A component of faces is orientable when its two sheets are
    separate components; then one sheet is a consistent orientation, and the one that flips fewer
    faces is chosen. Returns ``flip`` (m,) bool and ``non_orientable`` (m,) bool (faces in a
    component, such as a Moebius strip, that no choice of flips makes consistent).
    """
    m = len(F)
    same = _same_direction(F, pairs)
    if not same.any():
        return np.zeros(m, dtype=bool), np.zeros(m, dtype=bool)
    f1, f2 = pairs[:, 0] // 3, pairs[:, 1] // 3
    a = np.concatenate([f1, f1 + m])
    b = np.concatenate([np.where(same, f2 + m, f2), np.where(same, f2, f2 + m)])
    label = _component_labels(a, b, 2 * m)
    as_given, flipped = label[:m], label[m:]
    non_orientable = as_given == flipped
    flip = flipped < as_given
    component = np.minimum(as_given, flipped)
    flips_in = np.bincount(component, weights=flip, minlength=2 * m)
    faces_in = np.bincount(component, minlength=2 * m)
    flip ^= (flips_in > faces_in / 2)[component]
    return flip & ~non_orientable, non_orientable
