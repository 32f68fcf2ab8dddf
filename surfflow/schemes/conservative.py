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

from ..kernels.friction import apply_friction
from ..kernels.invariant_domain import keep_speed_bound
from ..kernels.reconstruction import limited_gradients
from ..kernels.riemann import (average_stages, boundary_fluxes, conservative_stage,
                               hll_edge_fluxes, outflow_factors)
from .active import everything
from .segments import OpenSegments
from .shared import carry_dyes, friction_coefficients, gravity_pressure, summed_pressure


class StageReach:
    """The vertices a Runge-Kutta stage computes, int64 lists in increasing order: the limited
    gradients at ``gradients``, the HLL fluxes of the entries whose lower-index end is in
    ``fluxes``, the outflow factors at ``outflow``, and the update, gravity's acceleration and
    the friction at ``moving`` (with ``resting``, the rest kept, an active set: the dyes are
    carried there). The scheme's own stages reach every vertex; a bore's reach the rings around
    it (schemes/bores.py)."""

    def __init__(self, gradients, fluxes, outflow, moving, resting):
        self.gradients, self.fluxes, self.outflow = gradients, fluxes, outflow
        self.moving, self.resting = moving, resting


class ConservativeScheme:
    """Finite volumes on d and d u (kernels/riemann.py), second order in space and time."""

    stages = ("transport",)  # advection, gravity and friction act inside each Runge-Kutta stage
    skips_dry_ground = False  # the state's active set stays every vertex (model._share_friction)

    def __init__(self, geom, params, n_dyes: int):
        self.params = params
        n, nnz = geom.n_vertices, len(geom.neighbor_indices)
        self.grad_depth = np.zeros((n, 2))
        self.grad_velocity = np.zeros((n, 2, 2))
        self.dye_faces = np.zeros((nnz, n_dyes))
        self.dye_outflow = np.zeros((n, n_dyes))
        self.acceleration = np.zeros((n, 2))
        self.term_acceleration = np.zeros((n, 2))
        self.mass_flux = np.zeros(nnz)
        self.momentum_flux = np.zeros((nnz, 2))
        self.boundary_mass = np.zeros(n)
        self.boundary_momentum = np.zeros((n, 2))
        self.boundary_push = np.zeros(n)
        self.outflow_factor = np.zeros(n)
        self.outflow_volume = np.zeros(n)
        every, none = everything(n)
        self.everywhere = StageReach(every, every, every, every, none)  # the dyes go everywhere
        self.inflow_volume = np.zeros(n)
        self.stage_depth = np.zeros(n)
        self.stage_velocity = np.zeros((n, 2))
        self.stage_dye = np.zeros((n, n_dyes))
        self.boundary = OpenSegments(n, params, global_outflow=True)
        self.linear_friction, self.laminar_friction = friction_coefficients(params)
        self.sigma_over_density = params.surface_tension / params.density
        self.summed_pressure = np.zeros(n)  # the pressing terms' sum (zeros without)
        self.no_acceleration = np.zeros((n, 3))
        self.surface_acceleration = self.no_acceleration
        self.bind([], None, [], [])

    def bind(self, accelerations, find_walls, holds, pressures) -> None:
        """The terms' methods to call in every Runge-Kutta stage (``terms/base.py``): those that
        add an acceleration (each with the array it adds to: gravity's for a term
        ``like_gravity``, whose surface acceleration (n, 3) the fluxes' wave speeds and mass
        jump feel too: gravity g - a), the one that finds the walls, those that hold after the update; and
        the pressing terms' surface pressures (n,) each (tension's, the bodies'), whose sum the
        fluxes see."""
        self.accelerations = [(accelerate, self.acceleration if accelerate.__self__.like_gravity
                               else self.term_acceleration) for accelerate in accelerations]
        self.find_walls, self.holds = find_walls, holds
        moving = [accelerate.__self__.acceleration for accelerate in accelerations
                  if accelerate.__self__.like_gravity]
        if len(moving) > 1:
            raise NotImplementedError("the conservative scheme feels one moving surface's "
                                      "acceleration, not several")
        self.surface_acceleration = moving[0] if moving else self.no_acceleration
        self.pressures = pressures
        self.surface_pressure = pressures[0] if len(pressures) == 1 else self.summed_pressure

    @property
    def segments(self):
        """The open boundary segments set (``schemes/segments.py``)."""
        return self.boundary.segments

    def use_geometry(self, geom, fields) -> None:
        """Reset the boundary arrays from the global boundary kind, then the named segments."""
        self.reverse_coords = np.ascontiguousarray(geom.neighbor_coords[geom.reverse_edges])
        self.edge_lengths = np.linalg.norm(geom.dual_edge_vectors, axis=1)
        self.reverse_edge_lengths = np.ascontiguousarray(self.edge_lengths[geom.reverse_edges])
        self.normal_gravity = self.params.gravity_magnitude * fields.normal_rise  # g_n (n,)
        self.boundary.use_geometry(geom, fields)

    def set_boundary(self, segment, geom, fields) -> None:
        """Open ``segment`` (checked by ``boundaries.check_segment``)."""
        self.boundary.add(segment, geom, fields)

    def transport(self, geom, fields, state, bottom, dt: float) -> dict:
        """Heun's two stages from the state and their average; returns the outflow and inflow
        (m^3) through the boundary (the outflow per vertex, the stages' average, in
        state.outflow_volume, where free edges shed it: ``particles/coupling.py``)."""
        self.boundary.update(state.time)
        s = state
        self.stage(geom, fields, s, bottom, s.depth, s.velocity, s.dye, dt, s.depth_next,
                   s.velocity_next, s.dye_next)
        out_1, in_1 = float(self.outflow_volume.sum()), float(self.inflow_volume.sum())
        np.multiply(self.outflow_volume, 0.5, out=s.outflow_volume)
        self.stage(geom, fields, s, bottom, s.depth_next, s.velocity_next, s.dye_next, dt,
                   self.stage_depth, self.stage_velocity, self.stage_dye)
        out_2, in_2 = float(self.outflow_volume.sum()), float(self.inflow_volume.sum())
        self.outflow_volume *= 0.5
        s.outflow_volume += self.outflow_volume
        average_stages(s.depth, s.velocity, s.dye, self.stage_depth, self.stage_velocity,
                       self.stage_dye, self.params.min_depth, s.depth_next, s.velocity_next,
                       s.dye_next)
        s.swap_depth()
        s.swap_velocity()
        return {"outflow": 0.5 * (out_1 + out_2), "inflow": 0.5 * (in_1 + in_2)}

    def stage(self, geom, fields, state, bottom, depth, velocity, dye, dt, depth_out,
              velocity_out, dye_out, reach=None) -> None:
        """One forward-Euler stage from (depth, velocity, dye) into the ``_out`` arrays: the
        accelerations of gravity and the terms at this stage's state, its walls, the fluxes, the
        update, the holds and the friction, at the vertices ``reach`` lists (``StageReach``;
        every vertex by default)."""
        p, g, f = self.params, geom, fields
        reach = self.everywhere if reach is None else reach
        self.acceleration.fill(0.0)
        gravity_pressure(g, f, state, p, reach, bottom, depth, 1.0, self.acceleration)
        self.term_acceleration.fill(0.0)
        for accelerate, target in self.accelerations:
            accelerate(g, f, state, bottom, depth, velocity, target)
        summed_pressure(self.pressures, self.summed_pressure)  # the bound surface_pressure
        self.find_walls(g, f, bottom, depth, state.shoreline_wall)
        limited_gradients(reach.gradients, g.neighbor_offsets, g.neighbor_indices, g.edge_transforms,
                          g.neighbor_coords, f.fit_weights, f.wall_projections, depth, velocity,
                          p.min_depth, self.grad_depth, self.grad_velocity)
        hll_edge_fluxes(reach.fluxes, g.neighbor_offsets, g.neighbor_indices, g.reverse_edges,
                        g.neighbor_coords,
                        self.reverse_coords, g.dual_edge_vectors, f.reverse_dual_edge_vectors,
                        self.edge_lengths, self.reverse_edge_lengths, g.edge_transforms,
                        state.shoreline_wall, f.vertex_height, f.normal_rise,
                        p.gravity_magnitude, self.surface_acceleration,
                        self.surface_acceleration is not self.no_acceleration, g.vertices, g.normals,
                        bottom, depth, velocity, self.grad_depth,
                        self.grad_velocity, self.surface_pressure, self.sigma_over_density,
                        1.0 / p.density, p.min_depth, self.mass_flux, self.momentum_flux)
        o = self.boundary
        if o.open:
            boundary_fluxes(o.kind, o.value, o.normals, f.vertex_height, f.normal_rise,
                            p.gravity_magnitude, bottom, depth, velocity, p.min_depth, True,
                            self.boundary_mass, self.boundary_momentum, self.boundary_push)
        outflow_factors(reach.outflow, g.neighbor_offsets, g.dual_areas, depth, self.mass_flux,
                        self.boundary_mass, dt, self.outflow_factor)
        conservative_stage(reach.moving, g.neighbor_offsets, g.neighbor_indices, g.edge_transforms,
                           f.wall_projections,
                           g.dual_areas, depth, velocity, self.acceleration,
                           self.term_acceleration, self.mass_flux,
                           self.momentum_flux, self.boundary_mass, self.boundary_momentum,
                           self.outflow_factor, p.min_depth, dt, depth_out, velocity_out,
                           self.outflow_volume, self.inflow_volume)
        keep_speed_bound(reach.moving, g.neighbor_offsets, g.neighbor_indices, depth, velocity,
                         self.normal_gravity, self.acceleration, self.term_acceleration,
                         p.min_depth, dt, depth_out, velocity_out)
        carry_dyes(g, f, p, reach, depth, depth_out, velocity, 0.0, dye, self.mass_flux,
                   self.boundary_mass,
                   self.outflow_factor, dt, self.dye_faces, self.dye_outflow, dye_out)
        for hold in self.holds:
            hold(g, f, depth_out, velocity_out, dt)
        apply_friction(reach.moving, g.friction_tensors, depth_out, state.damping,
                       self.linear_friction, self.laminar_friction, p.laminar_min_depth, dt,
                       velocity_out)
