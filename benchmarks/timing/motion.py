"""Per-step cost of a deforming mesh: the position-dependent recompute and the whole step.

Each mesh deforms under a travelling wave (amplitude 1 % of its size, wavelength half its size,
period 1 s) while the liquid setup of ``step.py`` runs on it (half wet, a pour, rain, a sponge).
"recompute" is the step's motion stage: evaluating the motion, ``sf.update_positions`` (normals,
frames, M_ij, dual areas and vectors), the derived fields, the volume-keeping depth rescale and
the acceleration from the positions' history; "step" is the whole step, inertial force
included; "still mesh" the same simulation without motion, timed in turns with it. Medians
(and minima, nearer an idle machine) of --repeats runs of --steps steps. A second line times
the geometry recompute alone both ways, in turns: the one-shot function (``sf.update_positions``,
new arrays every call) and the in-place path the step uses (``GeometryWorkspace.update``, same
bits).
Reference (SPEC §9, on a GPU): 28.9 ms recompute and 41.4 ms per step at 23k vertices.

    python benchmarks/timing/motion.py [--steps 20] [--repeats 5] [--meshes plane23k,bunny,torus205k]

Internals, as the figures need them: the "recompute" column times the step's private motion
stage (``medians.time_stages``); ``GeometryWorkspace`` (the step's in-place geometry update) and
``plane`` (the procedural grid of the scenes, from the mesh input that stays in ``io/``) are not
public.
"""

import os
import statistics
import tempfile
import time

import numpy as np

from medians import run_for_meshes, time_stages
from step import half_wet_simulation, load

import surfflow as sf
from surfflow.geometry.workspace import GeometryWorkspace
from surfflow.io.procedural import plane


def deforming_geometry(name):
    if name == "plane23k":  # 151 x 151 vertices, tilted so the liquid runs
        V, F = plane((1.0, 1.0), (150, 150))
        V = V @ np.array([[1.0, 0.0, 0.0], [0.0, 0.8, 0.6], [0.0, -0.6, 0.8]]).T
        cache = os.path.join(tempfile.gettempdir(), "surfflow-benchmarks")
        return sf.precompute((V, F), smoothing_iterations=10, cache_dir=cache)
    return load(name)


def per_step_seconds(sim, steps):
    start = time.perf_counter()
    for _ in range(steps):
        sim.step()
    return (time.perf_counter() - start) / steps


def benchmark(name, steps, repeats):
    geom = deforming_geometry(name)
    still, sim = half_wet_simulation(geom), half_wet_simulation(geom)
    size = float(np.linalg.norm(np.ptp(geom.vertices, axis=0)))
    sim.set_motion(sf.motion.Wave(0.01 * size, 0.5 * size, 1.0, axis=(1, 0, 0), direction=(0, 0, 1)))
    recompute = time_stages(sim, ("move",))
    for _ in range(3):
        sim.step()
        still.step()
    runs, recomputes, still_runs = [], [], []
    for _ in range(repeats):  # interleaved, so both see the same machine load
        recompute.update(dict.fromkeys(recompute, 0.0))
        runs.append(per_step_seconds(sim, steps))
        recomputes.append(sum(recompute.values()) / steps)
        still_runs.append(per_step_seconds(still, steps))
    book = sim.ledger()
    n = geom.n_vertices
    one_shot, in_place = recompute_paths(sim, repeats)
    per_step = statistics.median(runs)
    print(f"{name:9s} {n:7d} vertices  recompute {1e3 * statistics.median(recomputes):7.2f} ms "
          f"(min {1e3 * min(recomputes):.2f})  step {1e3 * per_step:7.2f} ms (min "
          f"{1e3 * min(runs):.2f})  still mesh {1e3 * statistics.median(still_runs):7.2f} ms (min "
          f"{1e3 * min(still_runs):.2f})  {n / per_step:9.3e} vertex-steps/s  volume error "
          f"{book['balance_error'] / book['current']:.1e}  (medians of {repeats} x {steps})")
    print(f"{'':9s} geometry: one-shot (sf.update_positions) {one_shot:7.2f} ms, "
          f"in place (GeometryWorkspace) {in_place:7.2f} ms")


def recompute_paths(sim, repeats):
    """Median ms of the position-dependent geometry recompute alone, taken in turns: the
    one-shot function that allocates new arrays, and the in-place path the step uses (same
    results)."""
    geom = sim.geometry
    vertices = np.array(geom.vertices)
    workspace = GeometryWorkspace(geom)
    one_shot, in_place = [], []
    for _ in range(2 * repeats + 1):  # the first round warms up
        one_shot.append(seconds(lambda: sf.update_positions(geom, vertices)))
        in_place.append(seconds(lambda: workspace.update(geom, vertices)))
    return 1e3 * statistics.median(one_shot[1:]), 1e3 * statistics.median(in_place[1:])


def seconds(action):
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


if __name__ == "__main__":
    run_for_meshes(__doc__.splitlines()[0], "plane23k,bunny,torus205k", benchmark)
