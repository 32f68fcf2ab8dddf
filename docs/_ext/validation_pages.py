"""The validation page's plots and table, run at build time from ``benchmarks/validation``.

Every case of ``benchmarks/validation/report.py`` runs at the test suite's resolution (its
``--quick`` list, the finest entry) with both momentum schemes; the final simulation of each run
is kept (``captured_simulation``) and its depth is plotted against the case's exact or
reference solution (``tests/exact_solutions.py``); the table lists each figure with its target
and verdict. The rows the tests hold (drops, capillary waves, wind) follow, from
``validation_tests``. A run is cached under ``docs/_build/validation_cache`` by the hash of the package's
and the cases' source, so a rebuild without a code change does not rerun them.
"""

from __future__ import annotations

import contextlib
import hashlib
import inspect
import sys
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "benchmarks" / "validation"), str(ROOT / "tests")]

import anuga_compare  # noqa: E402
import builders  # noqa: E402
import dye_cases  # noqa: E402
import exact_solutions as exact  # noqa: E402
import report  # noqa: E402
import validation_cases as cases  # noqa: E402

import surfflow as sf  # noqa: E402
import validation_tests  # noqa: E402
from run_cache import cached  # noqa: E402

SCHEMES = ("momentum", "conservative")
# The cases report.py runs through a lambda, and the function that holds their setup.
SETUPS = {"lake_immersed": cases.run_lake_bump, "lake_emerged": cases.run_lake_bump,
          "cosine_bell_first_order": cases.run_cosine_bell}
TITLES = {
    "lake_immersed": "Lake at rest over an immersed bump",
    "lake_emerged": "Lake at rest over an emerged bump",
    "lake_bowl": "Lake at rest in a hemispherical bowl",
    "ritter": "Ritter's dry dam break",
    "thacker": "Thacker's radial paraboloid",
    "nusselt": "Nusselt film on an incline",
    "draining_film": "Draining film on a sphere",
    "stoker": "Stoker's wet dam break",
    "supercritical_slope": "Frictionless supercritical flow down a slope (energy head kept)",
    "transcritical_bump": "SWASHES' transcritical bump with a hydraulic jump",
    "gravity_wave": "Gravity-wave speed",
    "cosine_bell": "Williamson's cosine bell (dye transport)",
    "cosine_bell_first_order": "Cosine bell, first-order tracer transport (for comparison)",
    "dye_bell": "A 5-cell cosine bell of dye carried 49 cells (peak and shape kept)",
    "dye_stripe": "A sharp dye stripe carried 49 cells (edge width)",
    "floating_box": "A floating box's draft (Archimedes), density ratios 0.2 to 0.9",
    "turntable": "A film at rest in the world on a spinning disc (Coriolis)",
    "spinning_bowl": "A lake at rest in the world in a spinning bowl (Coriolis, shoreline)",
    "spinning_sphere": "A film at rest in the world on a sphere turning about a tilted axis",
}


@contextlib.contextmanager
def captured_simulation():
    """Within: every ``sf.Simulation`` built is appended to the yielded list."""
    built, init = [], sf.Simulation.__init__

    def keep(self, *args, **kwargs):
        init(self, *args, **kwargs)
        built.append(self)

    sf.Simulation.__init__ = keep
    try:
        yield built
    finally:
        sf.Simulation.__init__ = init


def run_case(name: str, scheme: str) -> dict:
    """One case at its finest quick resolution: figures, label, and the arrays to plot."""
    runner, _, fast, _ = report.CASES[name]
    label, kwargs = fast[-1]
    start = time.perf_counter()
    with captured_simulation() as built:
        try:
            figures = runner(scheme=scheme, **kwargs)
        except Exception as error:  # a scheme that cannot run a case (no boundary segments)
            return {"label": label, "error_text": f"{type(error).__name__}: {error}"}
    sim = built[-1]
    geom = sim.geometry
    return {"label": label, "kwargs": kwargs, "figures": figures, "seconds": time.perf_counter() - start,
            "vertices": np.array(geom.vertices), "normals": np.array(geom.normals),
            "depth": np.array(sim.depth), "bottom": np.array(sim.bottom), "time": sim.time,
            "velocity": np.array(sim.velocity),
            "dye": np.array(sim.dye) if sim.dye.size else None}


