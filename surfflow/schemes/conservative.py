"""The two momentum schemes of ``Params(scheme=...)`` (SPEC §4, §10), chosen once per simulation.

Each is an object with the same narrow interface, called at fixed places of ``Simulation._step``:

=======================  =======================================  ===============================
method                   "semi_lagrangian"                        "conservative"
=======================  =======================================  ===============================
advect (stage 3)         back-trace u (kernels/advection.py)      nothing: in the fluxes
apply_gravity (stage 4)  u += dt a, a = -|g| grad H               nothing: a joins the fluxes
transport (stage 6)      continuity on d with u fixed             Heun (SSP-RK2) on d and d u
                         (kernels/continuity.py)                  with HLL fluxes, limited
                                                                  reconstruction, well-balanced
                                                                  gravity (kernels/riemann.py)
set_boundary             not available (ParameterError)           inflow, level, transmissive
=======================  =======================================  ===============================

``transport`` returns the volumes (m^3) that left and entered through the boundary this step.
Both carry the dyes on their limited mass fluxes, second order (``carry_dyes``,
kernels/tracers.py).
``owns_friction``: the conservative scheme applies the implicit friction and damping of stage
5 to the liquid inside each of its stages, after the gravity it adds there (a stiff friction
must act on every stage's velocity, or a creeping film moves at the undamped dt a for a stage).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .errors import ParameterError
from .kernels.advection import advect_velocity
from .kernels.continuity import edge_fluxes, update_depth
from .kernels.friction import apply_friction
from .kernels.pressure import apply_gravity_pressure
from .kernels.reconstruction import limited_gradients
from .kernels.riemann import (DISCHARGE, LEVEL, NO_BOUNDARY, TRANSMISSIVE, average_stages,
                              boundary_fluxes, conservative_stage, hll_edge_fluxes,
                              outflow_factors)
from .kernels.tracers import carry, limited_faces

BOUNDARY_KINDS = {"inflow": DISCHARGE, "level": LEVEL, "transmissive": TRANSMISSIVE}


def friction_coefficients(params) -> tuple[float, float]:
    """(linear gamma (1/s), laminar 3 nu (m^2/s)) of kernels/friction.py for ``params``."""
    laminar = params.friction_model == "laminar"
    return (0.0 if laminar else params.friction), (3.0 * params.viscosity if laminar else 0.0)


def gravity_pressure(geom, fields, state, params, bottom, depth, dt, velocity) -> None:
    """velocity += dt a on the wet vertices of ``depth``, a the well-balanced gravity-pressure
    acceleration (kernels/pressure.py)."""
    apply_gravity_pressure(geom.neighbor_offsets, geom.neighbor_indices, geom.dual_edge_vectors,
                           geom.dual_areas, fields.fit_weights, state.friction_share,
                           fields.vertex_height, fields.normal_rise, fields.tangent_gravity,
                           params.gravity_magnitude, bottom, depth, params.min_depth, dt,
                           velocity)


def carry_dyes(geom, fields, params, depth, depth_out, velocity, shift, dye, mass_flux,
               boundary_flux, outflow_factor, dt, faces, outflow, dye_out) -> None:
    """dye_out (n, n_dyes): the dyes carried on a continuity's limited mass fluxes from depth to
    depth_out, second order (kernels/tracers.py, faces moved back by shift u); faces
    (nnz, n_dyes), outflow (n, n_dyes) scratch. Nothing runs without dyes."""
    if not dye.shape[1]:
        return
    g = geom
    limited_faces(g.neighbor_offsets, g.neighbor_indices, g.neighbor_coords, fields.fit_weights,
                  g.dual_areas, depth, params.min_depth, dye, velocity, shift, mass_flux,
                  boundary_flux, outflow_factor, dt, faces)
    carry(g.neighbor_offsets, g.neighbor_indices, g.reverse_edges, g.dual_areas, depth,
          depth_out, dye, faces, mass_flux, boundary_flux, outflow_factor, dt, 1.0, dye_out,
          outflow)


class SemiLagrangianScheme:
    """Velocity form: semi-Lagrangian advection, then the continuity with the new velocity."""

    owns_friction = False  # Simulation's stage 5 applies it to u before the continuity

    def __init__(self, geom, params, n_dyes: int):
        self.params = params
        self.dye_faces = np.zeros((len(geom.neighbor_indices), n_dyes))
        self.dye_outflow = np.zeros((geom.n_vertices, n_dyes))

    def use_geometry(self, geom, fields) -> None:
        """Nothing derived from the geometry is kept."""

    def set_boundary(self, kind, value, vertices, geom, fields) -> None:
        raise ParameterError("boundary segments (set_boundary, [[boundaries]]) need the "
                             "conservative scheme; build the simulation with "
                             "Params(scheme='conservative') (scene: [solver] scheme)")

    def advect(self, geom, state, dt: float) -> None:
        advect_velocity(geom.neighbor_offsets, geom.neighbor_indices, geom.is_boundary,
                        geom.neighbor_coords, geom.edge_transforms, state.depth, state.velocity,
                        self.params.min_depth, dt, state.velocity_next)
        state.swap_velocity()

    def apply_gravity(self, geom, fields, state, bottom, dt: float) -> None:
        gravity_pressure(geom, fields, state, self.params, bottom, state.depth, dt, state.velocity)

    def transport(self, geom, fields, state, bottom, time: float, dt: float) -> tuple:
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
                   s.edge_flux,
                   s.boundary_flux, s.outflow_factor, dt, self.dye_faces, self.dye_outflow,
                   s.dye_next)
        s.swap_depth()
        s.swap_velocity()
        return float(s.outflow_volume.sum()), 0.0


class BoundarySegment(NamedTuple):
    """A named open boundary: kind (riemann.LEVEL, ...), value (float or callable of time),
    vertices (k,) int64."""

    kind: int
    value: object
    vertices: np.ndarray


class ConservativeScheme:
    """Finite volumes on d and d u (kernels/riemann.py), second order in space and time."""

    owns_friction = True  # implicit in every stage, so a film's u = a / k exactly

    def __init__(self, geom, params, n_dyes: int):
        self.params = params
        n, nnz = geom.n_vertices, len(geom.neighbor_indices)
        self.grad_depth = np.zeros((n, 2))
        self.grad_velocity = np.zeros((n, 2, 2))
        self.dye_faces = np.zeros((nnz, n_dyes))
        self.dye_outflow = np.zeros((n, n_dyes))
        self.acceleration = np.zeros((n, 2))
        self.mass_flux = np.zeros(nnz)
        self.momentum_flux = np.zeros((nnz, 2))
        self.boundary_mass = np.zeros(n)
        self.boundary_momentum = np.zeros((n, 2))
        self.outflow_factor = np.zeros(n)
        self.outflow_volume = np.zeros(n)
        self.inflow_volume = np.zeros(n)
        self.stage_depth = np.zeros(n)
        self.stage_velocity = np.zeros((n, 2))
        self.stage_dye = np.zeros((n, n_dyes))
        self.boundary_kind = np.zeros(n, dtype=np.int64)
        self.boundary_value = np.zeros(n)
        self.boundary_segments = np.zeros((n, 2))
        self.segments: list[BoundarySegment] = []
        self.linear_friction, self.laminar_friction = friction_coefficients(params)

    def use_geometry(self, geom, fields) -> None:
        """Reset the boundary arrays from the global boundary kind, then the named segments."""
        self.reverse_coords = np.ascontiguousarray(geom.neighbor_coords[geom.reverse_edges])
        self.edge_lengths = np.linalg.norm(geom.dual_edge_vectors, axis=1)
        self.reverse_edge_lengths = np.ascontiguousarray(self.edge_lengths[geom.reverse_edges])
        outflow = self.params.boundary == "outflow"
        self.boundary_kind[:] = np.where(geom.is_boundary & outflow, TRANSMISSIVE, NO_BOUNDARY)
        self.boundary_segments[:] = geom.boundary_normals if outflow else 0.0
        self.boundary_value[:] = 0.0
        for segment in self.segments:
            self.place(segment, geom, fields)

    def set_boundary(self, kind: str, value, vertices: np.ndarray, geom, fields) -> None:
        segment = BoundarySegment(BOUNDARY_KINDS[kind], value, vertices)
        self.segments.append(segment)
        self.place(segment, geom, fields)

    def place(self, segment: BoundarySegment, geom, fields) -> None:
        """Write a segment's kind, value and boundary normals; its vertices' slip projections keep
        only the wall that meets the segment at its ends (a corner), if any."""
        v = segment.vertices
        open_normals, wall_normals = segment_normals(geom, v)
        self.boundary_kind[v] = segment.kind
        self.boundary_segments[v] = open_normals
        self.boundary_value[v] = self.value_at(segment, 0.0)
        length = np.linalg.norm(wall_normals, axis=1)
        if self.params.boundary == "outflow":
            length[:] = 0.0
        unit = wall_normals / np.where(length > 0.0, length, 1.0)[:, None]
        fields.wall_projections[v] = np.eye(2) - unit[:, :, None] * unit[:, None, :]

    @staticmethod
    def value_at(segment: BoundarySegment, time: float) -> float:
        value = float(segment.value(time)) if callable(segment.value) else float(segment.value)
        if not math.isfinite(value) or (segment.kind == DISCHARGE and value < 0.0):
            raise ParameterError(f"boundary discharge/level {value!r} at t={time:.9g} s must be "
                                 "finite (a discharge >= 0 m^2/s)")
        return value

    def advect(self, geom, state, dt: float) -> None:
        """The momentum fluxes carry d u: nothing to do."""

    def apply_gravity(self, geom, fields, state, bottom, dt: float) -> None:
        """Gravity and pressure act inside ``transport``, on each stage's depth."""

    def transport(self, geom, fields, state, bottom, time: float, dt: float) -> tuple:
        for segment in self.segments:
            if callable(segment.value):
                self.boundary_value[segment.vertices] = self.value_at(segment, time)
        s = state
        self.stage(geom, fields, s, bottom, s.depth, s.velocity, s.dye, dt, s.depth_next,
                   s.velocity_next, s.dye_next)
        out_1, in_1 = float(self.outflow_volume.sum()), float(self.inflow_volume.sum())
        self.stage(geom, fields, s, bottom, s.depth_next, s.velocity_next, s.dye_next, dt,
                   self.stage_depth, self.stage_velocity, self.stage_dye)
        out_2, in_2 = float(self.outflow_volume.sum()), float(self.inflow_volume.sum())
        average_stages(s.depth, s.velocity, s.dye, self.stage_depth, self.stage_velocity,
                       self.stage_dye, self.params.min_depth, s.depth_next, s.velocity_next,
                       s.dye_next)
        s.swap_depth()
        s.swap_velocity()
        return 0.5 * (out_1 + out_2), 0.5 * (in_1 + in_2)

    def stage(self, geom, fields, state, bottom, depth, velocity, dye, dt, depth_out,
              velocity_out, dye_out) -> None:
        """One forward-Euler stage from (depth, velocity, dye) into the ``_out`` arrays."""
        p, g, f = self.params, geom, fields
        limited_gradients(g.neighbor_offsets, g.neighbor_indices, g.edge_transforms,
                          g.neighbor_coords, f.fit_weights, depth, velocity, p.min_depth,
                          self.grad_depth, self.grad_velocity)
        hll_edge_fluxes(g.neighbor_offsets, g.neighbor_indices, g.neighbor_coords,
                        self.reverse_coords, g.dual_edge_vectors, f.reverse_dual_edge_vectors,
                        self.edge_lengths, self.reverse_edge_lengths, g.edge_transforms,
                        state.shoreline_wall, f.vertex_height, f.normal_rise,
                        p.gravity_magnitude, bottom, depth, velocity, self.grad_depth,
                        self.grad_velocity, p.min_depth, self.mass_flux, self.momentum_flux)
        boundary_fluxes(self.boundary_kind, self.boundary_value, self.boundary_segments,
                        f.vertex_height, f.normal_rise, p.gravity_magnitude, bottom, depth,
                        velocity, p.min_depth, self.boundary_mass, self.boundary_momentum)
        outflow_factors(g.neighbor_offsets, g.dual_areas, depth, self.mass_flux,
                        self.boundary_mass, dt, self.outflow_factor)
        self.acceleration.fill(0.0)
        gravity_pressure(g, f, state, p, bottom, depth, 1.0, self.acceleration)
        conservative_stage(g.neighbor_offsets, g.neighbor_indices, f.wall_projections,
                           g.dual_areas, depth, velocity, self.acceleration, self.mass_flux,
                           self.momentum_flux, self.boundary_mass, self.boundary_momentum,
                           self.outflow_factor, p.min_depth, dt, depth_out, velocity_out,
                           self.outflow_volume, self.inflow_volume)
        carry_dyes(g, f, p, depth, depth_out, velocity, 0.0, dye, self.mass_flux,
                   self.boundary_mass,
                   self.outflow_factor, dt, self.dye_faces, self.dye_outflow, dye_out)
        apply_friction(g.friction_tensors, depth_out, state.damping, self.linear_friction,
                       self.laminar_friction, p.laminar_min_depth, dt, velocity_out)


