"""Ripple mode cost: ms per step and vertex-steps per second at 40k and 1M vertices, against the
full shallow-water model on the same ponds (how much cheaper per vertex, and per simulated
second). Also the one-time costs: precompute, and building the Ripples (the cotangent weights and
lambda_max by Lanczos).

    python benchmarks/ripples.py                    # 40k and 1M
    python benchmarks/ripples.py --sizes 200 --steps 50 --repeats 5

A pond of side 10 m and depth H = 0.1 m: ripples with c = sqrt(g H), the full model (default
scheme and params, surface tension off) with the same still water plus the same 2 mm dent. The
two alternate, ``--repeats`` blocks of ``--steps`` steps each after a warm-up block, and the
medians are printed (the machine is shared: alternating puts both under the same load).
"""

import argparse
import math
import statistics
import time

import numba
import numpy as np

import surfflow as sf
from surfflow.io.procedural import plane

SIDE, DEPTH, GRAVITY = 10.0, 0.1, 9.81


def seconds(action) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def models(geom):
    """(ripples, seconds to build them, the full model's Simulation), both with the dent."""
    ripples = None

    def build():
        nonlocal ripples
        ripples = sf.Ripples(geom, wave_speed=math.sqrt(GRAVITY * DEPTH), damping=0.1)
    build_seconds = seconds(build)
    ripples.drop((0.0, 0.0, 0.0), 0.3, 0.002)
    sim = sf.Simulation(geom, sf.Params(gravity=(0.0, 0.0, -GRAVITY), surface_tension=0.0))
    sim.set_depth(DEPTH - 0.002 * np.exp(-np.sum(geom.vertices ** 2, axis=1) / 0.3 ** 2))
    return ripples, build_seconds, sim


def alternating_ms(ripples, sim, steps: int, repeats: int):
    """Median ms per step of ripples and of the full model, timed in alternating blocks, and
    the full model's median dt (s)."""
    dts, ripple_ms, full_ms = [], [], []
    for block in range(repeats + 1):  # block 0 warms up (compiles)
        r = seconds(lambda: [ripples.step() for _ in range(steps)])
        f = seconds(lambda: dts.extend(sim.step() for _ in range(steps)))
        if block:
            ripple_ms.append(1e3 * r / steps)
            full_ms.append(1e3 * f / steps)
    return statistics.median(ripple_ms), statistics.median(full_ms), float(np.median(dts))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="200,1000", help="cells per side (200: 40k, 1000: 1M)")
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(f"numba threads: {numba.get_num_threads()}")
    print(f"{'':>10} {'vertices':>9} {'ms/step':>8} {'Mvertex-steps/s':>15} {'dt ms':>6} "
          f"{'wall s per sim s':>16}")
    for cells in (int(c) for c in args.sizes.split(",")):
        start = time.perf_counter()
        geom = sf.precompute(plane((SIDE, SIDE), (cells, cells)), feature_size=0)
        precompute_seconds = time.perf_counter() - start
        ripples, build_seconds, sim = models(geom)
        n, dt = geom.n_vertices, ripples.cfl * ripples.max_time_step
        ripple_ms, full_ms, full_dt = alternating_ms(ripples, sim, args.steps, args.repeats)
        for name, ms, step in (("ripples", ripple_ms, dt), ("full model", full_ms, full_dt)):
            print(f"{name:>10} {n:>9} {ms:>8.3f} {n / ms * 1e-3:>15.1f} {step * 1e3:>6.2f} "
                  f"{ms / step * 1e-3:>16.3f}")
        print(f"{'':>10} ripples are {full_ms / ripple_ms:.1f}x cheaper per vertex-step and "
              f"{(full_ms / full_dt) / (ripple_ms / dt):.1f}x per simulated second; one-time: "
              f"precompute {precompute_seconds:.2f} s, Ripples {build_seconds:.2f} s")


if __name__ == "__main__":
    main()
