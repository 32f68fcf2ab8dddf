"""Floating bodies on ripples (``sf.Ripples``, ripple mode): ``ripples.add_body(body)``.

The same coupling as on the film (``coupling.py``), on the water a ripple field describes: the
columns' level is the water's depth H plus the wave height z along each normal, the water has
no horizontal velocity (drag holds a body still relative to the pond), and the bodies' pressure
p (n,) is the ripples' ``surface_pressure``, which the waves feel as z_tt = c^2 Lap(z + p /
(rho g)) - mu z_t: a body presses the surface down under it and its bobbing makes rings. Up is
the mesh's mean normal (a pond), gravity the ripples' g along it.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np

from .coupling import BodyCoupling


@dataclass
class WaterColumns:
    """The ripple water as a film's state: bottom 0, depth H + z (n,), still velocity (n, 2)."""

    bottom: np.ndarray
    depth: np.ndarray
    velocity: np.ndarray
    time: float


class RippleBodies(BodyCoupling):
    """Rigid bodies floating on ``ripples`` (a term of its step: ``press`` before each step)."""

    name = "bodies"
    stiffness = 1.0  # the pressure patch: p = rho g (H - s_lo), linear in the draft

    def __init__(self, ripples):
        geom = ripples.geometry
        mean = (geom.dual_areas[:, None] * geom.normals).sum(axis=0)
        up = mean / np.linalg.norm(mean)
        params = SimpleNamespace(gravity=tuple(-ripples.gravity * up), density=ripples.density,
                                 cfl=ripples.cfl, min_depth=1e-6)
        super().__init__(geom, params)
        self.water = WaterColumns(np.zeros(geom.n_vertices), np.zeros(geom.n_vertices),
                                  np.zeros((geom.n_vertices, 2)), 0.0)

    def press(self, ripples, dt: float) -> None:
        """Move the bodies over dt on the current waves, then press the surface under them."""
        w = self.water
        np.add(ripples.depth, ripples.height, out=w.depth)
        w.time = ripples.time
        self.find_footprints(w.bottom, float(w.depth.max()))
        self.exchange(self.geom, w, dt)
        self.find_footprints(w.bottom, float(w.depth.max()))
        self.pressure.fill(0.0)
        rest = np.full(len(w.depth), ripples.depth)
        np.add.at(self.pressure, self.rows, self.press_columns(w.bottom, rest).mean(axis=1))
        ripples.surface_pressure = self.pressure

    def pressed_head(self, state) -> np.ndarray:
        """p / (rho g_n) (k,) on the footprint rows: the pressure the waves feel now."""
        g_n = self.gravity_normal[self.rows]
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(g_n > 0.0, self.pressure[self.rows] / (self.params.density * g_n),
                            0.0)
