"""The velocity-form scheme, ``Params(scheme="momentum")`` (SPEC §4).

It acts in three stages of the step: the well-balanced gravity-pressure acceleration
u += dt a, then the terms' accelerations (their ``accelerate``, evaluated once on the step's
depth and velocity) and their ``hold``s (4), implicit friction and damping (5), and the
continuity (6, kernels/continuity.py) across the walls the bound ``find_walls`` writes: the
depth moves on the limited mass fluxes of the continuity velocity (the pushed one plus the last
step's advective increment, ``state.advection``, kernels/continuity_velocity.py, written after
the transport), and in the same pass the momentum A d u rides on the same fluxes with the
donor's velocity (Stelling & Duinmeijer 2003; Kramer & Stelling 2008): where the flow contracts
momentum is conserved and a bore keeps its jump conditions; with
``Params.expansion = "energy_head"`` (the default) the edges along which the flow expands
carry the energy head instead (``continuity.update_depth``, from the step's
starting velocity ``start_velocity``); the dyes ride on them too. Around a gravity bore the edges take two HLL
stages' fluxes, averaged as Heun's (``schemes/bores.py``, ``schemes/hll_stage.py``), which keep
it one column wide. Open boundary segments (``surfflow/boundaries.py``: inflow, level,
transmissive; ``schemes/segments.py``) enter through kernels/riemann.py's boundary fluxes: their
mass flux F_b joins the continuity's boundary term, an inflow brings its momentum G_b like an inflow from
a neighbour, an outflow takes u_i along, and a level's ghost pushes through the pressure
gradient (``push_boundary``). With a segment open every vertex is computed (an inflow may wet
dry ground far from any liquid). On a moving surface (``follow_surface``) the continuity carries
the film's momentum in the world's frame, u + V (kernels/continuity.py), and the Coriolis turn
is the frame's alone, in two halves around the push (the spin's share is in the carried term:
kernels/coriolis.py, ``SurfaceMotion.carry_world_momentum``).
"""

from __future__ import annotations

import numpy as np

from ..kernels.boundaries import shoreline_corner_share, slip_along_shorelines
from ..kernels.continuity import edge_fluxes, update_depth
from ..kernels.continuity_velocity import advective_increment
from ..kernels.friction import apply_friction
from ..kernels.records import (NO_ENERGY_HEAD, STILL_SURFACE, ContinuityFluxes, DepthUpdate,
                               FluxInputs, Levels, energy_head, rings_of)
from ..geometry.topology import CORNER_ANGLE
from .bores import BoreFluxes
from .segments import OpenSegments
from .shared import carry_dyes, friction_coefficients, gravity_pressure, summed_pressure


SHORELINE_CORNER = shoreline_corner_share(CORNER_ANGLE)  # ``slip_along_shorelines``' corner


