"""What a mesh file holds and what loading it changed, for ``surfflow info``.

``mesh_report(path)`` loads the mesh as :func:`~surfflow.io.mesh.load_mesh` does and returns a
:class:`MeshReport`: its size, its components (faces, open boundary edges) and the repairs made,
with the texts of the warnings loading gave (which it records instead of showing).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from ..errors import MeshWarning
from .manifold import _component_labels
from .mesh import load_mesh
from .mesh_arrays import counted
from .repair import Repair
from .units import bounding_diagonal

LARGEST_SHOWN = 3  # components a report lists by name; the rest are counted


@dataclass(frozen=True)
class Component:
    """One connected piece of a mesh: its face and vertex counts and its open boundary edges
    (0 for a closed piece)."""

    faces: int
    vertices: int
    boundary_edges: int


@dataclass(frozen=True)
class MeshReport:
    """A loaded mesh in numbers.

    n_vertices, n_faces : int
        after repair.
    bounds : (2, 3) float array
        the bounding box's lowest and highest corner (m, +y up).
    diagonal : float
        the bounding box's diagonal (m).
    components : tuple of Component
        largest (most faces) first.
    repairs : tuple of :class:`~surfflow.io.repair.Repair`
        what loading changed, one record per kind.
    warnings : tuple of str
        every MeshWarning loading gave (the repairs' and, for instance, the size warning).
    """

    n_vertices: int
    n_faces: int
    bounds: np.ndarray
    diagonal: float
    components: tuple[Component, ...]
    repairs: tuple[Repair, ...]
    warnings: tuple[str, ...]

    def lines(self) -> dict[str, str]:
        """An ordered {label: text} summary, as ``surfflow info`` prints it."""
        low, high = (np.round(corner, 4).tolist() for corner in self.bounds)
        closed = sum(c.boundary_edges == 0 for c in self.components)
        largest = ", ".join(f"{counted(c.faces, 'face')} ("
                            f"{counted(c.boundary_edges, 'open edge') if c.boundary_edges else 'closed'})"
                            for c in self.components[:LARGEST_SHOWN])
        more = len(self.components) - LARGEST_SHOWN
        summary = {
            "type": "mesh",
            "vertices": str(self.n_vertices),
            "faces": str(self.n_faces),
            "bounding box": f"{low} to {high} m",
            "diagonal": f"{self.diagonal:.6g} m",
            "components": f"{len(self.components)} ({closed} closed, {len(self.components) - closed} "
                          f"open); largest: {largest}" + (f" and {more} more" if more > 0 else ""),
            "repairs": ", ".join(f"{r.kind} ({r.count})" for r in self.repairs) or "none",
        }
        for k, text in enumerate(self.warnings, 1):
            summary[f"warning {k}"] = text
        return summary


def components(F: np.ndarray, n: int) -> tuple[Component, ...]:
    """The connected components of F (m, 3) over n vertices, most faces first."""
    vertex_label = _component_labels(F[:, 0].repeat(2), F[:, 1:].ravel(), n)
    label = vertex_label[F[:, 0]]
    faces = np.bincount(label)
    vertices = np.bincount(vertex_label[np.unique(F)], minlength=len(faces))
    start, end = F.ravel(), F[:, [1, 2, 0]].ravel()
    key = np.minimum(start, end) * n + np.maximum(start, end)
    _, first, counts = np.unique(key, return_index=True, return_counts=True)
    open_edges = np.bincount(label[first[counts == 1] // 3], minlength=len(faces))
    order = np.argsort(-faces, kind="stable")
    return tuple(Component(int(faces[k]), int(vertices[k]), int(open_edges[k])) for k in order
                 if faces[k] > 0)


def mesh_report(source, **options) -> MeshReport:
    """Load ``source`` with ``load_mesh(source, **options)`` and describe it (module docstring).

    Examples
    --------
    >>> import surfflow as sf
    >>> from surfflow.io.mesh_report import mesh_report
    >>> report = mesh_report("meshes/cow.obj")
    >>> [repair.kind for repair in report.repairs]
    ['merged_vertices', 'pinched_vertices']
    """
    caught: list = []
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", MeshWarning)
            mesh = load_mesh(source, **options)
    except Exception:
        _show(caught, everything=True)  # what was repaired before the error is not lost
        raise
    _show(caught, everything=False)
    V, F = np.asarray(mesh.vertices), np.asarray(mesh.faces)
    return MeshReport(n_vertices=len(V), n_faces=len(F), bounds=np.stack([V.min(0), V.max(0)]),
                      diagonal=bounding_diagonal(V), components=components(F, len(V)),
                      repairs=tuple(mesh.metadata["repairs"]),
                      warnings=tuple(str(w.message) for w in caught
                                     if issubclass(w.category, MeshWarning)))


def _show(caught: list, everything: bool) -> None:
    """Warn again about the recorded warnings: all of them, or those that are not MeshWarnings
    (which the report keeps as text)."""
    for item in caught:
        if everything or not issubclass(item.category, MeshWarning):
            warnings.warn_explicit(item.message, item.category, item.filename, item.lineno)
