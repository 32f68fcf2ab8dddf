"""Wind drag F_wind = c_w (w_t - u) on wet vertices (SPEC §3, ``kernels/wind.py``).

w_t is the tangential part of the wind velocity: a constant vector, a callable of position and
time (evaluated at the step's start) or a 3D grid. Stages: the explicit drag's limit
dt <= 1 / c_w (1) and the drag's acceleration in every Runge-Kutta stage (6).
"""

from __future__ import annotations

import numpy as np

from ..kernels.wind import evaluate_wind, wind_acceleration
from .base import Term


class Wind(Term):
    """Wind drag for ``params`` (wind set, wind_coefficient > 0) on ``geom``."""

    name = "wind"
    stages = ("max_time_step", "accelerate")

    def __init__(self, geom, params):
        self.params = params
        self.wind_velocity = np.zeros((geom.n_vertices, 3))
        self.use_geometry(geom)

    def use_geometry(self, geom) -> None:
        self.positions = geom.vertices
        self.evaluated_at = None
        evaluate_wind(self.params.wind, self.positions, 0.0, self.wind_velocity)

    def max_time_step(self, state, fields) -> float:
        """dt <= 1 / c_w keeps the explicit drag monotone (stable up to 2 / c_w)."""
        return 1.0 / self.params.wind_coefficient

    def accelerate(self, geom, fields, state, bottom, depth, velocity, acceleration) -> None:
        """acceleration += c_w (w_t - u) on the wet vertices of the stage, the wind evaluated
        at the step's start time."""
        p = self.params
        if callable(p.wind) and self.evaluated_at != state.time:
            evaluate_wind(p.wind, self.positions, state.time, self.wind_velocity)
            self.evaluated_at = state.time
        wind_acceleration(geom.tangent_frames, self.wind_velocity, depth, velocity,
                          p.wind_coefficient, p.min_depth, acceleration)
