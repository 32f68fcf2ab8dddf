"""The dyes' validation rows (VALIDATION.md, issue 20): a bell and a sharp stripe carried 49
cells by a uniform current on an irregular strip, with known answers (the initial patterns,
moved). Shared by tests/test_tracers.py and benchmarks/validation/report.py.

The strip is 10 m x 1 m, ``n_along`` cells along and a tenth across (jittered triangles), with a
0.1 m layer moving at 0.5 m/s along x, no gravity, no friction, at the scheme's own time step.
"""

from __future__ import annotations

import numpy as np

import builders
import surfflow as sf
from validation_harness import InvariantMonitor

SPEED = 0.5  # m/s
TRAVEL_CELLS = 49
BELL_CELLS = 5.0  # the radius of VALIDATION.md's "5-cell cosine bell" (its half-maximum width too)
START_CELLS = 25  # the bell's centre and the stripe's trailing edge, from x = 0
STRIPE_CELLS = 10  # the stripe's width


def cosine_bell(r):
    """c = (1 + cos(pi r)) / 2 for r < 1, else 0: Williamson et al.'s bell, r the distance from
    its centre over its radius."""
    return np.where(r < 1.0, 0.5 * (1.0 + np.cos(np.pi * r)), 0.0)


def carry_patterns(n_along: int = 100, scheme: str | None = None, seed: int = 7,
                   bell_cells: float = BELL_CELLS, scale: float = 1.0):
    """Carry a cosine bell (radius ``bell_cells`` cells, in the middle of the strip) and a stripe
    (1 on ``STRIPE_CELLS`` cells along x, 0 elsewhere) ``TRAVEL_CELLS`` cells downstream.
    ``scale`` s: every length (the strip, the layer, ``min_depth``) times s and every time (the
    run, ``max_dt``) times sqrt(s), the same carriage (tests/test_similarity.py).
    Returns (geom, dyes (n, 2) after, their exact values moved, cell length, invariants
    monitor, dye volumes before and after); geom and the cell length at scale s."""
    cell = 10.0 / n_along
    V, F = builders.strip(10.0, 1.0, n_along, n_along // 10, seed=seed)
    geom = sf.precompute((scale * V, F), smoothing_iterations=0)
    options = {} if scheme is None else {"scheme": scheme}
    clock = np.sqrt(scale)
    sim = sf.Simulation(geom, sf.Params(gravity=(0.0, 0.0, 0.0), friction=0.0, boundary="wall",
                                        max_dt=0.1 * clock, min_depth=1e-6 * scale, **options),
                        n_dyes=2)
    x, y = geom.vertices[:, 0] / scale, geom.vertices[:, 1] / scale

    def patterns(shift):
        start = (START_CELLS + shift) * cell
        bell = cosine_bell(np.hypot(x - start, y - 0.5) / (bell_cells * cell))
        stripe = ((x > start) & (x < start + STRIPE_CELLS * cell)).astype(float)
        return np.stack([bell, stripe], axis=1)

    sim.set_depth(np.full(geom.n_vertices, 0.1 * scale))
    sim.set_velocity(np.tile([SPEED * clock, 0.0, 0.0], (geom.n_vertices, 1)))
    sim.set_dye(patterns(0))
    monitor = InvariantMonitor(sim)
    before = geom.dual_areas @ (sim.depth[:, None] * sim.dye)
    sim.advance(TRAVEL_CELLS * cell / SPEED * clock)
    monitor.check()
    after = geom.dual_areas @ (sim.depth[:, None] * sim.dye)
    return geom, sim.dye, patterns(TRAVEL_CELLS), scale * cell, monitor, before, after


def edge_cells(x, c, rising_at: float, cell: float, band) -> float:
    """10-90 % width, in cells, of the edge of c near x = ``rising_at`` (c falls from 1 to 0
    with x there if it is the stripe's leading edge, rises if its trailing one): the
    vertices of ``band`` averaged in bins one cell long, the 10 % and 90 % levels found by
    linear interpolation between bins, walking from the stripe's inside outwards."""
    bins = np.floor((x[band] - rising_at) / cell + 0.5).astype(int)
    keys = np.arange(-STRIPE_CELLS // 2, STRIPE_CELLS // 2 + 1)
    centres = np.array([x[band][bins == k].mean() for k in keys])
    means = np.array([c[band][bins == k].mean() for k in keys])
    inside_first = means[0] < means[-1]  # a trailing edge: the stripe is at larger x
    if inside_first:
        centres, means = centres[::-1], means[::-1]

    def crossing(level):
        k = int(np.argmax(means < level))  # the first bin below the level, from the inside
        return np.interp(level, [means[k], means[k - 1]], [centres[k], centres[k - 1]])

    return float(abs(crossing(0.1) - crossing(0.9)) / cell)


def run_dye_bell(n_along: int = 100, scheme: str | None = None,
                 bell_cells: float = BELL_CELLS) -> dict:
    """The bell's row: peak_ratio (its numerical peak over the exact one on the mesh), target
    >= 0.95; shape_error, the relative L1 error sum A |c - c_exact| / sum A c_exact over the
    vertices (VALIDATION.md's metric, area-weighted), target <= 0.05; dye_drift (relative
    change of its volume sum A d c) and the invariants."""
    geom, dyes, exact, _, monitor, before, after = carry_patterns(n_along, scheme,
                                                                  bell_cells=bell_cells)
    area = geom.dual_areas
    return {"n_vertices": geom.n_vertices, "peak_ratio": float(dyes[:, 0].max() / exact[:, 0].max()),
            "shape_error": float(area @ np.abs(dyes[:, 0] - exact[:, 0]) / (area @ exact[:, 0])),
            "dye_drift": float(abs(after[0] / before[0] - 1.0)), "c_min": float(dyes.min()),
            "c_max": float(dyes.max()), **monitor.figures()}


def run_dye_stripe(n_along: int = 100, scheme: str | None = None) -> dict:
    """The stripe's row: edge_cells, the wider of its two edges' 10-90 % widths in cells
    (middle three fifths of the strip's width), target <= 4; dye_drift and the invariants."""
    geom, dyes, _, cell, monitor, before, after = carry_patterns(n_along, scheme)
    x, y = geom.vertices[:, 0], geom.vertices[:, 1]
    band = (y > 0.2) & (y < 0.8)
    trailing = (START_CELLS + TRAVEL_CELLS) * cell
    edges = [edge_cells(x, dyes[:, 1], at, cell, band)
             for at in (trailing, trailing + STRIPE_CELLS * cell)]
    return {"n_vertices": geom.n_vertices, "edge_cells": max(edges),
            "dye_drift": float(abs(after[1] / before[1] - 1.0)), "c_min": float(dyes.min()),
            "c_max": float(dyes.max()), **monitor.figures()}
