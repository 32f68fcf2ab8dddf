"""Dissolution of a soluble layer into the flowing liquid (SPEC §3, ``kernels/dissolution.py``).

A soluble layer m >= 0 lies on the bottom (b = b_geometry + m); the flow dissolves it at
q_s = e_p (d + s) |u|, limited by what is there and by the solubility s <= c_max d. The
dissolved depth s moves with its own velocity u_s, dragged towards u by c_d |u - u_s| (u - u_s),
braked by kappa times the bottom friction, and weighs on the liquid: the hydrostatic pressure
sees the bottom b + r s. Where s exceeds the solubility it precipitates back onto m.

The arrays m, s, u_s live in the state (``soluble_layer``, ``dissolved``, ``solute_velocity``).
Stages: advect u_s (3); the loaded bottom b + r s, gravity-pressure on u_s and the drag
exchange (4); kappa x friction on u_s (5); carry s, dissolve and precipitate (6), returning the
dissolved volume that left through the boundary as ``solute_outflow``; and, when the surface
moves, every vertex keeps its dissolved and deposited volumes A s and A m.
"""

from __future__ import annotations

import math

import numpy as np

from ..kernels.advection import advect_velocity
from ..kernels.continuity import edge_fluxes
from ..kernels.dissolution import exchange_drag, exchange_soluble_layer
from ..kernels.friction import apply_friction
from ..kernels.records import (STILL_SURFACE, CarrierFluxes, ContinuityFluxes, FluxInputs,
                               TracerUpdate, rings_of)
from ..kernels.tracers import carry, limited_faces
from ..schemes.active import ActiveSet
from ..schemes.shared import friction_coefficients, gravity_pressure
from .base import Term, Volumes


class Dissolution(Term):
    """The soluble layer, the dissolved material and its velocity on ``geom`` for ``params``.

    loaded_bottom (n,): b + r s, the bottom the hydrostatic pressure sees (``load_bottom``)."""

    name = "dissolution"
    stages = ("advect", "load_bottom", "push", "apply_friction", "transport", "keep_volumes")

    def __init__(self, geom, params):
        self.params = params
        n = geom.n_vertices
        self.loaded_bottom = np.zeros(n)
        self.solute_next = np.zeros(n)
        self.solute_faces = np.zeros((len(geom.neighbor_indices), 1))
        self.solute_outflow = np.zeros((n, 1))
        self.momentum_slopes = np.zeros((n, 2, 2))  # edge_fluxes' scratch: the solute's flux
        self.momentum_excess = np.zeros((n, 2))  # is upwind (share 1), so no slopes are fitted
        self.no_damping = np.zeros(n)
        self.active = ActiveSet(n)  # never rebuilt: the solute moves wherever u_s does
        self.ones = np.ones(n)  # the solute's carrier (swept area per area) and upwind share
        self.flat = np.zeros(n)  # a level carrier and shock sensor: no compression flux
        linear, laminar = friction_coefficients(params)
        self.linear_friction = params.solute_friction * linear
        self.laminar_friction = params.solute_friction * laminar

    def advect(self, geom, state, dt: float) -> None:
        """Semi-Lagrangian advection of u_s."""
        advect_velocity(geom.neighbor_offsets, geom.neighbor_indices, geom.is_boundary,
                        geom.neighbor_coords, geom.edge_transforms, state.depth,
                        state.solute_velocity, self.params.min_depth, dt,
                        state.solute_velocity_next)
        state.swap_solute_velocity()

    def load_bottom(self, state) -> np.ndarray:
        """b + r s (n,): the dissolved material's weight joins the bottom."""
        np.multiply(state.dissolved, self.params.solute_density_ratio, out=self.loaded_bottom)
        self.loaded_bottom += state.bottom
        return self.loaded_bottom

    def push(self, geom, fields, state, bottom, dt: float) -> None:
        """The liquid's gravity-pressure acceleration on u_s too, then the drag exchange."""
        p = self.params
        gravity_pressure(geom, fields, state, p, self.active, bottom, state.depth, dt,
                         state.solute_velocity)
        exchange_drag(state.depth, state.velocity, state.dissolved, state.solute_velocity,
                      p.solute_density_ratio, p.solute_drag, p.min_depth, dt)

    def apply_friction(self, geom, state, dt: float) -> None:
        """kappa times the bottom friction on u_s, implicit."""
        apply_friction(self.active.moving, geom.friction_tensors, state.depth, self.no_damping,
                       self.linear_friction, self.laminar_friction, self.params.laminar_min_depth,
                       dt, state.solute_velocity)

    def transport(self, geom, fields, state, bottom, dt: float) -> Volumes:
        """Carry s with u_s (kernels/tracers.py: the area fluxes of u_s, fully upwind, carry s
        reconstructed at the dual edges, second order and limited), then dissolve and
        precipitate; returns the dissolved volume that left through outflow boundaries (m^3)."""
        p, g, one, a = self.params, geom, self.ones, self.active
        state.shoreline_wall.fill(False)  # the dissolved material crosses every dual edge
        inputs = FluxInputs(state.shoreline_wall, self.flat, self.flat, self.flat, self.flat,
                            fields.boundary_outflow_normals, self.flat)
        rings = rings_of(g, fields)
        edge_fluxes(a.moving, a.resting, rings, inputs, one, state.solute_velocity,
                    one, 0.0, dt, ContinuityFluxes(state.edge_flux, state.boundary_flux,
                                                   state.outflow_factor, self.momentum_slopes,
                                                   self.momentum_excess, STILL_SURFACE,
                                                   g.tangent_frames, g.normals))
        solute, solute_next = state.dissolved[:, None], self.solute_next[:, None]
        fluxes = CarrierFluxes(state.edge_flux, state.boundary_flux, state.outflow_factor)
        limited_faces(a.moving, rings, one, 0.0, solute, state.solute_velocity, 0.5 * dt, fluxes,
                      dt, self.solute_faces)
        carry(a.moving, a.resting, rings, one, one, solute, self.solute_faces, fluxes, dt,
              math.inf, TracerUpdate(solute_next, self.solute_outflow))
        state.dissolved, self.solute_next = self.solute_next, state.dissolved
        exchange_soluble_layer(state.depth, state.velocity, state.soluble_layer, state.dissolved,
                               state.solute_velocity, state.bottom, p.dissolution_rate,
                               p.solubility, p.min_depth, dt)
        return {"solute_outflow": float(self.solute_outflow.sum())}

    def keep_volumes(self, old, new, state) -> None:
        """The surface moved from ``old`` to ``new``: keep every vertex's A s and A m (the
        layer's change of thickness moves the bottom)."""
        state.dissolved[:] = old.dual_areas * state.dissolved / new.dual_areas
        layer = old.dual_areas * state.soluble_layer / new.dual_areas
        state.bottom += layer - state.soluble_layer
        state.soluble_layer[:] = layer
