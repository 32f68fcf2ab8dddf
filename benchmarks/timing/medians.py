"""What the benchmark scripts share: medians of repeated runs and the per-mesh command line."""

import argparse
import statistics
import time

import numba


def median_seconds(action, repeats: int) -> tuple[float, float]:
    """Median wall and CPU seconds of ``action()`` over ``repeats`` runs, after a warm-up run."""
    action()
    wall, cpu = [], []
    for _ in range(repeats):
        wall_start, cpu_start = time.perf_counter(), time.process_time()
        action()
        wall.append(time.perf_counter() - wall_start)
        cpu.append(time.process_time() - cpu_start)
    return statistics.median(wall), statistics.median(cpu)


def median_ms(action, repeats: int) -> float:
    """Median wall milliseconds of ``action()`` over ``repeats`` runs, after a warm-up run."""
    return 1e3 * median_seconds(action, repeats)[0]


def run_for_meshes(description: str, default_meshes: str, benchmark) -> None:
    """Parse --steps, --repeats and --meshes, then call ``benchmark(name, steps, repeats)``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--meshes", default=default_meshes)
    args = parser.parse_args()
    print(f"numba threads: {numba.get_num_threads()}")
    for name in args.meshes.split(","):
        benchmark(name, args.steps, args.repeats)
