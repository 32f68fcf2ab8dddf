"""The emitters of a simulation's droplets: checked against the surface, released every step
(the rule of ``emitters.py``), saved and restored with the state.

A parcel released at s_j in the step [t, t + dt] has flown for tau_j = t + dt - s_j when the
step ends: with the droplets' gravity g and linear drag k, from its release point x0 and
velocity v0 (the exact flight of ``dynamics.fly``),

    x = x0 + v0 phi + g (tau - phi) / k,   v = v0 e^{-k tau} + g phi,   phi = (1 - e^{-k tau}) / k

(k = 0: phi = tau, x = x0 + v0 tau + g tau^2 / 2). Its previous position is x0, so the
collision query tests its path from the nozzle or cloud to where it is now.
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import ParameterError
from .emitters import Nozzle, Rain

EMITTER_NUMBERS = 14  # per emitter in the state dict: 9 of its own, start, stop, dye, pending, released


class EmitterSet:
    """The emitters pouring into ``droplets`` (gravity's up direction ``up`` (3,), ``n_dyes``
    dyes); iterating gives them in the order added."""

    def __init__(self, droplets, up: np.ndarray, n_dyes: int):
        self.droplets, self.up, self.n_dyes = droplets, up, n_dyes
        self.gravity = float(np.linalg.norm(droplets.gravity))
        self.items = []

    def __iter__(self):
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def add(self, emitter, grid):
        """Check ``emitter`` (dye, and a nozzle's place against the surface's ``grid``), fix
        its frame and budget, and pour from it; returns it."""
        if not isinstance(emitter, (Nozzle, Rain)):
            raise ParameterError(f"add_emitter({emitter!r}): pass sf.Nozzle(...) or sf.Rain(...)")
        if emitter.dye is not None and not 0 <= emitter.dye < self.n_dyes:
            raise ParameterError(f"{type(emitter).__name__} dye={emitter.dye!r} is not a dye of this "
                                 f"simulation; it has n_dyes={self.n_dyes} (pass n_dyes to Simulation)")
        emitter.bind(self.droplets, self.up, self.gravity)
        if isinstance(emitter, Nozzle):
            check_nozzle_outside(emitter, grid, first_path_length(self.droplets))
        self.items.append(emitter)
        return emitter

    def remove(self, handle) -> None:
        """Stop and forget ``handle``; what it has delivered but not released leaves now as a
        last parcel from its release point (the ledger stays exact)."""
        for emitter in [e for e in self.items if e is handle and e.pending > 0.0]:
            index, volumes, points, velocities = emitter.parcels(emitter.released, 1, 0.0, 0.0)
            volumes[0], emitter.pending = emitter.pending, 0.0
            self._place(emitter, volumes, points, velocities, np.zeros(1))
        self.items = [e for e in self.items if e is not handle]

    def pending_volume(self) -> float:
        """The volume delivered but not yet released (m^3), summed in order."""
        return math.fsum(e.pending for e in self.items) if self.items else 0.0

    def release(self, time: float, dt: float) -> dict:
        """Release every emitter's parcels of the step [time, time + dt]; returns the volumes
        delivered ({"poured": m^3, "rained": m^3}), nothing without emitters."""
        volumes = {}
        for emitter in self.items:
            delivered = self._release(emitter, time, time + dt)
            volumes[emitter.entry] = volumes.get(emitter.entry, 0.0) + delivered
        return volumes

    def _release(self, emitter, time: float, end: float) -> float:
        a, b = max(time, emitter.start), min(end, emitter.stop)
        delivered = emitter.delivered(a, b) if b > a else 0.0
        available = emitter.pending + delivered
        if available <= 0.0:
            return delivered
        last = emitter.stop <= end  # the rest leaves as a last parcel
        index, volumes, points, velocities = whole_parcels(emitter, available, a, b)
        whole = len(volumes)
        filled = float(np.sum(volumes))
        if last and available - filled > 0.0:
            index, volumes, points, velocities = emitter.parcels(emitter.released, whole + 1, a, b)
            volumes[-1] = available - filled
        if len(volumes) == 0:
            emitter.pending = available
            return delivered
        cumulative = np.cumsum(volumes[:whole])
        share = (cumulative - emitter.pending) / delivered if delivered > 0.0 else np.zeros(whole)
        released_at = np.concatenate([a + np.clip(share, 0.0, 1.0) * (b - a),
                                      [b] * (len(volumes) - whole)])
        self._place(emitter, volumes, points, velocities, end - released_at)
        emitter.pending = 0.0 if last else available - filled
        emitter.released = int(index[-1]) + 1
        return delivered

    def _place(self, emitter, volumes, points, velocities, age) -> None:
        """Write the parcels into the droplets, flown for ``age`` (c,) s each."""
        drops = self.droplets
        k, g = drops.drag, drops.gravity
        if k > 0.0:
            phi = -np.expm1(-k * age) / k
            fall, decay = (age - phi) / k, np.exp(-k * age)
        else:
            phi, fall, decay = age, 0.5 * age * age, np.ones_like(age)
        count = len(volumes)
        first = drops.reserve(count)
        positions, previous, speeds, sizes, dyes = (array[first:first + count]
                                                    for array in drops.buffers)
        positions[:] = points + velocities * phi[:, None] + np.outer(fall, g)
        previous[:] = points
        speeds[:] = velocities * decay[:, None] + np.outer(phi, g)
        sizes[:] = volumes
        dyes[:] = 0.0
        if emitter.dye is not None:
            dyes[:, emitter.dye] = 1.0

    # ---- state ------------------------------------------------------------------------------

    def state_dict(self) -> dict:
        """The emitters as plain arrays (kinds (e,), numbers (e, 14)), counters included."""
        rows = [[*e.numbers(), *[math.nan] * (9 - len(e.numbers())), e.start, e.stop,
                 -1 if e.dye is None else e.dye, e.pending, e.released] for e in self.items]
        return {"emitter_kinds": np.array([e.kind for e in self.items], dtype="U6"),
                "emitter_numbers": np.array(rows, dtype=np.float64).reshape(-1, EMITTER_NUMBERS)}

    def load_state_dict(self, data: dict, grid) -> None:
        """Continue the emitters of ``data``: the ones already here (same kinds, in order: a
        scene's, or re-added with their rate functions) take its counters; else they are
        rebuilt from it."""
        if "emitter_kinds" not in data:
            return
        kinds = [str(k) for k in data["emitter_kinds"]]
        numbers = np.asarray(data["emitter_numbers"], dtype=np.float64).reshape(-1, EMITTER_NUMBERS)
        if kinds != [e.kind for e in self.items]:
            self.items = []
            for kind, row in zip(kinds, numbers):
                self.add(emitter_from_numbers(kind, row), grid)
        for emitter, row in zip(self.items, numbers):
            emitter.pending, emitter.released = float(row[12]), int(row[13])


def first_path_length(droplets) -> float:
    """The length (m) of a nozzle's first path: the diagonal of the droplets' bounds."""
    low, high = droplets.bounds
    return float(np.linalg.norm(high - low))


def whole_parcels(emitter, available: float, a: float, b: float):
    """The emitter's next parcels that ``available`` m^3 fills completely: drawn twice as many
    as their mean volume says (and two more), so that one draw nearly always holds them. A
    nozzle's parcels are all alike: none when ``available`` is less than one (most steps)."""
    mean = emitter.mean_parcel_volume(a, b)
    if emitter.kind == "nozzle" and available < mean:
        return np.empty(0, dtype=np.int64), np.empty(0), np.empty((0, 3)), np.empty((0, 3))
    count = 2 * int(available / mean) + 2
    while True:
        index, volumes, points, velocities = emitter.parcels(emitter.released, count, a, b)
        whole = int(np.searchsorted(np.cumsum(volumes), available, side="right"))
        if whole < count:
            return index[:whole], volumes[:whole], points[:whole], velocities[:whole]
        count *= 2


def emitter_from_numbers(kind: str, row: np.ndarray):
    """An emitter rebuilt from its state-dict row (constant rates only)."""
    start, stop, dye = row[9], row[10], None if row[11] < 0 else int(row[11])
    if kind == "rain":
        return Rain(region=(row[0:3], row[3:6]), intensity=row[6], start=start, stop=stop, dye=dye)
    if math.isnan(row[8]):
        raise ParameterError("the state holds a nozzle whose rate is a function, which a state "
                             "dict cannot store; add the same Nozzle (sim.add_emitter) before "
                             "load_state_dict")
    nozzle = Nozzle(position=row[0:3], direction=row[3:6], speed=row[6], radius=row[7],
                    rate=row[8], start=start, stop=stop, dye=dye)
    nozzle.direction = row[3:6].copy()  # unit already: normalising again may move its last bits
    return nozzle


def check_nozzle_outside(nozzle: Nozzle, grid, reach: float) -> None:
    """ParameterError if the nozzle's first path (``reach`` m along its direction) first meets
    the surface (``grid``, a TriangleGrid) from behind: it sits inside the mesh or under it."""
    end = nozzle.position + reach * nozzle.direction
    hit, weights = np.full(1, -1, dtype=np.int64), np.zeros((1, 3))
    grid.first_hits(nozzle.position[None, :], end[None, :], hit, weights)
    if hit[0] < 0:
        return
    a, b, c = grid.vertices[grid.faces[hit[0]]]
    if np.cross(b - a, c - a) @ nozzle.direction > 0.0:
        point = weights[0] @ np.stack([a, b, c])
        raise ParameterError(
            f"Nozzle position={tuple(round(float(x), 6) for x in nozzle.position)} is inside the "
            f"mesh or under its surface: its stream, pointing along "
            f"direction={tuple(round(float(x), 6) for x in nozzle.direction)}, meets the surface "
            f"from behind at ({', '.join(f'{x:.4g}' for x in point)}); move the nozzle outside the "
            "object, above the surface it should pour on")
