"""``Droplets``: the embedded particle system for liquid in flight (SPEC §8).

    drops = sf.Droplets(drag=1.5, floor=0.0)
    drops.add(positions, velocities, volumes)      # (p, 3), (p, 3), (p,) m^3
    drops.step(dt)                                 # gravity, air drag, interaction
    drops.positions, drops.velocities, drops.volumes

Particles live in flat preallocated arrays (capacity doubles when full, so steps allocate only
when the count grows past it), never more than ``max_particles`` of them: past that, particles
in flight merge in pairs to make room (``budget.py``: the budget, the particle size at any
scale, the memory). Why contact separation + XSPH velocity smoothing
(``dynamics.py``) and not SPH or position-based fluids: the drops here live for a fraction of a
second between leaving the film and landing on it again or leaving the scene; they need to stay
apart, move together as a stream and never blow up at any time step, not to resolve pressure
waves in a pool. One gather pass per step does that; a density solve (PBF needs several
iterations, SPH a time step set by its sound speed) would cost more than the film for no visible
gain. A real SPH engine can stand in behind the same interface (see ``splishsplash.py``).
"""

from __future__ import annotations

import math

import numpy as np

from ..checks import check_range
from ..errors import ParameterError
from ..kernels._jit import serial_when_small
from .budget import check_max_particles, default_max_particles
from .dynamics import (apply_interaction, build_buckets, build_levelled_buckets, compact, fly,
                       interact, list_wide, mark_removed, merge_pairs, sphere_radius)
from .records import NeighbourGrid, ParticleBuffers

WATER_DROP_VOLUME = 5e-8  # m^3: a pendant water drop detaches at ~0.05 mL (Tate's law)
MOST_WIDE = 27
"""the most particles the interaction lists apart from its grid: each costs every particle a
pair test, where the grid costs it 27 cells; past that each size class is met through a grid of
its own (``dynamics.py``)."""


