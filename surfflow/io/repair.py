"""Repairing the defects of a triangle mesh that a surface flow can live with.

Three repairs, each a pure function of the arrays that returns the repaired arrays and a
:class:`Repair` record (or None when there was nothing to repair, in which case the arrays come
back as the very objects passed in, so a clean mesh passes bit for bit):

* :func:`collapse_degenerate_faces`: a face with a repeated vertex is dropped; a face of zero
  area has its shortest edge collapsed (the edge's second vertex merged into its first, which
  keeps its position) where the faces around the merged vertex stay manifold (no edge in three
  faces, one fan), and is dropped otherwise.
* :func:`split_into_sheets`: every edge in three or more faces is cut into sheets: of the faces
  on it, the pair that continues most smoothly (normals, oriented consistently across the edge,
  agreeing best: the dihedral closest to flat) stays joined, then the best pair of those left,
  and so on; a face left over is joined to none. Then every vertex gets one copy per fan of
  faces joined across its edges, so the sheets part and each pinched vertex (faces around it in
  more than one fan) is split into one vertex per fan, the copies at the same position.

Vertices keep their order; copies are appended after them. ``vertex_origin`` (n,) and
``face_origin`` (m,) carry the input index of each vertex and face so that messages name the
places the user knows. Loops run over the defective items only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .manifold import _component_labels, _next_half_edge, interior_edge_pairs, vertex_fan_counts
from .mesh_arrays import counted, listed

TURN_OFF = "load with repair=False to refuse such a mesh instead"
MAX_PAIRINGS = 6  # pairings of a crowded edge's faces tried before faces are cut loose


@dataclass(frozen=True)
class Repair:
    """One kind of change the loader made to a mesh.

    kind : str
        what was done: "fan_triangulated", "merged_vertices", "degenerate_faces",
        "duplicate_faces", "unreferenced_vertices", "non_manifold_edges", "pinched_vertices" or
        "flipped_faces".
    count : int
        how many items (faces, vertices, edges) it changed.
    message : str
        the sentence of the :class:`~surfflow.errors.MeshWarning`: what changed, how many,
        where (the first few places) and, for the repairs ``repair=False`` turns off, how to.
    """

    kind: str
    count: int
    message: str

    def __str__(self) -> str:
        return self.message


def face_areas(V: np.ndarray, F: np.ndarray) -> np.ndarray:
    """Triangle areas (m,); V (n, 3), F (m, 3)."""
    a, b, c = V[F[:, 0]], V[F[:, 1]], V[F[:, 2]]
    return 0.5 * np.linalg.norm(np.cross(b - a, c - a), axis=1)


def degenerate_faces(V: np.ndarray, F: np.ndarray, area_fraction: float,
                     area: np.ndarray | None = None) -> np.ndarray:
    """(m,) bool: faces with a repeated vertex or an area <= area_fraction x the mean area
    (``area`` (m,): the face areas, if already known)."""
    repeated = (F[:, 0] == F[:, 1]) | (F[:, 1] == F[:, 2]) | (F[:, 2] == F[:, 0])
    area = face_areas(V, F) if area is None else area
    return repeated | (area <= area_fraction * area.mean())


class _VertexFaces:
    """The faces around each vertex while vertices are merged one edge at a time.

    Built once as a CSR table of F (vertex -> corners); a merged vertex's faces are the union of
    its members' rows, so each query costs the size of the rows it reads, not the mesh.
    """

    def __init__(self, F: np.ndarray, n: int):
        corners = np.argsort(F.ravel(), kind="stable")
        self.faces = corners // 3
        self.starts = np.searchsorted(F.ravel()[corners], np.arange(n + 1))
        self.members: dict[int, list[int]] = {}

    def around(self, v: int, alive: np.ndarray) -> set[int]:
        rows = self.members.get(v, [v])
        return {int(f) for u in rows for f in self.faces[self.starts[u]:self.starts[u + 1]]
                if alive[f]}

    def merge(self, keep: int, gone: int) -> None:
        self.members[keep] = self.members.get(keep, [keep]) + self.members.pop(gone, [gone])


def _locally_manifold(faces: np.ndarray, vertex: int) -> bool:
    """Faces (k, 3) around ``vertex`` (all of them): no repeated face, no edge in more than two
    of them, and one fan at ``vertex``."""
    if len(faces) == 0:
        return True
    if len(np.unique(np.sort(faces, axis=1), axis=0)) < len(faces):
        return False
    labels, local = np.unique(faces, return_inverse=True)
    local = local.reshape(faces.shape)
    pairs, crowded, _ = interior_edge_pairs(local, len(labels))
    if len(crowded):
        return False
    return bool(vertex_fan_counts(local, pairs, len(labels))[np.searchsorted(labels, vertex)] == 1)


def collapse_degenerate_faces(V: np.ndarray, F: np.ndarray, area_fraction: float,
                              vertex_origin: np.ndarray, face_origin: np.ndarray, where: str):
    """Collapse or drop the degenerate faces (:func:`degenerate_faces`) of V (n, 3), F (m, 3).

    Faces that a collapse leaves degenerate are dropped too. Returns V (n', 3) without the
    vertices merged away, F (m', 3) without the dropped and collapsed faces, vertex_origin (n',),
    face_origin (m',) and a :class:`Repair` (None, and the arrays passed in, when no face is
    degenerate).
    """
    area = face_areas(V, F)
    threshold = area_fraction * area.mean()
    bad = degenerate_faces(V, F, area_fraction, area)
    if not bad.any():
        return V, F, vertex_origin, face_origin, None
    into = np.arange(len(V))
    alive = np.ones(len(F), dtype=bool)
    table = _VertexFaces(F, len(V))
    collapsed, dropped = [], []
    for f in np.flatnonzero(bad):
        if not alive[f]:
            continue
        corners = into[F[f]]
        shown = f"{face_origin[f]} {tuple(vertex_origin[F[f]].tolist())}"
        alive[f] = False
        if len(set(corners.tolist())) == 3 and _collapse_shortest_edge(V, F, corners, into,
                                                                       alive, table):
            collapsed.append(shown)
        else:
            dropped.append(shown)
    F = into[F]
    touched = np.array(sorted({f for v in table.members for f in table.around(v, alive)}),
                       dtype=np.int64)
    left_bad = touched[face_areas(V, F[touched]) <= threshold]
    dropped += [f"{face_origin[f]} {tuple(vertex_origin[F[f]].tolist())}" for f in left_bad]
    alive[left_bad] = False
    F, face_origin = F[alive], face_origin[alive]
    keep = into == np.arange(len(V))
    new_index = np.cumsum(keep) - 1
    parts = []
    if collapsed:
        parts.append(f"collapsed the shortest edge of {counted(len(collapsed), 'degenerate face')}"
                     f" (face {listed(collapsed)})")
    if dropped:
        parts.append(f"dropped {counted(len(dropped), 'degenerate face')} that had a repeated "
                     f"vertex or whose collapse would not keep the mesh manifold (face "
                     f"{listed(dropped)})")
    repair = Repair("degenerate_faces", len(collapsed) + len(dropped),
                    f"{where}: {' and '.join(parts)}; a degenerate face has zero area or a "
                    f"repeated vertex; {TURN_OFF}")
    return V[keep], new_index[F], vertex_origin[keep], face_origin, repair


def _collapse_shortest_edge(V, F, corners, into, alive, table) -> bool:
    """Merge the second vertex of the shortest edge of the triangle ``corners`` into its first
    if the faces around it stay manifold and none of them turns over; update ``into``,
    ``alive`` and ``table``."""
    edges = [(corners[k], corners[(k + 1) % 3]) for k in range(3)]
    keep, gone = min(edges, key=lambda e: float(np.linalg.norm(V[e[0]] - V[e[1]])))
    faces = sorted(table.around(keep, alive) | table.around(gone, alive))
    before = into[F[faces]]
    after = np.where(before == gone, keep, before)
    survives = (after[:, 0] != after[:, 1]) & (after[:, 1] != after[:, 2]) & (after[:, 2] != after[:, 0])
    if not _locally_manifold(after[survives], keep) or _turns_over(V, before[survives], after[survives]):
        return False
    alive[np.asarray(faces, dtype=np.int64)[~survives]] = False
    into[into == gone] = keep
    table.merge(keep, gone)
    return True


def _turns_over(V: np.ndarray, before: np.ndarray, after: np.ndarray) -> bool:
    """Whether a face (k, 3) of ``before`` points against itself in ``after``, its normal
    turned by more than a right angle."""
    def normals(T):
        return np.cross(V[T[:, 1]] - V[T[:, 0]], V[T[:, 2]] - V[T[:, 0]])
    return bool((np.einsum("ij,ij->i", normals(before), normals(after)) < 0).any())


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
