"""Procedural test meshes with known geometry, as ``(V, F)`` numpy arrays.

Every builder returns ``V`` (n, 3) float64 vertex positions and ``F`` (m, 3) int64 triangles,
counter-clockwise about the side the liquid lies on (so the area-weighted vertex normals point
into the liquid). Irregular triangulations come from a structured grid whose cells are split
along a randomly chosen diagonal and whose vertices are jittered (boundary vertices only along
their boundary edge), so vertex valences vary between 2 and 8 and no two cells are alike.

    >>> V, F = rectangle(0.0, 25.0, 0.0, 0.5, 200, 4)
    >>> V.shape, F.shape
    ((1005, 3), (1600, 3))
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import trimesh
from scipy.spatial import Delaunay

MESHES = Path(__file__).resolve().parents[1] / "meshes"  # the project's real meshes, with provenance


def cell_corners(nx: int, ny: int) -> tuple[np.ndarray, ...]:
    """The corners (a, b, c, d) of each of an (nx + 1) x (ny + 1) vertex grid's nx ny cells, row
    by row, counter-clockwise from the lower left: four (nx ny,) int arrays, vertex (i, j)
    numbered j * (nx + 1) + i."""
    i, j = np.meshgrid(np.arange(nx), np.arange(ny), indexing="xy")
    a = (j * (nx + 1) + i).ravel()
    return a, a + 1, a + nx + 2, a + nx + 1


def grid_faces(nx: int, ny: int, rng: np.random.Generator | None) -> np.ndarray:
    """Triangles of an (nx + 1) x (ny + 1) vertex grid, vertex (i, j) numbered j * (nx + 1) + i.

    Each cell is split along a random diagonal when ``rng`` is given, along the same one otherwise.
    Returns (2 nx ny, 3) int64, counter-clockwise in the (x, y) plane.
    """
    a, b, c, d = cell_corners(nx, ny)
    flip = rng.random(a.size) < 0.5 if rng is not None else np.zeros(a.size, bool)
    first = np.where(flip[:, None], np.stack([a, b, d], 1), np.stack([a, b, c], 1))
    second = np.where(flip[:, None], np.stack([b, c, d], 1), np.stack([a, c, d], 1))
    return np.concatenate([first, second]).astype(np.int64)


def rectangle(x0: float, x1: float, y0: float, y1: float, nx: int, ny: int,
              jitter: float = 0.25, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Flat rectangle [x0, x1] x [y0, y1] in the plane z = 0, normals +z.

    nx, ny: cells along x and y ((nx + 1)(ny + 1) vertices). jitter: largest random displacement
    of a vertex as a fraction of the cell size (0 gives a structured grid with all diagonals
    alike; keep it below 0.3 so no triangle folds). Boundary vertices move only along their edge;
    the four corners stay put.
    Returns V (n, 3), F (2 nx ny, 3).
    """
    rng = np.random.default_rng(seed)
    hx, hy = (x1 - x0) / nx, (y1 - y0) / ny
    gx, gy = np.meshgrid(np.linspace(x0, x1, nx + 1), np.linspace(y0, y1, ny + 1), indexing="xy")
    ix, iy = np.meshgrid(np.arange(nx + 1), np.arange(ny + 1), indexing="xy")
    shift = jitter * rng.uniform(-1.0, 1.0, size=(2,) + gx.shape)
    gx = gx + np.where((ix > 0) & (ix < nx), shift[0] * hx, 0.0)
    gy = gy + np.where((iy > 0) & (iy < ny), shift[1] * hy, 0.0)
    V = np.stack([gx.ravel(), gy.ravel(), np.zeros(gx.size)], axis=1)
    return V, grid_faces(nx, ny, rng if jitter > 0 else None)


def rectangle_cross(x0: float, x1: float, y0: float, y1: float, nx: int,
                    ny: int) -> tuple[np.ndarray, np.ndarray]:
    """Flat rectangle [x0, x1] x [y0, y1] in the plane z = 0, normals +z, each of its nx x ny
    cells cut into four triangles about a vertex at the cell's centre (ANUGA's
    ``rectangular_cross``: the mesh of its validation cases).

    Returns V ((nx + 1)(ny + 1) + nx ny, 3): the grid's vertices numbered as ``grid_faces``'s,
    then the centres row by row; F (4 nx ny, 3), counter-clockwise in the (x, y) plane.
    """
    gx, gy = np.meshgrid(np.linspace(x0, x1, nx + 1), np.linspace(y0, y1, ny + 1), indexing="xy")
    cx, cy = np.meshgrid(0.5 * (gx[0, 1:] + gx[0, :-1]), 0.5 * (gy[1:, 0] + gy[:-1, 0]),
                         indexing="xy")
    points = np.concatenate([np.stack([gx.ravel(), gy.ravel()], 1),
                             np.stack([cx.ravel(), cy.ravel()], 1)])
    a, b, c, d = cell_corners(nx, ny)
    m = (nx + 1) * (ny + 1) + np.arange(nx * ny)
    F = np.concatenate([np.stack(corners, 1) for corners in ((a, b, m), (b, c, m), (c, d, m),
                                                             (d, a, m))])
    V = np.concatenate([points, np.zeros((len(points), 1))], axis=1)
    return V, F.astype(np.int64)


