"""The optional terms of the model: surface tension, wind and dissolution (SPEC §3).

Each term owns its buffers (allocated once) and launches its kernels; ``Simulation`` builds the
ones the parameters switch on and calls them at fixed places of its step:

=====================  ============================================================  ========
term                   what it does                                                  stage
=====================  ============================================================  ========
SurfaceTensionTerm     capillary time-step limit                                     1
                       -grad(p_s)/rho with the contact-line rule                     4
                       contact-line friction of the angle hysteresis (if any)        4
                       the contact-line rule's walls for the mass flux               6
WindTerm               explicit drag limit dt <= 1 / c_w                             1
                       c_w (w_t - u), the wind evaluated once per step               4
DissolutionTerm        advect u_s                                                    3
                       gravity-pressure on u_s, liquid/solute drag                   4
                       kappa x bottom friction on u_s                                5
                       transport s, dissolve and precipitate (moves the bottom)      after 6
=====================  ============================================================  ========
"""

from __future__ import annotations

import math

import numpy as np

from .kernels.advection import advect_velocity
from .kernels.continuity import edge_fluxes
from .kernels.dissolution import exchange_drag, exchange_soluble_layer
from .kernels.friction import apply_friction
from .kernels.pressure import apply_gravity_pressure
from .kernels.tracers import carry, limited_faces
from .kernels.tension import (apply_capillary_force, capillary_time_step, capillary_walls,
                              contact_line_depth, hysteresis_line_force, lift_free_surface,
                              pin_contact_line, surface_pressure)
from .kernels.wind import apply_wind_drag, evaluate_wind


class SurfaceTensionTerm:
    """Surface tension with the static contact angle (``kernels/tension.py``)."""

    def __init__(self, geom, params):
        self.params = params
        self.cos_contact_angle = math.cos(math.radians(params.contact_angle))
        self.line_force = hysteresis_line_force(params.surface_tension, params.contact_angle,
                                                params.contact_angle_hysteresis) / params.density
        self.pressure = np.zeros(geom.n_vertices)
        self.lifted = np.zeros((geom.n_vertices, 3))
        self.use_geometry(geom)

    def use_geometry(self, geom) -> None:
        self.wetting_depth = contact_line_depth(geom.dual_areas, self.params.contact_angle,
                                                self.params.contact_line_width)

    def time_step(self, state, fields) -> float:
        p = self.params
        return capillary_time_step(state.depth, fields.ring_spacing, self.wetting_depth,
                                   p.surface_tension, self.cos_contact_angle, p.density,
                                   p.min_depth, p.cfl)

    def apply(self, geom, fields, state, bottom, dt: float) -> None:
        """u += dt (-grad p_s / rho) on wet vertices; ``bottom`` is the one gravity saw."""
        p = self.params
        lift_free_surface(geom.vertices, geom.normals, bottom, state.depth, self.lifted)
        surface_pressure(self.lifted, geom.normals, geom.neighbor_offsets, geom.neighbor_indices,
                         geom.is_boundary, geom.dual_areas, state.depth, self.wetting_depth,
                         p.surface_tension, self.cos_contact_angle, p.min_depth, self.pressure)
        apply_capillary_force(geom.neighbor_offsets, geom.neighbor_indices, geom.dual_edge_vectors,
                              geom.dual_areas, fields.vertex_height, fields.normal_rise,
                              p.gravity_magnitude, bottom, state.depth, self.pressure,
                              p.min_depth, 1.0 / p.density, dt, state.velocity)

    def find_walls(self, geom, fields, state, bottom) -> None:
        """state.shoreline_wall (nnz,) = the contact-line rule of ``apply`` for every wet/dry
        entry, from the pressure ``apply`` computed this step (the depth has not changed since),
        so the mass flux enters no dry vertex the capillary force treats as a wall."""
        p = self.params
        capillary_walls(geom.neighbor_offsets, geom.neighbor_indices, fields.vertex_height,
                        fields.normal_rise, p.gravity_magnitude, bottom, state.depth,
                        self.pressure, 1.0 / p.density, p.min_depth, state.shoreline_wall)

    def pin(self, geom, state, dt: float) -> None:
        """Contact-angle hysteresis: the rim's static friction removes up to dt a_i of its
        speed; applied after every other force of the step so nothing pushes a pinned rim."""
        if self.line_force > 0.0:
            pin_contact_line(geom.neighbor_offsets, geom.neighbor_indices, geom.dual_edge_vectors,
                             geom.dual_areas, state.depth, self.line_force, self.params.min_depth,
                             dt, state.velocity)


