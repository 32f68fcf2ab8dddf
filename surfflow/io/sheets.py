"""Edges in three or more faces cut into sheets, and pinched vertices split per fan.

Of the faces on an edge in k >= 3 faces, the pair that continues most smoothly (normals,
oriented consistently across the edge, agreeing best: the dihedral closest to flat) stays
joined, then the best pair of those left, and so on; a face left over is joined to none. Then
every vertex gets one copy per fan of faces joined across its edges, so the sheets part and each
pinched vertex (faces around it in more than one fan) is split into one vertex per fan, the
copies at the same position, appended after the other vertices. At each vertex the fan of the
joined pair (else the fan of its first corner) keeps the vertex's index.

Where the smoothest pairing leaves the faces of an edge in one fan (the odd face reaches the pair
around a vertex through other faces), the next pairings are tried; if none parts them, each face
outside the smoothest pair gets vertices of its own on the edge, cut loose from its neighbours
there.
"""

from __future__ import annotations

import numpy as np

from .manifold import _component_labels, _next_half_edge, interior_edge_pairs
from .mesh_arrays import counted, listed
from .repair import TURN_OFF, Repair

MAX_PAIRINGS = 6  # pairings of a crowded edge's faces tried before faces are cut loose


def _sheet_pairs(V: np.ndarray, F: np.ndarray, half_edges: np.ndarray,
                 rank: int = 0) -> list[tuple[int, int]]:
    """Pair the half-edges (k,) of one edge in k >= 3 faces, the smoothest pairs first.

    Two faces continue smoothly when their normals, with the second flipped if both faces run
    the edge the same way (so that they are oriented consistently across it), agree: the score
    of a pair is that dot product, 1 for a flat continuation. ``rank`` r > 0 takes the r-th best
    pair first instead of the best (then the best of the rest): the next choice when the best
    one leaves the faces in one fan (:func:`split_into_sheets`).
    """
    faces = half_edges // 3
    a, b, c = V[F[faces, 0]], V[F[faces, 1]], V[F[faces, 2]]
    normal = np.cross(b - a, c - a)
    normal /= np.maximum(np.linalg.norm(normal, axis=1, keepdims=True), np.finfo(float).tiny)
    start = F.ravel()[half_edges]
    sign = np.where(start == start[0], 1.0, -1.0)
    score = -(sign[:, None] * sign[None, :]) * (normal @ normal.T)
    i, j = np.triu_indices(len(half_edges), 1)
    order = np.argsort(-score[i, j], kind="stable")
    order = np.r_[order[rank % len(order)], order]
    pairs, used = [], set()
    for k in order:
        if i[k] not in used and j[k] not in used:
            pairs.append((int(half_edges[i[k]]), int(half_edges[j[k]])))
            used |= {i[k], j[k]}
    return pairs


def crowded_half_edges(F: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                       list[np.ndarray]]:
    """interior_edge_pairs(F, n) and, for each crowded edge, its half-edges (k,)."""
    pairs, crowded, counts = interior_edge_pairs(F, n)
    if not len(crowded):
        return pairs, crowded, counts, []
    start, end = F.ravel(), F[:, [1, 2, 0]].ravel()
    key = np.minimum(start, end) * n + np.maximum(start, end)
    on_crowded = np.flatnonzero(np.isin(key, crowded[:, 0] * n + crowded[:, 1]))
    on_crowded = on_crowded[np.argsort(key[on_crowded], kind="stable")]
    return pairs, crowded, counts, np.split(on_crowded, np.cumsum(counts)[:-1])


def corner_fans(F: np.ndarray, pairs: np.ndarray) -> np.ndarray:
    """Fan label (3 m,) of each corner: corners at one vertex whose faces are joined across an
    edge at that vertex (``pairs`` (p, 2) of half-edges) share a fan."""
    h1, h2 = pairs[:, 0], pairs[:, 1]
    n1, n2 = _next_half_edge(h1), _next_half_edge(h2)
    start = F.ravel()
    same = start[h1] == start[h2]
    a = np.concatenate([h1, n1])
    b = np.concatenate([np.where(same, h2, n2), np.where(same, n2, h2)])
    return _component_labels(a, b, F.size)


