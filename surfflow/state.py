"""Prognostic arrays, scratch buffers and the geometry-derived fields of a simulation.

Everything the step touches is allocated here once; the step only fills and swaps. Tangent
vectors (velocity) are two components in each vertex's frame.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .config import OPEN_BOUNDARIES
from .errors import ParameterError
from .geometry.surface import SurfaceGeometry
from .geometry.topology import CORNER_ANGLE
from .kernels import fields as field_kernels, ring_fit
from .schemes.active import ActiveSet

LEDGER_ENTRIES = ("initial", "poured", "rained", "inflow", "sunk", "outflow", "solute_outflow",
                  "emitted", "absorbed", "lost", "dripped")
PROGNOSTIC_ARRAYS = ("depth", "velocity", "dye", "bottom", "damping", "soluble_layer", "dissolved",
                     "solute_velocity", "advection")


class SurfaceFields(NamedTuple):
    """Per-vertex quantities the kernels need that follow from the geometry and gravity.

    vertex_height (n,): e . x_i, e = -g/|g| the up direction (zero without gravity).
    normal_rise (n,): e . n_i (negative on the underside of an overhang).
    tangent_gravity (n, 2): g in vertex i's frame.
    ring_spacing (n,): the size of i's dual cell, 4 A_i / sum_j |N_ij| (the time step's length).
    boundary_outflow_normals (n, 2): the boundary normals where the boundary is "outflow" or
        "free", zeros for walls.
    wall_projections (n, 2, 2): the slip condition's projection of a vertex's velocity: the
        identity inside and on outflow boundaries, I - nb nb^T on a wall (nb the unit boundary
        normal), zero at a wall corner (the wall turns by more than ``CORNER_ANGLE``).
    reverse_dual_edge_vectors (nnz, 2): N_ji (in j's frame) stored at the entry (i, j), so the
        flux kernel reads it in order instead of through reverse_edges.
    fit_weights (nnz, 2): w_ij of the one-ring least-squares gradient, grad f_i =
        sum_j w_ij (f_j - f_i) (kernels/ring_fit.py).
    """

    vertex_height: np.ndarray
    normal_rise: np.ndarray
    tangent_gravity: np.ndarray
    ring_spacing: np.ndarray
    boundary_outflow_normals: np.ndarray
    wall_projections: np.ndarray
    reverse_dual_edge_vectors: np.ndarray
    fit_weights: np.ndarray


def surface_fields(geom: SurfaceGeometry, gravity, boundary: str) -> SurfaceFields:
    """Derive :class:`SurfaceFields` from a geometry, the gravity vector and the boundary kind."""
    fields = empty_surface_fields(geom.n_vertices, geom.neighbor_indices.shape[0])
    update_surface_fields(fields, geom, gravity, boundary, first=True)
    return fields


def empty_surface_fields(n_vertices: int, n_entries: int) -> SurfaceFields:
    """Unfilled :class:`SurfaceFields` for n vertices and nnz CSR entries."""
    n, nnz = n_vertices, n_entries
    return SurfaceFields(np.empty(n), np.empty(n), np.empty((n, 2)), np.empty(n), np.empty((n, 2)),
                         np.empty((n, 2, 2)), np.empty((nnz, 2)), np.empty((nnz, 2)))


def update_surface_fields(fields: SurfaceFields, geom: SurfaceGeometry, gravity, boundary: str,
                          first: bool = False) -> None:
    """Fill ``fields`` in place from the geometry (a deforming surface does it every step, on the
    parallel kernels; ``first``: the set-up's one fill, on their numpy twins, the same numbers
    compiling nothing)."""
    suffix = "_numpy" if first else ""  # looked up now: compile_ahead.interpreted swaps them
    vertex_gravity_fields = getattr(field_kernels, "vertex_gravity_fields" + suffix)
    ring_edge_fields = getattr(field_kernels, "ring_edge_fields" + suffix)
    wall_slip_projections = getattr(field_kernels, "wall_slip_projections" + suffix)
    ring_fit_weights = getattr(ring_fit, "ring_fit_weights" + suffix)
    gravity = np.asarray(gravity, dtype=np.float64)
    magnitude = float(np.linalg.norm(gravity))
    up = -gravity / magnitude if magnitude > 0.0 else np.zeros(3)
    vertex_gravity_fields(geom.vertices, geom.normals, geom.tangent_frames, gravity, up,
                          fields.vertex_height, fields.normal_rise, fields.tangent_gravity)
    ring_edge_fields(geom.neighbor_offsets, geom.dual_edge_vectors, geom.reverse_edges,
                     geom.dual_areas, fields.ring_spacing, fields.reverse_dual_edge_vectors)
    if boundary in OPEN_BOUNDARIES:
        fields.boundary_outflow_normals[:] = geom.boundary_normals
    else:
        fields.boundary_outflow_normals[:] = 0.0
    wall_slip_projections(geom.neighbor_offsets, geom.neighbor_coords, geom.boundary_normals,
                          geom.is_boundary, boundary == "wall", np.cos(CORNER_ANGLE),
                          fields.wall_projections)
    ring_fit_weights(geom.neighbor_offsets, geom.neighbor_coords, fields.fit_weights)


class SimulationState:
    """The arrays of a running simulation (n vertices, nnz CSR entries, n_dyes dyes).

    Prognostic: depth (n,), velocity (n, 2), dye (n, n_dyes) concentrations, bottom (n,)
    (including the soluble layer), damping (n,), time, ledger (volumes booked since the last
    ``set_depth``); dissolution: soluble_layer m (n,), dissolved depth s (n,), solute_velocity
    u_s (n, 2); advection (n, 2), the last step's advective increment of the velocity, which the
    momentum scheme's continuity adds to the pushed velocity (kernels/continuity_velocity.py).
    Double buffers: depth_next, velocity_next, dye_next, solute_velocity_next (swapped by the
    step).
    Last good state: saved_depth, saved_velocity, saved_dye, saved_advection, saved_time (for the
    crash file).
    Scratch: edge_flux, shoreline_wall (nnz,: the walls of the flux at wet/dry faces),
    boundary_flux, outflow_factor, outflow_volume, inflow_rate, sink_rate, removed_depth,
    cell_volume, friction_share (n,), dye_inflow_rate (n, n_dyes).
    The step's active set: ``active`` (schemes/active.py), the vertices that are wet or touch a
    wet one (``moving``) and the others (``resting``), every vertex moving until rebuilt (the
    momentum scheme's steps rebuild it, ``model._share_friction``).
    """

    def __init__(self, n_vertices: int, n_entries: int, n_dyes: int):
        n = n_vertices
        self.time = 0.0
        self.step_count = 0
        self.ledger = dict.fromkeys(LEDGER_ENTRIES, 0.0)
        for name in ("depth", "depth_next", "bottom", "damping", "saved_depth", "boundary_flux",
                     "outflow_factor", "outflow_volume", "inflow_rate", "sink_rate",
                     "removed_depth", "cell_volume", "friction_share", "soluble_layer",
                     "dissolved"):
            setattr(self, name, np.zeros(n))
        for name in ("velocity", "velocity_next", "saved_velocity", "solute_velocity",
                     "solute_velocity_next", "advection", "saved_advection"):
            setattr(self, name, np.zeros((n, 2)))
        for name in ("dye", "dye_next", "saved_dye", "dye_inflow_rate"):
            setattr(self, name, np.zeros((n, n_dyes)))
        self.saved_time = 0.0
        self.edge_flux = np.zeros(n_entries)
        self.shoreline_wall = np.zeros(n_entries, dtype=bool)
        self.active = ActiveSet(n)

    def swap_depth(self) -> None:
        """Make the freshly written depth and dye buffers current."""
        self.depth, self.depth_next = self.depth_next, self.depth
        self.dye, self.dye_next = self.dye_next, self.dye

    def swap_velocity(self) -> None:
        """Make the freshly written velocity buffer current."""
        self.velocity, self.velocity_next = self.velocity_next, self.velocity

    def swap_solute_velocity(self) -> None:
        """Make the freshly written solute velocity buffer current."""
        self.solute_velocity, self.solute_velocity_next = (self.solute_velocity_next,
                                                           self.solute_velocity)

    def save_last_good(self) -> None:
        """Copy the current state into the saved buffers (no allocation)."""
        np.copyto(self.saved_depth, self.depth)
        np.copyto(self.saved_velocity, self.velocity)
        np.copyto(self.saved_dye, self.dye)
        np.copyto(self.saved_advection, self.advection)
        self.saved_time = self.time

    def volume(self, dual_areas: np.ndarray, depth: np.ndarray | None = None) -> float:
        """sum_i A_i d_i, serial numpy (deterministic). depth defaults to the current depth."""
        np.multiply(dual_areas, self.depth if depth is None else depth, out=self.cell_volume)
        return float(self.cell_volume.sum())

    def to_dict(self, saved: bool = False) -> dict:
        """Copies of every array and scalar needed to continue bit-identically.

        saved: take depth, velocity, dye and time from the last good state instead.
        """
        return {
            "time": np.float64(self.saved_time if saved else self.time),
            "step_count": np.int64(self.step_count),
            "depth": (self.saved_depth if saved else self.depth).copy(),
            "velocity": (self.saved_velocity if saved else self.velocity).copy(),
            "dye": (self.saved_dye if saved else self.dye).copy(),
            "bottom": self.bottom.copy(),
            "damping": self.damping.copy(),
            "soluble_layer": self.soluble_layer.copy(),
            "dissolved": self.dissolved.copy(),
            "solute_velocity": self.solute_velocity.copy(),
            "advection": (self.saved_advection if saved else self.advection).copy(),
            **{f"ledger_{key}": np.float64(value) for key, value in self.ledger.items()},
        }

    def load_dict(self, data: dict) -> None:
        """Restore what :meth:`to_dict` wrote, after checking that every array is there with this
        state's shape. A state without ``advection`` (written before the state kept it)
        continues with none: its first step's continuity takes the pushed velocity alone."""
        if "advection" not in data:
            data = {**data, "advection": np.zeros_like(self.advection)}
        for name in PROGNOSTIC_ARRAYS:
            if name not in data:
                raise ParameterError(f"state dict has no {name!r}; pass what Simulation.state_dict() returned")
            if np.shape(data[name]) != getattr(self, name).shape:
                raise ParameterError(f"state dict {name!r} has shape {np.shape(data[name])}, this "
                                     f"simulation needs {getattr(self, name).shape} (same mesh and n_dyes)")
        self.time = float(data["time"])
        self.step_count = int(data["step_count"])
        for name in PROGNOSTIC_ARRAYS:
            np.copyto(getattr(self, name), data[name])
        self.ledger = {key: float(data.get(f"ledger_{key}", 0.0)) for key in LEDGER_ENTRIES}