class MomentumScheme:
    """Velocity form: the push, then the continuity carrying d and d u on the same fluxes."""

    stages = ("push", "apply_friction", "transport")
    # the liquid below min_depth keeps the velocity it came with: no force acts on it and the
    # continuity sends nothing from it, but Heun's stages at a front carry it (schemes/bores.py)
    carries_residues = True

    def __init__(self, geom, params, n_dyes: int):
        self.params = params
        n = geom.n_vertices
        self.boundary = OpenSegments(n, params, global_outflow=False)  # that one: the continuity
        b = self.boundary  # F_b, G_b and P_b of the open segments (``OpenSegments.fluxes``)
        self.boundary_mass, self.boundary_momentum, self.boundary_push = b.mass, b.momentum, b.push
        self.slopes = np.zeros((n, 2, 2))  # the momentum's faces (momentum_faces.donor_slopes)
        self.excess = np.zeros((n, 2))
        self.energy_record = energy_head(np.zeros(n), np.zeros(n), len(geom.neighbor_indices))
        self.start_velocity = np.zeros((n, 2))  # the step's, before the push (update_depth)
        self.sensor = np.zeros(n)  # the push's shock sensor, the continuity's Landshoff term's
        self.level, self.head_part = np.zeros(n), np.zeros(n)  # its head L (``head``)
        self.potential_energy = np.zeros(n)  # |g| L (``potential``)
        self.felt_size = np.zeros(n)  # |g - a| on an accelerating surface (``head``)
        self.dye_faces = np.zeros((len(geom.neighbor_indices), n_dyes))
        self.dye_outflow = np.zeros((geom.n_vertices, n_dyes))
        self.linear_friction, self.laminar_friction = friction_coefficients(params)
        self.term_acceleration = np.zeros((geom.n_vertices, 2))
        self.summed_pressure = np.zeros(geom.n_vertices)  # the pressing terms' sum (zeros without)
        self.bores = BoreFluxes(geom, params)  # the conservative scheme's fluxes around bores
        self.frame = None  # a moving surface's term (``follow_surface``)
        self.surface_velocity = np.zeros((n, 3))
        self.continuity_velocity = np.zeros((n, 2))  # u* + delta (``transport``)
        self.bind([], None, [], [])

    def bind(self, accelerations, find_walls, holds, pressures) -> None:
        """The terms' methods (``terms/base.py``): those that add an acceleration, the one that
        finds the walls, those that hold after the push; and the pressing terms' surface pressures
        (n,) each, whose sum the continuity's compression flux sees (kernels/continuity.py; their
        push acts through each term's ``accelerate``), as it sees the surface's own acceleration
        (a term ``like_gravity``: ``head``)."""
        self.accelerations, self.find_walls, self.holds = accelerations, find_walls, holds
        self.pressures = pressures
        self.surface_accelerations = [accelerate.__self__.acceleration for accelerate
                                      in accelerations if accelerate.__self__.like_gravity]
        self.bores.bind(accelerations, find_walls, holds, pressures)

    def follow_surface(self, motion) -> None:
        """Carry the film's momentum in the world's frame on the surface ``motion`` moves
        (``SurfaceMotion``, told so: its Coriolis turn is then the frame's alone, in halves
        around the push), or in the surface's for None. Heun's stages around bores and fronts
        (``schemes/bores.py``) start from the step's velocity kept before the push,
        ``start_velocity`` (n, 2): the motion's push, which comes after this scheme's, turns it
        too while they are ``watching`` (``SurfaceMotion.turn_also``)."""
        self.frame = motion
        if motion is not None:
            motion.carry_world_momentum()
            motion.turn_also(self.bores)

    @property
    def segments(self):
        """The open boundary segments set (``schemes/segments.py``)."""
        return self.boundary.segments

    @property
    def skips_dry_ground(self) -> bool:
        """Whether the step rebuilds the state's active set (``model._share_friction``): not
        with a segment open."""
        return not self.boundary.open

    def use_geometry(self, geom, fields) -> None:
        """Place the open segments again (the active set is rebuilt every step); the wave
        stiffness K = g_n + (sigma / rho) (pi / s)^2 (n,) of the continuity's Froude number
        (kernels/continuity.py), g_n = |g| (e . n) the normal gravity and s the ring spacing,
        (pi / s) the mesh's shortest wave's number."""
        self.boundary.use_geometry(geom, fields)
        p = self.params
        self.normal_gravity = p.gravity_magnitude * fields.normal_rise
        self.wave_stiffness = (self.normal_gravity
                               + p.surface_tension / p.density * (np.pi / fields.ring_spacing) ** 2)
        self.felt = np.empty_like(self.wave_stiffness)  # felt_stiffness's, on a moving surface
        self.felt_gravity = np.empty_like(self.wave_stiffness)
        self.bores.use_geometry(geom, fields, self.normal_gravity, self.wave_stiffness)

    def felt_stiffness(self, geom):
        """(K, g_n), (n,) m/s^2 each: the wave stiffness K and the normal gravity g_n (the
        continuity's Landshoff term's c^2 = g_n d) with the normal gravity the liquid feels, on a
        surface accelerating at a (a term ``like_gravity``) -(g - a) . n, not |g| (e . n)."""
        if not self.surface_accelerations:
            return self.wave_stiffness, self.normal_gravity
        np.einsum("ij,ij->i", self.surface_accelerations[0], geom.normals, out=self.felt)
        np.add(self.normal_gravity, self.felt, out=self.felt_gravity)
        return np.add(self.wave_stiffness, self.felt, out=self.felt), self.felt_gravity

    def set_boundary(self, segment, geom, fields) -> None:
        """Open ``segment`` (checked by ``boundaries.check_segment``)."""
        self.boundary.add(segment, geom, fields)
        self.bores.set_boundary(segment, geom, fields)

    def open_fluxes(self, fields, state, bottom) -> None:
        """F_b, G_b (the carried momentum alone) and P_b of the open segments at the state."""
        p = self.params
        self.boundary.fluxes(Levels(fields.vertex_height, fields.normal_rise, bottom,
                                    p.gravity_magnitude), state.depth, state.velocity,
                             p.min_depth, False)

    def push_boundary(self, geom, state, dt: float) -> None:
        """u_i -= dt (1 - phi_i) P_b,i N_b,i / (A_i d_i) at the wet segment vertices: the ghost's
        side of the Green-Gauss gradient's closed dual cell. With P_b = |g| d (d_ghost - d)
        (e . n) / 2 this is -dt |g| (1 - phi_i) 0.5 (H_ghost - H_i) N_b / A_i, the boundary face
        taken like every other at the mean of its two sides' levels (kernels/pressure.py): zero
        for a lake at rest at the held level, and the conservative scheme's G_b pressure term
        per unit depth."""
        v = self.boundary.vertices
        d = state.depth[v]
        wet = d >= self.params.min_depth
        scale = np.where(wet, dt * (1.0 - state.friction_share[v]) * self.boundary_push[v]
                         / (geom.dual_areas[v] * np.where(wet, d, 1.0)), 0.0)
        state.velocity[v] -= scale[:, None] * self.boundary.normals[v]

    def push(self, geom, fields, state, bottom, dt: float) -> None:
        """u += dt a, a = -|g| grad H (well balanced), at the wet vertices of the step's active
        set ``state.active`` (rebuilt from this depth, ``model._share_friction``), with the open
        segments' ghost levels (``push_boundary``); then
        u += dt a for the terms' accelerations a at (d, u); then the holds. The starting depth
        and velocity are kept first for the fluxes around bores (``schemes/bores.py``)."""
        self.bores.remember(state)
        np.copyto(self.start_velocity, state.velocity)
        if self.frame is not None:  # the first half of the frame's turn
            self.frame.half_turn(geom, fields, state.depth, dt, state.velocity)
        gravity_pressure(geom, fields, state, self.params, state.active, bottom, state.depth,
                         dt, state.velocity, self.sensor)
        if self.boundary.open:
            self.boundary.update(state.time)
            self.open_fluxes(fields, state, bottom)
            self.push_boundary(geom, state, dt)
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

    def head(self, geom, fields, bottom, depth) -> np.ndarray:
        """L (n,) m, the head the continuity's compression flux runs down (kernels/continuity.py),
        into a buffer: L = H + p_s / (rho |g|), H = e . x + (b + d) (e . n) the level
        (kernels/pressure.py) and p_s the pressing terms' surface pressure; without gravity L = H.
        On a surface accelerating at a (n, 3) (a term ``like_gravity``, ``kernels/inertia.py``) it
        is the head under the effective gravity g - a,
        L = (-(g - a) . (x + h n) + p_s / rho) / |g - a|: an accelerated surface is then exactly a
        tilted one."""
        p = self.params
        pressure = summed_pressure(self.pressures, self.summed_pressure)
        if self.surface_accelerations and p.gravity_magnitude > 0.0:
            effective = np.asarray(p.gravity) - self.surface_accelerations[0]
            points = geom.vertices + (bottom + depth)[:, None] * geom.normals
            self.felt_size[:] = np.linalg.norm(effective, axis=1)  # |g - a| (``potential``)
            return np.divide(pressure / p.density - np.einsum("ij,ij->i", effective, points),
                             self.felt_size, out=self.level)
        level = np.add(bottom, depth, out=self.level)
        level *= fields.normal_rise
        level += fields.vertex_height
        if p.gravity_magnitude > 0.0:
            level += np.multiply(pressure, 1.0 / (p.density * p.gravity_magnitude),
                                 out=self.head_part)
        return level

    def potential(self, head) -> np.ndarray:
        """The potential |g| L (n,) m^2/s^2 of the head L (n,) m that ``head`` just returned,
        into a buffer; on a surface accelerating at a (n, 3), |g - a| L with the |g - a| that
        ``head`` divided by."""
        p = self.params
        if self.surface_accelerations and p.gravity_magnitude > 0.0:
            return np.multiply(head, self.felt_size, out=self.potential_energy)
        return np.multiply(head, p.gravity_magnitude, out=self.potential_energy)

    def transport(self, geom, fields, state, bottom, dt: float) -> dict:
        """The head L and the walls, then the continuity on d and d u (and the dyes) on the fluxes
        of u at the vertices the push's active set moves (the depth and the shock sensor are
        still the push's), with the open segments' fluxes; returns the outflow and inflow (m^3)
        through the boundary. On a moving surface the continuity carries u + V, V the surface's
        velocity (``SurfaceMotion.frame_velocity``)."""
        f, s, a, p = fields, state, state.active, self.params
        head = self.head(geom, f, bottom, s.depth)
        self.find_walls(geom, f, bottom, s.depth, s.shoreline_wall)
        if self.boundary.open:
            self.open_fluxes(f, s, bottom)
        stiffness, normal_gravity = self.felt_stiffness(geom)
        rings = rings_of(geom, f)
        inputs = FluxInputs(s.shoreline_wall, head, stiffness, normal_gravity, self.sensor,
                            f.boundary_outflow_normals, self.boundary_mass)
        surface_velocity = STILL_SURFACE
        if self.frame is not None and self.frame.frame_velocity(geom, self.surface_velocity):
            surface_velocity = self.surface_velocity
        fluxes = ContinuityFluxes(s.edge_flux, s.boundary_flux, s.outflow_factor, self.slopes,
                                  self.excess, surface_velocity, geom.tangent_frames,
                                  geom.normals)
        velocity = np.add(s.velocity, s.advection, out=self.continuity_velocity)
        edge_fluxes(a.moving, a.resting, rings, inputs, s.depth, velocity, s.friction_share,
                    p.min_depth, dt, fluxes)
        bores = self.bores.find(geom, f, s, self.sensor, stiffness)
        if bores:
            self.bores.blend_fluxes(geom, f, s, bottom, dt, s.edge_flux, s.boundary_flux,
                                    s.outflow_factor)
        energy = NO_ENERGY_HEAD  # update_depth's: momentum everywhere
        if p.expansion == "energy_head":
            energy = self.energy_record._replace(wave_stiffness=stiffness,
                                                 potential=self.potential(head))
        update_depth(a.moving, a.resting, rings, s.depth, s.velocity, self.start_velocity, fluxes,
                     self.boundary_momentum, p.min_depth, energy, dt,
                     DepthUpdate(s.depth_next, s.velocity_next, s.outflow_volume))
        advective_increment(a.moving, a.resting, rings, s.depth, s.depth_next, s.velocity,
                            s.velocity_next, stiffness, s.friction_share, p.min_depth,
                            s.advection)
        if bores:  # the increment fades where Heun's stages make the fluxes
            self.bores.fade_increment(s.advection)
            self.bores.take_velocity(s.velocity_next)
        slip_along_shorelines(a.moving, geom.neighbor_offsets, geom.dual_edge_vectors,
                              s.shoreline_wall, SHORELINE_CORNER, s.velocity_next)
        carry_dyes(geom, f, p, a, s.depth, s.depth_next, s.velocity, 0.5 * dt, s.dye,
                   s.edge_flux, s.boundary_flux, s.outflow_factor, dt, self.dye_faces,
                   self.dye_outflow, s.dye_next)
        s.swap_depth()
        s.swap_velocity()
        volumes = {"outflow": float(s.outflow_volume.sum())}
        if self.boundary.open:
            volumes["inflow"] = -dt * float(np.minimum(self.boundary_mass, 0.0).sum())
        return volumes