def strip(length: float, width: float, n_along: int, n_across: int = 4,
          jitter: float = 0.25, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Flat strip [0, length] x [0, width] (z = 0, normals +z), a quasi-1D channel.

    n_along + 1 vertices along x, n_across cells across. Returns V (n, 3), F (m, 3).
    """
    return rectangle(0.0, length, 0.0, width, n_along, n_across, jitter, seed)


def inclined_plane(length: float, width: float, angle: float, n_along: int, n_across: int,
                   jitter: float = 0.25, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A strip tilted by ``angle`` (radians) about the y axis, for gravity (0, 0, -g).

    The flat strip's point (s, y) goes to (s cos(angle), y, -s sin(angle)): s is the downhill
    distance from the top edge (s = 0), the normal is (sin(angle), 0, cos(angle)).
    Returns V (n, 3), F (m, 3).
    """
    V, F = strip(length, width, n_along, n_across, jitter, seed)
    s = V[:, 0].copy()
    V[:, 0] = s * np.cos(angle)
    V[:, 2] = -s * np.sin(angle)
    return V, F


def disc_points(n_rings: int, seed: int = 0) -> np.ndarray:
    """Points of the unit disc on concentric rings: ring k (k = 1..n_rings) has 6k points at
    radius k / n_rings, rotated by a random angle; plus the centre. Returns (1 + 3 n (n + 1), 2)."""
    rng = np.random.default_rng(seed)
    points = [np.zeros((1, 2))]
    for k in range(1, n_rings + 1):
        phi = 2.0 * np.pi * (np.arange(6 * k) + rng.uniform()) / (6 * k)
        points.append(k / n_rings * np.stack([np.cos(phi), np.sin(phi)], axis=1))
    return np.concatenate(points)


def hemispherical_bowl(radius: float, n_rings: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Open lower hemisphere |x| = radius, z <= 0, seen from inside (normals point to the centre).

    A ring-disc triangulation (``disc_points`` + Delaunay) mapped so that disc radius rho goes to
    polar angle theta = rho pi / 2 from the bottom point (0, 0, -radius); the boundary is the
    equator z = 0. Returns V (1 + 3 n (n + 1), 3), F (m, 3).
    """
    P = disc_points(n_rings, seed)
    F = Delaunay(P).simplices.astype(np.int64)
    e1, e2 = P[F[:, 1]] - P[F[:, 0]], P[F[:, 2]] - P[F[:, 0]]
    clockwise = e1[:, 0] * e2[:, 1] - e1[:, 1] * e2[:, 0] < 0
    F[clockwise] = F[clockwise][:, ::-1]
    rho = np.hypot(P[:, 0], P[:, 1])
    theta = 0.5 * np.pi * rho
    azimuth = np.arctan2(P[:, 1], P[:, 0])
    V = radius * np.stack([np.sin(theta) * np.cos(azimuth), np.sin(theta) * np.sin(azimuth),
                           -np.cos(theta)], axis=1)
    return V, F


def icosphere(radius: float, subdivisions: int) -> tuple[np.ndarray, np.ndarray]:
    """Sphere of the given radius about the origin, outward normals, with a vertex at the top
    (0, 0, radius) and one at the bottom. 10 * 4**subdivisions + 2 vertices.
    Returns V (n, 3), F (m, 3)."""
    sphere = trimesh.creation.icosphere(subdivisions=subdivisions, radius=1.0)
    V = np.asarray(sphere.vertices, dtype=np.float64)
    V = V @ rotation_onto(V[0], np.array([0.0, 0.0, 1.0])).T
    V = radius * V / np.linalg.norm(V, axis=1, keepdims=True)
    return V, np.asarray(sphere.faces, dtype=np.int64)


def rotation_onto(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The 3x3 rotation turning the direction of ``a`` onto that of ``b`` (Rodrigues); a, b (3,)."""
    a, b = a / np.linalg.norm(a), b / np.linalg.norm(b)
    axis = np.cross(a, b)
    s, c = np.linalg.norm(axis), float(a @ b)
    if s < 1e-15 and c > 0:
        return np.eye(3)
    if s < 1e-15:
        k = np.cross(a, np.eye(3)[np.argmin(np.abs(a))])
        k /= np.linalg.norm(k)
        return 2.0 * np.outer(k, k) - np.eye(3)
    k = axis / s
    K = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + s * K + (1 - c) * K @ K
