"""The velocity-form scheme, ``Params(scheme="momentum")`` (SPEC §4).

It acts in three stages of the step: the well-balanced gravity-pressure acceleration
u += dt a, then the terms' accelerations (their ``accelerate``, evaluated once on the step's
depth and velocity) and their ``hold``s (4), implicit friction and damping (5), and the
continuity (6, kernels/continuity.py) across the walls the bound ``find_walls`` writes: the
depth moves on the limited mass fluxes of the new velocity, and in the same pass the momentum
A d u rides on the same fluxes with the donor's velocity (Stelling & Duinmeijer 2003; Kramer &
Stelling 2008), so momentum is conserved and a bore keeps its jump conditions; the dyes ride on
them too. It has no open boundary segments.
"""

from __future__ import annotations

import numpy as np

from ..kernels.continuity import edge_fluxes, update_depth
from ..kernels.friction import apply_friction
from .shared import carry_dyes, friction_coefficients, gravity_pressure, summed_pressure


class MomentumScheme:
    """Velocity form: the push, then the continuity carrying d and d u on the same fluxes."""

    stages = ("push", "apply_friction", "transport")
    segments = ()  # no open boundary segments
    skips_dry_ground = True  # the step rebuilds the state's active set (model._share_friction)

    def __init__(self, geom, params, n_dyes: int):
        self.params = params
        self.dye_faces = np.zeros((len(geom.neighbor_indices), n_dyes))
        self.dye_outflow = np.zeros((geom.n_vertices, n_dyes))
        self.linear_friction, self.laminar_friction = friction_coefficients(params)
        self.term_acceleration = np.zeros((geom.n_vertices, 2))
        self.summed_pressure = np.zeros(geom.n_vertices)  # the pressing terms' sum (zeros without)
        self.inertial_pressure = np.zeros(geom.n_vertices)  # with a moving surface's head
        self.bind([], None, [], [])

    def bind(self, accelerations, find_walls, holds, pressures) -> None:
        """The terms' methods (``terms/base.py``): those that add an acceleration, the one that
        finds the walls, those that hold after the push; and the pressing terms' surface pressures
        (n,) each, whose sum the continuity's compression flux sees (kernels/continuity.py; their
        push acts through each term's ``accelerate``), as it sees the surface's own acceleration
        (a term ``like_gravity``: ``head_pressure``)."""
        self.accelerations, self.find_walls, self.holds = accelerations, find_walls, holds
        self.pressures = pressures
        self.surface_accelerations = [accelerate.__self__.acceleration for accelerate
                                      in accelerations if accelerate.__self__.like_gravity]

    def use_geometry(self, geom, fields) -> None:
        """Nothing derived from the geometry is kept (the active set is rebuilt every step)."""

    def push(self, geom, fields, state, bottom, dt: float) -> None:
        """u += dt a, a = -|g| grad H (well balanced), at the wet vertices of the step's active
        set ``state.active`` (rebuilt from this depth, ``model._share_friction``); then
        u += dt a for the terms' accelerations a at (d, u); then the holds."""
        gravity_pressure(geom, fields, state, self.params, state.active, bottom, state.depth,
                         dt, state.velocity)
        if self.accelerations:
            a = self.term_acceleration
            a.fill(0.0)
            for accelerate in self.accelerations:
                accelerate(geom, fields, state, bottom, state.depth, state.velocity, a)
            np.multiply(a, dt, out=a)   # u += dt a with no array allocated
            np.add(state.velocity, a, out=state.velocity)
        for hold in self.holds:
            hold(geom, fields, state.depth, state.velocity, dt)

    def apply_friction(self, geom, state, dt: float) -> None:
        """Friction and damping on u, implicit, at the active set's moving vertices (at the
        others, dry ground away from the liquid, u = 0 stays)."""
        apply_friction(state.active.moving, geom.friction_tensors, state.depth, state.damping,
                       self.linear_friction, self.laminar_friction,
                       self.params.laminar_min_depth, dt, state.velocity)

    def head_pressure(self, geom, fields, bottom, depth):
        """(n,) Pa: the pressing terms' surface pressure p_s, whose head the continuity's
        compression flux adds to the level H (kernels/continuity.py). On a surface accelerating
        at a (n, 3) (a term ``like_gravity``, ``kernels/inertia.py``) the head is the one under the
        effective gravity g - a, L = (-(g - a) . (x + h n) + p_s / rho) / |g - a|, passed as the
        pressure rho |g| (L - H): an accelerated surface is then exactly a tilted one."""
        pressure = summed_pressure(self.pressures, self.summed_pressure)
        if not self.surface_accelerations or self.params.gravity_magnitude == 0.0:
            return pressure
        p = self.params
        effective = np.asarray(p.gravity) - self.surface_accelerations[0]
        size = np.linalg.norm(effective, axis=1)
        points = geom.vertices + (bottom + depth)[:, None] * geom.normals
        head = (pressure / p.density - np.einsum("ij,ij->i", effective, points)) / size
        level = fields.vertex_height + (bottom + depth) * fields.normal_rise
        np.multiply(head - level, p.density * p.gravity_magnitude, out=self.inertial_pressure)
        return self.inertial_pressure

    def transport(self, geom, fields, state, bottom, dt: float) -> dict:
        """The walls, then the continuity on d and d u (and the dyes) on the fluxes of u at the
        vertices the push's active set moves (the depth is still the push's); returns the
        outflow (m^3)."""
        f, s, a, p = fields, state, state.active, self.params
        head = 1.0 / (p.density * p.gravity_magnitude) if p.gravity_magnitude > 0.0 else 0.0
        pressure = self.head_pressure(geom, f, bottom, s.depth)
        self.find_walls(geom, f, bottom, s.depth, s.shoreline_wall)
        edge_fluxes(a.moving, a.resting, geom.neighbor_offsets, geom.neighbor_indices,
                    geom.dual_edge_vectors, f.reverse_dual_edge_vectors,
                    f.boundary_outflow_normals, geom.dual_areas, s.shoreline_wall,
                    f.vertex_height, f.normal_rise, bottom,
                    pressure, head, s.depth,
                    s.velocity, s.friction_share, self.params.min_depth, dt, s.edge_flux,
                    s.boundary_flux, s.outflow_factor)
        update_depth(a.moving, a.resting, geom.neighbor_offsets, geom.neighbor_indices,
                     geom.edge_transforms, geom.dual_areas, s.depth, s.velocity, s.edge_flux,
                     s.boundary_flux, s.outflow_factor, self.params.min_depth, dt, s.depth_next,
                     s.velocity_next, s.outflow_volume)
        carry_dyes(geom, f, self.params, a, s.depth, s.depth_next, s.velocity, 0.5 * dt, s.dye,
                   s.edge_flux, s.boundary_flux, s.outflow_factor, dt, self.dye_faces,
                   self.dye_outflow, s.dye_next)
        s.swap_depth()
        s.swap_velocity()
        return {"outflow": float(s.outflow_volume.sum())}
