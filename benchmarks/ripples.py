"""Ripple mode cost: ms per step and vertex-steps per second at 40k and 1M vertices, against the
full shallow-water model on the same ponds (how much cheaper per vertex, and per simulated
second). Also the one-time costs: precompute, and building the Ripples (the cotangent weights and
lambda_max by Lanczos).

    python benchmarks/ripples.py                    # 40k and 1M
    python benchmarks/ripples.py --sizes 200 --steps 50 --repeats 5

A pond of side 10 m and depth H = 0.1 m: ripples with c = sqrt(g H), the full model (default
scheme and params, surface tension off) with the same still water plus the same 2 mm dent.
Medians over ``--repeats`` runs of ``--steps`` steps each, after a warm-up run.
"""

import argparse
import math
import time

import numba
import numpy as np
from timing.medians import median_ms

import surfflow as sf
from surfflow.io.procedural import plane

SIDE, DEPTH, GRAVITY = 10.0, 0.1, 9.81


def pond(cells: int):
    start = time.perf_counter()
    geom = sf.precompute(plane((SIDE, SIDE), (cells, cells)), feature_size=0)
    return geom, time.perf_counter() - start


def ripple_cost(geom, steps: int, repeats: int):
    start = time.perf_counter()
    ripples = sf.Ripples(geom, wave_speed=math.sqrt(GRAVITY * DEPTH), damping=0.1)
    build = time.perf_counter() - start
    ripples.drop((0.0, 0.0, 0.0), 0.3, 0.002)
    dt = ripples.cfl * ripples.max_time_step
    ms = median_ms(lambda: [ripples.step(dt) for _ in range(steps)], repeats) / steps
    return build, ms, dt


def full_model_cost(geom, steps: int, repeats: int):
    sim = sf.Simulation(geom, sf.Params(gravity=(0.0, 0.0, -GRAVITY), surface_tension=0.0))
    dent = np.exp(-np.sum(geom.vertices ** 2, axis=1) / 0.3 ** 2)
    sim.set_depth(DEPTH - 0.002 * dent)
    steps_dt = []
    ms = median_ms(lambda: steps_dt.extend(sim.step() for _ in range(steps)), repeats) / steps
    return ms, float(np.median(steps_dt))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="200,1000", help="cells per side (200: 40k, 1000: 1M)")
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(f"numba threads: {numba.get_num_threads()}")
    print(f"{'vertices':>9} {'precompute s':>12} {'build s':>8} {'ms/step':>8} {'Mvertex-steps/s':>15}"
          f" {'dt ms':>6} {'wall s per sim s':>16}")
    for cells in (int(c) for c in args.sizes.split(",")):
        geom, precompute_s = pond(cells)
        build, ms, dt = ripple_cost(geom, args.steps, args.repeats)
        n = geom.n_vertices
        print(f"{n:>9} {precompute_s:>12.2f} {build:>8.2f} {ms:>8.3f} {n / ms * 1e-3:>15.1f}"
              f" {dt * 1e3:>6.2f} {ms / dt * 1e-3:>16.3f}")
        full_ms, full_dt = full_model_cost(geom, args.steps, args.repeats)
        print(f"{'full model':>9} {'':>12} {'':>8} {full_ms:>8.3f} {n / full_ms * 1e-3:>15.1f}"
              f" {full_dt * 1e3:>6.2f} {full_ms / full_dt * 1e-3:>16.3f}")
        print(f"ripples are {full_ms / ms:.1f}x cheaper per vertex-step and "
              f"{(full_ms / full_dt) / (ms / dt):.1f}x per simulated second on this pond")


if __name__ == "__main__":
    main()
