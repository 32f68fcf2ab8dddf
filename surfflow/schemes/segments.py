"""The open boundary segments a scheme carries (``surfflow/boundaries.py``, SPEC §10): each
vertex's boundary kind, value and boundary normal N_b, placed the same way for both schemes,
and the fluxes through them that ``kernels/riemann.py``'s ``boundary_fluxes`` computes."""

from __future__ import annotations

import numpy as np

from ..boundaries import BOUNDARY_KINDS, BoundarySegment, segment_normals
from ..config import OPEN_BOUNDARIES
from ..kernels.records import Openings
from ..kernels.riemann import DISCHARGE, LEVEL, NO_BOUNDARY, TRANSMISSIVE, boundary_fluxes


class OpenSegments:
    """kind (n,) int64, value (n,) and normals (n, 2) N_b of the open segments of a mesh of n
    vertices; ``segments`` the segments set, ``open`` whether any vertex has a kind (else
    F_b = G_b = 0 and nothing is computed). ``global_outflow``: whether ``Params(boundary=
    "outflow")`` (or "free") makes the rest of the boundary transmissive here (the conservative scheme's
    fluxes) or is left to the caller (the momentum scheme's continuity, kernels/continuity.py)."""

    def __init__(self, n_vertices: int, params, global_outflow: bool):
        self.params = params
        self.global_outflow = global_outflow
        self.kind = np.zeros(n_vertices, dtype=np.int64)
        self.value = np.zeros(n_vertices)
        self.normals = np.zeros((n_vertices, 2))
        self.segments: tuple[BoundarySegment, ...] = ()
        self.open = False
        self.vertices = np.zeros(0, dtype=np.int64)  # those with a kind
        self.imposed_vertices = np.zeros(0, dtype=np.int64)  # an inflow's or a held level's
        self.mass = np.zeros(n_vertices)  # F_b, G_b and P_b (``fluxes``)
        self.momentum = np.zeros((n_vertices, 2))
        self.push = np.zeros(n_vertices)

    def fluxes(self, levels, depth, velocity, min_depth: float, push_in_flux: bool) -> None:
        """``mass``, ``momentum`` and ``push`` at the state (``riemann.boundary_fluxes``, which
        writes them at ``vertices`` alone; the others stay zero, as ``place_all`` leaves them)."""
        boundary_fluxes(Openings(self.kind, self.value, self.normals, self.vertices), levels,
                        depth, velocity, min_depth, push_in_flux, self.mass, self.momentum,
                        self.push)

    def place_all(self) -> None:
        """The vertices with a kind, after the kinds changed; the fluxes cleared, so a vertex
        that left the segments keeps none."""
        self.vertices = np.flatnonzero(self.kind)
        self.imposed_vertices = np.flatnonzero(np.isin(self.kind, (LEVEL, DISCHARGE)))
        for values in (self.mass, self.momentum, self.push):
            values.fill(0.0)

    def use_geometry(self, geom, fields) -> None:
        """Reset the arrays from the global boundary kind, then place the segments again."""
        outflow = self.global_outflow and self.params.boundary in OPEN_BOUNDARIES
        self.kind[:] = np.where(geom.is_boundary & outflow, TRANSMISSIVE, NO_BOUNDARY)
        self.normals[:] = geom.boundary_normals if outflow else 0.0
        self.value[:] = 0.0
        for segment in self.segments:
            self.place(segment, geom, fields)
        self.place_all()
        self.open = bool(self.vertices.size)

    def add(self, segment: BoundarySegment, geom, fields) -> None:
        """Open ``segment`` (checked by ``boundaries.check_segment``)."""
        self.segments += (segment,)
        self.place(segment, geom, fields)

    def place(self, segment: BoundarySegment, geom, fields) -> None:
        """Write a segment's kind, value and boundary normals (where the caller carries the
        global outflow, its vertices leave it to the segment: ``fields.boundary_outflow_normals``
        zero there); their slip projections keep only the wall that meets the segment at its
        ends (a corner), if any."""
        v = segment.vertices
        open_normals, wall_normals = segment_normals(geom, v)
        self.kind[v] = BOUNDARY_KINDS[segment.kind]
        self.normals[v] = open_normals
        self.value[v] = segment.value_at(0.0)
        self.place_all()
        self.open = True
        if not self.global_outflow:
            fields.boundary_outflow_normals[v] = 0.0
        length = np.linalg.norm(wall_normals, axis=1)
        if self.params.boundary in OPEN_BOUNDARIES:
            length[:] = 0.0
        unit = wall_normals / np.where(length > 0.0, length, 1.0)[:, None]
        fields.wall_projections[v] = np.eye(2) - unit[:, :, None] * unit[:, None, :]

    def update(self, time: float) -> None:
        """The values of the segments given as functions of time, at ``time`` (s)."""
        for segment in self.segments:
            if callable(segment.value):
                self.value[segment.vertices] = segment.value_at(time)
