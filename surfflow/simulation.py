"""``Simulation``: the clock, the order of the step, the sources and the ledger (SPEC §3 to §5).

    sim = sf.Simulation(geom, sf.Params(), n_dyes=1)
    sim.set_depth(d)                                  # (n,) metres along the normal
    sim.add_source(center=(0, 1, 0), radius=0.02, rate=1e-5, stop=2.0, dye=0)
    sim.advance(1.0)                                  # lands exactly on time + 1.0
    sim.depth, sim.velocity, sim.ledger()

Droplets are on by default (``particles=True``, or a ``sf.Droplets(...)``): liquid that cannot
stay on the film (a pendant film thicker than surface tension holds, liquid running over a free
edge; never a pool on a face turned towards gravity) leaves it as particles and particles that
hit the surface rejoin it (SPEC §8, ``surfflow.particles``); ``sim.particles`` holds them.
``particles=None`` turns them off: the pendant excess then drips out of the scene (booked as
``dripped``) and a free edge lets liquid out as an outflow boundary does.

The surface, the state (``surfflow.state``), the scheme and the terms are the model's
(:class:`~surfflow.model.SurfaceModel`, which ``Simulation`` extends). The physics lives in the
scheme (``surfflow.schemes``) and the terms (``surfflow.terms``, ``surfflow.motion``,
``surfflow.particles``), each acting in the stages it names (the table in ``terms/base.py``);
``sim.terms`` holds the active ones, ``sim.term(name)`` finds one, ``sim.add_term`` adds one.
"""

from __future__ import annotations

import math
import os

import numpy as np

from .checks import check_vertex_array
from .config import Params
from .errors import ParameterError, SimulationError
from .geometry.surface import SurfaceGeometry
from .io.crash import write_crash_state
from .kernels._jit import balance_loops, serial_when_small
from .kernels.boundaries import apply_wall_slip
from .kernels.checks import clear_dry_find_nonfinite
from .kernels.sources import apply_sources
from .kernels.timestep import cfl_time_step
from .bodies import BodyCoupling
from .model import SurfaceModel
from .motion.surface_motion import BoundMotion, SurfaceMotion
from .particles import Droplets, ParticleCoupling
from .particles.shedding import Dripping
from .sources import (gather_source_rates, make_source, place_source, restore_sources,
                      sources_to_arrays)
from .state import update_surface_fields
from .step_limits import StepLimits
from .terms import Dissolution


CLOCK_ROUND_OFF = 4  # ulps of the target time within which advance() lands without a step