def segment_normals(geom, vertices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Boundary normals (k, 2) (length x outward normal, in each vertex's frame) of the part of
    the boundary between selected vertices, the outward halves of the boundary edges whose other
    end is selected too (a vertex's ring starts and ends on its two boundary neighbours), and
    (k, 2) those of the other halves (the walls the segment meets at its ends)."""
    selected = np.zeros(geom.n_vertices, dtype=bool)
    selected[vertices] = True
    first = geom.neighbor_offsets[vertices]
    last = geom.neighbor_offsets[vertices + 1] - 1
    c_first, c_last = geom.neighbor_coords[first], geom.neighbor_coords[last]
    half_first = 0.5 * np.stack([c_first[:, 1], -c_first[:, 0]], axis=1)
    half_last = 0.5 * np.stack([-c_last[:, 1], c_last[:, 0]], axis=1)
    use_first = selected[geom.neighbor_indices[first]][:, None]
    use_last = selected[geom.neighbor_indices[last]][:, None]
    return (half_first * use_first + half_last * use_last,
            half_first * ~use_first + half_last * ~use_last)


def select_boundary(geom, mask=None, plane=None) -> np.ndarray:
    """The boundary vertices (k,) int64 named by an (n,) bool ``mask`` or a ``plane`` given as
    (point, normal): the boundary vertices within half their shortest edge of the plane."""
    if (mask is None) == (plane is None):
        raise ParameterError("name a boundary segment by exactly one of mask=(n,) bools or "
                             "plane=((x, y, z), (nx, ny, nz))")
    if mask is not None:
        mask = np.asarray(mask)
        if mask.shape != (geom.n_vertices,) or mask.dtype != bool:
            raise ParameterError(f"boundary mask has shape {mask.shape} and dtype {mask.dtype}; "
                                 f"it must be ({geom.n_vertices},) bool, one per vertex")
        chosen = mask & geom.is_boundary
    else:
        try:
            point, normal = (np.asarray(v, dtype=np.float64).reshape(3) for v in plane)
        except (TypeError, ValueError):
            raise ParameterError(f"plane={plane!r} must be (point, normal), two (x, y, z) "
                                 "triples") from None
        length = np.linalg.norm(normal)
        if not length > 0.0:
            raise ParameterError(f"plane normal {tuple(normal)} has zero length")
        edge = np.linalg.norm(geom.neighbor_coords, axis=1)
        spacing = np.minimum.reduceat(edge, geom.neighbor_offsets[:-1])
        distance = np.abs((geom.vertices - point) @ (normal / length))
        chosen = geom.is_boundary & (distance <= 0.5 * spacing)
    vertices = np.flatnonzero(chosen)
    if vertices.size < 2:
        raise ParameterError(f"the boundary segment holds {vertices.size} boundary vertices; it "
                             "needs at least two neighbouring ones on the mesh's open boundary "
                             "(check the mask or the plane's point and normal)")
    return vertices


def make_scheme(geom, params, n_dyes: int):
    """The scheme object ``params.scheme`` names."""
    scheme = ConservativeScheme if params.scheme == "conservative" else SemiLagrangianScheme
    return scheme(geom, params, n_dyes)
