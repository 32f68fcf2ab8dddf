"""``SurfaceModel``: what a simulation steps, without the clock (SPEC §3; Oceananigans' model).

The surface (geometry and the fields derived from it), the state's arrays, the momentum scheme
and the terms, with the stages each acts in bound once when they change (the table in
``terms/base.py``), and the state in and out: the per-vertex fields, a new or moved surface (every
vertex keeps its volume), open boundary segments. ``surfflow.simulation.Simulation`` builds on
it with the clock, the order of the step, the sources and the ledger.
"""

from __future__ import annotations

import numpy as np

from .boundaries import BoundarySegment, check_segment, select_boundary
from .checks import check_vertex_array
from .config import Params
from .errors import ParameterError
from .geometry.precompute import update_positions
from .geometry.surface import SurfaceGeometry
from .kernels.continuity import shoreline_walls
from .kernels.friction import friction_shares
from .schemes import friction_coefficients, make_scheme
from .state import SimulationState, empty_surface_fields, update_surface_fields
from .terms.base import STAGES
from .terms.tension import SurfaceTension
from .terms.wetness import Wetness
from .terms.wind import Wind

TERM_ORDER = ("motion", "tension", "wind", "dissolution", "droplets", "dripping",
              "wetness")  # others follow, as added


def state_copy(name: str, doc: str) -> property:
    """A read-only property: a copy of the state's array ``name``."""
    return property(lambda model: getattr(model.state, name).copy(), doc=doc)


