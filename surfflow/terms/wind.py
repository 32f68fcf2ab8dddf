"""Wind drag F_wind = c_w (w_t - u) on wet vertices (SPEC §3, ``kernels/wind.py``).

w_t is the tangential part of the wind velocity: a constant vector, a callable of position and
time (evaluated once per step) or a 3D grid. Stages: the explicit drag's limit dt <= 1 / c_w
(1) and the drag (4).
"""

from __future__ import annotations

import numpy as np

from ..kernels.wind import apply_wind_drag, evaluate_wind
from .base import Term


class Wind(Term):
    """Wind drag for ``params`` (wind set, wind_coefficient > 0) on ``geom``."""

    name = "wind"
    stages = ("max_time_step", "push")

    def __init__(self, geom, params):
        self.params = params
        self.wind_velocity = np.zeros((geom.n_vertices, 3))
        self.use_geometry(geom)

    def use_geometry(self, geom) -> None:
        self.positions = geom.vertices
        evaluate_wind(self.params.wind, self.positions, 0.0, self.wind_velocity)

    def max_time_step(self, state, fields) -> float:
        """dt <= 1 / c_w keeps the explicit drag monotone (stable up to 2 / c_w)."""
        return 1.0 / self.params.wind_coefficient

    def push(self, geom, fields, state, bottom, dt: float) -> None:
        """u += dt c_w (w_t - u), the wind evaluated at the step's start time."""
        p = self.params
        if callable(p.wind):
            evaluate_wind(p.wind, self.positions, state.time, self.wind_velocity)
        apply_wind_drag(geom.tangent_frames, self.wind_velocity, state.depth, p.wind_coefficient,
                        p.min_depth, dt, state.velocity)
