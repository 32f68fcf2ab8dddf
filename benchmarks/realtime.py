"""Real time: for every shipped example, simulated seconds per wall second over the whole run
(outputs excluded), and a step's split between film, dyes, droplets and the outputs.

    python benchmarks/realtime.py                          # every example, 3 runs each
    python benchmarks/realtime.py --quick                  # the first 0.5 s, 1 run
    python benchmarks/realtime.py --example bunny_pour --until 1.0 --repeats 5
    python benchmarks/realtime.py --example bunny_pour --no-outputs   # stepping alone

Each run builds the scene (geometry cache in a temporary folder kept across runs), steps it once
to compile and warm up, then advances frame by frame to the end of the scene (or ``--until``),
handing every frame to the writer thread in the scene's formats, into a temporary folder, as
``surfflow run`` does (``--no-outputs``: no frame is written, so the writer thread's compression
does not compete with the step's threads for the cores). Printed per example, medians over the
runs: the real-time factor (simulated time / wall time of the stepping, the time the step's thread
spends on outputs excluded; the writer thread runs beside it, as in ``surfflow run``), ms per step
and its split: film (the rest of the step), dyes (the dyes' transport), droplets (the particle
stage), and outputs (ms per step the step's thread spent on outputs: copying the frame's fields,
waiting for a full queue and for the last frames at the end); then ``out %``, the outputs' share
of the run's wall time (stepping and outputs), and ``writer``, the writer thread's CPU time in ms
per step (on two cores it competes with the step's threads); last, what set the most steps'
length (``Simulation.step_limits``) and, where a vertex's CFL limit set the most, that vertex's
dual cell against the median cell (``cell``: well below 1, a pole's fan or a sliver cluster
paces the run).

Reaches past the public API in two places, as benchmarks/timing/medians.py does: the dyes are
timed by wrapping ``carry_dyes`` where the schemes import it, the droplets through
``medians.time_stages`` (the "exchange" stage); no public hook sits inside a step.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "timing"))

from medians import time_stages  # noqa: E402

import surfflow as sf  # noqa: E402
from surfflow.cli import EXAMPLES_DIR, example_names  # noqa: E402
from surfflow.io.writer_thread import FrameWriterThread  # noqa: E402
from surfflow.io.writers import frame_fields, make_writers  # noqa: E402

SPLIT = ("film", "dyes", "droplets", "outputs")


def timed_dyes() -> list[float]:
    """Wrap ``carry_dyes`` in every scheme module that imports it; returns the one-item list
    the seconds spent in it accumulate in."""
    spent = [0.0]
    for name, module in list(sys.modules.items()):
        original = getattr(module, "carry_dyes", None)
        if not name.startswith("surfflow.schemes.") or original is None:
            continue

        def carry(*args, original=original):
            start = time.perf_counter()
            original(*args)
            spent[0] += time.perf_counter() - start
        module.carry_dyes = carry
    return spent


def run_once(example: str, until: float | None, cache_dir: str,
             outputs: bool = True) -> dict[str, float]:
    """One run of ``example``: {factor, ms_per_step, steps, film, dyes, droplets, outputs,
    share, writer, limit, cell}, the split in ms per step, share in % of the wall time, limit
    what set the most steps, cell the dual cell of the vertex that set the most against the
    median (nan where none did)."""
    scene = sf.load_scene(EXAMPLES_DIR / f"{example}.toml")
    with tempfile.TemporaryDirectory() as output:
        runner = sf.SceneRunner(scene, output_dir=output, cache_dir=cache_dir)
        sim = runner.simulation
        formats = scene.output.formats if outputs else ()
        writers = make_writers(Path(output), formats, runner.geometry, scene=scene)
        sim.step()  # compile and warm up
        droplets = time_stages(sim, ("exchange",)) if scene.mode == "film" else {}  # a step's stages
        dyes = timed_dyes()
        end = scene.duration if until is None else min(until, scene.duration)
        stepping = writing = 0.0
        start_time, start_steps = sim.time, sim.state.step_count
        frame = 0
        with FrameWriterThread(writers, output) as thread:
            while sim.time < end - 1e-12:
                frame += 1
                target = min(frame / scene.fps, end)
                begin = time.perf_counter()
                sim.advance(max(0.0, target - sim.time))
                middle = time.perf_counter()
                if outputs:
                    thread.put(frame, sim.time, frame_fields(sim))
                writing += time.perf_counter() - middle
                stepping += middle - begin
            begin = time.perf_counter()
        writing += time.perf_counter() - begin
    steps = sim.state.step_count - start_steps
    per_step = 1e3 / steps
    return {"factor": (sim.time - start_time) / stepping, "ms_per_step": stepping * per_step,
            "steps": steps, "dyes": dyes[0] * per_step,
            "droplets": sum(droplets.values()) * per_step, "outputs": writing * per_step,
            "film": (stepping - dyes[0] - sum(droplets.values())) * per_step,
            "share": 100 * writing / (stepping + writing), "writer": thread.busy * per_step,
            **pace(sim)}


def pace(sim) -> dict:
    """{limit, cell}: what set most of ``sim``'s steps, and the dual cell of the vertex that
    set the most against the median cell (nan where no vertex set one; a ripple model has no
    tally: "waves")."""
    tally = getattr(sim, "step_limits", None)
    if tally is None:
        return {"limit": sim.step_limit, "cell": float("nan")}
    summary = tally.summary(sim.fields.ring_spacing, 1)
    return {"limit": next(iter(summary["limits"])),
            "cell": summary["vertices"][0]["cell"] if summary["vertices"] else float("nan")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--example", action="append", choices=example_names(),
                        help="only this example (repeatable; default every one)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--until", type=float, help="stop at this simulated time (s)")
    parser.add_argument("--quick", action="store_true", help="--until 0.5 --repeats 1")
    parser.add_argument("--no-outputs", action="store_true",
                        help="step only: no frame is copied or written (the writer thread idles)")
    args = parser.parse_args()
    until, repeats = (0.5, 1) if args.quick else (args.until, args.repeats)
    print(f"{'example':24s} {'real-time':>9s} {'ms/step':>8s} {'steps':>6s}  "
          + "  ".join(f"{part:>8s}" for part in SPLIT) + f"  {'out %':>6s}  {'writer':>6s}"
          f"  {'step set by':16s} {'cell':>5s} (ms per step, medians of "
          f"{repeats} run{'s' if repeats > 1 else ''})")
    with tempfile.TemporaryDirectory() as cache_dir:
        for example in args.example or example_names():
            runs = [run_once(example, until, cache_dir, not args.no_outputs)
                    for _ in range(repeats)]
            median = {key: statistics.median(run[key] for run in runs) for key in runs[0]
                      if key != "limit"}
            limit = collections.Counter(run["limit"] for run in runs).most_common(1)[0][0]
            print(f"{example:24s} {median['factor']:9.3f} {median['ms_per_step']:8.2f} "
                  f"{median['steps']:6.0f}  " + "  ".join(f"{median[p]:8.2f}" for p in SPLIT)
                  + f"  {median['share']:6.1f}  {median['writer']:6.2f}  {limit:16s}"
                  f" {median['cell']:5.2f}",
                  flush=True)


if __name__ == "__main__":
    main()