class Droplets:
    """Liquid in flight as particles: positions (p, 3), velocities (p, 3), volumes (p,).

    The embedded droplet system (SPEC §8), a :class:`Simulation`'s default: it sheds liquid that
    cannot stay on the film (a pendant film deeper than surface tension holds, liquid running
    over a free edge: ``shedding.py``) as particles, steps them with the film and absorbs the
    ones that hit the surface; the ledger books emitted, absorbed, airborne and lost volume.

    Parameters
    ----------
    drag : float >= 0, 1/s, default 1.5
        linear air drag k; the terminal speed is ``|g| / k`` (1.5: 6.5 m/s, a 2 mm drop's).
    separation : float in [0, 1], dimensionless, default 0.5
        s, how much of an overlap between two drops is undone per step.
    smoothing : float in [0, 1], dimensionless, default 0.1
        c, the XSPH velocity smoothing between neighbours (0: independent).
    max_volume : float > 0, m^3, default 5e-8
        the volume of a drop: a film cell smaller than such a drop sheds its excess as drops of
        at most this volume; wider cells shed parcels as wide as the cell (``budget.py``).
    max_particles : int >= 2 or None, default None
        the most particles at once; None: what an eighth of the available memory holds, at most
        a million, raised to two per vertex of the mesh. Past it, particles in flight merge into
        larger ones (volume and momentum kept). A budget the memory cannot hold is a
        SimulationError here.
    floor : float or None, m, default None
        particles below this height (along -gravity) are removed and booked as lost.
    bounds : ((3,), (3,)) floats in m, or None
        ``((x0, y0, z0), (x1, y1, z1))``, particles outside are lost; None: the mesh's bounding
        box grown by its diagonal on every side, set when a Simulation takes the droplets.
    capacity : int, default 1024
        the number of particles the arrays hold before they first grow.

    Examples
    --------
    >>> import surfflow as sf
    >>> drops = sf.Droplets(drag=1.5, floor=-0.1)
    >>> drops.positions.shape, drops.volumes.shape
    ((0, 3), (0,))
    """

    def __init__(self, drag: float = 1.5, separation: float = 0.5, smoothing: float = 0.1,
                 max_volume: float = WATER_DROP_VOLUME, floor: float | None = None,
                 bounds=None, capacity: int = 1024, max_particles: int | None = None):
        check_range("drag", drag, 0.0)
        check_range("separation", separation, 0.0, 1.0)
        check_range("smoothing", smoothing, 0.0, 1.0)
        check_range("max_volume", max_volume, 0.0, low_open=True)
        if floor is not None:
            check_range("floor", floor)
        self.drag, self.separation, self.smoothing = float(drag), float(separation), float(smoothing)
        self.max_volume = float(max_volume)
        self.floor = -math.inf if floor is None else float(floor)
        self.bounds = None if bounds is None else check_bounds(bounds)
        self.default_budget = max_particles is None
        self.max_particles = (default_max_particles() if max_particles is None
                              else check_max_particles(max_particles))
        self.gravity = np.array([0.0, -9.81, 0.0])
        self.colliders: list = []  # callables (positions (p, 3), velocities (p, 3)), in place
        self.count = 0
        self.n_dyes = 0
        self._allocate(min(max(int(capacity), 16), self.max_particles))

    # ---- the interface ----------------------------------------------------------------------

    @property
    def positions(self) -> np.ndarray:
        """(p, 3) positions (m), a view of the live particles."""
        return self._positions[:self.count]

    @property
    def velocities(self) -> np.ndarray:
        """(p, 3) velocities (m/s), a view."""
        return self._velocities[:self.count]

    @property
    def volumes(self) -> np.ndarray:
        """(p,) volumes (m^3), a view."""
        return self._volumes[:self.count]

    @property
    def dyes(self) -> np.ndarray:
        """(p, k) dye concentrations the particles carry (k: the simulation's ``n_dyes``), a
        view; emitted with their emitter's dye or the film's at the vertex that shed them."""
        return self._dyes[:self.count]

    def use_dyes(self, n_dyes: int) -> None:
        """Carry ``n_dyes`` dye concentrations per particle (the live particles' set to 0 for
        new ones); a Simulation calls it with its own ``n_dyes``."""
        if n_dyes != self.n_dyes:
            self.n_dyes = int(n_dyes)
            self._allocate(len(self._volumes))

    @property
    def previous_positions(self) -> np.ndarray:
        """(p, 3) positions before the last :meth:`step`: each particle's path is the segment
        from here to ``positions`` (what the collision query tests)."""
        return self._previous[:self.count]

    def airborne_volume(self) -> float:
        """Sum of the particle volumes (m^3), serial (deterministic)."""
        return float(self.volumes.sum())

    def add(self, positions, velocities, volumes, dyes=None) -> None:
        """Append particles: positions (p, 3), velocities (p, 3), volumes (p,) > 0, and
        optionally their dye concentrations (p, n_dyes) (default 0)."""
        positions = np.asarray(positions, dtype=np.float64).reshape(-1, 3)
        p = len(positions)
        velocities = np.asarray(velocities, dtype=np.float64).reshape(-1, 3)
        volumes = np.asarray(volumes, dtype=np.float64).reshape(-1)
        if velocities.shape != (p, 3) or volumes.shape != (p,):
            raise ParameterError(f"add: velocities {velocities.shape} and volumes {volumes.shape} "
                                 f"must match positions ({p}, 3): one row per particle")
        if not (np.isfinite(positions).all() and np.isfinite(velocities).all()
                and np.isfinite(volumes).all() and (volumes > 0.0).all()):
            raise ParameterError("add: positions, velocities and volumes must be finite and the "
                                 "volumes > 0")
        dyes = np.zeros((p, self.n_dyes)) if dyes is None else np.asarray(dyes, dtype=np.float64)
        if dyes.shape != (p, self.n_dyes):
            raise ParameterError(f"add: dyes {dyes.shape} must be ({p}, {self.n_dyes}): one row "
                                 "per particle, one column per dye")
        first = self.reserve(p)
        self._positions[first:first + p] = positions
        self._previous[first:first + p] = positions
        self._velocities[first:first + p] = velocities
        self._volumes[first:first + p] = volumes
        self._dyes[first:first + p] = dyes

    def reserve(self, extra: int) -> int:
        """Make room for ``extra`` more particles (merging particles in flight if the budget
        asks it, growing the arrays if needed); returns the index of the first new one. The
        new rows of :attr:`buffers` are the caller's to fill."""
        if extra > self.max_particles - min(self.count, 1):
            raise ParameterError(f"{extra} new particles do not fit in max_particles="
                                 f"{self.max_particles} beside those in flight (merged to one at "
                                 "least); raise max_particles")
        self.merge_down_to(self.max_particles - extra)
        first = self.count
        if first + extra > len(self._volumes):
            self._allocate(min(max(2 * len(self._volumes), first + extra), self.max_particles))
        self.count = first + extra
        return first

    def merge_down_to(self, target: int) -> None:
        """Merge particles in flight in pairs (``dynamics.merge_pairs``) until at most
        ``target`` >= 1 are left: neighbours within a grid cell first, the cell doubling from
        the interaction's until it spans the bounds (then any two). Volume and momentum kept."""
        if self.count <= target:
            return
        low, high = self.bounds if self.bounds is not None else (self.positions.min(0),
                                                                  self.positions.max(0))
        span = float(np.linalg.norm(high - low))
        cell = 4.0 * float(sphere_radius(self.volumes.max()))
        while self.count > target:
            if not cell < span:
                cell = math.inf  # one cell: any two particles
            build_buckets(self._positions, self.count, cell, self._table_mask, self._bucket,
                          self._bucket_start, self._sorted)
            merge_pairs(self._positions, self._velocities, self._volumes, self._dyes,
                        self.count, cell, self._sorted, self.count - target, self._remove)
            self.count = compact(self._remove, self.count, self._positions, self._velocities,
                                 self._volumes, self._dyes)
            cell *= 2.0

    @property
    def buffers(self) -> ParticleBuffers:
        """The full-capacity arrays (positions, previous_positions, velocities, volumes, dyes)
        that kernels fill in place after :meth:`reserve`; rows past ``count`` are unused."""
        return ParticleBuffers(self._positions, self._previous, self._velocities, self._volumes,
                               self._dyes)

    def remove(self, mask) -> None:
        """Remove the particles where the (p,) bool ``mask`` is set, keeping the others' order."""
        mask = np.asarray(mask, dtype=bool)
        if mask.shape != (self.count,):
            raise ParameterError(f"remove: mask has shape {mask.shape}, needs ({self.count},)")
        self.count = compact(mask, self.count, self._positions, self._velocities, self._volumes,
                             self._dyes)

    def step(self, dt: float) -> None:
        """Move every particle over dt: free flight, then the neighbour interaction."""
        n = self.count
        with serial_when_small(n):
            self._step(dt, n)

    def _step(self, dt: float, n: int) -> None:
        """:meth:`step` of the n particles in flight."""
        fly(self._positions, self._velocities, self._previous, self.gravity, self.drag, dt,
            self._volumes, self._radius, n)
        for collide in self.colliders:          # solids in the flight (floating bodies)
            collide(self._positions[:n], self._velocities[:n])
        if n < 2 or (self.separation == 0.0 and self.smoothing == 0.0):
            return
        cell = 4.2 * float(sphere_radius(self.volumes.mean()))
        levels = build_levelled_buckets(self._positions, self._radius, n, cell, self._table_mask,
                                        self._level, self._bucket, self._bucket_start,
                                        self._sorted)
        n_wide = list_wide(self._level, n, self._wide)
        if n_wide <= MOST_WIDE:  # the few wide ones through their list, the others level 0's
            levels = 1
        else:                    # wide sizes are common (rain): each level through its grid
            n_wide = 0
        grid = NeighbourGrid(cell, self._table_mask, self._bucket_start, self._sorted,
                             self._level, levels, self._wide, n_wide)
        interact(self._positions, self._velocities, self._radius, n, grid, self.separation,
                 self.smoothing, dt, self._shift, self._velocity_change)
        apply_interaction(self._positions, self._velocities, self._shift, self._velocity_change, n)

    def remove_hits_and_lost(self, hit_triangle: np.ndarray, up: np.ndarray) -> float:
        """Remove the particles that hit the mesh (hit_triangle (p,) >= 0) and those past the
        floor or the bounds; returns the volume of the latter (lost)."""
        low, high = self.bounds
        lost = mark_removed(self._positions, self._volumes, self.count, hit_triangle, up,
                            self.floor, low, high, self._remove)
        self.count = compact(self._remove, self.count, self._positions, self._velocities,
                             self._volumes, self._dyes)
        return lost

    # ---- state ------------------------------------------------------------------------------

    def state_dict(self) -> dict:
        """Copies of the particle arrays, for checkpoints."""
        return {"particle_positions": self.positions.copy(),
                "particle_velocities": self.velocities.copy(),
                "particle_volumes": self.volumes.copy(), "particle_dyes": self.dyes.copy()}

    def load_state_dict(self, data: dict) -> None:
        """Replace the particles with what :meth:`state_dict` returned."""
        self.count = 0
        if "particle_volumes" in data:
            dyes = data.get("particle_dyes")  # absent from checkpoints of before particle dyes
            self.add(data["particle_positions"], data["particle_velocities"],
                     data["particle_volumes"], None if dyes is None or dyes.size == 0 else dyes)

    def _allocate(self, capacity: int) -> None:
        """(Re)allocate every per-particle array for ``capacity`` particles, keeping the live ones."""
        old = getattr(self, "_volumes", None)
        n = self.count
        for name, shape in (("_positions", (capacity, 3)), ("_velocities", (capacity, 3)),
                            ("_previous", (capacity, 3)), ("_shift", (capacity, 3)),
                            ("_velocity_change", (capacity, 3)), ("_volumes", (capacity,)),
                            ("_bucket", (capacity,)), ("_sorted", (capacity,)), ("_wide", (capacity,)),
                            ("_level", (capacity,)),
                            ("_radius", (capacity,)),
                            ("_remove", (capacity,)), ("hit_triangle", (capacity,)),
                            ("hit_weights", (capacity, 3)), ("_dyes", (capacity, self.n_dyes))):
            dtype = {"_bucket": np.int64, "_sorted": np.int64, "_wide": np.int64, "_level": np.int64,
                     "hit_triangle": np.int64,
                     "_remove": np.bool_}.get(name, np.float64)
            array = np.zeros(shape, dtype=dtype)
            if old is not None and getattr(self, name).shape[1:] == shape[1:]:
                array[:n] = getattr(self, name)[:n]
            setattr(self, name, array)
        table = 1 << int(math.ceil(math.log2(2 * capacity)))
        self._table_mask = table - 1
        self._bucket_start = np.zeros(table + 1, dtype=np.int64)


def check_bounds(bounds) -> tuple[np.ndarray, np.ndarray]:
    """((x0, y0, z0), (x1, y1, z1)) as two float arrays with low < high, or ParameterError."""
    try:
        low, high = (np.asarray(corner, dtype=np.float64) for corner in bounds)
    except (TypeError, ValueError):
        raise ParameterError(f"bounds={bounds!r} must be two corners ((x0, y0, z0), (x1, y1, z1))") from None
    if low.shape != (3,) or high.shape != (3,) or not (np.isfinite(low).all() and np.isfinite(high).all()):
        raise ParameterError(f"bounds={bounds!r} must be two corners of three finite numbers")
    if not (low < high).all():
        raise ParameterError(f"bounds={bounds!r}: each low corner coordinate must be below the high one")
    return low, high
