"""The moving surface as a term of the step (SPEC §9, ``terms/base.py``).

Stage 0 moves the mesh where its motion puts it now (``move``; without a motion the user moves
it with ``Simulation.move_to``); the new geometry is filled into a
:class:`~surfflow.geometry.workspace.GeometryWorkspace`, so no array is allocated per move. The
last three positions give the surface's acceleration a; the liquid feels the inertial force -a
(stage 4, ``kernels/inertia.py``) and the CFL limit feels |g| + max |a| (stage 1). The last two
positions and tangent frames give the surface's turn about each normal; the liquid's velocity,
relative to the surface, feels the Coriolis force (stage 4, push, ``kernels/coriolis.py``).
"""

from __future__ import annotations

import numpy as np

from ..checks import check_vertex_array
from ..errors import ParameterError
from ..geometry.workspace import GeometryWorkspace
from ..kernels.coriolis import apply_coriolis
from ..kernels.inertia import (apply_inertial_force, carry_with_frames, largest_length,
                               second_time_difference)
from ..kernels.records import Levels, rings_of
from ..kernels.timestep import cfl_time_step
from ..terms.base import Term

HISTORY = 3  # positions kept: the second time difference needs three
NOTHING_ELSE = np.zeros((0, 2))  # apply_coriolis's ``also``: no second velocity to turn


class BoundMotion:
    """A motion ``(rest_vertices, t) -> vertices`` bound to its rest positions (n, 3).

    Parameters
    ----------
    motion : callable
        ``(rest (n, 3), t) -> (n, 3)`` positions at time t (s).
    rest : (n, 3) float array
        the rest positions (m) it moves.

    Examples
    --------
    >>> import numpy as np
    >>> import surfflow as sf
    >>> rest = np.zeros((2, 3))
    >>> bound = sf.motion.BoundMotion(lambda rest, t: rest + [0.0, 0.0, t], rest)
    >>> bound.vertices_at(0.5)[:, 2]          # (n, 3) positions at t = 0.5 s, checked
    array([0.5, 0.5])
    """

    def __init__(self, motion, rest: np.ndarray):
        if not callable(motion):
            raise ParameterError(f"motion is a {type(motion).__name__}; give a callable "
                                 "(rest_vertices, t) -> vertices such as sf.motion.Twist(...)")
        self.motion = motion
        self.rest = np.array(rest, dtype=np.float64)

    def vertices_at(self, t: float) -> np.ndarray:
        moved = self.motion(self.rest.copy(), float(t))
        return check_vertex_array(f"the motion's vertices at t={t:.9g} s", moved, len(self.rest),
                                  columns=3)


