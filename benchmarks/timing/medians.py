"""What the timing scripts share: medians of repeated runs, the per-mesh command line, and the
timers put on the step's stages."""

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


def time_stages(sim, stages) -> dict[str, float]:
    """Wrap the methods of ``sim`` named in ``stages`` with timers; returns {stage: seconds} they
    add to. The one place the timing scripts reach into ``Simulation``: its stage methods are
    private (these names are today's), so a stage the step no longer has is left out of the
    returned dict rather than failing the whole benchmark."""
    spent = {}
    for stage in stages:
        method = getattr(sim, stage, None)
        if method is None:
            continue
        spent[stage] = 0.0

        def timed(*args, _method=method, _stage=stage):
            start = time.perf_counter()
            result = _method(*args)
            spent[_stage] += time.perf_counter() - start
            return result
        setattr(sim, stage, timed)
    return spent
