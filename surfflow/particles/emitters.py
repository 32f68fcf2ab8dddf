"""Emitters: liquid put into the scene as particles where it comes from (SPEC §8).

    sim.add_emitter(sf.Nozzle(position=(0, 0.5, 0), direction=(0, -1, 0), speed=0.5,
                              radius=0.005, rate=2e-5, stop=2.0, dye=0))
    sim.add_emitter(sf.Rain(region=((-1, 1, -1), (1, 1.2, 1)), intensity=50.0))

**Volume.** Over a step [t, t + dt] an emitter delivers its rate times the overlap [a, b] of
the step with its active interval [start, stop) (a nozzle's callable rate f(t) is integrated
over [a, b] by 3-point Gauss-Legendre, exact for polynomials of degree 5); the step books it
(``poured`` for nozzles, ``rained`` for rain). The delivered volume fills parcels of known
volumes V_k one after the other: parcel k leaves when it is full, at the time s_k in [a, b]
where the delivery (uniform over [a, b]) reaches it, and is placed where free flight from its
release point has carried it by t + dt (the droplets' exact flight with drag; its path for the
collision query starts at the release point). What is delivered but not yet in a full parcel
waits in the emitter (``pending``) and counts as airborne in the ledger; at stop the rest leaves
as a last, smaller parcel. So the ledger is exact and a stream does not depend on dt.

**Nozzle** (position, direction, speed v, radius r, rate q): parcels leave from points of the
nozzle's disc (radius r, perpendicular to the direction; ``raindrops.disc_pattern``, a
deterministic even pattern) at speed v along the direction. Their size: the chain of touching
spheres that carries q at speed v, D = sqrt(6 q / (pi v)) (spheres a diameter apart along the
stream, so no two overlap when they leave: the droplets' separation would push overlapping
ones apart), V = pi/6 D^3; a nozzle with speed 0 drips drops of ``Droplets.max_volume``. The
budget: a stream holds at most ``max_particles / BUDGET_SHARE`` particles in flight, so V is at
least q T / that, T an upper bound on the time to fall from the nozzle to the bounds' floor.

**Rain** (region, intensity I in mm/h): I / 3.6e6 m/s over the region's horizontal area (its
shadow on the plane perpendicular to gravity), drops released at the region's top height over
that shadow, at their terminal speed, with Marshall-Palmer sizes (``raindrops.py``). Where the
count in flight (rate / mean drop volume times the fall time) would pass the budget's share,
each particle stands for several drops of its size (a parcel, ``drops_per_particle``).

A nozzle inside the mesh is refused: one whose first path, the segment along its direction as
long as the diagonal of the droplets' bounds, first meets a triangle from behind (inside a
closed mesh, or under an open surface; ``release.check_nozzle_outside``).
"""

from __future__ import annotations

import math

import numpy as np

from ..checks import check_range, check_vector3
from ..errors import ParameterError
from .droplets import check_bounds
from .raindrops import DropSizes, disc_pattern, fall_speed, fall_time, footprint, low_discrepancy

BUDGET_SHARE = 8  # an emitter keeps at most max_particles / BUDGET_SHARE particles in flight
GAUSS_NODES = np.array([-math.sqrt(0.6), 0.0, math.sqrt(0.6)])
GAUSS_WEIGHTS = np.array([5.0, 8.0, 5.0]) / 9.0
MM_PER_HOUR = 1e-3 / 3600.0  # m/s


def check_interval(what: str, start, stop) -> tuple[float, float]:
    check_range(f"{what} start", start, 0.0)
    if not float(stop) > float(start):
        raise ParameterError(f"{what} stop={stop!r} must be later than start={start!r}")
    return float(start), float(stop)