class SurfaceModel:
    """A liquid layer on ``geom`` under ``params`` (defaults if None) with ``n_dyes`` dyes:
    ``geometry``, ``fields``, ``state``, ``scheme`` and ``terms`` (tension and wind as the
    parameters ask, the wetness always; the others join when set)."""

    def __init__(self, geom: SurfaceGeometry, params: Params | None = None, n_dyes: int = 0):
        if not isinstance(geom, SurfaceGeometry):
            raise ParameterError(f"geom is a {type(geom).__name__}; pass the SurfaceGeometry that "
                                 "sf.precompute(mesh) returns")
        if int(n_dyes) != n_dyes or n_dyes < 0:
            raise ParameterError(f"n_dyes={n_dyes!r} must be a whole number >= 0")
        self.params = p = Params() if params is None else params
        self.n_dyes = int(n_dyes)
        self.fields = empty_surface_fields(geom.n_vertices, len(geom.neighbor_indices))
        self.scheme = make_scheme(geom, p, self.n_dyes)
        self.terms = ()
        self._bind_stages()
        if p.surface_tension > 0.0:
            self.add_term(SurfaceTension(geom, p))
        if p.wind is not None and p.wind_coefficient > 0.0:
            self.add_term(Wind(geom, p))
        self.add_term(Wetness(geom, p))
        self._use_geometry(geom, first=True)
        self.state = SimulationState(geom.n_vertices, len(geom.neighbor_indices), self.n_dyes)
        self.state.bottom[:] = geom.bottom
        self._linear_friction, self._laminar_friction = friction_coefficients(p)

    # ---- the terms ----------------------------------------------------------------------------

    def add_term(self, term):
        """Add ``term`` (the protocol of ``terms/base.py``, built on this geometry) to the step,
        in place of a term of the same name; returns it. Built-in terms keep the order of
        ``TERM_ORDER``, others follow in the order added."""
        unknown = set(term.stages) - set(STAGES)
        if unknown:
            raise ParameterError(f"term {term.name!r} names stages {sorted(unknown)}; the stages "
                                 f"are {', '.join(STAGES)}")
        terms = [t for t in self.terms if t.name != term.name] + [term]
        rank = {name: k for k, name in enumerate(TERM_ORDER)}
        self.terms = tuple(sorted(terms, key=lambda t: rank.get(t.name, len(TERM_ORDER))))
        self._bind_stages()
        return term

    def term(self, name: str):
        """The active term called ``name`` ("tension", "wind", "dissolution", "motion",
        "droplets", ...), or None."""
        return next((t for t in self.terms if t.name == name), None)

    def _bind_stages(self) -> None:
        """Each stage as the list of the bound methods that act there: the scheme's, then the
        terms' in order. Where one decides (the bottom, the walls) the last one does."""
        actors = (self.scheme, *self.terms)
        self._stages = {stage: [getattr(a, stage) for a in actors if stage in a.stages]
                        for stage in STAGES}
        self._load_bottom = (self._stages["load_bottom"] or [self._bare_bottom])[-1]
        self.scheme.bind(self._stages["accelerate"],
                         (self._stages["find_walls"] or [self._dry_ground_walls])[-1],
                         self._stages["hold"], [t.pressure for t in self.terms if t.presses])
        motion, droplets = self.term("motion"), self.term("droplets")
        if droplets is not None:  # drops leave and meet a moving surface with its velocity
            droplets.follow_surface(None if motion is None else motion.velocity)
        self.scheme.follow_surface(motion)  # how the scheme carries the film on a moving surface

    @staticmethod
    def _bare_bottom(state) -> np.ndarray:
        """The bottom the pressure sees without a term that loads it: b."""
        return state.bottom

    def _dry_ground_walls(self, geom, fields, bottom, depth, walls) -> None:
        """walls (nnz,): the wet/dry faces the flux of ``depth`` may not cross, dry ground above
        the free surface."""
        shoreline_walls(geom.neighbor_offsets, geom.neighbor_indices, fields.vertex_height,
                        fields.normal_rise, bottom, depth, self.params.min_depth, walls)

    def _share_friction(self, dt: float) -> None:
        """The step's active set ``state.active`` from its depth, where the scheme skips dry
        ground (``skips_dry_ground``; else every vertex stays moving), then
        state.friction_share at its moving vertices: the part of a velocity the implicit
        friction keeps over dt."""
        s = self.state
        if self.scheme.skips_dry_ground:
            s.active.rebuild(self.geometry, s.depth, self.params.min_depth)
        friction_shares(s.active.moving, self.geometry.friction_tensors, s.depth, s.damping,
                        self._linear_friction, self._laminar_friction,
                        self.params.laminar_min_depth, dt, s.friction_share)

    # ---- state in and out -------------------------------------------------------------------

    depth = state_copy("depth", "(n,) depth along the normal (m), a copy.")
    bottom = state_copy("bottom", "(n,) bottom height b (m), soluble layer included, a copy.")
    soluble_layer = state_copy("soluble_layer", "(n,) thickness m of the soluble layer (m), a copy.")
    dissolved = state_copy("dissolved", "(n,) depth s of dissolved material carried by the liquid "
                           "(m), a copy.")
    dye = state_copy("dye", "(n, n_dyes) dye concentrations (volume fractions), a copy.")

    @property
    def wetness(self) -> np.ndarray:
        """(n,) wetness in [0, 1], a copy: 1 where the film is, decaying as exp(-t / drying_time)
        after it has gone, 0 where it never was (``terms/wetness.py``)."""
        return self.term("wetness").wetness.copy()

    @property
    def velocity(self) -> np.ndarray:
        """(n, 3) world-space velocity (m/s), a copy; below ``Params.min_depth`` the residue's
        (the default scheme keeps the velocity it came with, kernels/riemann.py)."""
        return np.einsum("ia,iaj->ij", self.state.velocity, self.geometry.tangent_frames)

    def set_velocity(self, velocity) -> None:
        """Set the velocity from (n, 3) world vectors, projected onto the tangent planes; the
        last step's advective increment (``state.advection``) is cleared with the old flow."""
        world = check_vertex_array("velocity", velocity, self.geometry.n_vertices, columns=3)
        self.state.velocity[:] = np.einsum("iaj,ij->ia", self.geometry.tangent_frames, world)
        self.state.advection.fill(0.0)

    def set_bottom(self, bottom) -> None:
        """Set the bottom height b (n,) in metres along the normal (under the soluble layer).

        On a running simulation (after the first step) this deforms the detail (SPEC §9): the
        geometry takes b and its position-dependent precompute is redone
        (``sf.update_positions``, which derives the friction tensors from the geometry's
        bottom); each vertex keeps its depth and area, so its volume A_i d_i is unchanged (the
        free surface rises with the bottom).
        """
        bottom = check_vertex_array("bottom", bottom, self.geometry.n_vertices)
        self.state.bottom[:] = bottom + self.state.soluble_layer
        if self.state.step_count > 0:
            self._use_geometry(update_positions(self.geometry.replace(bottom=bottom.copy()),
                                                self.geometry.vertices))

    def set_damping(self, damping) -> None:
        """Set the sponge damping rate sigma (n,) >= 0 in 1/s (implicit, like friction)."""
        self.state.damping[:] = check_vertex_array("damping", damping, self.geometry.n_vertices,
                                                   minimum=0.0)

    def set_dye(self, dye) -> None:
        """Set the dye concentrations (n, n_dyes), each in [0, 1]."""
        self.state.dye[:] = check_vertex_array("dye", dye, self.geometry.n_vertices,
                                               columns=self.n_dyes, minimum=0.0)

    def set_geometry(self, geom: SurfaceGeometry) -> None:
        """Move the mesh: same connectivity, new positions (a deforming surface).

        Keeps every vertex's volume A_i d_i and world velocity (projected onto the new tangent
        planes); the bottom changes by the new geometry's bottom minus the old one's, so a
        bottom set by the user keeps its offsets; source footprints are placed again.
        """
        old = self.geometry
        if (not isinstance(geom, SurfaceGeometry) or geom.n_vertices != old.n_vertices
                or not np.array_equal(geom.neighbor_offsets, old.neighbor_offsets)
                or not np.array_equal(geom.neighbor_indices, old.neighbor_indices)):
            raise ParameterError("set_geometry needs a SurfaceGeometry with the same vertices and "
                                 "connectivity; for a new mesh build a new Simulation")
        world = self.velocity
        self._take_geometry(geom)
        self.state.velocity[:] = np.einsum("iaj,ij->ia", geom.tangent_frames, world)

    def _take_geometry(self, geom: SurfaceGeometry) -> None:
        """Use ``geom`` (same connectivity), keeping every vertex's volume A_i d_i (and what
        the terms keep per vertex, ``keep_volumes``)."""
        old, s = self.geometry, self.state
        np.multiply(old.dual_areas, s.depth, out=s.depth)  # in place: a moving surface's every step
        np.divide(s.depth, geom.dual_areas, out=s.depth)
        for keep in self._stages["keep_volumes"]:
            keep(old, geom, s)
        if geom.bottom is not old.bottom:
            s.bottom += geom.bottom - old.bottom
        self._use_geometry(geom)

    def _use_geometry(self, geom: SurfaceGeometry, first: bool = False) -> None:
        """Make ``geom`` the surface of the terms, the fields and the scheme (``first``: the
        set-up's, whose fields fill once on serial kernels, ``state.update_surface_fields``)."""
        self.geometry = geom
        for term in self.terms:
            term.use_geometry(geom)
        update_surface_fields(self.fields, geom, self.params.gravity, self.params.boundary, first)
        self.scheme.use_geometry(geom, self.fields)
        self._has_walls = self.params.boundary == "wall" and bool(geom.is_boundary.any())

    def _restore_surface(self, data: dict) -> None:
        """Put a moved surface (at its last recorded positions) or an edited bottom back."""
        geom = self.geometry
        moved = "motion_positions" in data
        bottom = np.asarray(data.get("surface_bottom", geom.bottom), dtype=np.float64)
        if bottom.shape != geom.bottom.shape:
            raise ParameterError(f"state dict 'surface_bottom' has shape {bottom.shape}, this "
                                 f"simulation needs {geom.bottom.shape} (same mesh)")
        if moved or not np.array_equal(bottom, geom.bottom):
            vertices = self.term("motion").positions[-1] if moved else geom.vertices
            self._use_geometry(update_positions(geom.replace(bottom=bottom.copy()), vertices))

    # ---- open boundary segments ---------------------------------------------------------------

    def set_boundary(self, kind: str, discharge=None, level=None, mask=None, plane=None) -> None:
        """Open a segment of the mesh's boundary (SPEC §10).

        kind: "inflow" (``discharge`` m^2/s per unit length flowing in, a number or a callable
        of time), "level" (a free-surface height ``level`` m along the up direction: water enters
        or leaves to hold it) or "transmissive" (outflow). The segment is the boundary vertices of
        the (n,) bool ``mask``, or those on ``plane`` = (point, normal). Volumes are booked in
        the ledger as inflow and outflow.
        """
        value = check_segment(kind, discharge, level)
        segment = BoundarySegment(kind, value, select_boundary(self.geometry, mask, plane))
        self.scheme.set_boundary(segment, self.geometry, self.fields)
        if not self.scheme.skips_dry_ground:
            self.state.active.reset()

    @property
    def boundary_segments(self) -> tuple[BoundarySegment, ...]:
        """The open boundary segments (kind name, value, vertices (k,)), in the order set."""
        return tuple(self.scheme.segments)