class WindTerm:
    """Wind drag c_w (w_t - u) (``kernels/wind.py``); a callable wind is evaluated every step."""

    def __init__(self, geom, params):
        self.params = params
        self.wind_velocity = np.zeros((geom.n_vertices, 3))
        self.use_geometry(geom)

    def use_geometry(self, geom) -> None:
        self.positions = geom.vertices
        evaluate_wind(self.params.wind, self.positions, 0.0, self.wind_velocity)

    def time_step(self) -> float:
        """dt <= 1 / c_w keeps the explicit drag monotone (stable up to 2 / c_w)."""
        return 1.0 / self.params.wind_coefficient

    def apply(self, geom, state, time: float, dt: float) -> None:
        p = self.params
        if callable(p.wind):
            evaluate_wind(p.wind, self.positions, time, self.wind_velocity)
        apply_wind_drag(geom.tangent_frames, self.wind_velocity, state.depth, p.wind_coefficient,
                        p.min_depth, dt, state.velocity)


class DissolutionTerm:
    """The soluble layer m, the dissolved depth s and its velocity u_s
    (``kernels/dissolution.py``), kept in the state's ``soluble_layer``, ``dissolved`` and
    ``solute_velocity``. ``loaded_bottom`` = b + r s is the bottom the hydrostatic pressure sees,
    so the dissolved material's weight pushes on the liquid."""

    def __init__(self, geom, params, state):
        self.params = params
        n = geom.n_vertices
        self.loaded_bottom = np.zeros(n)
        self.solute_next = np.zeros(n)
        self.solute_faces = np.zeros((len(geom.neighbor_indices), 1))
        self.solute_outflow = np.zeros((n, 1))
        self.no_damping = np.zeros(n)
        self.ones = np.ones(n)  # the solute's carrier (swept area per area) and upwind share

    def update_loaded_bottom(self, state) -> None:
        np.multiply(state.dissolved, self.params.solute_density_ratio, out=self.loaded_bottom)
        self.loaded_bottom += state.bottom

    def advect(self, geom, state, dt: float) -> None:
        advect_velocity(geom.neighbor_offsets, geom.neighbor_indices, geom.is_boundary,
                        geom.neighbor_coords, geom.edge_transforms, state.depth,
                        state.solute_velocity, self.params.min_depth, dt,
                        state.solute_velocity_next)
        state.swap_solute_velocity()

    def apply_forces(self, geom, fields, state, dt: float) -> None:
        """The liquid's gravity-pressure acceleration on u_s too, then the drag exchange."""
        p = self.params
        apply_gravity_pressure(geom.neighbor_offsets, geom.neighbor_indices,
                               geom.dual_edge_vectors, geom.dual_areas, fields.fit_weights,
                               state.friction_share, fields.vertex_height,
                               fields.normal_rise, fields.tangent_gravity, p.gravity_magnitude,
                               self.loaded_bottom, state.depth, p.min_depth, dt,
                               state.solute_velocity)
        exchange_drag(state.depth, state.velocity, state.dissolved, state.solute_velocity,
                      p.solute_density_ratio, p.solute_drag, p.min_depth, dt)

    def apply_friction(self, geom, state, linear: float, laminar: float, dt: float) -> None:
        kappa = self.params.solute_friction
        apply_friction(geom.friction_tensors, state.depth, self.no_damping, kappa * linear,
                       kappa * laminar, self.params.laminar_min_depth, dt, state.solute_velocity)

    def transport_and_exchange(self, geom, fields, state, dt: float) -> float:
        """Carry s with u_s (kernels/tracers.py: the area fluxes of u_s, fully upwind, carry s
        reconstructed at the dual edges, second order and limited), then dissolve and
        precipitate; returns the dissolved volume that left through outflow boundaries (m^3)."""
        p, g, one = self.params, geom, self.ones
        state.shoreline_wall.fill(False)  # the dissolved material crosses every dual edge
        edge_fluxes(g.neighbor_offsets, g.neighbor_indices, g.dual_edge_vectors,
                    fields.reverse_dual_edge_vectors, fields.boundary_outflow_normals,
                    g.dual_areas, state.shoreline_wall, one, state.solute_velocity, one, 0.0, dt,
                    state.edge_flux, state.boundary_flux, state.outflow_factor)
        solute, solute_next = state.dissolved[:, None], self.solute_next[:, None]
        limited_faces(g.neighbor_offsets, g.neighbor_indices, g.neighbor_coords,
                      fields.fit_weights, g.dual_areas, one, 0.0, solute,
                      state.solute_velocity, 0.5 * dt, state.edge_flux, state.boundary_flux,
                      state.outflow_factor, dt, self.solute_faces)
        carry(g.neighbor_offsets, g.neighbor_indices, g.reverse_edges, g.dual_areas, one, one,
              solute, self.solute_faces, state.edge_flux, state.boundary_flux,
              state.outflow_factor, dt, math.inf, solute_next, self.solute_outflow)
        state.dissolved, self.solute_next = self.solute_next, state.dissolved
        exchange_soluble_layer(state.depth, state.velocity, state.soluble_layer, state.dissolved,
                               state.solute_velocity, state.bottom, p.dissolution_rate,
                               p.solubility, p.min_depth, dt)
        return float(self.solute_outflow.sum())
