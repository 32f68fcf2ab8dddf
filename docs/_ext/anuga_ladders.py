"""The validation page's ladders against ANUGA, at build time: Stoker's and Ritter's dam breaks
on every strip of ``tests/validation_cases.py``'s ``ANUGA_STOKER`` and ``ANUGA_RITTER``, and
SWASHES' transcritical bump on every channel of its ``ANUGA_BUMP``, run with both momentum
schemes, beside ANUGA's figures on the same meshes.

ANUGA's figures are the recorded ones (measured with ``benchmarks/validation/anuga_compare.py``,
ANUGA 4.1 and 4.2; the tests hold the default scheme to the dam breaks'); surfflow's are run
here, the bump as ``anuga_compare.py --case bump`` runs it. A default's figure at or better
than ANUGA's is bold. Runs are cached beside the validation runs, under the same key
(``validation_pages.source_hash``).
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "benchmarks" / "validation"), str(ROOT / "tests")]

import anuga_compare  # noqa: E402
import exact_solutions as exact  # noqa: E402
import numpy as np  # noqa: E402
import validation_cases as cases  # noqa: E402
from run_cache import cached  # noqa: E402
from validation_pages import source_hash  # noqa: E402

SCHEMES = ("conservative", "momentum")


def run_ladders() -> dict:
    """{"stoker": {strip: {scheme: error}}, "ritter": {strip: {scheme: (error, tip m)}},
    "vertices": {strip: n}, "seconds": wall s}; a strip is (n_along, n_across, width m, seed)."""
    start = time.perf_counter()
    results = {"stoker": {}, "ritter": {}, "vertices": {}}
    for strip in cases.ANUGA_STOKER:
        n_along, n_across, width, seed = strip
        runs = {scheme: cases.run_stoker(n_along, n_across, scheme=scheme, seed=seed, width=width)
                for scheme in SCHEMES}
        results["stoker"][strip] = {scheme: run["error"] for scheme, run in runs.items()}
        results["vertices"][strip] = runs["momentum"]["n_vertices"]
    for strip in cases.ANUGA_RITTER:
        n_along, n_across, width, seed = strip
        runs = {scheme: cases.run_ritter(n_along, n_across, scheme=scheme, seed=seed, width=width)
                for scheme in SCHEMES}
        results["ritter"][strip] = {scheme: (run["error"], run["tip"]) for scheme, run in runs.items()}
        results["vertices"][strip] = runs["momentum"]["n_vertices"]
    results["seconds"] = time.perf_counter() - start
    return results


def bump_run(mesh: str, n_along: int, scheme: str) -> tuple:
    """(shares by BUMP_REGIONS, jump m, vertices) of the bump on one channel of
    ``cases.ANUGA_BUMP`` with one scheme, as ``anuga_compare.py --case bump`` runs it."""
    V, F = cases.transcritical_bump_mesh(n_along, 4, 6, mesh)
    run, x, weights = anuga_compare.run_surfflow_bump(V, F, scheme)
    depth = run()[1]
    return (tuple(cases.bump_error_by_region(x, depth, weights).values()),
            cases.bump_jump(x, depth), len(V))


# the worker's program: this folder on the path, the job read from and its result written to
# the file named
WORKER = ("import pickle, sys; sys.path.insert(0, sys.argv[1]); import anuga_ladders; "
          "path = sys.argv[2]; job = pickle.loads(open(path, 'rb').read()); "
          "open(path, 'wb').write(pickle.dumps(anuga_ladders.bump_run(*job)))")


def bump_run_apart(job: tuple) -> tuple:
    """``bump_run(*job)`` in a Python process of its own on one numba thread, so that the runs
    share the cores (any thread count gives the same numbers). A process, not a
    multiprocessing worker: ``python -m sphinx`` would run its build again in a spawned one."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "job.pickle"
        path.write_bytes(pickle.dumps(job))
        subprocess.run([sys.executable, "-c", WORKER, str(Path(__file__).parent), str(path)],
                       check=True, stdout=subprocess.DEVNULL,
                       env={**os.environ, "NUMBA_NUM_THREADS": "1"})
        return pickle.loads(path.read_bytes())


def run_bumps() -> dict:
    """{"runs": {(mesh, n_along): {scheme: (shares by BUMP_REGIONS, jump m)}}, "vertices":
    {(mesh, n_along): n}, "seconds": wall s}, on the channels of ``cases.ANUGA_BUMP``: one run
    per core at a time, the longest first."""
    start = time.perf_counter()
    jobs = sorted(((mesh, n_along, scheme) for mesh, n_along in cases.ANUGA_BUMP
                   for scheme in SCHEMES), key=lambda job: (-job[1], job[0]))
    with ThreadPoolExecutor(max(1, min(len(jobs), os.cpu_count() or 1))) as pool:
        done = dict(zip(jobs, pool.map(bump_run_apart, jobs)))
    results = {"runs": {}, "vertices": {}}
    for mesh, n_along in cases.ANUGA_BUMP:
        results["runs"][(mesh, n_along)] = {scheme: done[(mesh, n_along, scheme)][:2]
                                            for scheme in SCHEMES}
        results["vertices"][(mesh, n_along)] = done[(mesh, n_along, SCHEMES[0])][2]
    results["seconds"] = time.perf_counter() - start
    return results


