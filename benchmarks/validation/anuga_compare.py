"""Dam breaks in surfflow (both schemes) and ANUGA on the same irregular meshes.

A 10 m strip (``--width``, 0.1 m; irregular cells from ``--seed``, 2), d = 5 mm left of
x0 = 5 m, inviscid, walls all round, compared with the exact solution at t = 6 s at four
resolutions (2, 4, 8 and 16 cells across: 603 to 27,217 vertices at the default width).
``--case stoker`` (the default): 1 mm right of the dam (Stoker's wet dam break); prints, per
solver and mesh, the area-weighted relative L1 error of the depth (ANUGA's triangle-centred
depths against the exact one at the centroids, surfflow's vertex depths at the vertices), the
parts of it within 0.3 m of the rarefaction fan and of the bore (``error_by_region``: the rest
is the plateau between them and the still water either side), the bore position error in
cells, and the wall time of the run (median of ``--repeats``; compilation and set-up
excluded). ``--case ritter``: dry right of the dam (Ritter's dry dam break); prints the
relative L1 error, the wet tip (m: the largest x with d >= 1e-6 m; exact 7.66 m) and the wall
time. ANUGA is optional (``pip install anuga``); without it the script says so and times
surfflow alone.

    python benchmarks/validation/anuga_compare.py [--case ritter] [--repeats 3]
        [--resolutions 200x2,400x4,800x8,1600x16] [--seed 2] [--width 0.1]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests"))

import builders  # noqa: E402
import exact_solutions as exact  # noqa: E402
import surfflow as sf  # noqa: E402
from validation_harness import relative_l1  # noqa: E402

LENGTH, WIDTH, DAM, LEFT, RIGHT, END = 10.0, 0.1, 5.0, 0.005, 0.001, 6.0
WET = 1e-6  # m: Ritter's wet tip is the largest x with at least this depth (surfflow's min_depth)


def error_shares(x: np.ndarray, depth: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """(n,) each position's share of the area-weighted relative L1 error of a depth field."""
    reference = exact.stoker_depth(x, END, DAM, LEFT, RIGHT)
    return weights * np.abs(depth - reference) / np.sum(weights * reference)


def stoker_error(x: np.ndarray, depth: np.ndarray, weights: np.ndarray, cell: float) -> tuple:
    """(relative L1 error, bore position error in cells) of a depth field at positions x."""
    l1 = float(error_shares(x, depth, weights).sum())
    middle = exact.stoker_middle_depth(LEFT, RIGHT)
    bore = x[depth > 0.5 * (middle + RIGHT)].max()
    return l1, abs(bore - exact.stoker_shock(END, DAM, LEFT, RIGHT)) / cell


def error_by_region(x: np.ndarray, depth: np.ndarray, weights: np.ndarray,
                    margin: float = 0.3) -> tuple:
    """(fan, bore) parts of ``stoker_error``'s relative L1 error: the sums over the positions
    within ``margin`` (m) of the rarefaction fan (``exact.stoker_fan``) and of the bore;
    x, depth, weights (n,)."""
    share = error_shares(x, depth, weights)
    head, tail = exact.stoker_fan(END, DAM, LEFT, RIGHT)
    fan = (x >= head - margin) & (x < tail + margin)
    bore = np.abs(x - exact.stoker_shock(END, DAM, LEFT, RIGHT)) < margin
    return float(share[fan].sum()), float(share[bore].sum())


def ritter_figures(x: np.ndarray, depth: np.ndarray, weights: np.ndarray) -> tuple:
    """(relative L1 error, wet tip in m) of Ritter's depth field at positions x (n,)."""
    error = relative_l1(depth, exact.ritter_depth(x, END, DAM, LEFT), weights)
    return error, float(x[depth >= WET].max())


