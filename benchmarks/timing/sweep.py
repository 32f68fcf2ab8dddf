"""Sweep timings: a 16-case sweep of a small scene on a LocalCluster of 1 and 2 workers.

The scene: the paint_grooves example on a 20 x 20 grid (441 vertices), 0.5 s at 25 frames/s
(npz frames); the sweep: 4 viscosities x 4 pour rates. Prints, as medians of several runs
(numba compiled, geometry cached):
  direct      one case run with SceneRunner in this process, one numba thread
  N workers   for N = 1 and 2: sf.sweep of the 16 cases end to end (it starts and stops its
              own LocalCluster); then on one LocalCluster kept up: its start-up, a first case
              per worker (imports and numba's first calls), the 16 cases (cases per second and
              the speed-up over running them one by one), and the median time a case took
              inside its worker (load scene and geometry, run, write frames, measure)
  per case    on the warm 1-worker cluster: 16 cases / 16 - direct, the cost of dispatching a
              case (client, scheduler, worker) and of the sweep's own writes

    python benchmarks/timing/sweep.py [--repeats 3]

Public API, except ``write_case_scene`` (one case of the sweep as a scene file, for the direct
run) and ``start_local_cluster`` (a cluster kept up across sweeps), both of ``surfflow.batch``.
Needs the extra "cluster" (Dask distributed).
"""

import argparse
import os
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numba

from medians import median_seconds

import surfflow as sf
from surfflow.batch import case_scene, cluster

SWEEP = """\
scene = "paint_grooves"
[axes]
"liquid.viscosity" = [5.0e-5, 1.0e-4, 2.0e-4, 4.0e-4]
"sources[0].rate" = [5.0e-6, 1.0e-5, 2.0e-5, 4.0e-5]
"mesh.resolution" = [[20, 20]]
"duration" = [0.5]
"output.formats" = [["npz"]]
"""


def median_wall(action, repeats: int) -> float:
    """Median wall seconds of ``action()``, no warm-up run: every sweep starts its own cluster."""
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
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "sweep.toml").write_text(SWEEP)
        cache = tmp / "cache"
        spec = sf.load_sweep(tmp / "sweep.toml")
        scene = sf.load_scene(case_scene.write_case_scene(spec, spec.cases[0], tmp / "direct", cache))
        numba.set_num_threads(1)
        runs = iter(range(10**6))

        def direct():
            sf.SceneRunner(scene, output_dir=tmp / f"direct{next(runs)}").run()

        def run_sweep(sweep, workers=None, scheduler=None):
            rows = sf.sweep(sweep, tmp / f"sweep{next(runs)}", workers=workers, scheduler=scheduler,
                            cache_dir=cache, progress=False)
            assert all(row["status"] == "ok" for row in rows), rows
            return rows

        t_direct = median_seconds(direct, max(args.repeats, 5))[0]
        print(f"direct         {1e3 * t_direct:6.0f} ms per case (1 numba thread); "
              f"{16 * t_direct:.2f} s for the 16 cases one by one")
        for workers in (1, 2):
            t_cold = median_wall(lambda w=workers: run_sweep(spec, workers=w), args.repeats)
            t_start, t_first, t_warm, inside = warm_cluster_times(spec, workers, run_sweep, args.repeats)
            print(f"{workers} worker(s): 16 cases {t_cold:6.2f} s end to end; cluster start {t_start:.2f} s, "
                  f"first case per worker {t_first:.2f} s, then 16 cases {t_warm:.2f} s "
                  f"({16 / t_warm:.2f} cases/s, x{16 * t_direct / t_warm:.2f} of one by one), "
                  f"{1e3 * inside:.0f} ms per case inside the worker")
            if workers == 1:
                print(f"per case       {1e3 * (t_warm / 16 - t_direct):6.0f} ms cluster overhead "
                      "beyond the direct run (warm 1-worker cluster)")


def warm_cluster_times(spec, workers: int, run_sweep, repeats: int):
    """On one LocalCluster: seconds to start it, to run a first case per worker, the median
    seconds of the 16-case sweep, and the median seconds a case took inside its worker."""
    start = time.perf_counter()
    with cluster.start_local_cluster(workers) as local:
        t_start = time.perf_counter() - start
        address = local.scheduler_address
        t_first = median_wall(lambda: run_sweep(replace(spec, cases=spec.cases[:workers]), scheduler=address), 1)
        inside = []
        t_warm = median_wall(lambda: inside.extend(row["wall_time_s"] for row in run_sweep(spec, scheduler=address)),
                             repeats)
    return t_start, t_first, t_warm, statistics.median(inside)


if __name__ == "__main__":
    main()
