"""The runtime side of a moving surface: positions' history, acceleration, inertial force."""

from __future__ import annotations

import numpy as np

from ..errors import ParameterError
from ..kernels.inertia import apply_inertial_force, largest_length, second_time_difference
from ..state import check_vertex_array

HISTORY = 3  # positions kept: the second time difference needs three


class BoundMotion:
    """A motion ``(rest_vertices, t) -> vertices`` bound to its rest positions (n, 3).

    ``vertices_at(t)`` returns the (n, 3) positions at time t, checked (shape, finite).
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


class SurfaceMotion:
    """The last three positions of a moving surface and the acceleration they give.

    times (3,), positions (3, n, 3): oldest first, ``count`` of them filled; acceleration (n, 3):
    the second time difference of the three, zero until there are three,

        a = 2 / (t2 - t0) [ (x2 - x1) / (t2 - t1) - (x1 - x0) / (t1 - t0) ];

    It is the acceleration at t1, applied over the step that starts at t2 (a lag of one step,
    first order in dt; exact for a uniform acceleration). acceleration_bound: max_i |a_i| (the
    CFL adds it to |g|). motion: the :class:`BoundMotion`
    the step follows, or None when the user moves the surface with ``move_to``.
    """

    def __init__(self, n_vertices: int):
        self.times = np.zeros(HISTORY)
        self.positions = np.zeros((HISTORY, n_vertices, 3))
        self.count = 0
        self.acceleration = np.zeros((n_vertices, 3))
        self.acceleration_bound = 0.0
        self.motion = None

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
        if self.count < HISTORY:
            self.acceleration[:] = 0.0
        else:
            (t0, t1, t2), (x0, x1, x2) = self.times, self.positions
            second_time_difference(x0, x1, x2, float(t0), float(t1), float(t2), self.acceleration)
        self.acceleration_bound = float(largest_length(self.acceleration))

    def apply(self, geom, fields, state, bottom, gravity_magnitude: float, min_depth: float,
              dt: float) -> None:
        """u += dt F^a: the inertial force of the surface's acceleration (``kernels/inertia.py``)."""
        apply_inertial_force(geom.neighbor_offsets, geom.neighbor_indices, geom.dual_edge_vectors,
                             geom.dual_areas, fields.fit_weights, state.friction_share,
                             geom.vertices, geom.normals, geom.tangent_frames, self.acceleration,
                             fields.vertex_height, fields.normal_rise, gravity_magnitude, bottom,
                             state.depth, min_depth, dt, state.velocity)

    def to_dict(self) -> dict:
        """The history as state-dict entries."""
        return {"motion_times": self.times.copy(), "motion_positions": self.positions.copy(),
                "motion_count": np.int64(self.count)}

    def load_dict(self, data: dict) -> None:
        """Restore what :meth:`to_dict` wrote."""
        if np.shape(data["motion_positions"]) != self.positions.shape:
            raise ParameterError(f"state dict motion_positions has shape "
                                 f"{np.shape(data['motion_positions'])}, this simulation needs "
                                 f"{self.positions.shape} (same mesh)")
        np.copyto(self.times, data["motion_times"])
        np.copyto(self.positions, data["motion_positions"])
        self.count = int(data["motion_count"])
        self._differentiate()
