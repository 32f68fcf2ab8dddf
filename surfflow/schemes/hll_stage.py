"""One forward-Euler stage of d and d u on HLL fluxes (kernels/riemann.py, SPEC §10).

The stage both schemes stand on: the conservative scheme takes two of them and their mean
(Heun, schemes/conservative.py), the momentum scheme takes the same two on the rings around a
bore (schemes/bores.py). From (d, u) at the vertices a ``StageReach`` lists:

    a_i    = -|g| grad_S H_i + the terms' accelerations          (kernels/pressure.py)
    F, G   = HLL fluxes of d and d u between limited reconstructions (kernels/reconstruction.py;
             first order at an inflow's and a held level's vertices)
    alpha_i = min(1, A_i d_i / (dt O_i))                           (kernels/outflow.py)
    d_i'   = d_i - dt / A_i (sum_j alpha_donor F_ij + alpha_i F_b,i)
    q_i'   = d_i (u_i + dt a_i) - dt / A_i (sum_j alpha_donor G_ij + alpha_i G_b,i)

then the terms' holds on (d', u') and implicit friction and damping (kernels/friction.py).
The vertices of an inflow and of a held level (``OpenSegments.imposed_vertices``) reconstruct
first order: across the open edge the boundary imposes their state (the discharge; the level's
ghost), which a fit over the ring inside cannot extend to. With the fit, the vertex of an
inflow edge between two deeper neighbours can turn against the inflow and run uphill
(tests/test_validation_expansion.py, the slope of seed 11); and a held level's vertices, whose
depths the level pins as it pins their neighbours' along it, would take their limiter's
extremum test from round-off (tests/test_similarity.py). A transmissive edge imposes nothing:
its vertices keep the fit.
``HllStage`` owns the buffers (n vertices, nnz CSR entries) and the bound terms.
"""

from __future__ import annotations

import numpy as np

from ..kernels.friction import apply_friction
from ..kernels.invariant_domain import keep_speed_bound
from ..kernels.reconstruction import limited_gradients
from ..kernels.records import (HllRings, Levels, Pressing, Reconstruction,
                               StageFluxes, StageUpdate, SurfaceMotion, rings_of)
from ..kernels.riemann import (conservative_stage, hll_edge_fluxes,
                               outflow_factors)
from .active import everything
from .segments import OpenSegments
from .shared import carry_dyes, friction_coefficients, gravity_pressure, summed_pressure


class StageReach:
    """The vertices a stage computes, int64 lists in increasing order: the limited gradients at
    ``gradients``, the HLL fluxes of the entries whose lower-index end is in ``fluxes``, the
    outflow factors at ``outflow``, and the update, gravity's acceleration and the friction at
    ``moving`` (with ``resting``, the rest kept, an active set: the dyes are carried there)."""

    def __init__(self, gradients, fluxes, outflow, moving, resting):
        self.gradients, self.fluxes, self.outflow = gradients, fluxes, outflow
        self.moving, self.resting = moving, resting


