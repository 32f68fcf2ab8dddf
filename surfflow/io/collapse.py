"""Degenerate faces collapsed or dropped.

A face with a repeated vertex is dropped. A face of zero area (at most
``TOLERANCES.degenerate_area`` x the mean face area) has its shortest edge collapsed: the
edge's second vertex is merged into its first, which keeps its position, and the faces on the
edge go. The collapse is made only where the faces around the merged vertex stay manifold (no
repeated face, no edge in three faces, one fan) and none of them turns over; otherwise the face
is dropped, leaving a hole. Faces a collapse leaves of zero area are dropped too.
"""

from __future__ import annotations

import numpy as np

from .manifold import interior_edge_pairs, vertex_fan_counts
from .mesh_arrays import counted, listed
from .repair import TURN_OFF, Repair, degenerate_faces, face_areas


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
