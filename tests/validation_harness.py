"""What every validation case needs: a simulation on a test mesh, error norms, and a monitor of
the invariants of VALIDATION.md (volume booked to round-off, depth >= 0, no NaN), all through
surfflow's public API only.
"""

from __future__ import annotations

import numpy as np

import surfflow as sf
from builders import strip

GRAVITY_DOWN = (0.0, 0.0, -9.81)


def make_simulation(V: np.ndarray, F: np.ndarray,
                    **params) -> tuple[sf.Simulation, sf.SurfaceGeometry]:
    """A Simulation with ``sf.Params(**params)`` on the unsmoothed geometry of (V, F) (the mesh as
    given, b = 0), droplets on (the default). The cases' open meshes are channels and basins
    (SWASHES' 1D strips, the bowl), so their edges are walls unless ``boundary`` says otherwise.
    V (n, 3), F (m, 3). Returns (simulation, geometry)."""
    geom = sf.precompute((V, F), smoothing_iterations=0)
    return sf.Simulation(geom, sf.Params(**{"boundary": "wall", **params})), geom


def still_lake(n_along: int, wet_length: float) -> tuple[sf.Simulation, sf.SurfaceGeometry]:
    """A lake 2 cm deep at rest over x < ``wet_length`` (m) of a flat 10 m x 0.4 m strip of
    (n_along + 1) x 5 vertices (``builders.strip``), gravity along its normal, walls all round
    (``make_simulation``). Returns (simulation, geometry)."""
    V, F = strip(10.0, 0.4, n_along, 4)
    sim, geom = make_simulation(V, F, gravity=GRAVITY_DOWN)
    sim.set_depth(np.where(geom.vertices[:, 0] < wet_length, 0.02, 0.0))
    return sim, geom


def relative_l1(numeric: np.ndarray, reference: np.ndarray, weights: np.ndarray) -> float:
    """Area-weighted relative L1 error sum w |num - ref| / sum w |ref| (arrays (n,))."""
    error = np.sum(weights * np.abs(numeric - reference))
    return float(error / np.sum(weights * np.abs(reference)))


def max_speed(sim: sf.Simulation) -> float:
    """Largest |u_i| (m/s) over the vertices."""
    return float(np.linalg.norm(np.asarray(sim.velocity), axis=1).max())


def dyadic(values: np.ndarray, bits: int = 24) -> np.ndarray:
    """``values`` rounded to multiples of 2^-bits, so sums and differences of such numbers below 1
    are exact in float64 (a lake at rest then starts exactly at rest, not to within an ulp)."""
    return np.round(values * 2.0 ** bits) / 2.0 ** bits


class InvariantMonitor:
    """Checks the invariants of every run (VALIDATION.md) each time ``check`` is called.

    volume_drift: the largest |V(t) - V(0) - booked(t)| / V_ref seen, booked(t) the net volume
    the ledger says entered (sources minus sinks, outflow, drips and droplets lost; V counts the
    film and the droplets in flight) and V_ref the larger of V(0) and
    the volume that passed through. min_depth: the smallest depth seen. max_speed: the largest
    |u| seen. finite: no NaN or inf in depth or velocity at any check.
    """

    def __init__(self, sim: sf.Simulation):
        self.sim = sim
        self.initial_volume = held_volume(sim)
        self.initial_booked = booked_net_inflow(sim.ledger())
        self.volume_drift = 0.0
        self.min_depth = float(np.min(sim.depth))
        self.max_speed = max_speed(sim)
        self.finite = True

    def check(self) -> None:
        depth, velocity = np.asarray(self.sim.depth), np.asarray(self.sim.velocity)
        self.finite &= bool(np.isfinite(depth).all() and np.isfinite(velocity).all())
        self.min_depth = min(self.min_depth, float(np.min(depth)))
        self.max_speed = max(self.max_speed, max_speed(self.sim))
        ledger = self.sim.ledger()
        booked = booked_net_inflow(ledger) - self.initial_booked
        scale = max(self.initial_volume, booked_throughput(ledger))
        drift = abs(held_volume(self.sim) - self.initial_volume - booked) / scale
        self.volume_drift = max(self.volume_drift, drift)

    def figures(self) -> dict:
        return {"volume_drift": self.volume_drift, "min_depth": self.min_depth,
                "max_speed": self.max_speed, "finite": self.finite}


def held_volume(sim: sf.Simulation) -> float:
    """The volume (m^3) in the scene: the film's plus the droplets' in flight."""
    return sim.total_volume() + sim.ledger()["airborne"]


def booked_net_inflow(ledger: dict) -> float:
    """Net volume (m^3) the ledger books as having entered: poured, rained and boundary inflow,
    minus sunk, drained out, dripped (without droplets) and lost (droplets past the bounds)."""
    return float(ledger["poured"] + ledger["rained"] + ledger["inflow"] - ledger["sunk"]
                 - ledger["outflow"] - ledger["dripped"] - ledger["lost"])


def booked_throughput(ledger: dict) -> float:
    """Total volume (m^3) that entered plus left through sources, sinks, outflow, drips and
    losses."""
    return float(ledger["poured"] + ledger["rained"] + ledger["inflow"] + ledger["sunk"]
                 + ledger["outflow"] + ledger["dripped"] + ledger["lost"])


def advance_checked(sim: sf.Simulation, duration: float, monitor: InvariantMonitor,
                    chunks: int = 10) -> None:
    """advance() by ``duration`` in ``chunks`` equal pieces, checking invariants after each."""
    for _ in range(chunks):
        sim.advance(duration / chunks)
        monitor.check()


def step_checked(sim: sf.Simulation, steps: int, monitor: InvariantMonitor,
                 every: int = 1000) -> None:
    """step() ``steps`` times, checking invariants every ``every`` steps and at the end."""
    for k in range(1, steps + 1):
        sim.step()
        if k % every == 0 or k == steps:
            monitor.check()


def assert_invariants(figures: dict) -> None:
    """The invariants of every validation run: volume booked to 1e-12 relative, depth >= 0,
    everything finite (``figures`` from ``InvariantMonitor.figures``)."""
    assert figures["finite"], "depth or velocity went non-finite"
    assert figures["min_depth"] >= 0.0, f"negative depth {figures['min_depth']:.3e} m"
    assert figures["volume_drift"] < 1e-12, (
        f"volume drifted by {figures['volume_drift']:.3e} (relative) beyond what the ledger booked")
