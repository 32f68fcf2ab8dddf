"""The shapes of rigid bodies, in the body frame (origin at the centre of mass): mass
properties, and where a straight line crosses the solid.

A ``Convex`` shape is a set of planes N_k . y <= c_k (a box: six; a closed mesh: its convex
hull's faces, so a non-convex mesh floats and collides as its hull while its mass and inertia
are the mesh's own); a ``Ball`` is a sphere. Both answer ``span(points, directions)``: the
interval [s_lo, s_hi] of s where points + s directions is inside (empty: s_lo >= s_hi), which
is how the liquid columns and the ground see a body (``coupling.py``, ``contacts.py``).
"""

from __future__ import annotations

import math

import numpy as np
import trimesh

from ..errors import ParameterError
from ..kernels.bodies import convex_span


class Convex:
    """A convex solid N_k . y <= c_k (planes (p, 3) unit outward normals, offsets (p,)) with
    corners (c, 3) (its vertices, the points that touch the ground and other bodies)."""

    def __init__(self, planes: np.ndarray, offsets: np.ndarray, corners: np.ndarray,
                 mesh: trimesh.Trimesh):
        self.planes = np.ascontiguousarray(planes, dtype=np.float64)
        self.offsets = np.ascontiguousarray(offsets, dtype=np.float64)
        self.corners, self.mesh = corners, mesh
        self.radius = float(np.linalg.norm(corners, axis=1).max())

    def span(self, points: np.ndarray, directions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(s_lo, s_hi) (k,) each: points (k, 3) + s directions (k, 3) lies inside for s_lo < s
        < s_hi (both in the body frame)."""
        s_lo, s_hi = np.empty(len(points)), np.empty(len(points))
        convex_span(np.ascontiguousarray(points, dtype=np.float64),
                    np.ascontiguousarray(directions, dtype=np.float64), self.planes,
                    self.offsets, s_lo, s_hi)
        return s_lo, s_hi

    def distance(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(depth (k,), normal (k, 3)): how far points (k, 3) lie inside (the nearest face's
        distance, < 0 outside) and that face's outward normal, in the body frame."""
        room = self.offsets[None, :] - points @ self.planes.T
        face = room.argmin(axis=1)
        return room[np.arange(len(points)), face], self.planes[face]


class Ball:
    """A solid sphere of ``radius`` about the origin."""

    corners = np.zeros((0, 3))

    def __init__(self, radius: float):
        self.radius = float(radius)
        self.mesh = trimesh.creation.icosphere(subdivisions=2, radius=self.radius)

    def span(self, points: np.ndarray, directions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(s_lo, s_hi) (k,) each, as ``Convex.span`` (directions of unit length)."""
        b = np.einsum("ij,ij->i", points, directions)
        c = np.einsum("ij,ij->i", points, points) - self.radius ** 2
        root = np.sqrt(np.maximum(b * b - c, 0.0))
        hit = b * b - c > 0.0
        return np.where(hit, -b - root, np.inf), np.where(hit, -b + root, -np.inf)

    def distance(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(depth (k,), normal (k, 3)) as ``Convex.distance``."""
        length = np.linalg.norm(points, axis=1)
        normal = points / np.where(length > 0.0, length, 1.0)[:, None]
        return self.radius - length, normal


def box_shape(extents) -> tuple[Convex, float, np.ndarray]:
    """(shape, volume m^3, unit-density inertia (3, 3)) of a box with these (3,) edge lengths."""
    a, b, c = check_lengths("extents", extents, 3)
    mesh = trimesh.creation.box(extents=(a, b, c))
    inertia = np.diag([b * b + c * c, a * a + c * c, a * a + b * b]) * (a * b * c) / 12.0
    return convex_of(mesh), a * b * c, inertia


def ball_shape(radius) -> tuple[Ball, float, np.ndarray]:
    """(shape, volume m^3, unit-density inertia (3, 3)) of a sphere of this radius."""
    (r,) = check_lengths("radius", [radius], 1)
    volume = 4.0 / 3.0 * math.pi * r ** 3
    return Ball(r), volume, np.eye(3) * 0.4 * volume * r * r


def mesh_shape(mesh: trimesh.Trimesh) -> tuple[Convex, float, np.ndarray, np.ndarray]:
    """(shape, volume m^3, unit-density inertia (3, 3) about the centre of mass, the centre of
    mass (3,) in the mesh's coordinates) of a closed triangle mesh; the shape is centred there."""
    if not mesh.is_watertight or not mesh.volume > 0.0:
        raise ParameterError("the body's mesh is not closed (watertight) with a positive volume; "
                             "fill its holes and orient its faces outward (trimesh: "
                             "mesh.fill_holes(), mesh.fix_normals())")
    centre = np.asarray(mesh.center_mass, dtype=np.float64)
    centred = mesh.copy()
    centred.apply_translation(-centre)
    properties = trimesh.Trimesh(centred.vertices, centred.faces).mass_properties
    return (convex_of(centred.convex_hull, centred), float(mesh.volume),
            np.asarray(properties["inertia"], dtype=np.float64), centre)


def convex_of(hull: trimesh.Trimesh, mesh: trimesh.Trimesh | None = None) -> Convex:
    """The planes of a convex mesh's faces (coplanar ones merged), its vertices as corners."""
    normals = np.asarray(hull.face_normals, dtype=np.float64)
    offsets = np.einsum("ij,ij->i", normals, hull.vertices[hull.faces[:, 0]])
    keys = np.round(np.column_stack([normals, offsets]), 9)
    _, first = np.unique(keys, axis=0, return_index=True)
    first = np.sort(first)
    return Convex(normals[first], offsets[first], np.asarray(hull.vertices, dtype=np.float64),
                  hull if mesh is None else mesh)


def check_lengths(name: str, values, count: int) -> list[float]:
    """``count`` finite lengths > 0, or a ParameterError naming ``name``."""
    array = np.asarray(values, dtype=np.float64).reshape(-1)
    if array.shape != (count,) or not np.isfinite(array).all() or not (array > 0.0).all():
        raise ParameterError(f"{name}={values!r} must be {count} finite length(s) > 0 in metres")
    return [float(v) for v in array]
