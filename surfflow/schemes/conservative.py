"""The finite-volume scheme, ``Params(scheme="conservative")`` (SPEC §10).

Heun (SSP-RK2) on d and d u with HLL fluxes, limited reconstruction and well-balanced gravity
(kernels/riemann.py), second order in space and time. It covers stages 3 to 6 of the step as
one, its ``transport``: each Runge-Kutta stage carries d u on the momentum fluxes (no separate
advection), adds the gravity-pressure acceleration and then the implicit friction and damping
(a stiff friction must act on every stage's velocity, or a creeping film moves at the undamped
dt a for a stage; so a film's u = a / k exactly). The dyes ride on each stage's limited mass
fluxes. Open boundary segments (``surfflow/boundaries.py``: inflow, level, transmissive) enter
through the boundary fluxes.
"""

from __future__ import annotations

import numpy as np

from ..kernels.riemann import average_stages
from .hll_stage import HllStage


class ConservativeScheme:
    """Finite volumes on d and d u (kernels/riemann.py), second order in space and time: Heun's
    two ``HllStage`` stages and their mean."""

    stages = ("transport",)  # advection, gravity and friction act inside each Runge-Kutta stage
    skips_dry_ground = False  # the state's active set stays every vertex (model._share_friction)
    carries_residues = False  # the liquid below min_depth counts at rest (kernels/riemann.py)

    def __init__(self, geom, params, n_dyes: int):
        self.params = params
        n, nnz = geom.n_vertices, len(geom.neighbor_indices)
        self.heun = HllStage(geom, params)
        self.dye_faces = np.zeros((nnz, n_dyes))
        self.dye_outflow = np.zeros((n, n_dyes))
        self.stage_depth = np.zeros(n)
        self.stage_velocity = np.zeros((n, 2))
        self.stage_dye = np.zeros((n, n_dyes))

    def bind(self, accelerations, find_walls, holds, pressures) -> None:
        """The terms' methods for every stage (``HllStage.bind``)."""
        self.heun.bind(accelerations, find_walls, holds, pressures)

    def follow_surface(self, motion) -> None:
        """Nothing to set on a surface ``motion`` moves: the stages carry d u relative to the
        surface, and the motion term's push gives the whole Coriolis turn."""

    @property
    def segments(self):
        """The open boundary segments set (``schemes/segments.py``)."""
        return self.heun.segments

    @property
    def mass_flux(self) -> np.ndarray:
        """F_ij (nnz,) of the last stage."""
        return self.heun.mass_flux

    @property
    def surface_pressure(self) -> np.ndarray:
        """The pressing terms' surface pressure (n,) the fluxes see."""
        return self.heun.surface_pressure

    @property
    def summed_pressure(self) -> np.ndarray:
        """The buffer the pressing terms' pressures are summed into (n,)."""
        return self.heun.summed_pressure

    def use_geometry(self, geom, fields) -> None:
        """The stages' geometry and open segments (``HllStage.use_geometry``)."""
        self.heun.use_geometry(geom, fields)

    def set_boundary(self, segment, geom, fields) -> None:
        """Open ``segment`` (checked by ``boundaries.check_segment``)."""
        self.heun.set_boundary(segment, geom, fields)

    def transport(self, geom, fields, state, bottom, dt: float) -> dict:
        """Heun's two stages from the state and their average; returns the outflow and inflow
        (m^3) through the boundary (the outflow per vertex, the stages' average, in
        state.outflow_volume, where free edges shed it: ``particles/coupling.py``)."""
        h = self.heun
        h.boundary.update(state.time)
        s = state
        h.stage(geom, fields, s, bottom, s.depth, s.velocity, dt, s.depth_next, s.velocity_next,
                dyes=(s.dye, s.dye_next, self.dye_faces, self.dye_outflow))
        out_1, in_1 = float(h.outflow_volume.sum()), float(h.inflow_volume.sum())
        np.multiply(h.outflow_volume, 0.5, out=s.outflow_volume)
        h.stage(geom, fields, s, bottom, s.depth_next, s.velocity_next, dt, self.stage_depth,
                self.stage_velocity, dyes=(s.dye_next, self.stage_dye, self.dye_faces,
                                           self.dye_outflow))
        out_2, in_2 = float(h.outflow_volume.sum()), float(h.inflow_volume.sum())
        h.outflow_volume *= 0.5
        s.outflow_volume += h.outflow_volume
        average_stages(s.depth, s.velocity, s.dye, self.stage_depth, self.stage_velocity,
                       self.stage_dye, self.params.min_depth, h.carries_residues, s.depth_next,
                       s.velocity_next, s.dye_next)
        s.swap_depth()
        s.swap_velocity()
        return {"outflow": 0.5 * (out_1 + out_2), "inflow": 0.5 * (in_1 + in_2)}
