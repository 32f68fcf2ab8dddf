"""Sweep timings: a 16-case sweep of a small scene on a LocalCluster of 1 and 2 workers.

The scene: a 0.3 m plane (24 x 24 cells, 625 vertices) tilted 10 degrees off vertical with a
pour at its centre, 0.5 s at 10 frames/s (npz frames); the sweep: 4 friction coefficients x 4
pour rates. Prints, as medians of several runs (numba compiled, geometry cached):
  direct      one case run with SceneRunner in this process, one numba thread
  sweep 1/16  sf.sweep of 1 case on 1 worker: cluster start-up, the worker's imports and first
              calls, the case
  sweep N     sf.sweep of the 16 cases on 1 and 2 workers, wall seconds and cases per second
  per case    the cluster's cost of one more case beyond running it directly:
              (sweep 16 on 1 worker - sweep 1/16) / 15 - direct

    python benchmarks/sweep.py [--repeats 3]
"""

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import numba

import surfflow as sf
from surfflow.runner import SceneRunner

SCENE = """\
name = "tilted"
duration = 0.5
fps = 10

[mesh]
procedural = "plane"
size = [0.3, 0.3]
resolution = [24, 24]
rotation = [-80.0, 0.0, 0.0]

[precompute]
smoothing_iterations = 0

[liquid]
preset = "water"

[solver]
boundary = "outflow"

[[sources]]
type = "pour"
center = [0.0, 0.0, 0.0]
radius = 0.05
rate = 2.0e-6

[output]
formats = ["npz"]
"""

SWEEP = """\
scene = "tilted.toml"
[axes]
"friction.coefficient" = [0.5, 1.0, 2.0, 4.0]
"sources[0].rate" = [1.0e-6, 2.0e-6, 4.0e-6, 8.0e-6]
"""


def median_wall(action, repeats: int) -> float:
    walls = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        walls.append(time.perf_counter() - start)
    return statistics.median(walls)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "tilted.toml").write_text(SCENE)
        (tmp / "sweep.toml").write_text(SWEEP)
        (tmp / "one.toml").write_text('scene = "tilted.toml"\n')
        cache = tmp / "cache"
        scene = sf.load_scene(tmp / "tilted.toml")
        numba.set_num_threads(1)
        runs = iter(range(10**6))

        def direct():
            SceneRunner(scene, output_dir=tmp / f"direct{next(runs)}", cache_dir=cache).run()

        def run_sweep(path, workers):
            rows = sf.sweep(path, tmp / f"sweep{next(runs)}", workers=workers, cache_dir=cache,
                            progress=False)
            assert all(row["status"] == "ok" for row in rows), rows

        direct()
        t_direct = median_wall(direct, max(args.repeats, 5))
        t_one = median_wall(lambda: run_sweep(tmp / "one.toml", 1), args.repeats)
        print(f"direct       {1e3 * t_direct:8.0f} ms per case (1 numba thread)")
        print(f"sweep 1/16   {t_one:8.2f} s (1 case, 1 worker: start-up + the case)")
        t_sweep = {}
        for workers in (1, 2):
            t_sweep[workers] = median_wall(lambda w=workers: run_sweep(tmp / "sweep.toml", w), args.repeats)
            print(f"sweep {workers}      {t_sweep[workers]:8.2f} s for 16 cases on {workers} worker(s), "
                  f"{16 / t_sweep[workers]:.2f} cases/s")
        per_case = (t_sweep[1] - t_one) / 15 - t_direct
        print(f"per case     {1e3 * per_case:8.0f} ms cluster overhead beyond the direct run "
              f"({16 * t_direct:.2f} s for the 16 cases run directly one by one)")


if __name__ == "__main__":
    main()
