"""The active set of a step: the vertices the continuity moves, and those at rest.

``ActiveSet.moving`` (m,) lists the vertices that are wet or have a wet neighbour, in
increasing order, ``resting`` (n - m,) the others (dry ground far from any water: no flux
crosses their dual edges), ``border`` the resting vertices with a moving neighbour (the last a
moving vertex's ring reaches) and ``reach`` the moving vertices, then the border. The state's
set (``state.active``) is rebuilt once per step by ``rebuild`` where the momentum scheme steps,
before the friction shares (``model._share_friction``), from the step's depth, which no stage
changes before the transport (the push and the friction move only velocities). Its users:
``friction.friction_shares`` and ``apply_friction`` at the moving vertices (dry ground away
from the liquid has u = 0 and no share is read there); the push's
``pressure.apply_gravity_pressure`` looks at the moving vertices alone (it skips dry ones
anyway), surface tension's (``terms/tension.py``) too, with the free surface lifted at the
``reach``; the transport's
``continuity.edge_fluxes``, ``update_depth``, ``tracers.limited_faces`` and ``carry`` compute
the moving vertices and write the no-flux result (zero fluxes, depth, velocity and dyes kept) at
the resting ones, bit for bit what a scan of every vertex gives (kernels/active.py). Until
rebuilt, every vertex is moving: the dissolution term keeps a set it never rebuilds, and scans
every vertex (the conservative scheme's stages reach every vertex, schemes/conservative.py).
"""

from __future__ import annotations

import numpy as np

from ..kernels.active import split_vertices


class ActiveSet:
    """The moving, resting and border vertex lists of a mesh of n vertices, buffers allocated
    once."""

    def __init__(self, n_vertices: int):
        self.marked = np.zeros(n_vertices, dtype=np.int8)
        self.order = np.zeros(n_vertices, dtype=np.int64)
        self.rest_order = np.zeros(n_vertices, dtype=np.int64)
        self.moving, self.resting = everything(n_vertices)
        self.border, self.reach = self.resting, self.moving

    def reset(self) -> None:
        """Every vertex moving again (a scheme that stopped skipping dry ground)."""
        self.moving, self.resting = everything(len(self.marked))
        self.border, self.reach = self.resting, self.moving

    def rebuild(self, geom, depth: np.ndarray, min_depth: float) -> None:
        """Split the vertices by ``depth`` (n,): moving where a vertex or a neighbour is wet."""
        count, border_count = split_vertices(geom.neighbor_offsets, geom.neighbor_indices, depth,
                                             min_depth, self.marked, self.order, self.rest_order)
        self.moving = self.order[:count]
        self.resting = self.rest_order[:len(depth) - count]
        self.border = self.order[count:count + border_count]
        self.reach = self.order[:count + border_count]


def everything(n_vertices: int) -> tuple[np.ndarray, np.ndarray]:
    """(moving, resting): every one of n vertices moving, none at rest (int64 lists)."""
    return np.arange(n_vertices, dtype=np.int64), np.zeros(0, dtype=np.int64)