def run_surfflow(V, F, scheme: str, right: float = RIGHT) -> tuple:
    geom = sf.precompute((V, F), smoothing_iterations=0)
    params = sf.Params(gravity=(0.0, 0.0, -9.81), friction=0.0, friction_model="linear",
                       boundary="wall", max_dt=1.0, scheme=scheme)
    x = geom.vertices[:, 0]

    def run():
        sim = sf.Simulation(geom, params)
        sim.set_depth(np.where(x < DAM, LEFT, right))
        start = time.perf_counter()
        sim.advance(END)
        return time.perf_counter() - start, sim.depth

    return run, x, geom.dual_areas


def run_anuga(V, F, anuga, right: float = RIGHT) -> tuple:
    points, triangles = V[:, :2].copy(), F.copy()
    centroids = points[triangles].mean(axis=1)
    e1, e2 = points[triangles[:, 1]] - points[triangles[:, 0]], points[triangles[:, 2]] - points[triangles[:, 0]]
    areas = 0.5 * np.abs(e1[:, 0] * e2[:, 1] - e1[:, 1] * e2[:, 0])

    def run():
        domain = anuga.Domain(points, triangles)
        domain.set_store(False)
        domain.set_quantity("elevation", 0.0)
        domain.set_quantity("friction", 0.0)
        domain.set_quantity("stage", lambda px, py: np.where(px < DAM, LEFT, right))
        domain.set_boundary({tag: anuga.Reflective_boundary(domain)
                             for tag in domain.get_boundary_tags()})
        start = time.perf_counter()
        for _ in domain.evolve(yieldstep=END, finaltime=END):
            pass
        seconds = time.perf_counter() - start
        stage = domain.quantities["stage"].centroid_values
        elevation = domain.quantities["elevation"].centroid_values
        return seconds, np.asarray(stage - elevation)

    return run, centroids[:, 0], areas


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", choices=("stoker", "ritter"), default="stoker")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--resolutions", default="200x2,400x4,800x8,1600x16",
                        help="cells along x cells across, comma separated")
    parser.add_argument("--seed", type=int, default=2, help="the strips' irregular cells")
    parser.add_argument("--width", type=float, default=WIDTH, help="the strips' width (m)")
    args = parser.parse_args(argv)
    try:
        import anuga
    except ImportError:
        anuga = None
        print("ANUGA is not installed (pip install anuga): timing surfflow alone")
    ritter = args.case == "ritter"
    right = 0.0 if ritter else RIGHT
    if ritter:
        print(f"{'solver':28s} {'vertices':>8s} {'rel L1':>9s} {'tip (m)':>8s} {'wall s':>8s}")
    else:
        print(f"{'solver':28s} {'vertices':>8s} {'rel L1':>9s} {'fan':>9s} {'bore':>9s} "
              f"{'bore (cells)':>12s} {'wall s':>8s}")
    for resolution in args.resolutions.split(","):
        n_along, n_across = (int(k) for k in resolution.split("x"))
        V, F = builders.strip(LENGTH, args.width, n_along, n_across, seed=args.seed)
        cell = LENGTH / n_along
        solvers = [(f"surfflow {scheme}", *run_surfflow(V, F, scheme, right))
                   for scheme in ("conservative", "momentum")]
        if anuga is not None:
            solvers.append((f"ANUGA {anuga.__version__}", *run_anuga(V, F, anuga, right)))
        for name, run, x, weights in solvers:
            run()  # warm-up: numba's cache, imports
            results = [run() for _ in range(args.repeats)]
            wall = statistics.median(seconds for seconds, _ in results)
            if ritter:
                error, tip = ritter_figures(x, results[-1][1], weights)
                print(f"{name:28s} {len(V):8d} {error:9.2e} {tip:8.2f} {wall:8.2f}", flush=True)
                continue
            error, bore = stoker_error(x, results[-1][1], weights, cell)
            fan_part, bore_part = error_by_region(x, results[-1][1], weights)
            print(f"{name:28s} {len(V):8d} {error:9.2e} {fan_part:9.2e} {bore_part:9.2e} "
                  f"{bore:12.2f} {wall:8.2f}", flush=True)


if __name__ == "__main__":
    main()
