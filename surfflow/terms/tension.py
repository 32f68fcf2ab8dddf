"""Surface tension with the static contact angle (SPEC §3, ``kernels/tension.py``).

From the surface energy E = sigma (free-surface area) - sigma cos(theta_c) (wetted area), the
pressure p_s = (dE/dh_v) / A_v accelerates the liquid, a = -grad p_s / rho, with the
contact-line rule at the liquid's edge. Stages: in every Runge-Kutta stage of the transport (6)
the acceleration, the contact-line rule's walls for the fluxes and, with hysteresis, the contact
line's static friction after the update (``hold``). The capillary time-step limit is taken in
the step's own CFL pass (``capillary_limit``, ``kernels/timestep.py``).
"""

from __future__ import annotations

import math

import numpy as np

from ..kernels.records import Capillarity, CapillarySurface, Levels, rings_of
from ..kernels.tension import (apply_capillary_force, contact_line_depth, hysteresis_line_force,
                               lift_free_surface, pin_contact_line, ramp_line_tension,
                               surface_pressure)
from .base import Term


class SurfaceTension(Term):
    """Surface tension for ``params`` (surface_tension > 0) on ``geom``."""

    name = "tension"
    presses = True

    def __init__(self, geom, params):
        self.params = params
        self.cos_contact_angle = math.cos(math.radians(params.contact_angle))
        self.line_force = hysteresis_line_force(params.surface_tension, params.contact_angle,
                                                params.contact_angle_hysteresis) / params.density
        self.pressure = np.zeros(geom.n_vertices)
        n = geom.n_vertices
        self.surface = CapillarySurface(np.zeros((n, 3)), np.zeros(n), np.zeros(n), self.pressure,
                                        np.zeros(n, dtype=bool))
        self.walls = np.zeros(len(geom.neighbor_indices), dtype=bool)
        self.stages = ("accelerate", "find_walls") + (
            ("hold",) if self.line_force > 0.0 else ())
        self.use_geometry(geom)

    def use_geometry(self, geom) -> None:
        self.wetting_depth = contact_line_depth(geom.dual_areas, self.params.contact_angle,
                                                self.params.contact_line_width)
        self.capillarity = Capillarity(self.wetting_depth, self.params.surface_tension,
                                       self.cos_contact_angle,
                                       ramp_line_tension(self.params.contact_angle))

    def capillary_limit(self) -> tuple:
        """(wetting_depth (n,), sigma, cos theta_c, rho): the last arguments of
        ``timestep.cfl_time_step``, with which the step's CFL pass takes the capillary limit."""
        p = self.params
        return self.wetting_depth, p.surface_tension, self.cos_contact_angle, p.density

    def accelerate(self, geom, fields, state, bottom, depth, velocity, acceleration) -> None:
        """acceleration += -grad p_s / rho on the wet vertices of the stage's ``depth``;
        ``bottom`` is the one gravity sees. The same pass finds the contact-line rule's walls
        (``find_walls``). The kernels look at the step's active set (``state.active``: the
        vertices near the liquid; the free surface is lifted where their rings reach)."""
        p, a = self.params, state.active
        surface, rings = self.surface, rings_of(geom, fields)
        lift_free_surface(a.reach, geom.vertices, geom.normals, fields.vertex_height,
                          fields.normal_rise, bottom, depth, self.wetting_depth, surface)
        surface_pressure(a.moving, a.resting, rings, geom.is_boundary, geom.vertices, geom.normals,
                         depth, self.capillarity, p.min_depth, surface)
        apply_capillary_force(a.moving, a.resting, rings,
                              Levels(fields.vertex_height, fields.normal_rise, bottom,
                                     p.gravity_magnitude),
                              depth, surface, p.min_depth, 1.0 / p.density, 1.0, acceleration,
                              self.walls)

    def find_walls(self, geom, fields, bottom, depth, walls) -> None:
        """walls (nnz,) = the contact-line rule of ``accelerate`` for every wet/dry entry, as
        its last call found them: both schemes call ``find_walls`` after ``accelerate`` on the
        same stage's ``depth`` and ``bottom`` (``terms/base.py``), so the mass flux enters no dry
        vertex the capillary force treats as a wall."""
        np.copyto(walls, self.walls)

    def hold(self, geom, fields, depth, velocity, dt: float) -> None:
        """Contact-angle hysteresis: the rim's static friction removes up to dt a_i of the
        updated stage's speed, so nothing pushes a pinned rim."""
        pin_contact_line(geom.neighbor_offsets, geom.neighbor_indices, geom.dual_edge_vectors,
                         geom.dual_areas, depth, self.line_force, self.params.min_depth, dt,
                         velocity)