def _strip(strip: tuple, vertices: int) -> str:
    n_along, n_across, width, seed = strip
    return f"seed {seed}, {width:g} m wide, {n_along} x {n_across} cells, {vertices:,} vertices"


def _bold(text: str, at_or_better: bool) -> str:
    return f"**{text}**" if at_or_better else text


def stoker_table(results: dict) -> list[str]:
    """Markdown: each strip's relative L1 error, ANUGA's against both schemes'."""
    lines = ["| strip | ANUGA | surfflow conservative | default (momentum) |", "|---|---|---|---|"]
    level = 0
    for strip, errors in results["stoker"].items():
        anuga, default = cases.ANUGA_STOKER[strip], errors["momentum"]
        level += default <= anuga
        lines.append(f"| {_strip(strip, results['vertices'][strip])} | {anuga:.2e} | "
                     f"{errors['conservative']:.2e} | {_bold(f'{default:.2e}', default <= anuga)} |")
    return lines + ["", f"The default is at or below ANUGA's error on {level} of the "
                        f"{len(results['stoker'])} strips."]


def ritter_table(results: dict) -> list[str]:
    """Markdown: each strip's relative L1 error and wet tip, ANUGA's against both schemes'."""
    lines = ["| strip | ANUGA error, tip | surfflow conservative | default (momentum) |",
             "|---|---|---|---|"]
    level = ahead = 0
    for strip, runs in results["ritter"].items():
        anuga_error, anuga_tip = cases.ANUGA_RITTER[strip]
        (error, tip), (c_error, c_tip) = runs["momentum"], runs["conservative"]
        level += error <= anuga_error
        ahead += tip >= anuga_tip
        lines.append(f"| {_strip(strip, results['vertices'][strip])} | {anuga_error:.2e}, "
                     f"{anuga_tip:.2f} m | {c_error:.2e}, {c_tip:.2f} m | "
                     f"{_bold(f'{error:.2e}', error <= anuga_error)}, "
                     f"{_bold(f'{tip:.2f} m', tip >= anuga_tip)} |")
    count = len(results["ritter"])
    return lines + ["", f"The default is at or below ANUGA's error on {level} of the {count} "
                        f"strips, and its wet tip at least as far as ANUGA's on {ahead}."]


MESHES = {"strip": "strip", "cross": "ANUGA's cross mesh"}


def bump_table(results: dict) -> list[str]:
    """Markdown: each channel's relative L1 error of the depth, its shares by region and the
    jump's position, ANUGA's above both schemes'."""
    regions = " | ".join(cases.BUMP_REGIONS)
    lines = [f"| mesh | solver | error | {regions} | jump at |",
             "|---|---|---|" + "---|" * len(cases.BUMP_REGIONS) + "---|"]
    level = 0
    for key, runs in results["runs"].items():
        mesh, n_along = key
        anuga, anuga_shares, anuga_jump = cases.ANUGA_BUMP[key]
        default = sum(runs["momentum"][0])
        level += default <= anuga
        rows = [("ANUGA", anuga, anuga_shares, anuga_jump, False),
                ("surfflow conservative", sum(runs["conservative"][0]), *runs["conservative"],
                 False),
                ("default (momentum)", default, *runs["momentum"], default <= anuga)]
        for k, (solver, error, shares, jump, bold) in enumerate(rows):
            where = (f"{MESHES[mesh]}, {n_along} x 4, {results['vertices'][key]:,} vertices"
                     if k == 0 else "")
            lines.append(f"| {where} | {solver} | {_bold(f'{error:.2e}', bold)} | "
                         + " | ".join(f"{share:.2e}" for share in shares)
                         + f" | {jump:.3f} m |")
    exact_jump = exact.transcritical_bump(np.array([0.0]), cases.BUMP_DISCHARGE,
                                          cases.BUMP_OUTFLOW)[1]
    return lines + ["", f"The default is at or below ANUGA's error on {level} of the "
                        f"{len(results['runs'])} channels. The exact jump is at "
                        f"{exact_jump:.3f} m."]


def ladders_page(cache: Path) -> str:
    """Run (or load) the ladders and return the Markdown of both tables."""
    results = cached(cache, "ladders", source_hash(Path(__file__)), run_ladders)
    lines = ["**Stoker's wet dam break**, relative L1 error of the depth at t = 6 s:", "",
             *stoker_table(results), "",
             "**Ritter's dry dam break**, relative L1 error of the depth at t = 6 s and the wet "
             "tip (the largest x with d >= 1e-6 m; exact 7.66 m):", "", *ritter_table(results), "",
             f"Both ladders took {results['seconds']:.0f} s of wall time when this page was built."]
    return "\n".join(lines)


def bump_page(cache: Path) -> str:
    """Run (or load) the bump on every channel and return the Markdown of its table."""
    results = cached(cache, "bumps", source_hash(Path(__file__)), run_bumps)
    runs = sum(len(schemes) for schemes in results["runs"].values())
    return "\n".join([*bump_table(results), "",
                      f"The {runs} runs took {results['seconds']:.0f} s of wall time when this "
                      "page was built."])
