"""Cold start: seconds from a fresh Python process's start until the first step of an example is
done, with an empty numba cache and an empty geometry cache (a new user's first run), at four
marks: python with numpy and numba imported; surfflow imported; the mesh loaded and
precomputed and the simulation built (compiling the precompute's kernels on a cold start, then
this process's share of the first step's kernels while the spawned compiler of
:mod:`surfflow.scene.compile_ahead` compiles the rest); the first step done (loading the
spawned compiler's share from the cache); and when the spawned compiler, which goes on with later
steps' kernels, is done.

    python benchmarks/cold_start.py [--example bunny_pour] [--repeats 3] [--warm | --warm-kernels]

Each run is a new ``python -c`` process with NUMBA_CACHE_DIR and the geometry cache pointed at
empty temporary folders (``--warm``: the same folders for every run, so the second and later
runs show a warm start; ``--warm-kernels``: the same numba cache but a new geometry cache, so
the later runs show the floor: everything but compiling). Times are the child's wall clock
against the moment the parent started it (process start and interpreter included), printed as
medians, with the CPU seconds of the process and of those it spawned (on a cold start, the
compiler of :mod:`surfflow.scene.compile_ahead`; ``SURFFLOW_COMPILE_AHEAD=0`` turns it off), which
a busy machine inflates less than the wall clock. Public API, and ``surfflow.cli.EXAMPLES_DIR``
for the shipped scenes.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = r"""
import json, os, resource, sys, time
clock = lambda: time.time() - float(sys.argv[4])
marks = {}
import numpy, numba
marks["python, numpy, numba"] = clock()
import surfflow as sf
marks["import surfflow"] = clock()
from surfflow.cli import EXAMPLES_DIR
scene = sf.load_scene(EXAMPLES_DIR / (sys.argv[1] + ".toml"))
runner = sf.SceneRunner(scene, output_dir=sys.argv[2], cache_dir=sys.argv[3])
marks["mesh, precompute, simulation"] = clock()
runner.simulation.step()
marks["first step"] = clock()
marks["CPU of this process"] = time.process_time()
try:  # the spawned compiler goes on with later steps' kernels: wait for it, to count its CPU
    while True:
        os.wait()
except ChildProcessError:
    pass
marks["the spawned compiler done"] = clock()
spawned = resource.getrusage(resource.RUSAGE_CHILDREN)
marks["CPU of the processes it spawned"] = spawned.ru_utime + spawned.ru_stime
print(json.dumps(marks))
"""


def cold_start(example: str, numba_cache: str, geometry_cache: str) -> dict[str, float]:
    """{stage: seconds since the child process started} of one fresh process."""
    env = dict(os.environ, NUMBA_CACHE_DIR=numba_cache)
    with tempfile.TemporaryDirectory() as output:
        started = f"{time.time():.6f}"
        result = subprocess.run([sys.executable, "-c", CHILD, example, output, geometry_cache,
                                 started],
                                env=env, check=True, capture_output=True, text=True)
    return json.loads(result.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--example", default="bunny_pour")
    parser.add_argument("--repeats", type=int, default=3)
    warmth = parser.add_mutually_exclusive_group()
    warmth.add_argument("--warm", action="store_true", help="reuse both caches after the first run")
    warmth.add_argument("--warm-kernels", action="store_true",
                        help="reuse the numba cache after the first run, not the geometry's")
    args = parser.parse_args()
    runs = []
    with tempfile.TemporaryDirectory() as shared:
        for _ in range(args.repeats):
            with tempfile.TemporaryDirectory() as fresh:
                kernels = shared if args.warm or args.warm_kernels else fresh
                geometry = shared if args.warm else fresh
                runs.append(cold_start(args.example, str(Path(kernels) / "numba"),
                                       str(Path(geometry) / "geometry")))
                print("  run: " + ", ".join(f"{k} {v:.2f} s" for k, v in runs[-1].items()),
                      flush=True)
    kind = "warm" if args.warm else "warm-kernel" if args.warm_kernels else "cold"
    print(f"{args.example}, {kind} start, median of {len(runs)} runs "
          "(seconds since the process started; the stage's own share in brackets):")
    previous = 0.0
    for stage in runs[0]:
        at = statistics.median(run[stage] for run in runs)
        if stage.startswith("CPU") or stage == "the spawned compiler done":
            print(f"  {stage:32s} {at:6.2f} s")
            continue
        print(f"  {stage:32s} {at:6.2f} s  ({at - previous:5.2f} s)")
        previous = at


if __name__ == "__main__":
    main()
