"""Built-in procedural meshes for scenes, examples and tests.

Every builder takes keyword arguments with defaults and returns ``(V, F)``: float64 (n, 3)
positions and int64 (m, 3) counter-clockwise triangles (outward normals on closed meshes, +z on
the planes). ``PROCEDURAL_MESHES`` maps the names a scene file may use to
``(builder, {argument: default})``.
"""

from __future__ import annotations

import math

import numpy as np
import trimesh


def icosphere(subdivisions: int = 3, radius: float = 1.0):
    """A subdivided icosahedron of the given radius about the origin."""
    sphere = trimesh.creation.icosphere(subdivisions=int(subdivisions), radius=float(radius))
    return np.array(sphere.vertices, dtype=np.float64), np.array(sphere.faces, dtype=np.int64)


def bumpy_sphere(subdivisions: int = 4, radius: float = 1.0, bump_height: float = 0.05,
                 bump_frequency: float = 4.0):
    """An icosphere displaced along its normals by bump_height sin(k x) sin(k y) sin(k z).

    k = bump_frequency / radius, with (x, y, z) the point on the sphere.
    """
    V, F = icosphere(subdivisions, radius)
    k = float(bump_frequency) / float(radius)
    bumps = float(bump_height) * np.sin(k * V[:, 0]) * np.sin(k * V[:, 1]) * np.sin(k * V[:, 2])
    return V * (1.0 + bumps / float(radius))[:, None], F


def plane(size=(1.0, 1.0), resolution=(20, 20)):
    """A flat grid in the x-y plane centred on the origin, normal +z.

    size: (Lx, Ly) in metres; resolution: cells (nx, ny). Quads are split along alternating
    diagonals so the triangulation has no preferred direction.
    """
    nx, ny = int(resolution[0]), int(resolution[1])
    x = np.linspace(-0.5 * size[0], 0.5 * size[0], nx + 1)
    y = np.linspace(-0.5 * size[1], 0.5 * size[1], ny + 1)
    X, Y = np.meshgrid(x, y, indexing="ij")
    V = np.column_stack([X.ravel(), Y.ravel(), np.zeros(X.size)])
    i, j = np.meshgrid(np.arange(nx), np.arange(ny), indexing="ij")
    i, j = i.ravel(), j.ravel()
    a, b = i * (ny + 1) + j, (i + 1) * (ny + 1) + j
    c, d = b + 1, a + 1
    flip = (i + j) % 2 == 1
    first = np.where(flip[:, None], np.column_stack([a, b, d]), np.column_stack([a, b, c]))
    second = np.where(flip[:, None], np.column_stack([b, c, d]), np.column_stack([a, c, d]))
    return V, np.vstack([first, second]).astype(np.int64)


def grooved_plane(size=(1.0, 1.0), resolution=(60, 60), groove_depth: float = 0.01,
                  groove_spacing: float = 0.05, groove_angle: float = 45.0):
    """A plane with parallel sinusoidal grooves: z = groove_depth / 2 sin(2 pi s / spacing).

    s = x cos(alpha) + y sin(alpha) runs across the grooves, alpha = groove_angle in degrees
    from the x axis to the groove-crossing direction. Liquid running down such a surface
    follows the grooves, which is what the feature-based friction tensor models.
    """
    V, F = plane(size, resolution)
    alpha = math.radians(float(groove_angle))
    s = V[:, 0] * math.cos(alpha) + V[:, 1] * math.sin(alpha)
    V[:, 2] = 0.5 * float(groove_depth) * np.sin(2.0 * math.pi * s / float(groove_spacing))
    return V, F


def tray(size=(0.6, 0.4), resolution=(48, 32), rim_height: float = 0.04, rim_width: float = 0.06):
    """A shallow pan: a flat floor whose edges curve up into a rim, normal +z.

    A vertex at distance m from the nearest edge (inside ``rim_width``) is raised by
    rim_height (1 - m / rim_width)^2; the floor beyond is flat at z = 0.
    """
    V, F = plane(size, resolution)
    m = np.minimum(0.5 * size[0] - np.abs(V[:, 0]), 0.5 * size[1] - np.abs(V[:, 1]))
    V[:, 2] = float(rim_height) * np.clip(1.0 - m / float(rim_width), 0.0, 1.0) ** 2
    return V, F


PROCEDURAL_MESHES = {
    "icosphere": (icosphere, {"subdivisions": 3, "radius": 1.0}),
    "bumpy_sphere": (bumpy_sphere, {"subdivisions": 4, "radius": 1.0, "bump_height": 0.05,
                                    "bump_frequency": 4.0}),
    "plane": (plane, {"size": (1.0, 1.0), "resolution": (20, 20)}),
    "grooved_plane": (grooved_plane, {"size": (1.0, 1.0), "resolution": (60, 60),
                                      "groove_depth": 0.01, "groove_spacing": 0.05,
                                      "groove_angle": 45.0}),
    "tray": (tray, {"size": (0.6, 0.4), "resolution": (48, 32), "rim_height": 0.04,
                    "rim_width": 0.06}),
}