def _profile(name: str, run: dict):
    """(x label, y label, x, numerical y, reference x, reference y) of one run."""
    V, d, b = run["vertices"], run["depth"], run["bottom"]
    x = V[:, 0]
    line = np.linspace(x.min(), x.max(), 800)
    if name in ("lake_immersed", "lake_emerged"):
        level = 0.5 if name == "lake_immersed" else 0.1
        wet = d > 0
        return ("x (m)", "free surface b + d (m)", x[wet], (b + d)[wet], line, np.full_like(line, level))
    if name == "lake_bowl":
        wet = d > 0
        r = np.hypot(V[wet, 0], V[wet, 1])
        surface = V[wet, 2] + d[wet] * run["normals"][wet, 2]
        grid = np.linspace(0, r.max(), 50)
        return ("radius (m)", "free-surface height z (m)", r, surface, grid, np.full_like(grid, -0.5))
    if name == "ritter":
        return ("x (m)", "depth (m)", x, d, line, exact.ritter_depth(line, run["time"], 5.0, 0.005))
    if name == "stoker":
        return ("x (m)", "depth (m)", x, d, line, exact.stoker_depth(line, run["time"], 5.0, 0.005, 0.001))
    if name == "thacker":
        r = np.hypot(x, V[:, 1])
        grid = np.linspace(0, r.max(), 400)
        return ("radius (m)", "depth (m)", r, d, grid,
                exact.thacker_depth(grid, run["time"], 0.1, 1.0, 0.8))
    if name == "nusselt":
        downhill = x / np.cos(np.radians(30.0))
        grid = np.linspace(0.4, 0.8, 2)
        return ("distance down the slope (m)", "depth (m)", downhill, d, grid,
                np.full(2, run["figures"]["film_depth"]))
    if name == "draining_film":
        polar = np.degrees(np.arccos(np.clip(V[:, 2] / np.linalg.norm(V, axis=1), -1, 1)))
        grid = np.array([0.0, 20.0])
        return ("polar angle from the top (degrees)", "depth (m)", polar, d, grid,
                np.full(2, exact.draining_film_depth(run["time"], 1e-3, 1e-4, 1.0)))
    if name == "gravity_wave":
        return ("x (m)", "surface perturbation d - d0 (m)", x, d - 1.0, line,
                exact.linear_wave_surface(line, run["time"], 10.0, 1e-3, 1.0, 1.0))
    if name == "supercritical_slope":
        downhill, head = run["figures"]["downhill"], run["figures"]["head"]
        upper = (downhill >= 1.0) & (downhill < 2.0)
        grid = np.array([0.0, downhill.max()])
        return ("distance down the slope (m)", "energy head less its mean over 1-2 m (m)",
                downhill, head - head[upper].mean(), grid, np.zeros(2))
    if name == "floating_box":
        ratios = np.array(run["figures"]["ratios"])
        error = 100.0 * (np.array(run["figures"]["drafts"]) - ratios)
        return ("density ratio r", "draft - r x height (% of the height)", ratios, error,
                ratios, np.zeros_like(ratios))
    if name == "transcritical_bump":
        return ("x (m)", "depth (m)", x, d, line, exact.transcritical_bump(line, 0.18, 0.33)[0])
    if name.startswith("cosine_bell"):
        unit = V / np.linalg.norm(V, axis=1)[:, None]
        distance = np.arccos(np.clip(unit[:, 0], -1, 1))
        grid = np.linspace(0, np.pi, 400)
        bell = np.where(grid < 1 / 3, 0.5 * (1 + np.cos(3 * np.pi * grid)), 0.0)
        return ("great-circle distance from the start (rad)", "dye concentration", distance,
                run["dye"][:, 0], grid, bell)
    if name in ("dye_bell", "dye_stripe"):
        cell = 10.0 / report.CASES[name][2][-1][1]["n_along"]
        start = (dye_cases.START_CELLS + dye_cases.TRAVEL_CELLS) * cell
        if name == "dye_bell":
            band = np.abs(V[:, 1] - 0.5) < cell
            radius = dye_cases.BELL_CELLS * cell
            return ("x (m), vertices within a cell of the bell's axis", "dye concentration",
                    x[band], run["dye"][band, 0], line,
                    dye_cases.cosine_bell(np.abs(line - start) / radius))
        stripe = (line > start) & (line < start + dye_cases.STRIPE_CELLS * cell)
        return ("x (m)", "dye concentration", x, run["dye"][:, 1], line, stripe.astype(float))
    if name in ("turntable", "spinning_bowl"):
        wet = d > 0
        radius = np.hypot(x, V[:, 1])[wet]
        world = np.linalg.norm(run["velocity"] + cases.turn_velocity(1.0, V), axis=1)[wet]
        grid = np.array([0.0, radius.max()])
        return ("radius (m), wet vertices", "world speed |u + Omega x r| / (Omega R)", radius,
                world / radius.max(), grid, np.zeros(2))
    if name == "spinning_sphere":
        omega = np.array(cases.SPHERE_SPIN)
        axis = omega / np.linalg.norm(omega)
        latitude = np.degrees(np.arcsin(np.clip(V @ axis / np.linalg.norm(V, axis=1), -1, 1)))
        world = np.linalg.norm(run["velocity"] + np.cross(omega, V), axis=1)
        scale = np.linalg.norm(omega) * np.linalg.norm(V, axis=1).max()
        grid = np.array([-90.0, 90.0])
        return ("latitude about the turn's axis (degrees)", "world speed / (|Omega| R)",
                latitude, world / scale, grid, np.zeros(2))
    raise KeyError(f"validation page: no plot for case {name!r}; add one to _profile")


