"""No single sliver sets the pace (issue 21): steps a run with surface tension takes when the
time step's length is the dual cell's size, against what the shortest ring edge gave.

Cases:
  sphere        a 1 mm high water drop on a 1 cm icosphere (642 vertices), 0.1 s; clean, with one
                cap sliver (a vertex pushed onto the opposite edge, the face 1e-4 edges high) and
                with one short edge (an edge split 1e-4 of its length from an end)
  terrain       a 1 cm square terrain triangulated (Delaunay) from 2,000 random points, gently
                rolling (0.3 mm), with a 0.4 mm high drop of 3 mm radius, 0.14 s; and the same
                on a regular 45 x 45 grid
Printed per case: vertices, the shortest edge, the smallest dual cell size, the steps taken, and
the first step's dt with the dual cell's size (now) and with the shortest ring edge (before),
with the steps that the latter projects for the run (duration / dt, a lower bound).
Run: python benchmarks/timing/sliver_pace.py

Internals: the two time-step kernels (``kernels/timestep.py``, ``kernels/tension.py``), to price
the rule before on the same state; the spoilt spheres come from ``tests/test_sliver_pace.py``.
"""

import math
import sys
import time
from pathlib import Path

import numpy as np
from scipy.spatial import Delaunay

import surfflow as sf
from surfflow.kernels.timestep import cfl_time_step

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))
from test_sliver_pace import (RADIUS, drop_run, sphere_with_cap_sliver,  # noqa: E402
                              sphere_with_short_edge)

from surfflow.io.procedural import icosphere, plane  # noqa: E402


def terrain(n_points=2000, size=0.01, seed=1):
    """(V, F): a size x size square from random points, z = 0.3 mm rolling hills."""
    xy = np.random.default_rng(seed).uniform(0.0, size, (n_points, 2))
    return hills(xy, Delaunay(xy).simplices.astype(np.int64), size)


def grid_terrain(n=44, size=0.01):
    """(V, F): the same hills on a regular grid of (n + 1)^2 vertices, for comparison."""
    V, F = plane((size, size), (n, n))
    return hills(V[:, :2] + 0.5 * size, F, size)


def hills(xy, F, size):
    z = 3e-4 * np.sin(2 * np.pi * xy[:, 0] / size) * np.cos(np.pi * xy[:, 1] / size)
    return np.column_stack([xy, z]), F


def terrain_drop(mesh):
    """A simulation with a drop on the terrain's middle (set up, not run)."""
    geom = sf.precompute(mesh, feature_size=0)
    params = sf.Params(gravity=(0.0, 0.0, -9.81), surface_tension=0.072, contact_angle=60.0,
                       friction_model="laminar")
    sim = sf.Simulation(geom, params)
    distance = np.linalg.norm(geom.vertices[:, :2] - 0.005, axis=1)
    sim.set_depth(np.maximum(0.0, 4e-4 * (1.0 - (distance / 0.003) ** 2)))
    return sim


def shortest_edge_dt(sim):
    """The next step's dt with the shortest ring edge as the length (the rule before)."""
    geom, p, state = sim.geometry, sim.params, sim.state
    lengths = np.linalg.norm(geom.neighbor_coords, axis=1)
    shortest = np.minimum.reduceat(lengths, geom.neighbor_offsets[:-1])
    flow, _, capillary, _ = cfl_time_step(state.depth, state.velocity, shortest,
                                          p.gravity_magnitude, p.min_depth, p.cfl,
                                          *sim.term("tension").capillary_limit())
    return min(p.max_dt, flow, capillary)


def report(name, initial, steps, duration, seconds):
    """One line; ``initial``: the case's simulation before its first step (it takes it)."""
    lengths = np.linalg.norm(initial.geometry.neighbor_coords, axis=1)
    before = shortest_edge_dt(initial)
    now = initial.step()
    print(f"{name:22s} {initial.geometry.n_vertices:6d} {lengths.min():10.2e} "
          f"{initial.fields.ring_spacing.min():10.2e} {steps:8d} {now:10.2e} {before:10.2e} "
          f"{math.ceil(duration / before):10d} {seconds:7.1f}", flush=True)


def main():
    print(f"{'case':22s} {'verts':>6s} {'shortest':>10s} {'min cell':>10s} {'steps':>8s} "
          f"{'dt now':>10s} {'dt before':>10s} {'steps bef.':>10s} {'wall s':>7s}")
    for name, mesh in (("sphere, clean", icosphere(3, RADIUS)),
                       ("sphere, cap sliver", sphere_with_cap_sliver()),
                       ("sphere, short edge", sphere_with_short_edge())):
        start = time.perf_counter()
        steps = drop_run(mesh)[0]
        seconds = time.perf_counter() - start
        report(name, drop_run(mesh, duration=0.0)[1], steps, 0.1, seconds)
    for name, mesh in (("terrain 1 cm, grid", grid_terrain()),
                       ("terrain 1 cm, random", terrain())):
        sim = terrain_drop(mesh)
        start = time.perf_counter()
        sim.advance(0.14)
        report(name, terrain_drop(mesh), int(sim.state.step_count), 0.14,
               time.perf_counter() - start)


if __name__ == "__main__":
    main()
