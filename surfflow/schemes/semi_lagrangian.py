"""The velocity-form scheme, ``Params(scheme="semi_lagrangian")`` (SPEC §4).

It acts in four stages of the step: semi-Lagrangian advection of u (3, kernels/advection.py),
the well-balanced gravity-pressure acceleration u += dt a (4), implicit friction and damping (5)
and the continuity on d with u fixed (6, kernels/continuity.py), which carries the dyes on its
limited mass fluxes. It has no open boundary segments.
"""

from __future__ import annotations

import numpy as np

from ..kernels.advection import advect_velocity
from ..kernels.continuity import edge_fluxes, update_depth
from ..kernels.friction import apply_friction
from .shared import carry_dyes, friction_coefficients, gravity_pressure


class SemiLagrangianScheme:
    """Velocity form: semi-Lagrangian advection, then the continuity with the new velocity."""

    stages = ("advect", "push", "apply_friction", "transport")
    segments = ()  # no open boundary segments

    def __init__(self, geom, params, n_dyes: int):
        self.params = params
        self.dye_faces = np.zeros((len(geom.neighbor_indices), n_dyes))
        self.dye_outflow = np.zeros((geom.n_vertices, n_dyes))
        self.linear_friction, self.laminar_friction = friction_coefficients(params)

    def use_geometry(self, geom, fields) -> None:
        """Nothing derived from the geometry is kept."""

    def advect(self, geom, state, dt: float) -> None:
        """Semi-Lagrangian advection of u."""
        advect_velocity(geom.neighbor_offsets, geom.neighbor_indices, geom.is_boundary,
                        geom.neighbor_coords, geom.edge_transforms, state.depth, state.velocity,
                        self.params.min_depth, dt, state.velocity_next)
        state.swap_velocity()

    def push(self, geom, fields, state, bottom, dt: float) -> None:
        """u += dt a, a = -|g| grad H (well balanced)."""
        gravity_pressure(geom, fields, state, self.params, bottom, state.depth, dt, state.velocity)

    def apply_friction(self, geom, state, dt: float) -> None:
        """Friction and damping on u, implicit."""
        apply_friction(geom.friction_tensors, state.depth, state.damping, self.linear_friction,
                       self.laminar_friction, self.params.laminar_min_depth, dt, state.velocity)

    def transport(self, geom, fields, state, bottom, dt: float) -> dict:
        """The continuity on d (and the dyes) with u fixed; returns the outflow (m^3)."""
        f, s = fields, state
        edge_fluxes(geom.neighbor_offsets, geom.neighbor_indices, geom.dual_edge_vectors,
                    f.reverse_dual_edge_vectors, f.boundary_outflow_normals, geom.dual_areas,
                    s.shoreline_wall, s.depth, s.velocity, s.friction_share,
                    self.params.min_depth, dt, s.edge_flux, s.boundary_flux, s.outflow_factor)
        update_depth(geom.neighbor_offsets, geom.neighbor_indices, geom.edge_transforms,
                     geom.dual_areas, s.depth, s.velocity, s.edge_flux, s.boundary_flux,
                     s.outflow_factor, self.params.min_depth, dt, s.depth_next, s.velocity_next,
                     s.outflow_volume)
        carry_dyes(geom, f, self.params, s.depth, s.depth_next, s.velocity, 0.5 * dt, s.dye,
                   s.edge_flux, s.boundary_flux, s.outflow_factor, dt, self.dye_faces,
                   self.dye_outflow, s.dye_next)
        s.swap_depth()
        s.swap_velocity()
        return {"outflow": float(s.outflow_volume.sum())}
