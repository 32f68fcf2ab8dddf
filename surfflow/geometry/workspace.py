"""Allocation-free geometry updates of a deforming surface (SPEC §9).

``update_positions`` returns a new frozen geometry with new arrays; a simulation whose surface
moves every step instead refills two sets of arrays in turn with the same kernels, so the
result is the same bit for bit and the step allocates no array. Two sets, because the step
needs the previous geometry (its control areas keep each vertex's volume) next to the new one.
"""

from __future__ import annotations

import numpy as np

from .precompute import fill_moved_geometry, friction_scratch, moved_geometry, moved_geometry_buffers
from .surface import SurfaceGeometry


class GeometryWorkspace:
    """The position-dependent arrays of one surface (n vertices), twice, filled in turn.

    ``update(geom, vertices)`` equals ``update_positions(geom, vertices)``; the geometry it
    returns holds read-only views of the workspace's arrays, valid until the second next update
    (keep a copy of an array to hold it longer).
    """

    def __init__(self, geom: SurfaceGeometry):
        self._sets = [moved_geometry_buffers(geom), moved_geometry_buffers(geom)]
        self._positions = [np.empty_like(geom.vertices), np.empty_like(geom.vertices)]
        self._scratch = friction_scratch(geom)
        self._next = 0

    def update(self, geom: SurfaceGeometry, vertices: np.ndarray) -> SurfaceGeometry:
        """``geom`` with its vertices moved to vertices (n, 3) (checked by the caller), filled
        into the set of arrays that ``geom`` does not use."""
        if np.may_share_memory(geom.dual_areas, self._sets[self._next]["dual_areas"]):
            self._next = 1 - self._next
        arrays, positions = self._sets[self._next], self._positions[self._next]
        self._next = 1 - self._next
        positions[:] = vertices
        fill_moved_geometry(geom, positions, geom.bottom, arrays, self._scratch)
        views = {name: array.view() for name, array in arrays.items()}
        return moved_geometry(geom, positions.view(), geom.bottom, views)
