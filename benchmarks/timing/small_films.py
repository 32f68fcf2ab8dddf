"""Milliseconds per step of small films: the step on one thread below ``SERIAL_BELOW`` moving
vertices (as shipped) against every loop on numba's threads, alternated in one run.

Meshes: strips 10 m long of 5 vertices across (130 to 2,005 vertices), a lake 2 cm deep over the
whole strip or over its first eighth (a puddle: the active set is the puddle), the momentum
scheme, droplets on. Each line prints the active set's moving vertices when the timing starts
and when it ends (a puddle spreads as it runs), and the medians of ``--repeats`` alternated
pairs of ``--steps`` steps, as shipped (one thread below
``SERIAL_BELOW`` moving vertices, numba's threads above) and on all threads, and their ratio
(below 1: the shipped switch is faster).

    python benchmarks/timing/small_films.py [--steps 200] [--repeats 5] [--threads 2]

Reaches past the public API in one place: the "all threads" runs replace the step's
``surfflow.simulation.serial_when_small`` with a context that changes nothing (the switch has
no public setting); the droplets keep theirs.
"""

import argparse
import contextlib
import statistics
import sys
import time
from pathlib import Path

import numba

import surfflow as sf
import surfflow.simulation as simulation
from surfflow.kernels.tuning import SERIAL_BELOW

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))
from validation_harness import still_lake  # noqa: E402

SHIPPED = simulation.serial_when_small


def lake(n_along: int, wet_share: float) -> sf.Simulation:
    """A still lake 2 cm deep over the first ``wet_share`` of a flat 10 m strip
    (``validation_harness.still_lake``)."""
    return still_lake(n_along, 10.0 * wet_share)[0]


def all_threads(count: int):
    """The step's switch turned off: every loop on numba's threads."""
    return contextlib.nullcontext()


def time_steps(sim: sf.Simulation, steps: int, switch) -> float:
    """Seconds per step over ``steps`` steps with the step's thread ``switch``."""
    simulation.serial_when_small = switch
    try:
        start = time.perf_counter()
        for _ in range(steps):
            sim.step()
        return (time.perf_counter() - start) / steps
    finally:
        simulation.serial_when_small = SHIPPED


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--threads", type=int, default=numba.config.NUMBA_NUM_THREADS)
    args = parser.parse_args()
    numba.set_num_threads(args.threads)
    print(f"SERIAL_BELOW = {SERIAL_BELOW}, numba threads = {args.threads}")
    print(f"{'film':28s} {'moving':>11s} {'shipped':>11s} {'all threads':>12s} {'ratio':>6s}")
    for n_along in (25, 100, 150, 200, 300, 400):
        for wet_share in (1.0, 0.125):
            sim = lake(n_along, wet_share)
            for _ in range(20):
                sim.step()  # compiled, and the active set built
            first = sim.state.active.moving.size
            shipped, every = [], []
            for _ in range(args.repeats):
                shipped.append(time_steps(sim, args.steps, SHIPPED))
                every.append(time_steps(sim, args.steps, all_threads))
            shipped_ms, every_ms = 1e3 * statistics.median(shipped), 1e3 * statistics.median(every)
            film = f"{sim.geometry.n_vertices} vertices, {wet_share:.3g} wet"
            moving = f"{first}-{sim.state.active.moving.size}"
            print(f"{film:28s} {moving:>11s} {shipped_ms:8.3f} ms "
                  f"{every_ms:9.3f} ms {shipped_ms / every_ms:6.2f}")


if __name__ == "__main__":
    main()
