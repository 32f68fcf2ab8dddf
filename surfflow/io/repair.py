"""What the loader changes in a mesh, as records, and what makes a face degenerate.

The repairs themselves live in :mod:`surfflow.io.collapse` (degenerate faces) and
:mod:`surfflow.io.sheets` (edges in three or more faces, pinched vertices). Each is a pure
function of the arrays that returns the repaired arrays and :class:`Repair` records (none when
there was nothing to repair, and then the arrays come back as the very objects passed in, so a
clean mesh passes bit for bit). ``vertex_origin`` (n,) and ``face_origin`` (m,) carry the input
index of each vertex and face so that messages name the places the user knows. Loops run over
the defective items only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

TURN_OFF = "load with repair=False to refuse such a mesh instead"


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
