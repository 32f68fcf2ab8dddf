"""The size of a mesh, which no rotation or translation changes.

    c = sum_t a_t g_t / sum_t a_t     the surface's area centroid (a_t, g_t: area and centroid
                                      of triangle t; the vertices' mean if every a_t is 0)
    D = 2 max_i |X_i - c|             the diameter of the smallest sphere about c that holds
                                      the surface (its farthest points are vertices)

A percentage feature size (``PrecomputeParams.feature_size = "2%"``) and the distance below
which ``load_mesh`` merges vertices are fractions of D. The axis-aligned bounding box's
diagonal, used before, changes when a mesh turns (a cube's of side a is sqrt(3) a along the axes
and sqrt(5) a after a turn of 45 degrees about one of them), so the same object exported at
another angle got other physics. D turns and moves with the mesh, to round-off, and depends on
the surface rather than on its triangulation. It is the bounding sphere about the centroid
rather than the smallest bounding sphere (Welzl's algorithm, randomised and iterative) or the
principal-axis box, whose axes are arbitrary wherever two principal moments are equal (a sphere,
a cube, a cylinder), and the box with them. D is sqrt(3) a for the cube at any angle, 2 R for a
sphere.
"""

from __future__ import annotations

import numpy as np


def area_centroid(V: np.ndarray, F: np.ndarray) -> np.ndarray:
    """The surface's area centroid (3,); V (n, 3) float, F (m, 3) int. The mean of the
    vertices that F uses where the surface has no area."""
    corners = V[F]
    twice_areas = np.linalg.norm(np.cross(corners[:, 1] - corners[:, 0],
                                          corners[:, 2] - corners[:, 0]), axis=1)
    total = twice_areas.sum()
    if total == 0.0:
        return V[np.unique(F)].mean(axis=0)
    return (twice_areas @ corners.mean(axis=1)) / total


def mesh_diameter(V: np.ndarray, F: np.ndarray) -> float:
    """D = 2 max_i |X_i - c| (module docstring), metres; V (n, 3), F (m, 3)."""
    V = np.asarray(V, dtype=np.float64)
    F = np.asarray(F, dtype=np.int64)
    offsets = V[np.unique(F)] - area_centroid(V, F)
    return 2.0 * float(np.sqrt(np.einsum("ij,ij->i", offsets, offsets).max()))
