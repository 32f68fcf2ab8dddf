"""``Simulation``: the public runtime of the shallow-water model (SPEC §3 to §5).

    sim = sf.Simulation(geom, sf.Params(), n_dyes=1)
    sim.set_depth(d)                                  # (n,) metres along the normal
    sim.add_source(center=(0, 1, 0), radius=0.02, rate=1e-5, stop=2.0, dye=0)
    sim.advance(1.0)                                  # lands exactly on time + 1.0
    sim.depth, sim.velocity, sim.ledger()

With ``particles=sf.Droplets(...)`` (or True) liquid deeper than ``Params.emit_depth`` leaves
the film as particles and particles that hit the surface rejoin it (SPEC §8,
``surfflow.particles``); ``sim.particles`` holds them.

The class owns the clock, the sources, the volume ledger and the step order; the physics lives
in ``surfflow.kernels`` (one module per term) and the arrays in ``surfflow.state``.
"""

from __future__ import annotations

import math
import os

import numpy as np

from .config import Params
from .errors import ParameterError, SimulationError
from .geometry.precompute import update_positions
from .geometry.workspace import GeometryWorkspace
from .geometry.surface import SurfaceGeometry
from .particles import Droplets, ParticleCoupling
from .kernels.boundaries import apply_wall_slip
from .kernels.checks import clear_dry_velocity, first_nonfinite_vertex
from .kernels.continuity import shoreline_walls
from .kernels.friction import apply_friction, friction_shares
from .kernels.sources import apply_sources
from .kernels.timestep import cfl_time_step
from .motion.surface_motion import BoundMotion, SurfaceMotion
from .physics_terms import DissolutionTerm, SurfaceTensionTerm, WindTerm
from .schemes import BOUNDARY_KINDS, friction_coefficients, make_scheme, select_boundary
from .sources import gather_source_rates, make_source, place_source, sources_to_arrays
from .state import (SimulationState, check_vertex_array, empty_surface_fields, restore_state,
                    update_surface_fields, write_crash_state)