class Simulation(SurfaceModel):
    """A thin liquid layer flowing over a :class:`SurfaceGeometry`.

    The state is per vertex of the smoothed mesh: ``depth`` (n,) in m along the normal,
    ``velocity`` (n, 3) in m/s (world space, tangential), ``bottom`` (n,) in m, ``dye`` (n, k) in
    0..1, and ``time`` in s. :meth:`step` takes one adaptive time step; :meth:`advance` runs until
    the clock has grown by exactly the duration asked for. Every volume that enters or leaves is
    booked in :meth:`ledger`. ``step_limit`` names what bounded the last step's length (before
    an :meth:`advance` clipped it to land on time): "flow" (the CFL condition on the flow's
    speed and gravity waves), "surface tension" (its shortest capillary waves, whose limit falls
    with the square of the cell), "max_dt", or a term's name ("wind", "motion", "bodies"); None
    before the first step. ``step_limit_vertex`` is the vertex whose CFL limit (the flow's or
    surface tension's) set it, else None; ``step_limits`` tallies both over the run's steps, a
    restart from :meth:`state_dict` included (:class:`~surfflow.StepLimits`; ``report``
    names the vertices that paced the run). The surface, the state and the terms come from
    :class:`~surfflow.model.SurfaceModel`; this class adds the clock, the order of the step, the
    sources and the ledger.

    Parameters
    ----------
    geom : SurfaceGeometry
        the precomputed surface, from :func:`precompute`.
    params : Params, optional
        the runtime parameters (defaults if None).
    n_dyes : int, default 0
        the number of passive dyes carried by the flow.
    crash_dir : str or PathLike, default "."
        where the last good state is written if the simulation goes non-finite.
    particles : Droplets, True or None, default True
        a :class:`Droplets` (or another system with its interface), True for ``Droplets()``, None
        (or False) for a film without droplets, where what cannot stay drips out of the scene.
    motion : callable or None
        ``(rest_vertices (n, 3), t) -> vertices (n, 3)``, what the mesh follows (see
        :meth:`set_motion` and :mod:`surfflow.motion`).

    Examples
    --------
    >>> import trimesh
    >>> import surfflow as sf
    >>> geom = sf.precompute(sf.load_mesh(trimesh.creation.icosphere(3, radius=0.2)), feature_size=0)
    >>> sim = sf.Simulation(geom, sf.Params(gravity=(0.0, -9.81, 0.0)))
    >>> pour = sim.add_source(center=(0.0, 0.2, 0.0), radius=0.03, rate=2e-5, stop=0.5)  # m^3/s
    >>> sim.advance(0.25)
    >>> sim.time, sim.depth.shape, sim.velocity.shape
    (0.25, (642,), (642, 3))
    >>> round(sim.ledger()["poured"], 12)                    # m^3: 2e-5 m^3/s for 0.25 s
    5e-06
    """

    def __init__(self, geom: SurfaceGeometry, params: Params | None = None, n_dyes: int = 0,
                 crash_dir: str | os.PathLike = ".", particles=True, motion=None):
        self.sources = []
        self.step_limit = self.step_limit_vertex = None
        self.step_limits = StepLimits()
        super().__init__(geom, params, n_dyes)
        self.crash_dir = os.fspath(crash_dir)
        self.particles = None
        if particles is not None and particles is not False:
            self._add_droplets(Droplets() if particles is True else particles)
        else:
            self.add_term(Dripping(self.geometry, self.params))
        if motion is not None:
            self.set_motion(motion)

    @property
    def time(self) -> float:
        return self.state.time

    def set_depth(self, depth) -> None:
        """Set the depth (n,) >= 0 and restart the ledger with the new volume as ``initial``;
        the surface under the new film is wet (wetness 1), elsewhere it goes on drying. The
        last step's advective increment is cleared (``state.advection``): it belongs to the old
        flow."""
        self.state.depth[:] = check_vertex_array("depth", depth, self.geometry.n_vertices, minimum=0.0)
        self.state.advection.fill(0.0)
        self._run("record", self.geometry, self.state, 0.0)
        self.state.ledger = dict.fromkeys(self.state.ledger, 0.0)
        self.state.ledger["initial"] = self.total_volume() + self._airborne_volume()

    def set_soluble_layer(self, layer) -> None:
        """Set the soluble layer m (n,) >= 0 in metres; it lies on the bottom (raising it) and
        the flow dissolves it (SPEC §3, ``kernels/dissolution.py``). Turns dissolution on."""
        s = self.state
        layer = check_vertex_array("soluble_layer", layer, self.geometry.n_vertices, minimum=0.0)
        s.bottom += layer - s.soluble_layer
        s.soluble_layer[:] = layer
        s.ledger["solute_outflow"] = 0.0
        if not self.term("dissolution"):
            self.add_term(Dissolution(self.geometry, self.params))

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
        motion = self.term("motion") or self.add_term(SurfaceMotion(self.geometry, self.params))
        self._take_geometry(motion.move_to(self.geometry, vertices, self.state.time))

    def set_motion(self, motion) -> None:
        """Make the mesh follow ``motion`` (a callable ``(rest_vertices, t) -> vertices``, e.g.
        ``sf.motion.Keyframes``, ``Twist``, ``MeshSequence``): every step starts with
        ``move_to(motion(rest, time))``, rest being the current positions; the positions'
        history starts afresh (no acceleration from a jump to the new motion). None stops it."""
        if motion is not None:
            path = BoundMotion(motion, self.geometry.vertices)
            self.add_term(SurfaceMotion(self.geometry, self.params, path))
            # the fields once more, on the parallel kernels of the moves: they compile now, at
            # the set-up, not at the first step (the set-up's first fill ran on serial twins)
            update_surface_fields(self.fields, self.geometry, self.params.gravity,
                                  self.params.boundary)
        elif self.term("motion"):
            self.term("motion").path = None
            self._bind_stages()

    def add_body(self, body):
        """Add a floating rigid body (``sf.RigidBody``, docs/guide/bodies.md) to the step (the
        term "bodies", ``surfflow/bodies``); returns it."""
        coupling = self.term("bodies")
        if coupling is None:
            coupling = self.add_term(BodyCoupling(self.geometry, self.params))
            self._droplets_hit_bodies()
        coupling.add(body)
        return body

    def _droplets_hit_bodies(self) -> None:
        """Let the droplets collide with the bodies, whichever of the two came first."""
        bodies = self.term("bodies")
        colliders = getattr(self.particles, "colliders", None)
        if bodies is not None and colliders is not None and bodies.collide not in colliders:
            colliders.append(bodies.collide)

    @property
    def bodies(self) -> list:
        """The rigid bodies added with :meth:`add_body`, in that order."""
        coupling = self.term("bodies")
        return list(coupling.bodies) if coupling else []

    def _use_geometry(self, geom: SurfaceGeometry, first: bool = False) -> None:
        """The model's, then the sources' footprints placed again."""
        super()._use_geometry(geom, first)
        for source in self.sources:
            place_source(source, geom.vertices, geom.dual_areas)

    def state_dict(self) -> dict:
        """Every array and scalar needed to continue bit-identically (numpy values only, so
        ``np.savez(path, **sim.state_dict())`` stores it). Load it into a Simulation built with
        the same geometry (the moved one, after ``set_geometry``), params and n_dyes."""
        data = {**self.state.to_dict(), **sources_to_arrays(self.sources),
                **self.step_limits.to_arrays(), "surface_bottom": self.geometry.bottom.copy()}
        for term in self.terms:
            data.update(term.state_dict())
        return data

    def load_state_dict(self, data: dict) -> None:
        """Continue from what :meth:`state_dict` (or a crash file) returned; a moving surface
        goes back to where it was, with its positions' history."""
        s = self.state
        s.load_dict(data)
        if len(data.get("emitter_kinds", ())) and self.particles is None:
            self._add_droplets(Droplets())
        if "motion_positions" in data and not self.term("motion"):
            self.add_term(SurfaceMotion(self.geometry, self.params))
        if (s.soluble_layer.any() or s.dissolved.any()) and not self.term("dissolution"):
            self.add_term(Dissolution(self.geometry, self.params))
        for term in self.terms:
            term.load_state_dict(data)
        self.sources = restore_sources(data, self.n_dyes, self.geometry.vertices,
                                       self.geometry.dual_areas)
        self.step_limits.load_arrays(data)
        self._restore_surface(data)

    # ---- sources ------------------------------------------------------------------------------

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

    def _add(self, source):
        place_source(source, self.geometry.vertices, self.geometry.dual_areas)
        self.sources.append(source)
        return source

    # ---- emitters: liquid poured as particles (particles/emitters.py) -------------------------

    def add_emitter(self, emitter):
        """Pour from ``emitter``, an :class:`~surfflow.Nozzle` or :class:`~surfflow.Rain`, whose
        particles fall, hit the surface and join the film (the default ``Droplets`` join the
        simulation if it has none). Returns the handle (see :meth:`remove_emitter`)."""
        if self.particles is None:
            self._add_droplets(Droplets())
        return self.term("droplets").add_emitter(emitter)

    @property
    def emitters(self) -> tuple:
        """The emitters pouring now, in the order added."""
        return tuple(self.term("droplets").emitters) if self.particles is not None else ()

    def remove_emitter(self, handle) -> None:
        """Stop and forget an emitter (what it holds unreleased leaves as a last parcel)."""
        if self.particles is not None:
            self.term("droplets").emitters.remove(handle)

    def _add_droplets(self, droplets) -> None:
        self.terms = tuple(t for t in self.terms if t.name != "dripping")
        self.particles = droplets
        self.add_term(ParticleCoupling(self.geometry, self.params, droplets, self.n_dyes))
        self._droplets_hit_bodies()
        self._keep_segments_off_free_edges()

    def set_boundary(self, kind: str, discharge=None, level=None, mask=None, plane=None) -> None:
        super().set_boundary(kind, discharge, level, mask, plane)
        self._keep_segments_off_free_edges()

    set_boundary.__doc__ = SurfaceModel.set_boundary.__doc__

    def _keep_segments_off_free_edges(self) -> None:
        """The droplets shed over free edges only where no boundary segment is open."""
        coupling = self.term("droplets")
        if coupling is not None and self.boundary_segments:
            coupling.use_segments(np.concatenate([s.vertices for s in self.boundary_segments]))

    # ---- diagnostics --------------------------------------------------------------------------

    def total_volume(self) -> float:
        """sum_i A_i d_i (m^3), summed serially with numpy (deterministic)."""
        return self.state.volume(self.geometry.dual_areas)

    def _airborne_volume(self) -> float:
        return sum((volume() for volume in self._stages["airborne_volume"]), 0.0)

    def ledger(self) -> dict:
        """Volumes (m^3) since the last ``set_depth``: initial, poured, rained, inflow (through
        boundary segments), sunk, outflow (through outflow edges, and free ones without
        droplets), dripped (off overhangs, without droplets), current (in the film); with
        particles emitted, absorbed, lost (past the bounds) and airborne (in particles now);
        balance_error = current + airborne - (initial + poured + rained + inflow - sunk -
        outflow - dripped - lost).
        Dissolution: dissolved = sum A s and deposited = sum A m now, solute_outflow (what left
        through outflow boundaries); their sum is constant."""
        book = dict(self.state.ledger)
        book["dissolved"] = self.state.volume(self.geometry.dual_areas, self.state.dissolved)
        book["deposited"] = self.state.volume(self.geometry.dual_areas, self.state.soluble_layer)
        book["current"] = self.total_volume()
        book["airborne"] = self._airborne_volume()
        expected = (book["initial"] + book["poured"] + book["rained"] + book["inflow"]
                    - book["sunk"] - book["outflow"] - book["dripped"] - book["lost"])
        book["balance_error"] = book["current"] + book["airborne"] - expected
        return book

    def _book(self, volumes: dict) -> None:
        """Add the volumes (m^3) a stage moved to their ledger entries; only here is the
        ledger written during a step."""
        for entry, volume in volumes.items():
            if entry not in self.state.ledger:
                raise SimulationError(f"a term returned the volume {entry!r}, which is no ledger "
                                      f"entry; return one of {', '.join(self.state.ledger)}")
            self.state.ledger[entry] += volume

    # ---- time stepping ------------------------------------------------------------------------

    def step(self) -> float:
        """One adaptive time step; returns the dt taken."""
        return self._step(math.inf)

    def advance(self, duration: float) -> None:
        """Step until ``time`` has grown by exactly ``duration`` (the last step is clipped; a
        remainder within the clock's round-off of the target is no step: a dt of 1e-17 s makes
        velocities from differences over dt, such as a keyframed body's, meaningless)."""
        if not (duration >= 0.0 and math.isfinite(duration)):
            raise ParameterError(f"advance(duration={duration!r}): duration must be finite and >= 0")
        target = self.state.time + duration
        while self.state.time < target:
            remaining = target - self.state.time
            round_off = remaining <= CLOCK_ROUND_OFF * math.ulp(target)  # no interval: no step
            if round_off or self._step(remaining) >= remaining:
                self.state.time = target

    def _step(self, dt_limit: float) -> float:
        """One time step, at most ``dt_limit`` long; returns dt. Its parallel loops run on one
        thread while the film is small: the last step's active set has fewer than
        ``SERIAL_BELOW`` moving vertices (every vertex until a scheme builds the set), where
        waking a second thread for each of the step's loops costs more than it saves. The same
        numbers on any thread count, so only the time depends on it."""
        with serial_when_small(self.state.active.moving.size):
            return self._step_stages(dt_limit)

    def _step_stages(self, dt_limit: float) -> float:
        """One time step in the order of SPEC §4, at most ``dt_limit`` long; returns dt.

        Each stage runs the scheme if it acts there, then the terms that do (``terms/base.py``);
        the volumes they return are booked. The momentum scheme acts in 4 to 6 (the terms'
        ``accelerate`` and ``hold`` in its push, their ``find_walls`` before its transport); the
        conservative one only in 6, each of its Runge-Kutta stages carrying d u and adding
        gravity, the terms' accelerations, walls and holds and the friction
        (``schemes/__init__.py``).
        """
        balance_loops()                                    # parallel loops in chunks, on demand
        for move in self._stages["move"]:                  # 0. a moving mesh goes where it is now
            self._take_geometry(move(self.geometry, self.state.time))
        g, f, s = self.geometry, self.fields, self.state
        s.save_last_good()
        dt = min(self._stable_time_step(), dt_limit)       # 1. CFL, the terms' limits, max_dt
        self._apply_sources(dt)                            # 2. pour, rain, sinks, terms'; booked
        self._run("advect", g, s, dt)                      # 3. advection: u_s
        bottom = self._load_bottom(s)                      # 4. forces, over the bottom the
        self._share_friction(dt)                           #    pressure sees: gravity and the
        self._run("push", g, f, s, bottom, dt)             #    terms' (velocity form), u_s
        self._run("apply_friction", g, s, dt)              # 5. friction, implicit: u (velocity
                                                           #    form), u_s;
        self._apply_walls()                                #    wall slip u . n_wall = 0
        self._run_and_book("transport", g, f, s, bottom, dt)  # 6. walls, d, dye (conservative:
                                                           #    3-6 on d u in each RK stage), s
        self._run_and_book("exchange", g, s, dt)           #    droplets absorb, emit; booked
        rest_depth = 0.0 if self.scheme.carries_residues else self.params.min_depth
        bad = clear_dry_find_nonfinite(s.depth, rest_depth, s.velocity, s.dye)
        s.time += dt                                       # 7. wet/dry cleanup and 8. NaN check
        s.step_count += 1                                  #    in one pass; a bad vertex writes
        if bad >= 0:                                       #    the last good state
            self._fail_nonfinite(bad)
        self._run("record", g, s, dt)                      # 9. what follows the film: wetness
        return dt

    def _run(self, stage: str, *arrays) -> None:
        for act in self._stages[stage]:
            act(*arrays)

    def _run_and_book(self, stage: str, *arrays) -> None:
        for act in self._stages[stage]:
            self._book(act(*arrays))

    def _stable_time_step(self) -> float:
        """The step's stable length: the least of ``max_dt``, the flow's and surface tension's
        CFL limits (``kernels/timestep.py``) and the terms' limits; what set it is kept in
        ``step_limit``, where in ``step_limit_vertex``, and both are tallied in
        ``step_limits``."""
        s, p, f, tension = self.state, self.params, self.fields, self.term("tension")
        capillary = tension.capillary_limit() if tension else (f.ring_spacing, 0.0, 1.0, 1.0)
        flow, at_flow, capillary, at_capillary = cfl_time_step(
            s.depth, s.velocity, f.ring_spacing, p.gravity_magnitude, p.min_depth, p.cfl,
            *capillary)
        dt, self.step_limit, vertex = p.max_dt, "max_dt", -1
        for name, limit, at in (("flow", flow, at_flow), ("surface tension", capillary, at_capillary),
                                *((act.__self__.name, act(s, self.fields), -1)
                                  for act in self._stages["max_time_step"])):
            if limit < dt:
                dt, self.step_limit, vertex = limit, name, at
        self.step_limit_vertex = int(vertex) if vertex >= 0 else None
        self.step_limits.record(self.step_limit, self.step_limit_vertex)
        if not dt > 0.0:
            raise SimulationError(f"the time step collapsed to {dt} at t={s.time:.9g} s (step "
                                  f"{s.step_count}): a speed overflowed; check the velocities set")
        return dt

    def _apply_sources(self, dt: float) -> None:
        s = self.state
        if self.sources:
            poured, rained = gather_source_rates(self.sources, s.time, dt, s.inflow_rate,
                                                 s.sink_rate, s.dye_inflow_rate)
            apply_sources(s.inflow_rate, s.sink_rate, s.dye_inflow_rate, dt, s.depth, s.velocity,
                          s.dye, s.removed_depth)
            self._book({"poured": poured, "rained": rained,
                        "sunk": s.volume(self.geometry.dual_areas, s.removed_depth)})
        self._run_and_book("add_sources", self.geometry, s, dt)

    def _apply_walls(self) -> None:
        if self._has_walls:
            apply_wall_slip(self.fields.wall_projections, self.geometry.is_boundary,
                            self.state.velocity)

    def _fail_nonfinite(self, bad: int) -> None:
        """Write the last good state and raise: vertex ``bad`` went non-finite."""
        s = self.state
        path = write_crash_state(self.crash_dir, {**s.to_dict(saved=True),
                                                  **sources_to_arrays(self.sources)})
        x, y, z = self.geometry.vertices[bad]
        raise SimulationError(
            f"the simulation went non-finite at t={s.time:.9g} s (step {s.step_count}), first at "
            f"vertex {bad} ({x:.6g}, {y:.6g}, {z:.6g}); the last good state (t={s.saved_time:.9g} s) "
            f"is in {path}; lower max_dt or cfl, or check the parameters and sources")
