"""What the wetness costs per step on ``bunny_pour`` (``surfflow/terms/wetness.py``).

Advances the example to SECONDS (default 1.0: both spouts pour and the film has spread), then
prints the median milliseconds of a whole step, the wetness's stage ("record") per step as the
step runs it (``medians.time_stages``), the same stage called alone in a loop on the example's
state (microseconds; no step around it, so no cache effects of the step), and its share of the
step.

    python benchmarks/timing/wetness.py [SECONDS] [--steps 50] [--repeats 5]

Internals: ``medians.time_stages`` (the step has no public hook inside) and the term's
``record`` method, called directly for the loop.
"""

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import numba
from medians import median_seconds, time_stages

import surfflow as sf
from surfflow.cli import EXAMPLES_DIR

CALLS = 2000


def main(seconds: float, steps: int, repeats: int) -> None:
    scene = sf.load_scene(EXAMPLES_DIR / "bunny_pour.toml")
    cache = Path(tempfile.gettempdir()) / "surfflow_bench_cache"
    with tempfile.TemporaryDirectory() as out:
        sim = sf.SceneRunner(scene, output_dir=Path(out), cache_dir=cache).simulation
        sim.advance(seconds)
        n = sim.geometry.n_vertices
        print(f"bunny_pour at {seconds} s: {n} vertices, numba threads {numba.get_num_threads()}")
        step_wall, _ = median_seconds(lambda: [sim.step() for _ in range(steps)], repeats)
        spent = time_stages(sim, ("record",))
        for _ in range(steps):
            sim.step()
        in_step = spent["record"] / steps
        wetness, state, geom = sim.term("wetness"), sim.state, sim.geometry
        alone = []
        for _ in range(repeats):
            start = time.perf_counter()
            for _ in range(CALLS):
                wetness.record(geom, state, 1e-4)
            alone.append((time.perf_counter() - start) / CALLS)
        per_step = step_wall / steps
        print(f"step              {1e3 * per_step:8.3f} ms (median of {repeats} x {steps})")
        print(f"wetness in a step {1e6 * in_step:8.1f} us  {100 * in_step / per_step:5.2f} % of the step")
        print(f"wetness alone     {1e6 * statistics.median(alone):8.1f} us  "
              f"({1e9 * statistics.median(alone) / n:.2f} ns per vertex, median of {repeats} x {CALLS})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seconds", nargs="?", type=float, default=1.0)
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    main(args.seconds, args.steps, args.repeats)
