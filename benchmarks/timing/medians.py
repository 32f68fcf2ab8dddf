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


# The step's own helpers, timed under these names (the loops over the terms' stages are timed
# by stage name: advect, push, apply_friction, transport, exchange, move, record; the terms' walls,
# accelerations and holds run inside the scheme's push or transport, timed with them).
STEP_HELPERS = {"_stable_time_step": "time_step", "_apply_sources": "sources",
                "_share_friction": "push", "_apply_walls": "walls",
                "_take_geometry": "move"}
TIMED_STAGES = ("move", "advect", "push", "apply_friction", "transport", "exchange", "record")


def time_stages(sim, stages=None) -> dict[str, float]:
    """Wrap the step of ``sim`` with timers; returns {stage: seconds} they add to (only the
    names in ``stages``, if given). The one place the timing scripts reach into
    ``Simulation``: there is no public hook inside a step, so this wraps the bound stage lists
    (``sim._stages``, rebound when terms are added: call it after the last ``add_term``) and the
    step's helpers of ``STEP_HELPERS``."""
    spent = {}

    def timed(stage, method):
        if stages is not None and stage not in stages:
            return method
        spent.setdefault(stage, 0.0)

        def run(*args):
            start = time.perf_counter()
            result = method(*args)
            spent[stage] += time.perf_counter() - start
            return result
        return run

    for stage in TIMED_STAGES:
        sim._stages[stage] = [timed(stage, act) for act in sim._stages[stage]]
    for helper, stage in STEP_HELPERS.items():
        setattr(sim, helper, timed(stage, getattr(sim, helper)))
    return spent