def _one_vertex_per_fan(F: np.ndarray, n: int, pairs: np.ndarray, kept: np.ndarray):
    """Re-index F (m, 3) so that each fan of corners (:func:`corner_fans`) has its own vertex:
    at each vertex the fan holding a corner of ``kept`` (c,) (the corners of the joined pair of
    a crowded edge), else its first fan (by corner), keeps the index; the others get n, n + 1, ...
    Returns the new F (m, 3), the source vertex (c,) of each copy, and the fans (n,) per vertex.
    """
    fan = corner_fans(F, pairs)
    fan_vertex = np.empty(fan.max() + 1, dtype=np.int64)
    fan_vertex[fan] = F.ravel()
    fans_at = np.bincount(fan_vertex, minlength=n)
    if not (fans_at > 1).any():
        return F, np.zeros(0, dtype=np.int64), fans_at
    first_corner = np.full(len(fan_vertex), F.size, dtype=np.int64)
    rank = np.arange(F.size)
    rank[kept] -= F.size
    np.minimum.at(first_corner, fan, rank)
    order = np.lexsort((first_corner, fan_vertex))
    is_first = np.r_[True, fan_vertex[order][1:] != fan_vertex[order][:-1]]
    copies = order[~is_first]
    new_vertex = fan_vertex.copy()
    new_vertex[copies] = n + np.arange(len(copies))
    return new_vertex[fan].reshape(-1, 3), fan_vertex[copies], fans_at


def _still_crowded(F: np.ndarray, group: np.ndarray) -> bool:
    """Whether the half-edges ``group`` (k,) still put one edge of F in more than two faces."""
    start, end = F.ravel()[group], F.ravel()[_next_half_edge(group)]
    _, counts = np.unique(np.sort(np.stack([start, end], 1), axis=1), axis=0, return_counts=True)
    return bool((counts > 2).any())


def split_into_sheets(V: np.ndarray, F: np.ndarray, vertex_origin: np.ndarray, where: str):
    """Cut the edges in three or more faces into sheets and split every vertex into one copy
    per fan (module docstring). V (n, 3), F (m, 3), vertex_origin (n,).

    Where the smoothest pairing of an edge leaves its faces in one fan (the odd face reaches the
    pair around a vertex), the next pairings are tried, at most ``MAX_PAIRINGS``; if none parts
    the faces, each face of that edge outside its pair gets its own copies of the edge's two
    vertices (cut loose from the faces around it there).

    Returns V (n + c, 3) with the c copies appended, F (m, 3) re-indexed, vertex_origin (n + c,),
    the joined half-edge pairs (p, 2), and a list of :class:`Repair` (empty when nothing was cut
    or split; then V, F and vertex_origin are the objects passed in).
    """
    pairs, crowded, counts, groups = crowded_half_edges(F, len(V))
    rank = np.zeros(len(groups), dtype=np.int64)
    for _ in range(MAX_PAIRINGS):
        joined, F_split, source, fans_at = _split_with(V, F, pairs, groups, rank)
        unresolved = [k for k, group in enumerate(groups) if _still_crowded(F_split, group)]
        if not unresolved:
            break
        rank[unresolved] += 1
    else:
        rank[unresolved] = 0
        joined, F_split, source, fans_at = _split_with(V, F, pairs, groups, rank)
    if not len(source) and not unresolved:
        return V, F, vertex_origin, joined, []
    loose = [h for k in unresolved for h in _outside_first_pair(V, F, groups[k])]
    if loose:
        F_split, source = _cut_loose(F_split, source, loose, len(V))
        F_split, source = _split_fans_again(F_split, source, len(V))
    repairs = _sheet_repairs(V, crowded, counts, fans_at, source, vertex_origin, where, len(loose))
    return (np.concatenate([V, V[source]]), F_split,
            np.concatenate([vertex_origin, vertex_origin[source]]), joined, repairs)


