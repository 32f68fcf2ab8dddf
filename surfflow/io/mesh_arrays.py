"""Turning what a user passes as a mesh into a vertex array and a triangle array.

Vertices become (n, 3) float64; faces become (m, 3) int64 triangles, each polygon of k > 3
vertices fan-triangulated from its first corner into k - 2 triangles that take its place in the
face order. Anything else raises a MeshError that names the problem, where, and what to pass.
"""

from __future__ import annotations

import numpy as np

from ..errors import MeshError

SHOWN = 5  # offending items a message names; the rest are counted


def listed(items) -> str:
    """The first SHOWN items joined by commas, then how many more there are."""
    items = [str(item) for item in items]
    more = f" (and {len(items) - SHOWN} more)" if len(items) > SHOWN else ""
    return ", ".join(items[:SHOWN]) + more


def counted(number: int, singular: str, plural: str | None = None) -> str:
    """'1 face', '3 faces', '2 vertices': a count with its noun in the right number."""
    return f"{number} {singular if number == 1 else plural or singular + 's'}"


def vertex_array(V, where: str) -> np.ndarray:
    """V as an (n, 3) float64 array, or MeshError."""
    try:
        vertices = np.array(V, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise MeshError(
            f"{where}: vertices must be numbers ({exc}); pass an (n, 3) float array"
        ) from None
    if vertices.size == 0:
        return vertices.reshape(0, 3)
    if vertices.ndim != 2 or vertices.shape[1] != 3:
        hint = "; add a zero z column for a flat mesh" if vertices.shape[-1:] == (2,) else ""
        raise MeshError(
            f"{where}: vertices must be an (n, 3) array of x, y, z; got shape {vertices.shape}{hint}"
        )
    return vertices


def triangle_array(F, where: str) -> tuple[np.ndarray, np.ndarray, int]:
    """F as (m, 3) int64 triangles.

    F: (m, k) vertex indices with k >= 3, or a list of polygons of different sizes.
    Returns the triangles (m', 3), the input face (m',) int64 each came from, and the number of
    polygons with more than 3 vertices that were fan-triangulated.
    """
    try:
        faces = np.asarray(F)
    except ValueError:  # a ragged list: polygons of different sizes
        faces = np.empty(len(F), dtype=object)
        faces[:] = [list(polygon) for polygon in F]
    if faces.size == 0:
        return np.zeros((0, 3), dtype=np.int64), np.zeros(0, dtype=np.int64), 0
    if faces.dtype == object and faces.ndim == 1:
        groups = _polygons_by_size(faces, where)
    elif faces.ndim == 2 and faces.shape[1] >= 3:
        groups = [(faces, np.arange(len(faces)))]
    else:
        raise MeshError(
            f"{where}: faces of shape {faces.shape} cannot be triangulated; pass an (m, 3) array "
            "of vertex indices per triangle (or polygons of 3 or more vertices)"
        )
    triangles, origin = zip(*(_fan(_whole_numbers(polygons, index, where), index)
                              for polygons, index in groups))
    triangles, origin = np.concatenate(triangles), np.concatenate(origin)
    order = np.argsort(origin, kind="stable")
    polygons_split = sum(len(index) for polygons, index in groups if polygons.shape[1] > 3)
    return triangles[order], origin[order], polygons_split


def _polygons_by_size(faces: np.ndarray, where: str) -> list[tuple[np.ndarray, np.ndarray]]:
    """Group a 1-D object array of polygons into (p, k) arrays of equal size k with their indices."""
    sizes = np.array([len(polygon) for polygon in faces])
    too_small = np.flatnonzero(sizes < 3)
    if len(too_small):
        raise MeshError(
            f"{where}: {counted(len(too_small), 'face')} with fewer than 3 vertices, which cannot "
            f"be triangulated: face {listed(too_small)}; drop them or pass triangles"
        )
    groups = []
    for size in np.unique(sizes):
        index = np.flatnonzero(sizes == size)
        groups.append((np.array(faces[index].tolist()), index))
    return groups


def _whole_numbers(polygons: np.ndarray, index: np.ndarray, where: str) -> np.ndarray:
    """(p, k) polygons as int64, or MeshError naming the faces that are not whole numbers."""
    if polygons.dtype.kind in "iu":
        return polygons.astype(np.int64)
    if polygons.dtype.kind == "f":
        bad = np.flatnonzero(~(np.isfinite(polygons) & (polygons == np.round(polygons))).all(axis=1))
    else:
        bad = np.arange(len(polygons))
    if len(bad):
        shown = listed(f"{index[b]} {tuple(polygons[b].tolist())}" for b in bad)
        raise MeshError(
            f"{where}: {counted(len(bad), 'face')} with vertex indices that are not whole numbers: "
            f"face {shown}; pass integer vertex indices"
        )
    return polygons.astype(np.int64)


def _fan(polygons: np.ndarray, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Fan-triangulate (p, k) polygons into (p (k - 2), 3) triangles and their polygon indices."""
    k = polygons.shape[1]
    corner = np.repeat(polygons[:, :1], k - 2, axis=1)
    triangles = np.stack([corner, polygons[:, 1:-1], polygons[:, 2:]], axis=2).reshape(-1, 3)
    return triangles, np.repeat(index, k - 2)
