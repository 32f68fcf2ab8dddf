"""Cost of surface tension, wind and dissolution per step, each alone and all together.

For each mesh (the bunny, a 41k-vertex icosphere) the half-wet scene of ``step.py``
runs five ways: the base liquid, + surface tension, + wind (a Python function of position and
time, evaluated every step), + dissolution (a soluble layer under the whole wet half), and all
three. Prints milliseconds per adaptive step (median of several runs), the mean dt (the
capillary limit shortens it) and the extra cost of each term over the base.

    python benchmarks/timing/step_physics.py [--steps 20] [--repeats 5] [--meshes bunny,ico41k]
"""

import statistics
import time

import numpy as np

from medians import run_for_meshes
from step import load

import surfflow as sf

VARIANTS = {
    "base": {},
    "tension": {"surface_tension": 0.072, "contact_angle": 60.0},
    "wind": {"wind_coefficient": 0.5},
    "dissolution": {},
    "all": {"surface_tension": 0.072, "contact_angle": 60.0, "wind_coefficient": 0.5},
}


def gusty_wind(positions, time):
    """A wind that varies in space and time (evaluated in Python every step)."""
    out = np.zeros_like(positions)
    out[:, 0] = 2.0 + np.sin(3.0 * positions[:, 1] + time)
    return out


def simulation(geom, variant):
    """The half-wet scene of ``step.py`` (upper half wet, a pour) with the variant's terms on."""
    x = geom.vertices
    size = float(np.linalg.norm(x.max(0) - x.min(0)))
    changes = dict(VARIANTS[variant])
    if "wind_coefficient" in changes:
        changes["wind"] = gusty_wind
    sim = sf.Simulation(geom, sf.Params(gravity=(0.0, -9.81, 0.0), friction=1.3, **changes))
    upper = x[:, 1] > np.median(x[:, 1])
    sim.set_depth(np.where(upper, 0.005 * size, 0.0))
    sim.add_source(x[np.argmax(x[:, 1])], 0.05 * size, 1e-3 * size ** 3)
    if variant in ("dissolution", "all"):
        sim.set_soluble_layer(np.where(upper, 0.002 * size, 0.0))
    return sim


def milliseconds_per_step(sim, steps, repeats):
    """Median wall time of one adaptive step (ms) and the mean dt taken (s)."""
    for _ in range(3):
        sim.step()
    runs, taken = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        taken.extend(sim.step() for _ in range(steps))
        runs.append((time.perf_counter() - start) / steps)
    return 1e3 * statistics.median(runs), float(np.mean(taken))


def benchmark(name, steps, repeats):
    geom = load(name)
    print(f"{name}: {geom.n_vertices} vertices")
    base = None
    for variant in VARIANTS:
        ms, dt = milliseconds_per_step(simulation(geom, variant), steps, repeats)
        base = ms if base is None else base
        extra = "" if variant == "base" else f"  +{ms - base:6.2f} ms  x{ms / base:4.2f}"
        print(f"    {variant:12s} {ms:8.2f} ms/step  dt {dt:.2e} s{extra}")


if __name__ == "__main__":
    run_for_meshes(__doc__.splitlines()[0], "bunny,ico41k", benchmark)
