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
time. ``--case bump``: SWASHES' transcritical bump with a hydraulic jump
(``validation_cases.transcritical_bump_simulation``: a 25 m channel of square cells,
``--resolutions`` 500x4 unless given, 0.18 m^2/s in, the level held at 0.33 m out) run 300 s
from still water, on the irregular strip of ``--seed`` (6 unless given; ``--mesh strip``) or on
ANUGA's own mesh for the case (``--mesh cross``: each square cut into four triangles). ANUGA
holds its validation case's boundaries: stage 0.41374 m and discharge 0.18 m^2/s in, stage
0.33 m and discharge 0.18 m^2/s out. Prints the relative L1 error, its shares upstream of the
bump (x < 8 m), on the approach (8 to 10 m), over the crest and the supercritical lee (10 to
11.4 m), at the jump (11.4 to 12 m) and downstream of it (``validation_cases.BUMP_REGIONS``),
the jump's position (m; exact 11.666 m) and the wall time. ANUGA is optional (``pip install
anuga``); without it the script says so and times surfflow alone.

    python benchmarks/validation/anuga_compare.py [--case ritter|bump] [--repeats 3]
        [--resolutions 200x2,400x4,800x8,1600x16] [--seed 2] [--width 0.1] [--mesh cross]
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
import validation_cases as cases  # noqa: E402
from validation_harness import relative_l1  # noqa: E402

LENGTH, WIDTH, DAM, LEFT, RIGHT, END = 10.0, 0.1, 5.0, 0.005, 0.001, 6.0
BUMP_END, BUMP_INFLOW_STAGE = 300.0, 0.41373588752426715  # s; m, ANUGA's validation case's
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


def anuga_run(V, F, anuga, set_up, end: float, boundary: dict | None = None) -> tuple:
    """(run, x, weights) of an ANUGA run on (V, F): ``run()`` builds the domain (``boundary``
    its tags, ANUGA's {(triangle, edge): tag}), has ``set_up(domain)`` set its quantities and
    boundaries, evolves it to ``end`` (s) and returns (wall seconds, centroid depths); x the
    centroids' x and weights the triangles' areas."""
    points, triangles = V[:, :2].copy(), F.copy()
    centroids = points[triangles].mean(axis=1)
    e1, e2 = points[triangles[:, 1]] - points[triangles[:, 0]], points[triangles[:, 2]] - points[triangles[:, 0]]
    areas = 0.5 * np.abs(e1[:, 0] * e2[:, 1] - e1[:, 1] * e2[:, 0])

    def run():
        domain = anuga.Domain(points, triangles, boundary=boundary)
        domain.set_store(False)
        domain.set_quantity("friction", 0.0)
        set_up(domain)
        start = time.perf_counter()
        for _ in domain.evolve(yieldstep=end, finaltime=end):
            pass
        seconds = time.perf_counter() - start
        stage = domain.quantities["stage"].centroid_values
        elevation = domain.quantities["elevation"].centroid_values
        return seconds, np.asarray(stage - elevation)

    return run, centroids[:, 0], areas


def run_anuga(V, F, anuga, right: float = RIGHT) -> tuple:
    """(run, x, weights) of the dam break in ANUGA on (V, F), walls all round."""
    def set_up(domain):
        domain.set_quantity("elevation", 0.0)
        domain.set_quantity("stage", lambda px, py: np.where(px < DAM, LEFT, right))
        domain.set_boundary({tag: anuga.Reflective_boundary(domain)
                             for tag in domain.get_boundary_tags()})

    return anuga_run(V, F, anuga, set_up, END)


def run_surfflow_bump(V, F, scheme: str) -> tuple:
    """(run, x, weights) of the bump on (V, F) (``run_surfflow``'s form)."""
    def run():
        sim, geom = cases.transcritical_bump_simulation(V, F, scheme)
        start = time.perf_counter()
        sim.advance(BUMP_END)
        return time.perf_counter() - start, np.asarray(sim.depth)

    geom = sf.precompute((V, F), smoothing_iterations=0)
    return run, geom.vertices[:, 0], geom.dual_areas


