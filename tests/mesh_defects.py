"""Small meshes with one defect each, as ``(V, F)`` numpy arrays, for the repair tests.

Each builder returns V (n, 3) float64 and F (m, 3) int64 and says in its docstring what the
repair must make of it.
"""

from __future__ import annotations

import numpy as np
import trimesh


def tetrahedron(apex: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """A closed tetrahedron on vertex 0 = origin, outward normals; apex at z = apex."""
    V = np.array([[0.0, 0, 0], [1, 0, 0], [0, 1, 0], [0.2, 0.2, apex]])
    F = np.array([[0, 2, 1], [0, 1, 3], [1, 2, 3], [2, 0, 3]])
    return V, F


def two_tetrahedra_sharing_a_vertex() -> tuple[np.ndarray, np.ndarray]:
    """Two closed tetrahedra touching at vertex 0 (the second is the first mirrored through the
    origin, vertices 4, 5, 6): vertex 0 is pinched between two fans of 3 faces each."""
    V, F = tetrahedron()
    G = F.copy()
    G[G > 0] += 3
    return np.concatenate([V, -V[1:]]), np.concatenate([F, G[:, [0, 2, 1]]])


def three_faces_on_an_edge(fin_angle: float = 90.0, tilt: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Three triangles on the edge (0, 1) along x: face 0 a fin rising at ``fin_angle`` degrees
    from the +y half-plane about x, faces 1 and 2 a sheet through z = 0 (face 1 in y > 0, face 2
    in y < 0 bent down by ``tilt`` degrees), consistently oriented (normals about +z). Faces 1
    and 2 continue most smoothly unless the fin turns from face 1 by less than ``tilt``."""
    fin, bend = np.radians(fin_angle), np.radians(tilt)
    V = np.array([[0.0, 0, 0], [1, 0, 0], [0.5, 1, 0], [0.5, -np.cos(bend), -np.sin(bend)],
                  [0.5, np.cos(fin), np.sin(fin)]])
    F = np.array([[1, 0, 4], [0, 1, 2], [1, 0, 3]])
    return V, F


def square_with_a_zero_area_cap() -> tuple[np.ndarray, np.ndarray]:
    """A unit square fanned from its centre (vertex 4, faces 0-3) with a zero-area face 4 on its
    edge (0, 1): vertex 5 at the edge's midpoint. Collapsing the cap's shortest edge (0, 5) gives
    the square back, 5 vertices and 4 faces."""
    V = np.array([[0.0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0.5, 0.5, 0], [0.5, 0, 0]])
    F = np.array([[4, 0, 1], [4, 1, 2], [4, 2, 3], [4, 3, 0], [0, 5, 1]])
    return V, F


def icosphere_with_one_face_flipped(face: int = 7) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A subdivided icosahedron with face ``face`` wound the other way; also returns the
    original F."""
    sphere = trimesh.creation.icosphere(subdivisions=1)
    F = np.array(sphere.faces, dtype=np.int64)
    flipped = F.copy()
    flipped[face] = flipped[face, [0, 2, 1]]
    return np.array(sphere.vertices), flipped, F


def moebius_strip(segments: int = 12) -> tuple[np.ndarray, np.ndarray]:
    """A Moebius strip: a band of 2 x segments triangles whose ends meet with a half twist."""
    theta = 2 * np.pi * np.arange(segments) / segments
    V = []
    for side in (0.3, -0.3):
        radial = 1 + side * np.cos(theta / 2)
        V.append(np.column_stack([radial * np.cos(theta), radial * np.sin(theta), side * np.sin(theta / 2)]))
    V = np.concatenate(V)
    top, bottom = np.arange(segments), np.arange(segments) + segments
    top_next = np.r_[top[1:], bottom[0]]  # after a full turn the top edge has become the bottom
    bottom_next = np.r_[bottom[1:], top[0]]
    F = np.concatenate([np.column_stack([top, bottom, top_next]),
                        np.column_stack([bottom, bottom_next, top_next])])
    return V, F


def inject_defects(V: np.ndarray, F: np.ndarray, count: int, seed: int = 0, only=None):
    """(V, F) with ``count`` pinched vertices (a small tetrahedron hanging by one corner from a
    vertex), ``count`` edges in three faces (a fin face on an edge) and ``count`` zero-area faces
    (a face split at an edge's midpoint, with a sliver of zero area on that edge) at random faces
    that share no vertex; ``only`` ("pinch", "fin" or "cap") keeps that kind alone."""
    rng = np.random.default_rng(seed)
    faces, used = [], np.zeros(len(V), dtype=bool)
    for f in rng.permutation(len(F)):  # faces sharing no vertex, so the defects stay apart
        if not used[F[f]].any():
            faces.append(f)
            used[F[f]] = True
            if len(faces) == 3 * count:
                break
    pinch_faces, fin_faces, cap_faces = np.split(np.array(faces), 3)
    if only is not None:
        kept = {"pinch": pinch_faces, "fin": fin_faces, "cap": cap_faces}[only]
        none = kept[:0]
        pinch_faces, fin_faces, cap_faces = (kept if kind == only else none
                                             for kind in ("pinch", "fin", "cap"))
    scale = np.linalg.norm(V[F[0, 0]] - V[F[0, 1]])
    new_V, new_F = [V], [F]
    n = len(V)
    for f in pinch_faces:  # a small tetrahedron hanging off vertex F[f, 0]
        apex = V[F[f, 0]]
        tip = apex + scale * np.array([[1.0, 0, 0], [0, 1, 0], [0, 0, 1]])
        a, b, c = n, n + 1, n + 2
        new_V.append(tip)
        new_F.append(np.array([[F[f, 0], b, a], [F[f, 0], a, c], [F[f, 0], c, b], [a, b, c]]))
        n += 3
    for f in fin_faces:  # a third face on the edge (F[f, 0], F[f, 1])
        centre = V[F[f]].mean(0)
        normal = np.cross(V[F[f, 1]] - V[F[f, 0]], V[F[f, 2]] - V[F[f, 0]])
        new_V.append((centre + normal / np.linalg.norm(normal) * scale)[None])
        new_F.append(np.array([[F[f, 1], F[f, 0], n]]))
        n += 1
    F_out = np.concatenate(new_F)
    for f in cap_faces:  # split face f at the midpoint m of its edge (a, b): faces (a, m, c),
        a, b, c = F[f]  # (m, b, c) and the sliver (a, b, m) of zero area glued along (a, b)
        new_V.append(((V[a] + V[b]) / 2)[None])
        F_out[f] = [a, n, c]
        F_out = np.concatenate([F_out, [[n, b, c], [b, a, n]]])
        n += 1
    return np.concatenate(new_V), F_out
