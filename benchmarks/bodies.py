"""ms per step with 0, 1, 10 and 100 floating bodies on a 40k-vertex pool (issue 22).

    python benchmarks/bodies.py [--steps 20] [--repeats 3] [--scheme momentum]

A 1 m square pool, 200 x 200 cells (40,401 vertices), 5 cm of still water; the bodies are 4 cm
boxes (density 500 kg/m^3) at their floating draft on a grid over the pool. Each count is timed
over ``--steps`` steps after 5 warm-up steps, the median of ``--repeats`` runs; the time step is
printed too (the bodies' pressure stiffens the waves under them, ``surfflow/bodies/press.py``).
Public API only.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import surfflow as sf

DEPTH = 0.05


def pool():
    """The 40k-vertex pool's geometry (z up)."""
    x, y = np.meshgrid(np.linspace(-0.5, 0.5, 201), np.linspace(-0.5, 0.5, 201), indexing="xy")
    V = np.stack([x.ravel(), y.ravel(), np.zeros(x.size)], axis=1)
    a = (np.arange(200)[None, :] + 201 * np.arange(200)[:, None]).ravel()
    F = np.concatenate([np.stack([a, a + 1, a + 202], 1), np.stack([a, a + 202, a + 201], 1)])
    return sf.precompute(sf.load_mesh((V, F)), feature_size=0)


def run(geom, count: int, steps: int, scheme: str) -> tuple[float, float]:
    """(ms per step, mean dt in ms) with ``count`` bodies."""
    sim = sf.Simulation(geom, sf.Params(gravity=(0.0, 0.0, -9.81), scheme=scheme))
    sim.set_depth(np.full(geom.n_vertices, DEPTH))
    side = int(np.ceil(np.sqrt(count)))
    for k in range(count):
        x, y = (np.array([k % side, k // side]) + 0.5) / side * 0.9 - 0.45
        sim.add_body(sf.RigidBody.box(extents=(0.04, 0.04, 0.04), density=500.0,
                                      position=(x, y, DEPTH)))
    for _ in range(5):
        sim.step()
    start, t0 = time.perf_counter(), sim.time
    for _ in range(steps):
        sim.step()
    return (1e3 * (time.perf_counter() - start) / steps, 1e3 * (sim.time - t0) / steps)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--scheme", default="momentum")
    args = parser.parse_args()
    geom = pool()
    print(f"{geom.n_vertices} vertices, scheme {args.scheme}, median of {args.repeats} runs")
    print("bodies  ms/step  dt (ms)")
    for count in (0, 1, 10, 100):
        runs = [run(geom, count, args.steps, args.scheme) for _ in range(args.repeats)]
        print(f"{count:6d}  {statistics.median(r[0] for r in runs):7.1f}  "
              f"{statistics.median(r[1] for r in runs):7.3f}")


if __name__ == "__main__":
    main()