def boundary_tags(points: np.ndarray, triangles: np.ndarray) -> dict:
    """ANUGA's boundary dict {(triangle, edge): tag} of a channel [0, L] x [0, W]: "left" on
    x = 0, "right" on x = L, "wall" elsewhere; edge k of a triangle is the one opposite its
    vertex k."""
    edges = {}
    for t, corners in enumerate(triangles):
        for k in range(3):
            pair = tuple(sorted((corners[(k + 1) % 3], corners[(k + 2) % 3])))
            edges.setdefault(pair, []).append((t, k))
    length = points[:, 0].max()
    tags = {}
    for (a, b), sides in edges.items():
        if len(sides) == 1:
            middle = 0.5 * (points[a, 0] + points[b, 0])
            tags[sides[0]] = ("left" if middle < 1e-9 else
                              "right" if middle > length - 1e-9 else "wall")
    return tags


def run_anuga_bump(V, F, anuga) -> tuple:
    """(run, x, weights) of the bump in ANUGA on (V, F), with its validation case's boundaries."""
    def set_up(domain):
        domain.set_quantity("elevation", lambda px, py: exact.bump_bottom(px))
        domain.set_quantity("stage", lambda px, py: np.maximum(cases.BUMP_OUTFLOW,
                                                               exact.bump_bottom(px)))
        q = cases.BUMP_DISCHARGE
        domain.set_boundary({"left": anuga.Dirichlet_boundary([BUMP_INFLOW_STAGE, q, 0.0]),
                             "right": anuga.Dirichlet_boundary([cases.BUMP_OUTFLOW, q, 0.0]),
                             "wall": anuga.Reflective_boundary(domain)})

    return anuga_run(V, F, anuga, set_up, BUMP_END,
                     boundary=boundary_tags(V[:, :2], F))


def compare_bump(args, anuga) -> None:
    """The bump's table (module docstring) at each of ``args.resolutions``."""
    print(f"{'solver':28s} {'vertices':>8s} {'rel L1':>9s} "
          + " ".join(f"{name:>10s}" for name in cases.BUMP_REGIONS)
          + f" {'jump (m)':>8s} {'wall s':>8s}")
    for resolution in (args.resolutions or "500x4").split(","):
        n_along, n_across = (int(k) for k in resolution.split("x"))
        V, F = cases.transcritical_bump_mesh(n_along, n_across,
                                             6 if args.seed is None else args.seed, args.mesh)
        solvers = [(f"surfflow {scheme}", *run_surfflow_bump(V, F, scheme))
                   for scheme in ("conservative", "momentum")]
        if anuga is not None:
            solvers.append((f"ANUGA {anuga.__version__}", *run_anuga_bump(V, F, anuga)))
        for name, run, x, weights in solvers:
            results = [run() for _ in range(args.repeats)]
            wall = statistics.median(seconds for seconds, _ in results)
            depth = results[-1][1]
            shares = cases.bump_error_by_region(x, depth, weights)
            print(f"{name:28s} {len(V):8d} {sum(shares.values()):9.2e} "
                  + " ".join(f"{share:10.2e}" for share in shares.values())
                  + f" {cases.bump_jump(x, depth):8.3f} {wall:8.2f}", flush=True)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", choices=("stoker", "ritter", "bump"), default="stoker")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--resolutions", default=None,
                        help="cells along x cells across, comma separated (dam breaks: "
                             "200x2,400x4,800x8,1600x16; bump: 500x4)")
    parser.add_argument("--seed", type=int, default=None,
                        help="the strips' irregular cells (dam breaks: 2; bump: 6)")
    parser.add_argument("--width", type=float, default=WIDTH,
                        help="the dam breaks' strip width (m)")
    parser.add_argument("--mesh", choices=("strip", "cross"), default="strip",
                        help="the bump's channel: the irregular strip or ANUGA's cross mesh")
    args = parser.parse_args(argv)
    try:
        import anuga
    except ImportError:
        anuga = None
        print("ANUGA is not installed (pip install anuga): timing surfflow alone")
    if args.case == "bump":
        compare_bump(args, anuga)
        return
    seed = 2 if args.seed is None else args.seed
    ritter = args.case == "ritter"
    right = 0.0 if ritter else RIGHT
    if ritter:
        print(f"{'solver':28s} {'vertices':>8s} {'rel L1':>9s} {'tip (m)':>8s} {'wall s':>8s}")
    else:
        print(f"{'solver':28s} {'vertices':>8s} {'rel L1':>9s} {'fan':>9s} {'bore':>9s} "
              f"{'bore (cells)':>12s} {'wall s':>8s}")
    for resolution in (args.resolutions or "200x2,400x4,800x8,1600x16").split(","):
        n_along, n_across = (int(k) for k in resolution.split("x"))
        V, F = builders.strip(LENGTH, args.width, n_along, n_across, seed=seed)
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
