"""The performance page's measured part, at build time: the step's cost against mesh size (a
plot), the bunny's precompute, the real-time factor of every shipped example over its first
frames, the two momentum schemes on one example, and ripples against the full model on a pond
(``benchmarks/ripples.py``'s measurement).

All are measured on the machine that builds the site, so they say what that machine does; the
page holds no other figures. Results are cached beside the validation runs, by the hash of the
package's source.
"""

from __future__ import annotations

import dataclasses
import hashlib
import statistics
import tempfile
import time
import importlib.util
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import trimesh  # noqa: E402

import surfflow as sf  # noqa: E402
from surfflow.cli import EXAMPLES_DIR, example_names  # noqa: E402
from surfflow.io.procedural import plane  # noqa: E402
from run_cache import cached  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _load_benchmark(name: str):
    """The module of ``benchmarks/NAME.py``, loaded from its file (the folder is no package)."""
    spec = importlib.util.spec_from_file_location(f"benchmark_{name}", ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ripples_benchmark = _load_benchmark("ripples")
SUBDIVISIONS = (3, 4, 5, 6)  # 642 to 40,962 vertices
STEPS, REPEATS = 10, 3
EXAMPLE_SECONDS = 0.2  # simulated seconds timed per example, after its first two frames
SCHEMES_EXAMPLE = "bunny_pour"  # the example the two momentum schemes are timed on
POND_CELLS = 200  # cells along a side of the ripples' 10 m pond: 40,401 vertices


def step_cost(subdivisions: int) -> tuple[int, float]:
    """(vertices, median ms per step) of a film on the upper half of a unit icosphere."""
    sphere = trimesh.creation.icosphere(subdivisions=subdivisions)
    geom = sf.precompute((sphere.vertices, sphere.faces), smoothing_iterations=0)
    sim = sf.Simulation(geom, sf.Params(gravity=(0.0, 0.0, -9.81)))
    sim.set_depth(np.where(geom.vertices[:, 2] > 0.0, 1e-3, 0.0))
    sim.step()  # compile / load the kernels
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        for _ in range(STEPS):
            sim.step()
        times.append((time.perf_counter() - start) / STEPS * 1e3)
    return geom.n_vertices, statistics.median(times)


def precompute_cost() -> tuple[int, float]:
    """(vertices, median seconds) of the bunny's whole precompute, read from its OBJ, no cache."""
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        geom = sf.precompute(ROOT / "meshes" / "bunny.obj")
        times.append(time.perf_counter() - start)
    return geom.n_vertices, statistics.median(times)


def real_time_factor(name: str, cache_dir: Path, scheme: str | None = None
                     ) -> tuple[int, float, float]:
    """(vertices, ms per step, simulated seconds per wall second) of an example's first frames,
    with its own momentum scheme or ``scheme``."""
    scene = sf.load_scene(EXAMPLES_DIR / f"{name}.toml")
    if scheme is not None:
        scene = dataclasses.replace(scene, params=dataclasses.replace(scene.params, scheme=scheme))
    with tempfile.TemporaryDirectory() as out:
        runner = sf.SceneRunner(scene, output_dir=out, cache_dir=cache_dir)
        runner.advance_frame()  # compile, first contact
        runner.advance_frame()
        frames = max(1, round(EXAMPLE_SECONDS * scene.fps))
        steps, simulated = runner.steps_taken, runner.simulation.time
        start = time.perf_counter()
        for _ in range(frames):
            runner.advance_frame()
        wall = time.perf_counter() - start
        steps = runner.steps_taken - steps
        simulated = runner.simulation.time - simulated
    return runner.geometry.n_vertices, wall / max(steps, 1) * 1e3, simulated / wall


def ripples_against_full_model() -> tuple[int, float, float, float, float]:
    """(vertices, ripples' ms per step, the full model's, ripples' dt, the full model's median
    dt in s) on ``benchmarks/ripples.py``'s pond, timed in alternating blocks."""
    geom = sf.precompute(plane((ripples_benchmark.SIDE,) * 2, (POND_CELLS,) * 2), feature_size=0)
    ripples, _, sim = ripples_benchmark.models(geom)
    ripple_ms, full_ms, full_dt = ripples_benchmark.alternating_ms(ripples, sim, 20, REPEATS)
    return geom.n_vertices, ripple_ms, full_ms, ripples.cfl * ripples.max_time_step, full_dt


def _source_hash() -> str:
    digest = hashlib.sha256(Path(__file__).read_bytes())
    for path in sorted([*(ROOT / "surfflow").rglob("*.py"), *(ROOT / "surfflow").rglob("*.toml"),
                        ROOT / "benchmarks" / "ripples.py"]):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def scaling_page(out: Path, cache: Path) -> str:
    """Measure (or load), draw ``out/scaling.png`` and return the Markdown that shows both."""

    def measure() -> tuple:
        sizes = [step_cost(s) for s in SUBDIVISIONS]
        bunny = precompute_cost()
        examples = {name: real_time_factor(name, cache / "geometry") for name in example_names()}
        schemes = {scheme: real_time_factor(SCHEMES_EXAMPLE, cache / "geometry", scheme)
                   for scheme in sf.config.SCHEMES}
        return sizes, bunny, examples, schemes, ripples_against_full_model()

    sizes, bunny, examples, schemes, pond = cached(cache, "performance", _source_hash(), measure)
    n, ms = np.array(sizes, dtype=float).T
    fig, ax = plt.subplots(figsize=(6.0, 3.6), dpi=90)
    ax.loglog(n, ms, "o-", label="ms per step (film on half the sphere)")
    ax.loglog(n, ms[-1] * n / n[-1], "k:", label="linear in the vertices")
    ax.set_xlabel("vertices")
    ax.set_ylabel("ms per step")
    ax.set_title("The step's cost against mesh size (icospheres, built here)", fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "scaling.png")
    plt.close(fig)
    lines = ["![The step's cost against mesh size](/_generated/scaling.png)", "",
             "| vertices | ms per step | vertex-steps per second |", "|---|---|---|"]
    lines += [f"| {int(v):,} | {t:.2f} | {v / t * 1e3:.2g} |" for v, t in sizes]
    lines += ["", f"The whole precompute of the Stanford bunny ({bunny[0]:,} vertices: read the OBJ, "
              f"smooth by the default feature size, positions, friction tensors; no cache, kernels "
              f"compiled): {bunny[1]:.2f} s, median of {REPEATS}."]
    lines += ["", f"Every shipped example over {EXAMPLE_SECONDS} simulated seconds after its first two "
              "frames (geometry cached, kernels compiled; simulated seconds per wall second above 1 "
              "is faster than real time):", "",
              "| example | vertices | ms per step | real-time factor |", "|---|---|---|---|"]
    lines += [f"| {{doc}}`{name} </auto_examples/plot_{name}>` | {v:,} | {t:.1f} | {f:.2f} |"
              for name, (v, t, f) in examples.items()]
    lines += ["", f"The momentum schemes ({{doc}}`guide/schemes`) on `{SCHEMES_EXAMPLE}`, timed the "
              "same way:", "", "| scheme | ms per step | real-time factor |", "|---|---|---|"]
    lines += [f"| `{scheme}` | {t:.1f} | {f:.2f} |" for scheme, (_, t, f) in schemes.items()]
    n, ripple_ms, full_ms, ripple_dt, full_dt = pond
    lines += ["", f"Ripples ({{doc}}`guide/ripples`) against the full model on "
              f"`benchmarks/ripples.py`'s 10 m pond, 10 cm deep ({n:,} vertices; blocks of 20 steps "
              "alternated, medians):", "",
              "| model | ms per step | vertex-steps per second | dt (ms) |", "|---|---|---|---|"]
    lines += [f"| {name} | {ms:.2f} | {n / ms * 1e3:.2g} | {dt * 1e3:.1f} |" for name, ms, dt in
              (("ripples", ripple_ms, ripple_dt), ("full model", full_ms, full_dt))]
    lines += ["", f"Ripples are {full_ms / ripple_ms:.0f} times cheaper per vertex-step and "
              f"{(full_ms / full_dt) / (ripple_ms / ripple_dt):.0f} times per simulated second."]
    return "\n".join(lines)