class Simulation:
    """A thin liquid layer flowing over a :class:`SurfaceGeometry`.

    geom: the precomputed surface. params: :class:`Params` (defaults if None). n_dyes: number of
    passive dyes carried by the flow. crash_dir: where the last good state is written if the
    simulation goes non-finite. particles: a :class:`~surfflow.particles.Droplets` (or another
    system with its interface), True for ``Droplets()``, None for a film without droplets.
    motion: a callable ``(rest_vertices, t) -> vertices`` the mesh follows (see
    :meth:`set_motion`).
    """

    def __init__(self, geom: SurfaceGeometry, params: Params | None = None, n_dyes: int = 0,
                 crash_dir: str | os.PathLike = ".", particles=None, motion=None):
        if not isinstance(geom, SurfaceGeometry):
            raise ParameterError(f"geom is a {type(geom).__name__}; pass the SurfaceGeometry that "
                                 "sf.precompute(mesh) returns")
        if int(n_dyes) != n_dyes or n_dyes < 0:
            raise ParameterError(f"n_dyes={n_dyes!r} must be a whole number >= 0")
        self.params = Params() if params is None else params
        self.n_dyes = int(n_dyes)
        self.crash_dir = os.fspath(crash_dir)
        p = self.params
        self.fields = empty_surface_fields(geom.n_vertices, len(geom.neighbor_indices))
        self._moving_geometry = None  # a GeometryWorkspace once the surface moves
        self.tension = SurfaceTensionTerm(geom, p) if p.surface_tension > 0.0 else None
        self.wind = WindTerm(geom, p) if p.wind is not None and p.wind_coefficient > 0.0 else None
        self.dissolution = None  # built by set_soluble_layer
        self.particles = Droplets() if particles is True else particles or None
        self.coupling = None
        self.scheme = make_scheme(geom, p, self.n_dyes)
        self._use_geometry(geom)
        if self.particles is not None:
            self.coupling = ParticleCoupling(geom, p, self.particles)
        self.state = SimulationState(geom.n_vertices, len(geom.neighbor_indices), self.n_dyes)
        self.state.bottom[:] = geom.bottom
        self.sources = []
        self._linear_friction, self._laminar_friction = friction_coefficients(self.params)
        self.surface_motion = None  # a SurfaceMotion once the surface moves
        if motion is not None:
            self.set_motion(motion)

    # ---- state in and out -------------------------------------------------------------------

    @property
    def time(self) -> float:
        return self.state.time

    @property
    def depth(self) -> np.ndarray:
        """(n,) depth along the normal (m), a copy."""
        return self.state.depth.copy()

    @property
    def velocity(self) -> np.ndarray:
        """(n, 3) world-space velocity (m/s), a copy."""
        return np.einsum("ia,iaj->ij", self.state.velocity, self.geometry.tangent_frames)

    @property
    def bottom(self) -> np.ndarray:
        """(n,) bottom height b (m), soluble layer included, a copy."""
        return self.state.bottom.copy()

    @property
    def soluble_layer(self) -> np.ndarray:
        """(n,) thickness m of the soluble layer (m), a copy."""
        return self.state.soluble_layer.copy()

    @property
    def dissolved(self) -> np.ndarray:
        """(n,) depth s of dissolved material carried by the liquid (m), a copy."""
        return self.state.dissolved.copy()

    @property
    def dye(self) -> np.ndarray:
        """(n, n_dyes) dye concentrations (volume fractions), a copy."""
        return self.state.dye.copy()

    def set_depth(self, depth) -> None:
        """Set the depth (n,) >= 0 and restart the ledger with the new volume as ``initial``."""
        self.state.depth[:] = check_vertex_array("depth", depth, self.geometry.n_vertices, minimum=0.0)
        self.state.ledger = dict.fromkeys(self.state.ledger, 0.0)
        self.state.ledger["initial"] = self.total_volume() + self._airborne_volume()

    def set_velocity(self, velocity) -> None:
        """Set the velocity from (n, 3) world vectors, projected onto the tangent planes."""
        world = check_vertex_array("velocity", velocity, self.geometry.n_vertices, columns=3)
        self.state.velocity[:] = np.einsum("iaj,ij->ia", self.geometry.tangent_frames, world)

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

    def set_soluble_layer(self, layer) -> None:
        """Set the soluble layer m (n,) >= 0 in metres; it lies on the bottom (raising it) and
        the flow dissolves it (SPEC §3, ``kernels/dissolution.py``). Turns dissolution on."""
        s = self.state
        layer = check_vertex_array("soluble_layer", layer, self.geometry.n_vertices, minimum=0.0)
        s.bottom += layer - s.soluble_layer
        s.soluble_layer[:] = layer
        s.ledger["solute_outflow"] = 0.0
        if self.dissolution is None:
            self.dissolution = DissolutionTerm(self.geometry, self.params, s)

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

    def move_to(self, vertices) -> None:
        """The surface is at these (n, 3) smoothed positions now (SPEC §9).

        Redoes the position-dependent precompute (``sf.update_positions``), keeps each vertex's
        volume A_i d_i and its velocity relative to the surface (the frame components: frames
        are attached to the material), and records the positions: from the third move on, their
        second time difference is the surface acceleration a_i the film feels as the inertial
        force -a_i (``kernels/inertia.py``). Moves come at increasing times; a second move at
        the same time replaces the first. The new geometry equals ``update_positions``' bit for
        bit but is filled in place (``geometry/workspace.py``: no array allocated per move), so
        its arrays hold until the second next move; copy one to keep it longer.
        """
        vertices = check_vertex_array("vertices", vertices, self.geometry.n_vertices, columns=3)
        if self.surface_motion is None:
            self.surface_motion = SurfaceMotion(self.geometry.n_vertices)
        if self._moving_geometry is None:
            self._moving_geometry = GeometryWorkspace(self.geometry)
        self._take_geometry(self._moving_geometry.update(self.geometry, vertices))
        self.surface_motion.record(self.state.time, vertices)

    def set_motion(self, motion) -> None:
        """Make the mesh follow ``motion`` (a callable ``(rest_vertices, t) -> vertices``, e.g.
        ``sf.motion.Keyframes``, ``Twist``, ``MeshSequence``): every step starts with
        ``move_to(motion(rest, time))``, rest being the current positions; the positions'
        history starts afresh (no acceleration from a jump to the new motion). None stops it."""
        if motion is None:
            if self.surface_motion is not None:
                self.surface_motion.motion = None
            return
        bound = BoundMotion(motion, self.geometry.vertices)
        self.surface_motion = SurfaceMotion(self.geometry.n_vertices)
        self.surface_motion.motion = bound

    def _take_geometry(self, geom: SurfaceGeometry) -> None:
        """Use ``geom`` (same connectivity), keeping every vertex's volume A_i d_i (and, with
        dissolution, its dissolved and deposited volumes A_i s_i and A_i m_i)."""
        old, s = self.geometry, self.state
        np.multiply(old.dual_areas, s.depth, out=s.depth)  # in place: a moving surface's every step
        np.divide(s.depth, geom.dual_areas, out=s.depth)
        if self.dissolution is not None:
            s.dissolved[:] = old.dual_areas * s.dissolved / geom.dual_areas
            layer = old.dual_areas * s.soluble_layer / geom.dual_areas
            s.bottom += layer - s.soluble_layer
            s.soluble_layer[:] = layer
        if geom.bottom is not old.bottom:
            s.bottom += geom.bottom - old.bottom
        self._use_geometry(geom)
        for source in self.sources:
            place_source(source, geom.vertices, geom.dual_areas)

    def _use_geometry(self, geom: SurfaceGeometry) -> None:
        self.geometry = geom
        for term in (self.tension, self.wind, self.coupling):
            if term is not None:
                term.use_geometry(geom)
        update_surface_fields(self.fields, geom, self.params.gravity, self.params.boundary)
        self.scheme.use_geometry(geom, self.fields)
        self._has_walls = self.params.boundary == "wall" and bool(geom.is_boundary.any())

    def state_dict(self) -> dict:
        """Every array and scalar needed to continue bit-identically (numpy values only, so
        ``np.savez(path, **sim.state_dict())`` stores it). Load it into a Simulation built with
        the same geometry (the moved one, after ``set_geometry``), params and n_dyes."""
        motion = {} if self.surface_motion is None else self.surface_motion.to_dict()
        particles = {} if self.particles is None else self.particles.state_dict()
        return {**self.state.to_dict(), **sources_to_arrays(self.sources), **motion, **particles,
                "surface_bottom": self.geometry.bottom.copy()}

    def load_state_dict(self, data: dict) -> None:
        """Continue from what :meth:`state_dict` (or a crash file) returned; a moving surface
        goes back to where it was, with its positions' history."""
        self.sources = restore_state(self.state, data, self.geometry, self.n_dyes)
        self._restore_surface(data)
        if self.particles is not None:
            self.particles.load_state_dict(data)
        s = self.state
        if self.dissolution is None and (s.soluble_layer.any() or s.dissolved.any()):
            self.dissolution = DissolutionTerm(self.geometry, self.params, s)

    def _restore_surface(self, data: dict) -> None:
        """Put a moved surface (positions' history) or an edited bottom back where it was."""
        geom = self.geometry
        moved = "motion_positions" in data
        if moved:
            if self.surface_motion is None:
                self.surface_motion = SurfaceMotion(geom.n_vertices)
            self.surface_motion.load_dict(data)
        bottom = np.asarray(data.get("surface_bottom", geom.bottom), dtype=np.float64)
        if bottom.shape != geom.bottom.shape:
            raise ParameterError(f"state dict 'surface_bottom' has shape {bottom.shape}, this "
                                 f"simulation needs {geom.bottom.shape} (same mesh)")
        if moved or not np.array_equal(bottom, geom.bottom):
            vertices = self.surface_motion.positions[-1] if moved else geom.vertices
            self._use_geometry(update_positions(geom.replace(bottom=bottom.copy()), vertices))
            for source in self.sources:
                place_source(source, self.geometry.vertices, self.geometry.dual_areas)

    # ---- sources ----------------------------------------------------------------------------

    def add_source(self, center, radius, rate, start=0.0, stop=math.inf, dye=None):
        """Pour ``rate`` m^3/s over the vertices within ``radius`` of ``center`` (uniform per
        area; the nearest vertex if none), from ``start`` to ``stop`` s, optionally pure dye
        ``dye``. Returns the source handle (see :meth:`remove_source`)."""
        return self._add(make_source("pour", rate, start, stop, dye, self.n_dyes, center, radius))

    def add_rain(self, rate, mask=None, start=0.0, stop=math.inf, dye=None):
        """Rain ``rate`` m/s of depth on every vertex, or where the (n,) bool ``mask`` is set."""
        return self._add(make_source("rain", rate, start, stop, dye, self.n_dyes, mask=mask,
                                     n_vertices=self.geometry.n_vertices))

    def add_sink(self, center, radius, rate, start=0.0, stop=math.inf):
        """Remove up to ``rate`` m^3/s over a disc, never more than is there (booked as sunk)."""
        return self._add(make_source("sink", rate, start, stop, None, self.n_dyes, center, radius))

    def remove_source(self, handle) -> None:
        """Stop and forget a source returned by ``add_source``, ``add_rain`` or ``add_sink``."""
        self.sources = [s for s in self.sources if s is not handle]

    def set_boundary(self, kind: str, discharge=None, level=None, mask=None, plane=None) -> None:
        """Open a segment of the mesh's boundary (conservative scheme only; SPEC §10).

        kind: "inflow" (``discharge`` m^2/s per unit length flowing in, a number or a callable
        of time), "level" (a free-surface height ``level`` m along the up direction: water enters
        or leaves to hold it) or "transmissive" (outflow). The segment is the boundary vertices of
        the (n,) bool ``mask``, or those on ``plane`` = (point, normal). Volumes are booked in
        the ledger as inflow and outflow.
        """
        if kind not in BOUNDARY_KINDS:
            raise ParameterError(f"boundary kind {kind!r} is not allowed; use one of "
                                 f"{', '.join(map(repr, BOUNDARY_KINDS))}")
        needs = {"inflow": "discharge", "level": "level"}.get(kind)
        given = {"discharge": discharge, "level": level}
        if (needs and given[needs] is None) or any(v is not None for k, v in given.items()
                                                   if k != needs):
            raise ParameterError(f"a {kind!r} boundary takes "
                                 + (f"{needs}=... only" if needs else "neither discharge nor level"))
        vertices = select_boundary(self.geometry, mask, plane)
        self.scheme.set_boundary(kind, given[needs] if needs else 0.0, vertices, self.geometry,
                                 self.fields)

    def _add(self, source):
        place_source(source, self.geometry.vertices, self.geometry.dual_areas)
        self.sources.append(source)
        return source

    # ---- diagnostics ------------------------------------------------------------------------

    def total_volume(self) -> float:
        """sum_i A_i d_i (m^3), summed serially with numpy (deterministic)."""
        return self.state.volume(self.geometry.dual_areas)

    def _airborne_volume(self) -> float:
        return 0.0 if self.particles is None else self.particles.airborne_volume()

    def ledger(self) -> dict:
        """Volumes (m^3) since the last ``set_depth``: initial, poured, rained, inflow (through
        boundary segments), sunk, outflow, current (in the film); with particles emitted,
        absorbed, lost (past the bounds) and airborne (in particles now); balance_error =
        current + airborne - (initial + poured + rained + inflow - sunk - outflow - lost).
        Dissolution: dissolved = sum A s and deposited = sum A m now, solute_outflow (what left
        through outflow boundaries); their sum is constant."""
        book = dict(self.state.ledger)
        book["dissolved"] = self.state.volume(self.geometry.dual_areas, self.state.dissolved)
        book["deposited"] = self.state.volume(self.geometry.dual_areas, self.state.soluble_layer)
        book["current"] = self.total_volume()
        book["airborne"] = self._airborne_volume()
        expected = (book["initial"] + book["poured"] + book["rained"] + book["inflow"]
                    - book["sunk"] - book["outflow"] - book["lost"])
        book["balance_error"] = book["current"] + book["airborne"] - expected
        return book

    # ---- time stepping ----------------------------------------------------------------------

    def step(self) -> float:
        """One adaptive time step; returns the dt taken."""
        return self._step(math.inf)

    def advance(self, duration: float) -> None:
        """Step until ``time`` has grown by exactly ``duration`` (the last step is clipped)."""
        if not (duration >= 0.0 and math.isfinite(duration)):
            raise ParameterError(f"advance(duration={duration!r}): duration must be finite and >= 0")
        target = self.state.time + duration
        while self.state.time < target:
            remaining = target - self.state.time
            if self._step(remaining) >= remaining:
                self.state.time = target

    def _step(self, dt_limit: float) -> float:
        """One time step in the order of SPEC §4, at most ``dt_limit`` long; returns dt.

        Each stage is a method that launches its kernels on the state's buffers. A moving mesh
        (SPEC §9) is moved first, and its inertial force joins stage 4. Terms still to
        come slot in without reordering: the capillary limit joins stage 1, surface tension and
        wind add their accelerations in stage 4, dissolution and deposition follow stage 6
        (``physics_terms.py`` lists where each term acts).
        """
        self._follow_motion()                         # 0. a moving mesh goes where it is now
        self.state.save_last_good()
        dt = min(self._stable_time_step(), dt_limit)  # 1. CFL on the one-ring, user's max_dt
        self._apply_sources(dt)                       # 2. pour, rain (in), sinks (out); booked
        self._advect_velocity(dt)                     # 3. advection of u (scheme's)
        self._apply_forces(dt)                        # 4. gravity-pressure, tension, wind
        self._apply_friction(dt)                      # 5. friction + damping, implicit
        self._apply_walls()                           #    wall slip: u . n_wall = 0
        self._update_depth(dt)                        # 6. transport: depth, dye, boundaries
        self._couple_particles(dt)                    #    droplets: absorb, emit; booked
        self._clear_dry()                             # 7. wet/dry cleanup
        self.state.time += dt
        self.state.step_count += 1
        self._check_finite()                          # 8. NaN check (writes the last good state)
        return dt

    def _follow_motion(self) -> None:
        if self.surface_motion is not None and self.surface_motion.motion is not None:
            self.move_to(self.surface_motion.motion.vertices_at(self.state.time))

    def _stable_time_step(self) -> float:
        s, p = self.state, self.params
        felt_gravity = p.gravity_magnitude + (0.0 if self.surface_motion is None
                                              else self.surface_motion.acceleration_bound)
        dt = cfl_time_step(s.depth, s.velocity, self.fields.ring_spacing, felt_gravity,
                           p.min_depth, p.cfl, p.max_dt)
        if self.tension is not None:
            dt = min(dt, self.tension.time_step(s, self.fields))
        if self.wind is not None:
            dt = min(dt, self.wind.time_step())
        if not dt > 0.0:
            raise SimulationError(f"the time step collapsed to {dt} at t={s.time:.9g} s (step "
                                  f"{s.step_count}): a speed overflowed; check the velocities set")
        return dt

    def _apply_sources(self, dt: float) -> None:
        if not self.sources:
            return
        s = self.state
        poured, rained = gather_source_rates(self.sources, s.time, dt, s.inflow_rate, s.sink_rate,
                                             s.dye_inflow_rate)
        apply_sources(s.inflow_rate, s.sink_rate, s.dye_inflow_rate, dt, s.depth, s.dye,
                      s.removed_depth)
        s.ledger["poured"] += poured
        s.ledger["rained"] += rained
        s.ledger["sunk"] += s.volume(self.geometry.dual_areas, s.removed_depth)

    def _advect_velocity(self, dt: float) -> None:
        g, s = self.geometry, self.state
        self.scheme.advect(g, s, dt)
        if self.dissolution is not None:
            self.dissolution.advect(g, s, dt)

    def _apply_forces(self, dt: float) -> None:
        g, s, f = self.geometry, self.state, self.fields
        if self.dissolution is not None:
            self.dissolution.update_loaded_bottom(s)
        bottom = self._pressure_bottom()
        friction_shares(g.friction_tensors, s.depth, s.damping, self._linear_friction,
                        self._laminar_friction, self.params.laminar_min_depth, dt,
                        s.friction_share)
        self.scheme.apply_gravity(g, f, s, bottom, dt)
        if self.surface_motion is not None:
            self.surface_motion.apply(g, f, s, bottom, self.params.gravity_magnitude,
                                      self.params.min_depth, dt)
        if self.tension is not None:
            self.tension.apply(g, f, s, bottom, dt)
        if self.wind is not None:
            self.wind.apply(g, s, s.time, dt)
        if self.dissolution is not None:
            self.dissolution.apply_forces(g, f, s, dt)
        if self.tension is not None:
            self.tension.pin(g, s, dt)

    def _pressure_bottom(self) -> np.ndarray:
        """The bottom the hydrostatic pressure sees: b, plus the weight r s of what is dissolved."""
        return self.state.bottom if self.dissolution is None else self.dissolution.loaded_bottom

    def _apply_friction(self, dt: float) -> None:
        s = self.state
        if not self.scheme.owns_friction:
            apply_friction(self.geometry.friction_tensors, s.depth, s.damping,
                           self._linear_friction, self._laminar_friction,
                           self.params.laminar_min_depth, dt, s.velocity)
        if self.dissolution is not None:
            self.dissolution.apply_friction(self.geometry, s, self._linear_friction,
                                            self._laminar_friction, dt)

    def _apply_walls(self) -> None:
        if self._has_walls:
            apply_wall_slip(self.fields.wall_projections, self.geometry.is_boundary,
                            self.state.velocity)

    def _update_depth(self, dt: float) -> None:
        g, s = self.geometry, self.state
        f = self.fields
        self._find_shoreline_walls()
        outflow, inflow = self.scheme.transport(g, f, s, self._pressure_bottom(), s.time, dt)
        s.ledger["outflow"] += outflow
        s.ledger["inflow"] += inflow
        if self.dissolution is not None:
            s.ledger["solute_outflow"] += self.dissolution.transport_and_exchange(g, f, s, dt)

    def _find_shoreline_walls(self) -> None:
        """The wet/dry faces the flux may not cross, the ones the forces treat as walls: the
        contact-line rule under surface tension, else dry ground above the free surface."""
        g, s, f = self.geometry, self.state, self.fields
        if self.tension is not None:
            self.tension.find_walls(g, f, s, self._pressure_bottom())
        else:
            shoreline_walls(g.neighbor_offsets, g.neighbor_indices, f.vertex_height,
                            f.normal_rise, self._pressure_bottom(), s.depth,
                            self.params.min_depth, s.shoreline_wall)

    def _couple_particles(self, dt: float) -> None:
        if self.coupling is not None:
            self.coupling.couple(self.state, dt)

    def _clear_dry(self) -> None:
        clear_dry_velocity(self.state.depth, self.params.min_depth, self.state.velocity)

    def _check_finite(self) -> None:
        s = self.state
        bad = first_nonfinite_vertex(s.depth, s.velocity, s.dye)
        if bad < 0:
            return
        path = write_crash_state(self.crash_dir, {**s.to_dict(saved=True),
                                                  **sources_to_arrays(self.sources)})
        x, y, z = self.geometry.vertices[bad]
        raise SimulationError(
            f"the simulation went non-finite at t={s.time:.9g} s (step {s.step_count}), first at "
            f"vertex {bad} ({x:.6g}, {y:.6g}, {z:.6g}); the last good state (t={s.saved_time:.9g} s) "
            f"is in {path}; lower max_dt or cfl, or check the parameters and sources")
