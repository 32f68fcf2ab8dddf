"""The floating box's validation row (VALIDATION.md "floating box (Archimedes)"): a box of
density ratio r = 0.2 ... 0.9 settles in a still pool with a draft of r times its height.
Shared by tests/test_bodies.py and benchmarks/validation/report.py.
"""

from __future__ import annotations

import numpy as np
from builders import rectangle
from validation_harness import InvariantMonitor

import surfflow as sf

POOL_DEPTH = 0.06  # m
BOX_HEIGHT = 0.05  # m, the box is 10 x 10 cm across
RATIOS = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)


def pool(scheme="momentum", cells=24, depth=POOL_DEPTH, **params):
    """A 0.4 m square pool (z up) of still water ``depth`` deep, on a jittered grid, walled."""
    V, F = rectangle(-0.2, 0.2, -0.2, 0.2, cells, cells, jitter=0.2)
    geom = sf.precompute(sf.load_mesh((V, F)), feature_size=0)
    sim = sf.Simulation(geom, sf.Params(**{"gravity": (0.0, 0.0, -9.81), "scheme": scheme,
                                           "boundary": "wall", **params}))
    sim.set_depth(np.full(geom.n_vertices, depth))
    return sim


def far_level(sim) -> float:
    """The mean free-surface height away from the body at the centre."""
    far = np.linalg.norm(sim.geometry.vertices[:, :2], axis=1) > 0.15
    return float(np.mean(sim.state.depth[far] + sim.state.bottom[far]))


def settled_box(ratio: float, scheme: str = "momentum", height: float = BOX_HEIGHT):
    """(draft (m) below the far free surface, invariants monitor) of a 10 x 10 x ``height`` cm
    box of density ratio ``ratio`` floating in the pool, settled for 4 s under a sponge (damping
    3 / s on the liquid everywhere: it only hastens the settling, a state at rest feels none)."""
    sim = pool(scheme)
    box = sim.add_body(sf.RigidBody.box(extents=(0.1, 0.1, height), density=1000.0 * ratio,
                                        position=(0.0, 0.0, POOL_DEPTH)))
    sim.set_damping(np.full(sim.geometry.n_vertices, 3.0))
    monitor = InvariantMonitor(sim)
    sim.advance(4.0)
    monitor.check()
    return far_level(sim) - (box.position[2] - 0.5 * height), monitor


def run_floating_box(scheme: str = "momentum", ratios: tuple = RATIOS) -> dict:
    """The row: draft_error, the largest |draft / height - r| over ``ratios`` (target 0.005,
    half a percent of the height), the drafts over the height (drafts) at the ratios (ratios),
    and the invariants, the worst over the runs."""
    drafts, runs = [], []
    for ratio in ratios:
        draft, monitor = settled_box(ratio, scheme)
        drafts.append(float(draft / BOX_HEIGHT))
        runs.append(monitor.figures())
    return {"n_vertices": monitor.sim.geometry.n_vertices, "ratios": list(ratios),
            "drafts": drafts, "draft_error": float(np.max(np.abs(np.subtract(drafts, ratios)))),
            "volume_drift": max(run["volume_drift"] for run in runs),
            "min_depth": min(run["min_depth"] for run in runs),
            "max_speed": max(run["max_speed"] for run in runs),
            "finite": all(run["finite"] for run in runs)}