class Nozzle:
    """A spout: a stream of particles from a disc, at a speed along a direction.

    Parameters
    ----------
    position : (3,) floats, m
        the centre of the nozzle's exit disc.
    direction : (3,) floats
        where the stream points (any length but zero).
    speed : float >= 0, m/s
        exit speed along ``direction`` (0: it drips).
    radius : float >= 0, m
        radius of the exit disc the particles leave from.
    rate : float > 0 (m^3/s) or callable
        volume per second, or a function ``f(t)`` (t in s) giving it, >= 0.
    start, stop : float, s
        the active interval [start, stop).
    dye : int or None
        the dye the stream carries (concentration 1), or None.

    Examples
    --------
    >>> import surfflow as sf
    >>> spout = sf.Nozzle(position=(0.0, 0.5, 0.0), direction=(0.0, -1.0, 0.0), speed=0.5,
    ...                   radius=0.005, rate=2e-5, stop=2.0)
    >>> round(spout.parcel_diameter(2e-5), 4)                       # m: sqrt(6 q / (pi v))
    0.0087
    """

    kind = "nozzle"
    entry = "poured"

    def __init__(self, position, direction, speed, radius, rate, start=0.0, stop=math.inf,
                 dye=None):
        self.position = np.array(check_vector3("Nozzle position", position))
        direction = np.array(check_vector3("Nozzle direction", direction))
        if not np.linalg.norm(direction) > 0.0:
            raise ParameterError(f"Nozzle direction={tuple(direction)} has length zero; give "
                                 "where the stream points, e.g. (0, -1, 0)")
        self.direction = direction / np.linalg.norm(direction)
        check_range("Nozzle speed", speed, 0.0)
        check_range("Nozzle radius", radius, 0.0)
        if not callable(rate):
            check_range("Nozzle rate", rate, 0.0, low_open=True)
        self.speed, self.radius, self.rate = float(speed), float(radius), rate
        self.start, self.stop = check_interval("Nozzle", start, stop)
        self.dye = None if dye is None else int(dye)
        self.pending, self.released = 0.0, 0

    def rate_at(self, time: float) -> float:
        """The rate (m^3/s) at ``time`` s (>= 0; a callable's value checked)."""
        value = float(self.rate(time)) if callable(self.rate) else self.rate
        if not (math.isfinite(value) and value >= 0.0):
            raise ParameterError(f"Nozzle rate({time!r}) = {value!r}: the rate function must "
                                 "return a finite volume per second >= 0 (m^3/s)")
        return value

    def delivered(self, a: float, b: float) -> float:
        """The volume (m^3) delivered over [a, b] (inside the active interval)."""
        if not callable(self.rate):
            return self.rate * (b - a)
        middle, half = 0.5 * (a + b), 0.5 * (b - a)
        return half * sum(w * self.rate_at(middle + half * x)
                          for w, x in zip(GAUSS_WEIGHTS, GAUSS_NODES))

    def parcel_diameter(self, rate: float) -> float:
        """The stream's parcel diameter (m) at ``rate`` m^3/s: sqrt(6 q / (pi v))."""
        return math.sqrt(6.0 * rate / (math.pi * self.speed))

    def bind(self, droplets, up: np.ndarray, gravity: float) -> None:
        """Fix the disc's frame and the budget's least parcel volume for ``droplets``."""
        helper = np.eye(3)[int(np.argmin(np.abs(self.direction)))]
        self.across = np.cross(self.direction, helper)
        self.across /= np.linalg.norm(self.across)
        self.across = np.stack([self.across, np.cross(self.direction, self.across)])
        floor = max(droplets.floor, float(np.min(np.stack(droplets.bounds) @ up)))
        down = -self.speed * float(self.direction @ up)
        if gravity > 0.0:
            self.fall_time = fall_time(float(self.position @ up) - floor, down, gravity, droplets.drag)
        else:  # no gravity: the time to cross the bounds at the exit speed
            span = float(np.linalg.norm(droplets.bounds[1] - droplets.bounds[0]))
            self.fall_time = span / self.speed if self.speed > 0.0 else 0.0
        self.share = max(1, droplets.max_particles // BUDGET_SHARE)
        self.drop_volume = droplets.max_volume

    def mean_parcel_volume(self, a: float, b: float) -> float:
        """The volume (m^3) of the parcels leaving over [a, b] (all alike)."""
        rate = self.rate_at(0.5 * (a + b))
        volume = (math.pi / 6.0 * self.parcel_diameter(rate) ** 3 if self.speed > 0.0 and rate > 0.0
                  else self.drop_volume)
        return max(volume, rate * self.fall_time / self.share)

    def parcels(self, first: int, count: int, a: float, b: float):
        """``count`` parcels from index ``first``: (indices (c,), volumes (c,), release points
        (c, 3), velocities (c, 3))."""
        volume = self.mean_parcel_volume(a, b)
        index = np.arange(first, first + count, dtype=np.int64)
        disc = self.radius * disc_pattern(index)
        points = self.position + disc @ self.across
        velocities = np.tile(self.speed * self.direction, (count, 1))
        return index, np.full(count, volume), points, velocities

    def numbers(self) -> list[float]:
        rate = math.nan if callable(self.rate) else self.rate
        return [*self.position, *self.direction, self.speed, self.radius, rate]


class Rain:
    """Rain falling through a box: an intensity over its horizontal area, Marshall-Palmer drops.

    Parameters
    ----------
    region : ((3,), (3,)) floats, m
        the box ``((x0, y0, z0), (x1, y1, z1))``; drops start at its top over its horizontal
        shadow (perpendicular to gravity).
    intensity : float > 0, mm/h
        the rain rate: depth per hour over the horizontal area (1 mm/h is 2.78e-7 m/s).
    start, stop : float, s
        the active interval [start, stop).
    dye : int or None
        the dye the drops carry (concentration 1), or None.

    Examples
    --------
    >>> import surfflow as sf
    >>> rain = sf.Rain(region=((-0.5, 1.0, -0.5), (0.5, 1.2, 0.5)), intensity=36.0)
    >>> rain.intensity                                              # mm/h
    36.0
    """

    kind = "rain"
    entry = "rained"

    def __init__(self, region=None, intensity=None, start=0.0, stop=math.inf, dye=None):
        if region is None:
            raise ParameterError("Rain needs region=((x0, y0, z0), (x1, y1, z1)): the box the rain "
                                 "falls through (m); its horizontal area gets the intensity")
        try:
            self.low, self.high = check_bounds(region)
        except ParameterError as exc:
            raise ParameterError(f"Rain region: {exc}") from None
        if intensity is None:
            raise ParameterError("Rain needs intensity=..., the rain rate in mm/h (e.g. 50)")
        check_range("Rain intensity", intensity, 0.0, low_open=True)
        self.intensity = float(intensity)
        self.start, self.stop = check_interval("Rain", start, stop)
        self.dye = None if dye is None else int(dye)
        self.pending, self.released = 0.0, 0
        self.sizes = DropSizes(self.intensity)

    def delivered(self, a: float, b: float) -> float:
        """The volume (m^3) falling through the horizontal area over [a, b]."""
        return self.intensity * MM_PER_HOUR * self.area * (b - a)

    def bind(self, droplets, up: np.ndarray, gravity: float) -> None:
        """The shadow of the box and the drops per particle the budget asks for."""
        if not gravity > 0.0:
            raise ParameterError("Rain falls along gravity, and this simulation has none; give "
                                 "Params(gravity=...) or pour with a Nozzle")
        self.up = up
        (self.h1, self.h2), flat, self.inside, self.area, self.top = footprint(self.low, self.high, up)
        self.corner, self.extent = flat.min(axis=0), np.ptp(flat, axis=0)
        floor = max(droplets.floor, float(np.min(np.stack(droplets.bounds) @ up)))
        time = fall_time(self.top - floor, self.sizes.mean_speed, gravity, droplets.drag)
        in_flight = self.delivered(0.0, time) / self.sizes.mean_volume
        self.drops_per_particle = max(1, math.ceil(in_flight / max(1, droplets.max_particles
                                                                   // BUDGET_SHARE)))

    def mean_parcel_volume(self, a: float, b: float) -> float:
        """The mean volume (m^3) of its particles: drops_per_particle mean drops."""
        return self.drops_per_particle * self.sizes.mean_volume

    def parcels(self, first: int, count: int, a: float, b: float):
        """``count`` drops (or parcels) from candidate index ``first`` (candidates off the
        shadow skipped): indices, volumes, release points, velocities (see Nozzle.parcels)."""
        found, index = [], first
        while sum(len(f) for f in found) < count:
            candidates = np.arange(index, index + 2 * count + 8, dtype=np.int64)
            u = low_discrepancy(candidates, 3)
            flat = self.corner + u[:, :2] * self.extent
            slack = 1e-12 * float(self.extent.max()) ** 2
            inside = np.all(flat @ self.inside[:, :2].T + self.inside[:, 2] <= slack, axis=1)
            found.append(np.column_stack([candidates, u[:, 0], u[:, 1], u[:, 2]])[inside])
            index += len(candidates)
        rows = np.concatenate(found)[:count]
        index = rows[:, 0].astype(np.int64)
        flat = self.corner + rows[:, 1:3] * self.extent
        diameter = self.sizes(rows[:, 3])
        points = (np.outer(flat[:, 0], self.h1) + np.outer(flat[:, 1], self.h2)
                  + self.top * self.up)
        velocities = -np.outer(fall_speed(diameter), self.up)
        volumes = self.drops_per_particle * np.pi / 6.0 * diameter ** 3
        return index, volumes, points, velocities

    def numbers(self) -> list[float]:
        return [*self.low, *self.high, self.intensity]
