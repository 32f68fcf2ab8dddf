"""A bare mesh on the command line: the wall time of ``surfflow run MESH`` with its default scene
(water from a spout above the highest point, droplets on, 3 s at 30 fps), and its real-time
factor (simulated seconds per wall second).

    python benchmarks/bare_mesh.py [--mesh meshes/bunny.obj] [--duration 3] [--repeats 2]

Each repeat is a fresh ``python -m surfflow run MESH -q`` process, timed from its start to its
exit (interpreter, mesh, precompute, compiling or loading the kernels, the run and its outputs);
the geometry and numba caches are shared between the repeats, so the first may pay for the
precompute and compiling and the later ones show a warm start. Also printed: the run's own wall
time, from the CLI's last line (mesh load to the last frame written), its real-time factor, and
the CPU seconds of the process and those it spawned, which a busy machine inflates less than
the wall clock.
Only the command line; no internals.
"""

import argparse
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_once(mesh: Path, duration: float | None, folder: Path, cache: Path) -> dict:
    """One ``surfflow run`` of the bare mesh: wall seconds of the process and of the run."""
    command = [sys.executable, "-m", "surfflow", "run", str(mesh), "-q", "-o", str(folder),
               "--cache-dir", str(cache)]
    if duration is not None:
        command += ["--duration", str(duration)]
    start, cpu = time.perf_counter(), _children_cpu()
    result = subprocess.run(command, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - start, _children_cpu() - cpu
    if result.returncode != 0:
        raise SystemExit(f"surfflow run failed:\n{result.stderr}")
    run = re.search(r"beside the run's ([\d.]+) s", result.stdout)
    simulated = re.search(r"time +([\d.]+) s at", result.stdout)
    return {"wall": wall, "cpu": cpu, "run": float(run.group(1)),
            "simulated": float(simulated.group(1)), "stdout": result.stdout}


def _children_cpu() -> float:
    """CPU seconds (user and system) of the finished child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mesh", default=str(ROOT / "meshes" / "bunny.obj"))
    parser.add_argument("--duration", type=float, help="simulated s (default: the scene's 3 s)")
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        cache = Path(scratch) / "cache"
        for k in range(args.repeats):
            done = run_once(Path(args.mesh), args.duration, Path(scratch) / f"run{k}", cache)
            if k == 0:
                print(done["stdout"].split("wrote ")[0].rstrip())
            print(f"run {k + 1}: `surfflow run {Path(args.mesh).name}` took {done['wall']:.1f} s "
                  f"wall for {done['simulated']:g} simulated s (real-time factor "
                  f"{done['simulated'] / done['wall']:.3f}); the run itself {done['run']:.1f} s "
                  f"(factor {done['simulated'] / done['run']:.3f}); {done['cpu']:.1f} CPU s "
                  "(the process and those it spawned)", flush=True)


if __name__ == "__main__":
    main()
