"""Source definitions: pour, rain and sink, their footprints on the mesh and their booking.

A source is active on the time interval [start, stop). Over a step [t, t + dt] it delivers its
rate times the overlap of the two intervals, so the booked volume is exact even when a source
starts or stops inside a step.

* pour (``rate`` m^3/s): spread uniformly per area over the vertices within ``radius`` of
  ``center`` (the nearest vertex if none is that close): depth rate rate / A_disc on each.
* rain (``rate`` m/s of depth per area): on every vertex, or those of a boolean mask.
* sink (``rate`` m^3/s): like pour but taking liquid away, never more than is there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .checks import check_choice, check_range, check_vector3
from .errors import ParameterError
from .kernels.sources import add_footprint

SOURCE_KINDS = ("pour", "rain", "sink")


@dataclass(eq=False)
class Source:
    """One pour, rain or sink; returned by ``Simulation.add_source`` and friends as a handle.

    Users get one from :meth:`Simulation.add_source`, :meth:`~Simulation.add_rain` or
    :meth:`~Simulation.add_sink` and pass it to :meth:`~Simulation.remove_source`; the fields
    below say what it does.

    Parameters
    ----------
    kind : {"pour", "rain", "sink"}
        what it is. Poured liquid and rain arrive at rest on the surface (mass without momentum:
        the film's d u is kept, ``kernels/sources.py``); a sink takes liquid at its speed.
    rate : float >= 0, m^3/s (pour, sink) or m/s (rain)
        how much it delivers or removes.
    start, stop : float, s
        the active interval.
    dye : int or None
        index of the dye it pours, or None.
    center : (3,) floats or None, m
        the centre of the disc (pour, sink).
    radius : float, m
        the radius of the disc (pour, sink).
    mask : (n,) bool array or None
        the vertices rain falls on (None: all).
    vertices : (k,) int64 array
        the footprint's vertices.
    weights : (k,) float array, 1/m^2
        depth rate per unit ``rate`` on each footprint vertex.
    volume_per_rate : float, m^2 or dimensionless
        m^3/s delivered per unit ``rate`` (1 for pour and sink, the wetted area for rain).

    Examples
    --------
    >>> import trimesh
    >>> import surfflow as sf
    >>> geom = sf.precompute(sf.load_mesh(trimesh.creation.icosphere(2)), feature_size=0)
    >>> sim = sf.Simulation(geom)
    >>> pour = sim.add_source(center=(0.0, 1.0, 0.0), radius=0.3, rate=1e-5, stop=1.0)
    >>> pour.kind, pour.rate
    ('pour', 1e-05)
    >>> sim.remove_source(pour)
    """

    kind: str
    rate: float
    start: float = 0.0
    stop: float = math.inf
    dye: int | None = None
    center: tuple[float, float, float] | None = None
    radius: float = 0.0
    mask: np.ndarray | None = None
    vertices: np.ndarray | None = None
    weights: np.ndarray | None = None
    volume_per_rate: float = 1.0

    def active_fraction(self, time: float, dt: float) -> float:
        """The part of the step [time, time + dt] during which the source runs (0 to 1)."""
        overlap = min(time + dt, self.stop) - max(time, self.start)
        return max(0.0, overlap) / dt if dt > 0.0 else 0.0


def make_source(kind, rate, start, stop, dye, n_dyes, center=None, radius=0.0, mask=None,
                n_vertices=0) -> Source:
    """Check the arguments and build an unplaced :class:`Source` (see ``place_source``)."""
    check_choice("source kind", kind, SOURCE_KINDS)
    check_range(f"{kind} rate", rate, 0.0)
    check_range(f"{kind} start", start, 0.0)
    if not float(stop) > float(start):
        raise ParameterError(f"{kind} stop={stop!r} must be later than start={start!r}")
    if dye is not None and not (0 <= int(dye) < n_dyes):
        raise ParameterError(
            f"{kind} dye={dye!r} is not a dye of this simulation; it has n_dyes={n_dyes} "
            "(pass n_dyes to Simulation to add dyes)")
    if center is not None:
        center = check_vector3(f"{kind} center", center)
        check_range(f"{kind} radius", radius, 0.0)
    if mask is not None:
        mask = np.asarray(mask, dtype=bool)
        if mask.shape != (n_vertices,):
            raise ParameterError(f"rain mask has shape {mask.shape}; it must be ({n_vertices},) booleans")
    return Source(kind, float(rate), float(start), float(stop), None if dye is None else int(dye),
                  center, float(radius), mask)


def place_source(source: Source, vertices: np.ndarray, dual_areas: np.ndarray) -> None:
    """Compute the footprint of ``source`` on the mesh (again after the mesh moved).

    vertices (n, 3) positions, dual_areas (n,).
    """
    if source.kind == "rain":
        where = (np.arange(len(dual_areas)) if source.mask is None else np.flatnonzero(source.mask))
        source.vertices = where.astype(np.int64)
        source.weights = np.ones(len(where))
        source.volume_per_rate = float(np.sum(dual_areas[where]))
        return
    distance = np.linalg.norm(vertices - np.asarray(source.center), axis=1)
    inside = np.flatnonzero(distance <= source.radius)
    if inside.size == 0:
        inside = np.array([np.argmin(distance)])
    source.vertices = inside.astype(np.int64)
    source.weights = np.full(inside.size, 1.0 / float(np.sum(dual_areas[inside])))
    source.volume_per_rate = 1.0


def gather_source_rates(sources, time, dt, inflow_rate, sink_rate, dye_inflow_rate):
    """Fill the per-vertex rates of the step [time, time + dt] from the active sources.

    inflow_rate, sink_rate (n,) and dye_inflow_rate (n, n_dyes) are overwritten (m/s of depth).
    Returns (poured, rained): the volumes (m^3) the pours and the rain deliver in this step.
    """
    inflow_rate.fill(0.0)
    sink_rate.fill(0.0)
    dye_inflow_rate.fill(0.0)
    delivered = {"pour": 0.0, "rain": 0.0, "sink": 0.0}
    for source in sources:
        fraction = source.active_fraction(time, dt)
        if fraction == 0.0 or source.rate == 0.0:
            continue
        rate = source.rate * fraction
        target = sink_rate if source.kind == "sink" else inflow_rate
        add_footprint(source.vertices, source.weights, rate, target)
        if source.dye is not None:
            add_footprint(source.vertices, source.weights, rate, dye_inflow_rate[:, source.dye])
        delivered[source.kind] += rate * source.volume_per_rate * dt
    return delivered["pour"], delivered["rain"]


def sources_to_arrays(sources) -> dict:
    """The sources as plain arrays (for ``state_dict``; readable by ``np.savez``)."""
    n = len(sources)
    return {
        "source_kinds": np.array([s.kind for s in sources], dtype="U4").reshape(n),
        "source_numbers": np.array([[s.rate, s.start, s.stop, -1 if s.dye is None else s.dye,
                                     *(s.center or (math.nan,) * 3), s.radius] for s in sources],
                                   dtype=np.float64).reshape(n, 8),
        "source_mask_offsets": np.cumsum([0] + [0 if s.mask is None else len(s.mask) for s in sources]),
        "source_masks": np.concatenate([s.mask for s in sources if s.mask is not None] or
                                       [np.zeros(0, bool)]),
    }


def sources_from_arrays(arrays: dict, n_dyes: int) -> list[Source]:
    """Inverse of :func:`sources_to_arrays` (the footprints still need ``place_source``)."""
    sources = []
    offsets = arrays["source_mask_offsets"]
    for k, kind in enumerate(arrays["source_kinds"]):
        rate, start, stop, dye, cx, cy, cz, radius = arrays["source_numbers"][k]
        lo, hi = offsets[k], offsets[k + 1]
        mask = arrays["source_masks"][lo:hi] if hi > lo else None
        center = None if math.isnan(cx) else (cx, cy, cz)
        sources.append(make_source(str(kind), rate, start, stop, None if dye < 0 else int(dye),
                                   n_dyes, center, radius, mask, 0 if mask is None else len(mask)))
    return sources


def restore_sources(arrays: dict, n_dyes: int, vertices: np.ndarray,
                    dual_areas: np.ndarray) -> list[Source]:
    """The sources a state dict holds, placed on the mesh (vertices (n, 3), dual_areas (n,))."""
    sources = sources_from_arrays(arrays, n_dyes)
    for source in sources:
        place_source(source, vertices, dual_areas)
    return sources