class HllStage:
    """The buffers, bound terms and open segments of one HLL stage on a mesh (module
    docstring): grad_depth (n, 2), grad_velocity (n, 2, 2), mass_flux (nnz,), momentum_flux
    (nnz, 2), outflow_factor (n,), the walls of the stage's fluxes, walls (nnz,) (its own: the
    bore patch's stages leave the momentum scheme's walls as its continuity found them), and
    the volumes that left and entered through the boundary in the last stage, outflow_volume
    and inflow_volume (n,). ``carries_residues``: the liquid below min_depth is carried at its
    own velocity, or counts at rest (kernels/riemann.py)."""

    def __init__(self, geom, params, carries_residues: bool = False):
        self.params = params
        self.carries_residues = carries_residues
        n, nnz = geom.n_vertices, len(geom.neighbor_indices)
        self.grad_depth = np.zeros((n, 2))
        self.grad_velocity = np.zeros((n, 2, 2))
        self.acceleration = np.zeros((n, 2))
        self.term_acceleration = np.zeros((n, 2))
        self.mass_flux = np.zeros(nnz)
        self.momentum_flux = np.zeros((nnz, 2))
        self.walls = np.zeros(nnz, dtype=bool)
        self.outflow_factor = np.zeros(n)
        self.outflow_volume = np.zeros(n)
        self.inflow_volume = np.zeros(n)
        every, none = everything(n)
        self.everywhere = StageReach(every, every, every, every, none)
        self.boundary = OpenSegments(n, params, global_outflow=True)
        b = self.boundary  # F_b, G_b and P_b of the open segments (``OpenSegments.fluxes``)
        self.boundary_mass, self.boundary_momentum = b.mass, b.momentum
        self.linear_friction, self.laminar_friction = friction_coefficients(params)
        self.sigma_over_density = params.surface_tension / params.density
        self.summed_pressure = np.zeros(n)  # the pressing terms' sum (zeros without)
        self.no_acceleration = np.zeros((n, 3))
        self.surface_acceleration = self.no_acceleration
        self.bind([], None, [], [])

    def bind(self, accelerations, find_walls, holds, pressures) -> None:
        """The terms' methods called in every stage (``terms/base.py``): those that add an
        acceleration (each with the array it adds to: gravity's for a term ``like_gravity``,
        whose surface acceleration (n, 3) the fluxes' wave speeds and mass jump feel too:
        gravity g - a), the one that finds the walls, those that hold after the update; and the
        pressing terms' surface pressures (n,) each, whose sum the fluxes see."""
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
        """The reversed ring coordinates and dual edge lengths (nnz,) the fluxes read; the
        boundary arrays from the global boundary kind, then the named segments."""
        self.reverse_coords = np.ascontiguousarray(geom.neighbor_coords[geom.reverse_edges])
        self.edge_lengths = np.linalg.norm(geom.dual_edge_vectors, axis=1)
        self.reverse_edge_lengths = np.ascontiguousarray(self.edge_lengths[geom.reverse_edges])
        self.normal_gravity = self.params.gravity_magnitude * fields.normal_rise  # g_n (n,)
        self.overhang = fields.normal_rise < 0.0  # (n,) where gravity presses no film on
        self.felt = np.empty_like(self.normal_gravity)  # ``felt_gravity``'s buffer
        self.boundary.use_geometry(geom, fields)

    def set_boundary(self, segment, geom, fields) -> None:
        """Open ``segment`` (checked by ``boundaries.check_segment``)."""
        self.boundary.add(segment, geom, fields)

    def felt_gravity(self, geom) -> np.ndarray:
        """g_n = |g| (e . n) + a . n (n,), into a buffer: the normal gravity the film feels on a
        surface accelerated by a (``surface_acceleration``, (n, 3)), 0 under an overhang
        (e . n < 0); ``kernels/riemann.py`` ``felt_support`` at every vertex."""
        np.einsum("ij,ij->i", self.surface_acceleration, geom.normals, out=self.felt)
        np.add(self.normal_gravity, self.felt, out=self.felt)
        np.copyto(self.felt, 0.0, where=self.overhang)
        return self.felt

    def stage(self, geom, fields, state, bottom, depth, velocity, dt, depth_out, velocity_out,
              reach=None, dyes=None) -> None:
        """One stage from (depth (n,), velocity (n, 2)) into the ``_out`` arrays at the vertices
        ``reach`` lists (``StageReach``; every vertex by default). ``dyes``: (dye, dye_out,
        faces, outflow) to carry the dyes on the stage's limited mass fluxes
        (``shared.carry_dyes``), or None."""
        p, g, f = self.params, geom, fields
        reach = self.everywhere if reach is None else reach
        self.acceleration.fill(0.0)
        gravity_pressure(g, f, state, p, reach, bottom, depth, 1.0, self.acceleration)
        self.term_acceleration.fill(0.0)
        for accelerate, target in self.accelerations:
            accelerate(g, f, state, bottom, depth, velocity, target)
        summed_pressure(self.pressures, self.summed_pressure)  # the bound surface_pressure
        self.find_walls(g, f, bottom, depth, self.walls)
        limited_gradients(reach.gradients, g.neighbor_offsets, g.neighbor_indices, g.edge_transforms,
                          g.neighbor_coords, f.fit_weights, f.wall_projections, depth, velocity,
                          p.min_depth, self.grad_depth, self.grad_velocity)
        self.grad_depth[self.boundary.imposed_vertices] = 0.0  # the boundary sets their state
        self.grad_velocity[self.boundary.imposed_vertices] = 0.0
        moving = self.surface_acceleration is not self.no_acceleration
        levels = Levels(f.vertex_height, f.normal_rise, bottom, p.gravity_magnitude)
        fluxes = StageFluxes(self.mass_flux, self.momentum_flux, self.boundary_mass,
                             self.boundary_momentum, self.outflow_factor)
        hll_edge_fluxes(reach.fluxes,
                        HllRings(g.neighbor_offsets, g.neighbor_indices, g.reverse_edges,
                                 g.neighbor_coords, self.reverse_coords, g.dual_edge_vectors,
                                 f.reverse_dual_edge_vectors, self.edge_lengths,
                                 self.reverse_edge_lengths, g.edge_transforms),
                        self.walls,
                        levels,
                        SurfaceMotion(self.surface_acceleration, moving, g.vertices, g.normals),
                        Reconstruction(depth, velocity, self.grad_depth, self.grad_velocity),
                        Pressing(self.surface_pressure, self.sigma_over_density,
                                 1.0 / p.density), p.min_depth, self.carries_residues, fluxes)
        o = self.boundary
        if o.open:
            o.fluxes(levels, depth, velocity, p.min_depth, True)
        outflow_factors(reach.outflow, g.neighbor_offsets, g.dual_areas, depth, self.mass_flux,
                        self.boundary_mass, dt, self.outflow_factor)
        conservative_stage(reach.moving, rings_of(g, f), f.wall_projections, depth, velocity,
                           self.acceleration, self.term_acceleration, fluxes, p.min_depth,
                           self.carries_residues, dt,
                           StageUpdate(depth_out, velocity_out, self.outflow_volume,
                                       self.inflow_volume))
        felt = self.felt_gravity(g) if moving else self.normal_gravity
        keep_speed_bound(reach.moving, g.neighbor_offsets, g.neighbor_indices, depth, velocity,
                         felt, self.acceleration, self.term_acceleration,
                         p.min_depth, dt, depth_out, velocity_out)
        if dyes is not None:
            dye, dye_out, faces, outflow = dyes
            carry_dyes(g, f, p, reach, depth, depth_out, velocity, 0.0, dye, self.mass_flux,
                       self.boundary_mass, self.outflow_factor, dt, faces, outflow, dye_out)
        for hold in self.holds:
            hold(g, f, depth_out, velocity_out, dt)
        apply_friction(reach.moving, g.friction_tensors, depth_out, state.damping,
                       self.linear_friction, self.laminar_friction, p.laminar_min_depth, dt,
                       velocity_out)