def _split_with(V, F, pairs, groups, rank):
    """One vertex per fan with the edges in two faces joined and each crowded edge's faces
    paired by :func:`_sheet_pairs` at ``rank`` (k,). Returns the joined pairs and
    :func:`_one_vertex_per_fan`'s F, copies' sources and fans per vertex."""
    chosen = [_sheet_pairs(V, F, group, r) for group, r in zip(groups, rank)]
    sheets = np.array([p for c in chosen for p in c], dtype=np.int64).reshape(-1, 2)
    first = np.array([c[0] for c in chosen], dtype=np.int64).reshape(-1)
    kept = np.r_[first, _next_half_edge(first)]
    joined = np.concatenate([pairs, sheets])
    return (joined, *_one_vertex_per_fan(F, len(V), joined, kept))


def _outside_first_pair(V, F, group) -> list[int]:
    """The half-edges of ``group`` outside the smoothest pair."""
    first = _sheet_pairs(V, F, group, 0)[0]
    return [int(h) for h in group if h not in first]


def _split_fans_again(F: np.ndarray, source: np.ndarray, n: int):
    """One vertex per fan of F (m, 3), whose edges are all in at most two faces now: cutting a
    face loose can split the fan it sat in. Returns F and ``source`` extended by the copies."""
    originals = np.r_[np.arange(n), source]
    pairs, _, _ = interior_edge_pairs(F, len(originals))
    F, more, _ = _one_vertex_per_fan(F, len(originals), pairs, np.zeros(0, dtype=np.int64))
    return F, np.r_[source, originals[more]]


def _cut_loose(F: np.ndarray, source: np.ndarray, loose: list[int], n: int):
    """Give the two corners of each half-edge in ``loose`` a vertex of their own (copies
    appended after the n + len(source) vertices). Returns F and the extended source."""
    if not loose:
        return F, source
    F = F.copy()
    flat = F.reshape(-1)
    corners = np.unique(np.r_[loose, _next_half_edge(np.asarray(loose))])
    originals = np.r_[np.arange(n), source]
    new_source = originals[flat[corners]]
    flat[corners] = n + len(source) + np.arange(len(corners))
    return F, np.r_[source, new_source]


def _sheet_repairs(V, crowded, counts, fans_at, source, vertex_origin, where,
                   loose: int) -> list[Repair]:
    """The warnings of :func:`split_into_sheets`: one for the cut edges, one for the pinches."""
    repairs = []
    on_edges = np.zeros(len(V), dtype=bool)
    on_edges[crowded.ravel()] = True
    if len(crowded):
        shown = listed(f"({vertex_origin[a]}, {vertex_origin[b]}) in {k} faces"
                       for (a, b), k in zip(crowded, counts))
        made = int(on_edges[source].sum())
        cut = (f"; {counted(loose, 'face')} that no pairing parted from the others got "
               "vertices of their own on the edge" if loose else "")
        repairs.append(Repair(
            "non_manifold_edges", len(crowded),
            f"{where}: cut {counted(len(crowded), 'non-manifold edge')} (in more than 2 faces) "
            f"into sheets: edge {shown}; the smoothest pair of faces that lets the sheets part "
            "stays joined and the other faces got copies of the edge's vertices "
            f"({counted(made, 'new vertex', 'new vertices')}, pinches so made included){cut}; "
            f"{TURN_OFF}"))
    pinched = np.flatnonzero((fans_at > 1) & ~on_edges)
    if len(pinched):
        shown = listed(f"{vertex_origin[v]} at {tuple(np.round(V[v], 6).tolist())} ({fans_at[v]} fans)"
                       for v in pinched)
        made = int(np.isin(source, pinched).sum())
        repairs.append(Repair(
            "pinched_vertices", len(pinched),
            f"{where}: split {counted(len(pinched), 'pinched vertex', 'pinched vertices')} (the "
            "faces around each form more than one fan) into one vertex per fan, the copies at "
            f"the same place ({counted(made, 'new vertex', 'new vertices')}): vertex {shown}; "
            f"{TURN_OFF}"))
    return repairs
