"""The scene's ``[ripples]`` table: a ``mode = "ripples"`` scene runs :class:`surfflow.Ripples`
(the damped wave equation on the mesh) instead of the film.

    mode = "ripples"

    [ripples]
    wave_speed = 0.5            # m/s (or depth = 0.025: c = sqrt(g depth))
    damping = 0.3               # 1/s
    edge = "reflect"            # or "fixed" (held at z = 0)
    shore_width = 0.4           # m: a sloping beach along the edge
    rain_rate = 2.0             # drops per second per m^2
    rain_radius = 0.02          # m
    rain_depth = 0.002          # m

    [[ripples.drops]]
    center = [0.0, 0.0, 0.0]
    radius = 0.05
    depth = 0.003
    time = 0.5                  # s (default 0)

The mesh is the pond's bottom and the water lies ``depth`` above it (``Ripples.depth``); its
density and gravity come from ``[liquid] density`` and ``gravity``. The film's own tables
(FILM_TABLES) have no meaning here and are refused.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..ripples import Ripples, shore_band

FILM_TABLES = ("sources", "droplets", "motion", "boundaries", "initial", "soluble_layer", "wind",
               "dissolution")


class RippleTableError(ValueError):
    """A [ripples] table problem: args (key, message)."""


@dataclass(frozen=True)
class RippleSpec:
    """A checked [ripples] table (see the module docstring); ``shore_file`` is relative to the
    scene file already."""

    wave_speed: float | None = None
    depth: float | None = None
    damping: float = 0.0
    edge: str = "fixed"
    shore_width: float | None = None
    shore_file: Path | None = None
    shore_damping: float | None = None
    cfl: float = 0.9
    rain_rate: float = 0.0
    rain_radius: float = 0.02
    rain_depth: float = 0.002
    rain_seed: int = 0
    drops: tuple = field(default_factory=tuple)

    def build(self, geom, params) -> Ripples:
        """The Ripples of this table on ``geom``, with the density and gravity of ``params``,
        its shore, rain and drops."""
        gravity = params.gravity_magnitude
        speed = self.wave_speed if self.wave_speed is not None else math.sqrt(gravity * self.depth)
        ripples = Ripples(geom, wave_speed=speed, damping=self.damping, edge=self.edge,
                          shore=self.shore(geom), shore_damping=self.shore_damping,
                          density=params.density, gravity=gravity, cfl=self.cfl, depth=self.depth)
        if self.rain_rate > 0.0:
            ripples.add_rain(self.rain_rate, self.rain_radius, self.rain_depth, self.rain_seed)
        for drop in self.drops:
            ripples.drop(drop["center"], drop["radius"], drop["depth"], time=drop.get("time"))
        return ripples

    def shore(self, geom) -> np.ndarray | None:
        """(n,) shore coefficients from the file or the band, or None (free water)."""
        if self.shore_file is not None:
            return np.load(self.shore_file, allow_pickle=False)
        return None if self.shore_width is None else shore_band(geom, self.shore_width)


def ripple_spec(values: dict, base: Path) -> RippleSpec:
    """A RippleSpec from the checked table values; raises :class:`RippleTableError`."""
    if "wave_speed" not in values and "depth" not in values:
        raise RippleTableError("wave_speed", "give the wave speed (m/s), or the water's depth (m) "
                                             "for c = sqrt(g depth)")
    if "shore_width" in values and "shore_file" in values:
        raise RippleTableError("shore_file", "give 'shore_width' (a beach along the edge) or "
                                             "'shore_file' (an .npy of n coefficients), not both")
    if values.get("cfl", 0.5) >= 1.0:
        raise RippleTableError("cfl", f"{values['cfl']!r} must lie below 1 (a fraction of the "
                                      "stable time step)")
    if "shore_file" in values:
        values = {**values, "shore_file": base / values["shore_file"]}
        if not values["shore_file"].is_file():
            raise RippleTableError("shore_file", f"{str(values['shore_file'])!r} does not exist; give "
                                                 "an .npy of n shore coefficients, relative to the scene")
    return RippleSpec(**values)