def plot_case(name: str, runs: dict, path: Path) -> None:
    """Both schemes' final fields against the reference, as a PNG at ``path``."""
    fig, ax = plt.subplots(figsize=(7.0, 3.4), dpi=90)
    reference_drawn = False
    for scheme, color in zip(SCHEMES, ("tab:blue", "tab:orange")):
        run = runs[scheme]
        if "figures" not in run:
            continue
        xlabel, ylabel, x, y, xr, yr = _profile(name, run)
        ax.plot(x, y, ".", ms=2 if len(x) > 50 else 8, color=color, alpha=0.6,
                label=f"surfflow, {scheme}")
        if not reference_drawn:
            ax.plot(xr, yr, "k-", lw=1.2, label="exact / reference")
            reference_drawn = True
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
    ax.set_title(f"{TITLES[name]} ({runs['momentum']['label']})", fontsize=10)
    ax.legend(fontsize=8, markerscale=4)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _target(figures: dict, key: str, target, kind: str) -> str:
    """The target column: the exact position for front and jump, else the bound and its side."""
    if "exact_" + key in figures:
        return f"exact {figures['exact_' + key]:.3f}"
    return "" if target is None else {"below": "< ", "at_least": ">= "}[kind] + f"{target:g}"


def _rows(name: str, runs: dict) -> list[str]:
    checks = report.CASES[name][3] + report.INVARIANTS
    rows = []
    for scheme, run in ((scheme, runs[scheme]) for scheme in SCHEMES):
        if "figures" not in run:
            rows.append(f"| {scheme} | {run['label']} | — | cannot run: {run['error_text']} | | |")
            continue
        bounds = [(key, report.bound(target, run["kwargs"]), kind) for key, target, kind in checks]
        rows += [f"| {scheme} | {run['label']} | {key} | {run['figures'][key]:.3g} | "
                 f"{_target(run['figures'], key, target, kind)} | "
                 f"{report.verdict(run['figures'][key], target, kind)} |" for key, target, kind in bounds]
    return rows


def compare_with_anuga(n_along: int = 400, n_across: int = 4) -> dict:
    """Stoker's dam break on one of ``anuga_compare.py``'s meshes: surfflow's two schemes and,
    where the extra ``compare`` is installed, ANUGA; per solver (x, depth, error, its parts at
    the fan and the bore, bore cells, wall seconds of a second run)."""
    try:
        import anuga
    except ImportError:
        anuga = None
    V, F = builders.strip(anuga_compare.LENGTH, anuga_compare.WIDTH, n_along, n_across, seed=2)
    solvers = {f"surfflow, {scheme}": anuga_compare.run_surfflow(V, F, scheme) for scheme in SCHEMES}
    if anuga is not None:
        solvers[f"ANUGA {anuga.__version__}"] = anuga_compare.run_anuga(V, F, anuga)
    results = {"label": f"{n_along}x{n_across} cells, {len(V):,} vertices"}
    for name, (run, x, weights) in solvers.items():
        run()  # warm-up: compilation, imports
        seconds, depth = run()
        error, bore = anuga_compare.stoker_error(x, np.asarray(depth), weights,
                                                 anuga_compare.LENGTH / n_along)
        fan_part, bore_part = anuga_compare.error_by_region(x, np.asarray(depth), weights)
        results[name] = (x, np.asarray(depth), error, fan_part, bore_part, bore, seconds)
    return results


