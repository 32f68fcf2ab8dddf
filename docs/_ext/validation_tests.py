"""The validation rows the tests hold rather than ``report.py``: sessile drops, drops on an
incline, capillary waves and the wind-driven film, run at build time through the helpers of
``tests/test_tension.py`` and ``tests/test_wind.py`` (the same set-ups the tests assert on) with
the default momentum scheme, and plotted against their exact answers.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

try:
    import test_tension as tension
    import test_wind as wind
except ImportError as error:  # the helpers moved: say where to look
    raise RuntimeError(f"docs/_ext/validation_tests.py imports the helpers of tests/test_tension.py "
                       f"and tests/test_wind.py; {error}") from None

ANGLES = (30.0, 60.0, 90.0)
DROP_DURATION = {30.0: 4.0, 60.0: 2.0, 90.0: 2.0}  # s, as in the test


def sessile_drop(theta: float) -> dict:
    """A cylinder of liquid relaxing to the cap of its contact angle, no gravity (the test's)."""
    sim, _ = tension.released_drop(theta)
    geom, params = sim.geometry, sim.params
    r = np.hypot(geom.vertices[:, 0], geom.vertices[:, 1])
    volume = sim.total_volume()
    sim.advance(DROP_DURATION[theta])
    ramp = tension.contact_line_depth(geom.dual_areas, theta, params.contact_line_width).max()
    angle, _ = tension.fitted_cap(geom, sim.depth, ramp)
    return {"r": r, "depth": np.array(sim.depth), "volume": volume, "angle": angle}


def run_all() -> dict:
    """Every row's figures and arrays."""
    drops = {theta: sessile_drop(theta) for theta in ANGLES}
    waves = {g: tension.standing_wave_period(g) for g in (0.0, 2.5)}
    incline = {theta: tension.drop_front_advance_on_an_incline(theta, start, 3.0)
               for theta, start in ((90.0, 0.35), (10.0, 0.45))}
    ratios = {theta: tension.furmidge_ratio(theta, 3.0) for theta in incline}
    geom, sim = wind.steady_film_velocity((0.02, -0.01, 0.5))
    interior = np.all(np.abs(geom.vertices[:, :2] - 0.5) < 0.25, axis=1)
    film = {"speed": np.array(sim.velocity[interior, 0]), "expected": 2.0 * 0.02 / (2.0 + 1.3)}
    return {"drops": drops, "waves": waves, "incline": incline, "ratios": ratios, "film": film}


def _save(fig, path: Path) -> None:
    for ax in fig.axes:
        ax.title.set_fontsize(10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def plots_and_rows(results: dict, out: Path) -> list[str]:
    """Draw the four figures into ``out`` and return their Markdown, with a table each."""
    fig, ax = plt.subplots(figsize=(7.0, 3.4), dpi=90)
    grid = np.linspace(0.0, 1.0, 400)
    for theta, run in results["drops"].items():
        dots = ax.plot(run["r"], run["depth"], ".", ms=2, alpha=0.5, label=f"surfflow, {theta:g} deg")
        ax.plot(grid, tension.spherical_cap_depth(grid, run["volume"], theta), "-",
                color=dots[0].get_color(), lw=1)
    ax.set(xlabel="distance from the centre (m)", ylabel="depth (m)",
           title="Sessile drops: depth against the spherical cap of the contact angle (lines)")
    ax.legend(fontsize=8, markerscale=4)
    _save(fig, out / "sessile_drops.png")

    fig, ax = plt.subplots(figsize=(5.0, 3.0), dpi=90)
    labels = [f"g = {g:g}" for g in results["waves"]]
    measured = [m for m, _ in results["waves"].values()]
    theory = [e for _, e in results["waves"].values()]
    ax.bar(np.arange(2) - 0.2, measured, 0.4, label="surfflow")
    ax.bar(np.arange(2) + 0.2, theory, 0.4, label="linear theory")
    ax.set(xticks=range(2), xticklabels=labels, ylabel="period (s)", title="Capillary standing wave")
    ax.legend(fontsize=8)
    _save(fig, out / "capillary_wave.png")

    fig, ax = plt.subplots(figsize=(5.0, 3.0), dpi=90)
    advance = [results["incline"][t][0] for t in results["incline"]]
    ax.bar([f"{t:g} deg (Furmidge {results['ratios'][t]:.2f})" for t in results["incline"]], advance)
    ax.axhline(next(iter(results["incline"].values()))[1], color="k", ls=":", label="one cell")
    ax.set(ylabel="front advance, t = 1 to 2 s (m)", title="Drops on a 30 degree incline, 3 deg hysteresis")
    ax.legend(fontsize=8)
    _save(fig, out / "incline_drops.png")

    film = results["film"]
    fig, ax = plt.subplots(figsize=(5.0, 3.0), dpi=90)
    ax.plot(film["speed"] / film["expected"] - 1.0, ".", ms=3, label="surfflow, interior vertices")
    ax.axhline(0.0, color="k", label="c_w w / (c_w + gamma)")
    ax.set(xlabel="interior vertex", ylabel="relative deviation of the speed",
           title="Wind-driven film, steady state")
    ax.legend(fontsize=8)
    _save(fig, out / "wind_film.png")

    drops, waves, incline = results["drops"], results["waves"], results["incline"]
    spread = float(np.max(np.abs(film["speed"] / film["expected"] - 1.0)))
    return [
        "### Sessile drops (no gravity)", "",
        "A cylinder of liquid on a flat square, 36 x 36 cells, relaxes to the spherical cap of its "
        "contact angle (`tests/test_tension.py`); the cap is fitted to the vertices above the wetting "
        "ramp. Target: within 3 degrees.", "",
        "![Sessile drops](/_generated/validation/sessile_drops.png)", "",
        "| contact angle | measured | target |", "|---|---|---|",
        *(f"| {t:g} deg | {run['angle']:.1f} deg | within 3 deg |" for t, run in drops.items()), "",
        "### Capillary-wave period", "",
        "The first standing wave on a 0.2 m strip, 24 cells, against the linear dispersion relation "
        "omega^2 = g d k^2 + (sigma / rho) d k^4. Target: within 2 %.", "",
        "![Capillary wave](/_generated/validation/capillary_wave.png)", "",
        "| gravity | measured period | linear theory | error |", "|---|---|---|---|",
        *(f"| {g:g} m/s^2 | {m:.4f} s | {e:.4f} s | {m / e - 1:+.2%} |" for g, (m, e) in waves.items()), "",
        "### Drops on an incline", "",
        "Drops released as the spherical caps of their contact angles on a plane tilted 30 degrees "
        "(a strip 1.8 m long and 1 m wide, which holds the 10 degree cap) with 3 degrees of "
        "contact-angle hysteresis: Furmidge's "
        "criterion holds the 90 degree drop (retention over pull above 1) and lets the 10 degree one "
        "run. Target: the first pinned (front moves less than a cell), the second runs.", "",
        "![Drops on an incline](/_generated/validation/incline_drops.png)", "",
        "| drop | Furmidge ratio | front advance, 1 to 2 s | cell |", "|---|---|---|---|",
        *(f"| {t:g} deg | {results['ratios'][t]:.2f} | {a:.3f} m | {c:.3f} m |"
          for t, (a, c) in incline.items()), "",
        "### Wind-driven film", "",
        "A film on a square under a steady wind with linear friction gamma = 1.3 and c_w = 2 "
        "(`tests/test_wind.py`): the steady speed is c_w w / (c_w + gamma). Target: that, to round-off.", "",
        "![Wind-driven film](/_generated/validation/wind_film.png)", "",
        f"Largest relative deviation over the interior vertices: {spread:.1e}.", "",
    ]