class SurfaceMotion(Term):
    """The moving-surface term: a surface on ``geom`` following ``path``, and the inertial force.

    It follows ``path`` (a :class:`BoundMotion`) or, with None, the moves ``Simulation.move_to``
    makes. It keeps the last three positions, ``times`` (3,) and ``positions`` (3, n, 3), oldest
    first, and from them the surface's acceleration (n, 3), the second time difference

        a = 2 / (t2 - t0) [ (x2 - x1) / (t2 - t1) - (x1 - x0) / (t1 - t0) ],

    zero until there are three, and its velocity (n, 3), the last difference
    (x2 - x1) / (t2 - t1), zero until there are two (the droplets leave and meet the surface
    with it). The acceleration is the one at t1, carried with each vertex's frame to t2
    (``inertia.carry_with_frames``: exact for a uniform acceleration and for a steady turn)
    and applied over the step that starts at t2 (first order in dt otherwise), as the force
    -a on the film. ``acceleration_bound`` is ``max_i |a_i|``, which the time step adds to
    ``|g|``. It also keeps the tangent frames and the rings' tangent coordinates of the last two
    moves, ``frames`` (2, n, 2, 3) and ``ring_coords`` (2, nnz, 2), oldest first; from the
    second move on, the step's push turns the film's velocity by the Coriolis force of the
    surface's turn between them (``kernels/coriolis.py``), applied over the step that starts at
    the last move; the same turn is given to the velocity the scheme's own stages start from
    (``turn_also``: the momentum scheme's Heun stages around bores and fronts, which start
    from the step's velocity before any push). A simulation with a motion holds one as
    ``sim.term("motion")``.

    Parameters
    ----------
    geom : SurfaceGeometry
        the surface it moves.
    params : Params
        the simulation's parameters.
    path : BoundMotion or None
        the motion it follows, or None for moves given by ``Simulation.move_to``.

    Examples
    --------
    >>> import surfflow as sf
    >>> sim = sf.Simulation(geom, motion=sf.motion.Pulse(amplitude=0.1, period=1.0))  # doctest: +SKIP
    >>> sim.term("motion").acceleration.shape                                     # doctest: +SKIP
    (642, 3)
    """

    name = "motion"
    like_gravity = True  # an accelerated surface is a tilted one: its force acts as gravity's

    def __init__(self, geom, params, path: BoundMotion | None = None):
        n_vertices = geom.n_vertices
        self.params = params
        self.path = path
        self.workspace = GeometryWorkspace(geom)
        self.times = np.zeros(HISTORY)
        self.positions = np.zeros((HISTORY, n_vertices, 3))
        self.also_turned = None  # whose start_velocity (n, 2) the push turns too (turn_also)
        self.world_momentum = False  # whether the scheme carries u + V (carry_world_momentum)
        self.count = 0
        self.acceleration = np.zeros((n_vertices, 3))
        self.velocity = np.zeros((n_vertices, 3))
        self.moved = np.empty((n_vertices, 3))  # frame_velocity's scratch
        self.acceleration_bound = 0.0
        self.frames = np.zeros((2, n_vertices, 2, 3))
        self.ring_coords = np.zeros((2, geom.neighbor_indices.shape[0], 2))
        self.frame_count = 0

    @property
    def stages(self) -> tuple[str, ...]:
        return ("max_time_step", "push", "accelerate") + (() if self.path is None else ("move",))

    def move(self, geom, time: float):
        """Stage 0: ``geom`` moved to where the path puts it at ``time``."""
        return self.move_to(geom, self.path.vertices_at(time), time)

    def move_to(self, geom, vertices: np.ndarray, time: float):
        """``geom`` moved to ``vertices`` (n, 3) (checked by the caller) at ``time``, filled in
        the workspace (valid until the second next move); the positions join the history."""
        moved = self.workspace.update(geom, vertices)
        if not (self.count and time == self.times[-1]):
            self.frames[0] = self.frames[1]
            self.ring_coords[0] = self.ring_coords[1]
            self.frame_count = min(self.frame_count + 1, 2)
        self.frames[1] = moved.tangent_frames
        self.ring_coords[1] = moved.neighbor_coords
        self.record(time, vertices)
        return moved

    def record(self, t: float, vertices: np.ndarray) -> None:
        """The surface is at ``vertices`` at time t: a later time pushes the oldest out, the same
        time replaces the newest."""
        if self.count and t < self.times[-1]:
            raise ParameterError(f"move_to at t={t:.9g} s, before the last move (t="
                                 f"{self.times[-1]:.9g} s); a surface moves forward in time")
        if not (self.count and t == self.times[-1]):
            for k in range(HISTORY - 1):  # row by row: no temporary copy
                self.times[k] = self.times[k + 1]
                self.positions[k] = self.positions[k + 1]
            self.count = min(self.count + 1, HISTORY)
        self.times[-1] = t
        self.positions[-1] = vertices
        self._differentiate()

    def _differentiate(self) -> None:
        if self.count >= 2 and self.times[-1] > self.times[-2]:
            np.subtract(self.positions[-1], self.positions[-2], out=self.velocity)
            self.velocity /= self.times[-1] - self.times[-2]
        else:
            self.velocity[:] = 0.0
        if self.count < HISTORY:
            self.acceleration[:] = 0.0
        else:
            (t0, t1, t2), (x0, x1, x2) = self.times, self.positions
            second_time_difference(x0, x1, x2, float(t0), float(t1), float(t2), self.acceleration)
            if self.frame_count == 2:  # from the middle move's frames to the last one's
                carry_with_frames(self.frames[0], self.frames[1], self.acceleration)
        self.acceleration_bound = float(largest_length(self.acceleration))

    def max_time_step(self, state, fields) -> float:
        """The CFL limit with the gravity the moving liquid feels, ``|g| + max_i |a_i|``."""
        p = self.params
        return cfl_time_step(state.depth, state.velocity, fields.ring_spacing,
                             p.gravity_magnitude + self.acceleration_bound, p.min_depth, p.cfl,
                             fields.ring_spacing, 0.0, 1.0, 1.0)[0]  # the flow's limit alone

    def turn_also(self, stages) -> None:
        """In every push, turn ``stages.start_velocity`` (n, 2) as the film's velocity is turned,
        while ``stages.watching``; nothing for None. ``stages``: a scheme's own stages that
        start from the step's velocity before any push (the momentum scheme's Heun stages
        around bores and fronts), which the Coriolis turn, a push after the scheme's, would
        otherwise miss."""
        self.also_turned = stages

    def push(self, geom, fields, state, bottom, dt: float) -> None:
        """u turned by the Coriolis force of the surface's turn between the last two moves
        (``kernels/coriolis.py``), and so is ``also_turned``'s starting velocity; nothing until
        there are two."""
        if self.frame_count < 2 or self.count < 2:
            return
        stages = self.also_turned
        also = (stages.start_velocity if stages is not None and stages.watching
                else NOTHING_ELSE)
        turns = (0.5, 0.0, 1.0, 1.0) if self.world_momentum else (1.0, 1.0, 1.0, 1.0)
        apply_coriolis(geom.neighbor_offsets, fields.fit_weights, self.frames, self.ring_coords,
                       float(self.times[-1] - self.times[-2]), turns, state.depth,
                       self.params.min_depth, dt, state.velocity, also)

    def frame_velocity(self, geom, out) -> bool:
        """The surface's own velocity at the last move, V = (x2 - x1) / (t2 - t1)
        + (t2 - t1) a / 2 (the last difference is the velocity half a move earlier: second
        order), less its mean over the surface weighted by the dual areas (a uniform velocity
        carries nothing), into ``out`` (n, 3): its components along each vertex's t0, t1 and n
        (``records.ContinuityFluxes``). Returns whether the surface moves (False, nothing
        written, before two moves)."""
        if self.count < 2:
            return False
        moved = np.multiply(self.acceleration, 0.5 * (self.times[-1] - self.times[-2]),
                            out=self.moved)
        moved += self.velocity
        moved -= geom.dual_areas @ moved / geom.dual_areas.sum()
        np.einsum("ikd,id->ik", geom.tangent_frames, moved, out=out[:, :2])
        np.einsum("id,id->i", geom.normals, moved, out=out[:, 2])
        return True

    def carry_world_momentum(self) -> None:
        """The scheme carries the film's momentum in the world's frame, u + V
        (``MomentumScheme.follow_surface``): -(u . grad) V, the spin's share of the Coriolis
        force (-Omega x u for a rigid turn), is in its carried term, so ``push`` turns u by half
        the frame's turn alone, the other half coming before the scheme's push (``half_turn``):
        a symmetric split of the frame's forces. The starting velocity of the scheme's own
        stages (``turn_also``), which carry it relative to the surface, still takes the whole
        Coriolis turn."""
        self.world_momentum = True

    def half_turn(self, geom, fields, depth, dt: float, velocity) -> None:
        """velocity (n, 2) turned by half the frame's turn, -omega_frame dt / 2, about each normal
        where depth (n,) is wet (``kernels/coriolis.py``): the first half of the Coriolis turn of
        a scheme that carries the world's momentum (``carry_world_momentum``), before its push;
        nothing until there are two moves."""
        if self.frame_count < 2 or self.count < 2:
            return
        apply_coriolis(geom.neighbor_offsets, fields.fit_weights, self.frames, self.ring_coords,
                       float(self.times[-1] - self.times[-2]), (0.5, 0.0, 0.0, 0.0), depth,
                       self.params.min_depth, dt, velocity, NOTHING_ELSE)

    def accelerate(self, geom, fields, state, bottom, depth, velocity, acceleration) -> None:
        """acceleration += F^a: the inertial force of the surface's acceleration on the stage's
        ``depth`` (``kernels/inertia.py``)."""
        p = self.params
        apply_inertial_force(rings_of(geom, fields),
                             Levels(fields.vertex_height, fields.normal_rise, bottom,
                                    p.gravity_magnitude), state.friction_share, geom.vertices,
                             geom.normals, geom.tangent_frames, self.acceleration, depth,
                             p.min_depth, 1.0, acceleration)

    def state_dict(self) -> dict:
        """The history as state-dict entries."""
        return {"motion_times": self.times.copy(), "motion_positions": self.positions.copy(),
                "motion_count": np.int64(self.count), "motion_frames": self.frames.copy(),
                "motion_ring_coords": self.ring_coords.copy(),
                "motion_frame_count": np.int64(self.frame_count)}

    def load_state_dict(self, data: dict) -> None:
        """Restore what :meth:`state_dict` wrote (a state dict without a history keeps this one)."""
        if "motion_positions" not in data:
            return
        if np.shape(data["motion_positions"]) != self.positions.shape:
            raise ParameterError(f"state dict motion_positions has shape "
                                 f"{np.shape(data['motion_positions'])}, this simulation needs "
                                 f"{self.positions.shape} (same mesh)")
        np.copyto(self.times, data["motion_times"])
        np.copyto(self.positions, data["motion_positions"])
        self.count = int(data["motion_count"])
        if "motion_frames" in data:
            np.copyto(self.frames, data["motion_frames"])
            np.copyto(self.ring_coords, data["motion_ring_coords"])
            self.frame_count = int(data["motion_frame_count"])
        else:  # saved before the frames were kept: the Coriolis force starts at the next move
            self.frames[:] = 0.0
            self.ring_coords[:] = 0.0
            self.frame_count = 0
        self._differentiate()
