"""What a user reads off a run, as numbers that two machines can compare within a tolerance.

A regression reference holds an example's whole state after a fixed number of steps. On the
machine that made it the state must come back bit for bit. Another processor does not give the
same bits: numpy picks the SIMD kernels of exp, log, cbrt, power and arccos at run time (the
AVX-512 ones differ from the AVX2 and baseline ones in the last bit), and one ulp in a smoothed
vertex or a drop's flight changes when things happen, hence every later dt. So across machines
the references compare these summaries instead, each with a scale it is measured against:

* the clock: ``time`` (scale: itself);
* the ledger: every ``ledger_*`` volume (scale: the run's volume, the largest entry);
* the film: its volume, wet area (the vertices at least ``min_depth`` deep; scale: the
  surface's area), mean and largest depth (scale: the
  largest depth), the liquid's centroid (scale: the mesh's diameter), its kinetic energy per
  density sum A d |u|^2 / 2 and largest speed (scale: themselves), every dye's volume and the
  soluble layer's (scale: the run's volume);
* ripples: the surface's displaced volume and sum A z^2 (scale: their own size), its largest
  height;
* floating bodies: every number of their state (scale: the mesh's diameter for positions, 1 for
  the quaternion, the body's own speed for velocities).

``summarize(sim)`` returns ``{name: (value, scale)}``; two runs agree when
``|a - b| <= tolerance * scale`` for every name.
"""

from __future__ import annotations

import numpy as np


def summarize(sim) -> dict[str, tuple[float, float]]:
    """``{name: (value, scale)}`` of a Simulation's or Ripples' current state (module docstring)."""
    state = sim.state_dict()
    geom = sim.geometry
    area = geom.dual_areas
    diameter = float(np.linalg.norm(np.ptp(geom.vertices, axis=0)))
    ledger = {k: float(v) for k, v in state.items() if k.startswith("ledger_")}
    volume_scale = max([abs(v) for v in ledger.values()] + [np.finfo(float).tiny])
    out = {"time": _own(float(state["time"]))}
    out.update({k: (v, volume_scale) for k, v in ledger.items()})
    if "depth" in state:
        out.update(_film(state, area, geom.vertices, diameter, volume_scale,
                         sim.params.min_depth))
    if "ripple_height" in state:
        height = np.asarray(state["ripple_height"])
        out["ripple_volume"] = _own(float(area @ height))
        out["ripple_energy"] = _own(float(area @ height**2))
        out["ripple_max_height"] = _own(float(np.abs(height).max()))
    if "body_state" in state:
        out.update(_bodies(np.asarray(state["body_state"]), diameter))
    return out


def _own(value: float) -> tuple[float, float]:
    """A quantity measured against its own size (a tiny floor keeps zero comparable)."""
    return value, max(abs(value), np.finfo(float).tiny)


def _film(state, area, vertices, diameter, volume_scale, min_depth) -> dict:
    depth = np.asarray(state["depth"])
    speed2 = np.einsum("ij,ij->i", state["velocity"], state["velocity"])
    wet = depth >= min_depth  # the model's wet: a residue of round-off (1e-20 m) is not
    volume = float(area @ depth)
    weight = area * depth / volume if volume > 0.0 else np.zeros_like(depth)
    largest = float(depth.max())
    out = {
        "film_volume": (volume, volume_scale),
        "wet_area": (float(area[wet].sum()), float(area.sum())),
        "mean_depth": (volume / max(float(area[wet].sum()), np.finfo(float).tiny), largest),
        "max_depth": _own(largest),
        "kinetic_energy": _own(float(0.5 * (area * depth) @ speed2)),
        "max_speed": _own(float(np.sqrt(speed2.max()))),
        "soluble_layer": (float(area @ np.asarray(state["soluble_layer"])), volume_scale),
    }
    for axis, value in zip("xyz", weight @ vertices):
        out[f"centroid_{axis}"] = (float(value), diameter)
    dye = np.asarray(state["dye"])
    for k in range(dye.shape[1]):
        out[f"dye_{k}_volume"] = (float((area * depth) @ dye[:, k]), volume_scale)
    return out


def _bodies(body_state: np.ndarray, diameter: float) -> dict:
    """Position (3), quaternion (4), velocity (3) and angular velocity (3) of each body."""
    out = {}
    for b, row in enumerate(body_state):
        speed = max(float(np.linalg.norm(row[7:10])), np.finfo(float).tiny)
        spin = max(float(np.linalg.norm(row[10:13])), np.finfo(float).tiny)
        scales = [diameter] * 3 + [1.0] * 4 + [speed] * 3 + [spin] * 3
        out.update({f"body_{b}_{i}": (float(v), s) for i, (v, s) in enumerate(zip(row, scales))})
    return out
