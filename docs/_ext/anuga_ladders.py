"""The validation page's ladders against ANUGA, at build time: Stoker's and Ritter's dam breaks
on every strip of ``tests/validation_cases.py``'s ``ANUGA_STOKER`` and ``ANUGA_RITTER``, run
with both momentum schemes, beside ANUGA's figures on the same strips.

ANUGA's figures are the recorded ones the tests hold the default scheme to (measured with
``benchmarks/validation/anuga_compare.py``, ANUGA 4.1 and 4.2); surfflow's are run here. A
default's figure at or better than ANUGA's is bold. Runs are cached beside the validation runs,
under the same key (``validation_pages.source_hash``).
"""

from __future__ import annotations

import pickle
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

import validation_cases as cases  # noqa: E402
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


def ladders_page(cache: Path) -> str:
    """Run (or load) the ladders and return the Markdown of both tables."""
    cache.mkdir(parents=True, exist_ok=True)
    stored = cache / f"ladders-{source_hash(Path(__file__))}.pickle"
    if stored.exists():
        results = pickle.loads(stored.read_bytes())
    else:
        results = run_ladders()
        stored.write_bytes(pickle.dumps(results))
    lines = ["**Stoker's wet dam break**, relative L1 error of the depth at t = 6 s:", "",
             *stoker_table(results), "",
             "**Ritter's dry dam break**, relative L1 error of the depth at t = 6 s and the wet "
             "tip (the largest x with d >= 1e-6 m; exact 7.66 m):", "", *ritter_table(results), "",
             f"Both ladders took {results['seconds']:.0f} s of wall time when this page was built."]
    return "\n".join(lines)
