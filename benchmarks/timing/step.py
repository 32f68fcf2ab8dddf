"""Milliseconds per step and vertex-steps per second of the runtime, with a per-stage breakdown.

Meshes: the Stanford bunny, a 41k-vertex icosphere and a 205k-vertex torus; liquid covers about
half of each surface (the upper half for gravity -y), a pour and rain run, linear friction with
the precomputed anisotropy, a sponge on a tenth of the vertices, numba's default thread count.
Each mesh runs with both momentum schemes (``Params(scheme=...)``), then the default one with two
dyes; simulated seconds per wall second use the mean time step of the timed steps.

    python benchmarks/timing/step.py [--steps 20] [--repeats 5] [--meshes bunny,ico41k]

Public API only, except the per-stage breakdown, which times the step's private stage methods
(``medians.time_stages``: there is no public hook inside a step).
"""

import os
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
import trimesh
from medians import run_for_meshes, time_stages

import surfflow as sf

def load(name):
    """The geometry of a benchmark mesh (smoothed, so the friction anisotropy is not trivial)."""
    if name == "bunny":
        mesh = sf.load_mesh(Path(__file__).resolve().parents[2] / "meshes" / "bunny.obj")
    elif name == "ico41k":
        mesh = trimesh.creation.icosphere(6)
    else:
        mesh = trimesh.creation.torus(1.0, 0.3, major_sections=640, minor_sections=320)
    cache = os.path.join(tempfile.gettempdir(), "surfflow-benchmarks")
    return sf.precompute(mesh, smoothing_iterations=10, cache_dir=cache)


def half_wet_simulation(geom, scheme="momentum", n_dyes=0):
    """Liquid 0.5 % of the mesh size deep on the upper half, a pour, rain on a band, a sponge;
    with dyes, stripes of dye across the liquid and the pour coloured by the first."""
    x = geom.vertices
    size = float(np.linalg.norm(x.max(0) - x.min(0)))
    sim = sf.Simulation(geom, sf.Params(gravity=(0.0, -9.81, 0.0), friction=1.3, scheme=scheme),
                        n_dyes=n_dyes)
    upper = x[:, 1] > np.median(x[:, 1])
    sim.set_depth(np.where(upper, 0.005 * size, 0.0))
    top = x[np.argmax(x[:, 1])]
    sim.add_source(top, 0.05 * size, 1e-3 * size ** 3, dye=0 if n_dyes else None)
    if n_dyes:
        sim.set_dye((np.sin(np.arange(1, n_dyes + 1) * 20.0 * x[:, :1] / size) > 0.0) * 1.0)
    sim.add_rain(1e-4 * size, mask=np.abs(x[:, 0] - x[:, 0].mean()) < 0.1 * size)
    sim.set_damping(np.where(x[:, 1] < np.quantile(x[:, 1], 0.1), 5.0, 0.0))
    return sim


def benchmark(name, steps, repeats):
    geom = load(name)
    for scheme, n_dyes in (("momentum", 0), ("conservative", 0), ("momentum", 2)):
        benchmark_scheme(name, geom, scheme, steps, repeats, n_dyes)


def benchmark_scheme(name, geom, scheme, steps, repeats, n_dyes=0):
    sim = half_wet_simulation(geom, scheme, n_dyes)
    for _ in range(3):
        sim.step()
    runs = []
    simulated = sim.time
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(steps):
            sim.step()
        runs.append((time.perf_counter() - start) / steps)
    mean_dt = (sim.time - simulated) / (repeats * steps)
    spent = time_stages(sim)
    for _ in range(steps):
        sim.step()
    per_step = statistics.median(runs)
    n = geom.n_vertices
    label = scheme + (f" + {n_dyes} dyes" if n_dyes else "")
    print(f"{name:7s} {label:24s} {n:7d} vertices  {1e3 * per_step:8.2f} ms/step (median of "
          f"{repeats} x {steps}, min {1e3 * min(runs):.2f})  {n / per_step:10.3e} vertex-steps/s  "
          f"{mean_dt / per_step:6.3f} simulated s per wall s")
    total = sum(spent.values()) or 1.0
    for stage, seconds in sorted(spent.items(), key=lambda item: -item[1]):
        if not seconds:
            continue  # a stage no term of this simulation acts in (move, exchange)
        print(f"    {stage:20s} {1e3 * seconds / steps:7.3f} ms  {100 * seconds / total:5.1f} %")


if __name__ == "__main__":
    run_for_meshes(__doc__.splitlines()[0], "bunny,ico41k,torus205k", benchmark)