def anuga_section(results: dict, out: Path) -> list[str]:
    """The side-by-side plot and table of ``compare_with_anuga``'s results."""
    label = results.pop("label")
    fig, ax = plt.subplots(figsize=(7.0, 3.4), dpi=90)
    for name, (x, depth, *_) in results.items():
        ax.plot(x, depth, ".", ms=2, alpha=0.6, label=name)
    line = np.linspace(0.0, anuga_compare.LENGTH, 800)
    ax.plot(line, exact.stoker_depth(line, anuga_compare.END, anuga_compare.DAM, anuga_compare.LEFT,
                                     anuga_compare.RIGHT), "k-", lw=1.2, label="exact")
    ax.set_xlabel("x (m)")
    ax.set_ylabel("depth (m)")
    ax.set_title(f"Stoker's dam break at t = {anuga_compare.END:g} s ({label})", fontsize=10)
    ax.legend(fontsize=8, markerscale=4)
    fig.tight_layout()
    fig.savefig(out / "anuga_stoker.png")
    plt.close(fig)
    lines = ["![Stoker, side by side](/_generated/validation/anuga_stoker.png)", "",
             "| solver | relative L1 error | of which within 0.3 m of the fan | and of the bore "
             "| bore position error (cells) | wall time of the run |",
             "|---|---|---|---|---|---|"]
    lines += [f"| {name} | {error:.2e} | {fan_part:.2e} | {bore_part:.2e} | {bore:.2f} "
              f"| {seconds:.2f} s |"
              for name, (_, _, error, fan_part, bore_part, bore, seconds) in results.items()]
    if not any(name.startswith("ANUGA") for name in results):
        lines += ["", "ANUGA was not installed where this page was built (the extra `compare`), so "
                      "only surfflow's rows were run; the table above this plot holds ANUGA's."]
    return lines + [""]


def source_hash(generator: Path) -> str:
    """A key for a generator's cached runs: the hash of the package's, the tests' and the
    validation benchmarks' source, and of the ``generator``'s own file."""
    digest = hashlib.sha256()
    for path in sorted([*(ROOT / "surfflow").rglob("*.py"), *(ROOT / "tests").glob("*.py"),
                        *(ROOT / "benchmarks" / "validation").glob("*.py"), generator]):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def validation_page(out: Path, cache: Path) -> str:
    """Run (or load) every case, write its plot into ``out`` and return the page's Markdown."""
    out.mkdir(parents=True, exist_ok=True)

    def run_all() -> dict:
        results = {name: {scheme: run_case(name, scheme) for scheme in SCHEMES} for name in report.CASES}
        start = time.perf_counter()
        results["tests"] = {**validation_tests.run_all(), "seconds": time.perf_counter() - start}
        results["anuga"] = compare_with_anuga()
        return results

    results = cached(cache, "runs", source_hash(Path(__file__)), run_all)
    tests, anuga = results.pop("tests"), results.pop("anuga")
    lines = [*anuga_section(anuga, out), "## The cases", ""]
    for name, runs in results.items():
        plot_case(name, runs, out / f"{name}.png")
        runner = SETUPS.get(name, report.CASES[name][0])
        lines += [f"### {TITLES[name]}", "", f"Case `{name}` (`tests/validation_cases.py`, "
                  f"`{runner.__name__}`):", "", "```text", inspect.getdoc(runner), "```", ""]
        lines += [f"![{TITLES[name]}](/_generated/validation/{name}.png)", "",
                  "| scheme | resolution | figure | measured | target | verdict |",
                  "|---|---|---|---|---|---|", *_rows(name, runs), ""]
    lines += validation_tests.plots_and_rows(tests, out)
    seconds = sum(run.get("seconds", 0.0) for runs in results.values() for run in runs.values())
    lines += [f"The runs above took {seconds + tests['seconds']:.0f} s of wall time when this page "
              "was built."]
    return "\n".join(lines)
