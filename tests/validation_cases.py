"""The validation cases of VALIDATION.md, driven through surfflow's public API only.

Each ``run_*`` function builds its mesh (``builders``), sets the initial state from the known
answer (``exact_solutions``), runs the solver and returns a dict of measured figures: the case's
error against its known answer, the mesh size and the invariants of the run (see
``validation_harness.InvariantMonitor``). The tests (``test_validation_*.py``) assert on these
figures at a coarse resolution; ``benchmarks/validation/report.py`` prints them at full
resolution. Inviscid cases use the linear friction model with friction 0. Every case takes ``scheme``,
the momentum scheme of ``Params`` (the report runs both).
"""

from __future__ import annotations

import contextlib
import math

import numpy as np
from scipy.spatial import Delaunay
from scipy.spatial.transform import Rotation

import builders
import surfflow as sf
import surfflow.schemes.shared as schemes
import surfflow.terms.dissolution as dissolution
import exact_solutions as exact
from validation_harness import (GRAVITY_DOWN, InvariantMonitor, advance_checked, dyadic,
                                make_simulation, relative_l1, step_checked)

INVISCID = {"gravity": GRAVITY_DOWN, "friction": 0.0, "friction_model": "linear"}
DEFAULT_EXPANSION = sf.Params.expansion  # what the momentum scheme's cases run unless told
FRONT_DEPTH = 1e-4  # m: the depth that marks Ritter's wet front (2 % of the dam's depth)


def run_lake_bump(level: float, n_along: int = 100, steps: int = 10_000, seed: int = 1,
        scheme: str = "momentum", held: bool = False) -> dict:
    """Lake at rest over the bump b = max(0, 0.2 - 0.05 (x - 10)^2) on a 25 m strip.

    level: free-surface height h = b + d (0.5 immerses the bump, 0.1 leaves its top dry).
    held: a "level" boundary segment at x = 25 holds the lake's level (and one at x = 0 lets
    nothing in: a discharge of 0).
    n_along cells along x, 4 square-ish cells across, ``steps`` adaptive steps. b is rounded to
    multiples of 2^-24 so that b + d equals the level exactly. Figures: max_speed (largest |u|
    seen, m/s) and max_depth_change (m) besides the invariants.
    """
    V, F = builders.strip(25.0, 4 * 25.0 / n_along, n_along, 4, seed=seed)
    sim, geom = make_simulation(V, F, scheme=scheme, **INVISCID)
    bottom = dyadic(exact.bump_bottom(geom.vertices[:, 0]))
    sim.set_bottom(bottom)
    sim.set_depth(np.maximum(0.0, level - bottom))
    if held:
        sim.set_boundary("level", level=level, plane=((25.0, 0.0, 0.0), (1.0, 0.0, 0.0)))
        sim.set_boundary("inflow", discharge=0.0, plane=((0.0, 0.0, 0.0), (-1.0, 0.0, 0.0)))
    initial_depth = np.array(sim.depth)
    monitor = InvariantMonitor(sim)
    step_checked(sim, steps, monitor)
    return {"n_vertices": len(V), "steps": steps, "time": sim.time,
            "max_depth_change": float(np.abs(np.asarray(sim.depth) - initial_depth).max()),
            **monitor.figures()}


def run_lake_bowl(n_rings: int = 32, steps: int = 4000, level: float = -0.5,
                  noise: float = 1e-14, seed: int = 0,
        scheme: str = "momentum") -> dict:
    """Lake at rest in a hemispherical bowl of radius 1 m (bottom at z = -1), free surface at
    z = ``level``: d_i = (level - z_i) / n_z,i where positive, so x_i + d_i n_i is at the level.

    The depths are then multiplied by (1 + noise xi_i), xi_i uniform in [-1, 1]: round-off-sized
    noise (the free surface of a real run is level only to round-off; without it this bowl starts
    bit-exactly at rest and nothing can grow). Figures: max_speed (m/s), max_depth_change (m),
    surface_spread (range of the noise-free wet free-surface heights, m) and the invariants.
    """
    V, F = builders.hemispherical_bowl(1.0, n_rings)
    sim, geom = make_simulation(V, F, scheme=scheme, **INVISCID)
    depth = exact.lake_depth(geom.vertices, geom.normals, np.array(GRAVITY_DOWN), level)
    wet = depth > 0
    surface = geom.vertices[wet, 2] + depth[wet] * geom.normals[wet, 2]
    depth = depth * (1.0 + noise * np.random.default_rng(seed).uniform(-1.0, 1.0, len(depth)))
    sim.set_depth(depth)
    monitor = InvariantMonitor(sim)
    step_checked(sim, steps, monitor, every=500)
    return {"n_vertices": len(V), "wet_vertices": int(wet.sum()), "steps": steps, "time": sim.time,
            "surface_spread": float(np.ptp(surface)),
            "max_depth_change": float(np.abs(np.asarray(sim.depth) - depth).max()),
            **monitor.figures()}


def flat_disc(radius: float, n_rings: int = 12):
    """The flat disc of ``radius`` in the plane z = 0 on ``n_rings`` rings of points
    (``builders.disc_points``, seed 3), its geometry unsmoothed."""
    P = builders.disc_points(n_rings, seed=3) * radius
    V = np.column_stack([P, np.zeros(len(P))])
    return sf.precompute((V, Delaunay(P).simplices.astype(np.int64)), smoothing_iterations=0)


def turn_velocity(omega: float, x: np.ndarray) -> np.ndarray:
    """Omega x r (n, 3) for a turn at ``omega`` rad/s about the z axis, x (n, 3)."""
    return omega * np.column_stack([-x[:, 1], x[:, 0], np.zeros(len(x))])


def run_turntable(n_rings: int = 12, turns: float = 1.0, omega: float = 1.0, radius: float = 0.5,
                  depth: float = 0.005, scheme: str = "momentum", prepare=None) -> dict:
    """VALIDATION.md's turntable: a frictionless film at rest in the world on a frictionless
    walled disc of ``radius`` turning at ``omega`` rad/s about its normal, gravity along the
    axis; its velocity relative to the disc starts at -Omega x r. After ``turns`` turns:
    world_speed, max |u + Omega x r| / (Omega R) (target < 0.01 after one turn), the same
    inside 0.6 R (inner_world_speed), depth_change the largest relative change of the depth,
    and the invariants. ``prepare(sim)`` runs before the first step."""
    geom = flat_disc(radius, n_rings)
    sim = sf.Simulation(geom, sf.Params(gravity=GRAVITY_DOWN, friction=0.0, boundary="wall",
                                        max_dt=2e-3, scheme=scheme), motion=spin_about_z(omega))
    sim.set_depth(np.full(geom.n_vertices, depth))
    sim.set_velocity(-turn_velocity(omega, geom.vertices))
    if prepare is not None:
        prepare(sim)
    monitor = InvariantMonitor(sim)
    sim.advance(turns * 2.0 * math.pi / omega)
    monitor.check()
    x = sim.geometry.vertices
    world = np.linalg.norm(sim.velocity + turn_velocity(omega, x), axis=1) / (omega * radius)
    inner = np.linalg.norm(x, axis=1) < 0.6 * radius
    return {"n_vertices": geom.n_vertices, "world_speed": float(world.max()),
            "inner_world_speed": float(world[inner].max()),
            "depth_change": float(np.abs(sim.depth - depth).max() / depth), **monitor.figures()}


def spin_about_z(omega: float):
    """The motion (rest (n, 3), t) -> vertices of a turn at ``omega`` rad/s about the z axis."""
    def spin(rest, t):
        c, s = math.cos(omega * t), math.sin(omega * t)
        return rest @ np.array([[c, s, 0.0], [-s, c, 0.0], [0.0, 0.0, 1.0]])
    return spin


def run_spinning_bowl(n_rings: int = 12, turns: float = 0.25, omega: float = 1.0,
                      radius: float = 0.5, level: float = -0.35, scheme: str = "momentum") -> dict:
    """A lake at rest in the world in a frictionless hemispherical bowl of ``radius`` (bottom at
    z = -radius) turning at ``omega`` rad/s about its axis, gravity along the axis: the free
    surface flat at z = ``level`` (``exact.lake_depth``), the velocity relative to the bowl
    -Omega x r. Nothing should move in the world; the lake's shoreline runs around the bowl
    against dry ground above the level, along which the relative flow runs. After ``turns``
    turns: world_speed, max |u + Omega x r| over the wet vertices divided by Omega R_lake (R_lake
    the radius of the wettest ring), the same at the shoreline's vertices (shore_world_speed)
    and the invariants."""
    V, F = builders.hemispherical_bowl(radius, n_rings, seed=3)
    geom = sf.precompute((V, F), smoothing_iterations=0)
    sim = sf.Simulation(geom, sf.Params(gravity=GRAVITY_DOWN, friction=0.0, boundary="wall",
                                        max_dt=2e-3, scheme=scheme), motion=spin_about_z(omega))
    depth = exact.lake_depth(geom.vertices, geom.normals, np.array(GRAVITY_DOWN), level)
    sim.set_depth(depth)
    sim.set_velocity(-turn_velocity(omega, geom.vertices))
    wet = depth > 0
    shore = wet & np.array([(depth[geom.neighbor_indices[a:b]] == 0).any() for a, b
                            in zip(geom.neighbor_offsets[:-1], geom.neighbor_offsets[1:])])
    lake_radius = np.hypot(V[wet, 0], V[wet, 1]).max()
    monitor = InvariantMonitor(sim)
    sim.advance(turns * 2.0 * math.pi / omega)
    monitor.check()
    x = sim.geometry.vertices
    world = np.linalg.norm(sim.velocity + turn_velocity(omega, x), axis=1) / (omega * lake_radius)
    wet_now = sim.depth >= sim.params.min_depth
    return {"n_vertices": geom.n_vertices, "world_speed": float(world[wet_now].max()),
            "shore_world_speed": float(world[shore & wet_now].max()), **monitor.figures()}


SPHERE_SPIN = (0.3, 0.5, 0.8)  # rad/s: run_spinning_sphere's turn, about a tilted axis


def run_spinning_sphere(subdivisions: int = 3, turns: float = 0.25, radius: float = 0.5,
                        depth: float = 0.002, scheme: str = "momentum") -> dict:
    """A frictionless film at rest in the world on a sphere of ``radius`` (an icosphere of
    ``subdivisions``) turning at ``SPHERE_SPIN`` rad/s about that tilted axis through its centre,
    no gravity: the velocity relative to the sphere starts at -Omega x r, curved everywhere.
    After ``turns`` turns: world_speed, max |u + Omega x r| / (|Omega| R), depth_change the
    largest relative change of the depth, and the invariants."""
    omega = np.array(SPHERE_SPIN)
    V, F = builders.icosphere(radius, subdivisions)
    geom = sf.precompute((V, F), smoothing_iterations=0)

    def spin(rest, t):
        return Rotation.from_rotvec(omega * t).apply(rest)

    sim = sf.Simulation(geom, sf.Params(gravity=(0.0, 0.0, 0.0), friction=0.0, max_dt=2e-3,
                                        scheme=scheme), motion=spin)
    sim.set_depth(np.full(geom.n_vertices, depth))
    sim.set_velocity(-np.cross(omega, geom.vertices))
    monitor = InvariantMonitor(sim)
    speed = float(np.linalg.norm(omega))
    sim.advance(turns * 2.0 * math.pi / speed)
    monitor.check()
    world = np.linalg.norm(sim.velocity + np.cross(omega, sim.geometry.vertices), axis=1)
    return {"n_vertices": geom.n_vertices, "world_speed": float(world.max() / (speed * radius)),
            "depth_change": float(np.abs(sim.depth - depth).max() / depth), **monitor.figures()}


def strip_width(n_along: int, n_across: int, width: float | None = None) -> float:
    """The width (m) of a 10 m dam-break strip: ``width`` if given, else the one that makes its
    n_along x n_across cells square (n_across 10 / n_along)."""
    return n_across * 10.0 / n_along if width is None else width


def run_ritter(n_along: int = 2000, n_across: int = 4, end_time: float = 6.0,
        scheme: str = "momentum", expansion: str = DEFAULT_EXPANSION, seed: int = 2,
        width: float | None = None) -> dict:
    """Ritter's dry dam break on a 10 m strip (``width``, square cells' n_across 10 / n_along
    unless given; irregular cells from ``seed``): d = 0.005 m for x < 5, dry beyond, released
    at rest, compared with the exact depth at ``end_time``. Figures: error (area-weighted
    relative L1 of the depth over the strip), front and exact_front (m: the largest x where the
    depth exceeds FRONT_DEPTH, numerical and exact), tip (m: the largest wet x, d >= min_depth)
    and the invariants. ``expansion``: the momentum scheme's ``Params.expansion``."""
    dam, left_depth = 5.0, 0.005
    width = strip_width(n_along, n_across, width)
    V, F = builders.strip(10.0, width, n_along, n_across, seed=seed)
    sim, geom = make_simulation(V, F, scheme=scheme, expansion=expansion, max_dt=1.0,
                                **INVISCID)
    x = geom.vertices[:, 0]
    sim.set_depth(np.where(x < dam, left_depth, 0.0))
    monitor = InvariantMonitor(sim)
    advance_checked(sim, end_time, monitor)
    reference = exact.ritter_depth(x, end_time, dam, left_depth)
    depth = np.asarray(sim.depth)
    celerity = np.sqrt(exact.G * left_depth)
    exact_front = dam + 2.0 * end_time * (celerity - 1.5 * np.sqrt(exact.G * FRONT_DEPTH))
    return {"n_vertices": len(V), "n_along": n_along,
            "error": relative_l1(depth, reference, geom.dual_areas),
            "front": float(x[depth > FRONT_DEPTH].max()), "exact_front": float(exact_front),
            "tip": float(x[depth >= sim.params.min_depth].max()),
            **monitor.figures()}


THACKER_FULL_CELLS = 158  # VALIDATION.md's Thacker mesh: 158 x 158 cells, about 25k vertices


def thacker_bound(n_cells: int) -> float:
    """Thacker's bound on an n_cells x n_cells mesh: VALIDATION.md's 0.05 at
    ``THACKER_FULL_CELLS``, allowed to grow at first order in the cell size on a coarser one,
    0.05 x 158 / n."""
    return 0.05 * THACKER_FULL_CELLS / n_cells


def run_thacker(n_cells: int = THACKER_FULL_CELLS, periods: float = 1.0,
        scheme: str = "momentum") -> dict:
    """Thacker's radial paraboloid on a 4 m x 4 m flat square with the bottom
    z = h0 (r^2/a^2 - 1) given by set_bottom, h0 = 0.1, a = 1, r0 = 0.8, started from the exact
    state at t = 0 (at rest) and compared after ``periods`` periods 2 pi / omega.
    Figures: error (area-weighted relative L1 of the depth), period (s) and the invariants."""
    h0, a, r0 = 0.1, 1.0, 0.8
    V, F = builders.rectangle(-2.0, 2.0, -2.0, 2.0, n_cells, n_cells, seed=3)
    sim, geom = make_simulation(V, F, scheme=scheme, max_dt=1.0, **INVISCID)
    r = np.hypot(geom.vertices[:, 0], geom.vertices[:, 1])
    sim.set_bottom(exact.thacker_bottom(r, h0, a))
    sim.set_depth(exact.thacker_depth(r, 0.0, h0, a, r0))
    period = 2.0 * np.pi / exact.thacker_omega(h0, a)
    monitor = InvariantMonitor(sim)
    advance_checked(sim, periods * period, monitor)
    reference = exact.thacker_depth(r, periods * period, h0, a, r0)
    return {"n_vertices": len(V), "period": period,
            "error": relative_l1(np.asarray(sim.depth), reference, geom.dual_areas),
            **monitor.figures()}


def run_nusselt(n_along: int = 100, n_across: int = 4, duration: float = 10.0,
                film_depth: float = 2e-3, viscosity: float = 1e-4, angle_deg: float = 30.0,
        scheme: str = "momentum") -> dict:
    """Nusselt film on a 1 m plane tilted by ``angle_deg``, laminar friction.

    The top edge lets in q = g sin(beta) d_N^3 / (3 nu) per width, the flux of a film of depth
    d_N = ``film_depth`` (an inflow boundary segment: exactly q on every part of the edge, as the
    Nusselt solution has it); a sink disc over the bottom end (s > 0.95 m) removes what arrives;
    the other edges are walls. (A pour disc of radius 0.1 m centred on the top edge, which fed
    the momentum scheme before it took open boundaries, is no Nusselt inflow: on the irregular
    mesh its edge row is cut, so the flux per width differs across the strip, a cross-slope tilt
    the shallow-water equations carry downstream decaying as exp(-lambda s), lambda = 7.06 / m;
    fed by it the momentum scheme's error was 4.9e-4, fed by the boundary 1.7e-7, the
    conservative scheme's 1.1e-3 and 1e-9.) The plane starts under a film
    of 0.9 d_N at rest (the 10 % deficit is washed out at about 2.7 U = 0.18 m/s, where a dry
    start needs the film's front speed U = 0.065 m/s). After ``duration`` seconds the depth on
    the middle part (0.4 m < s < 0.8 m) is compared with d_N. Figures: error (max relative
    error there), mean_error (of the area-weighted mean depth there), outflow_ratio (sink rate
    over pour rate during the last second) and the invariants.
    """
    angle, length = np.radians(angle_deg), 1.0
    width = n_across * length / n_along
    V, F = builders.inclined_plane(length, width, angle, n_along, n_across, seed=4)
    sim, geom = make_simulation(V, F, scheme=scheme, gravity=GRAVITY_DOWN, friction_model="laminar",
                                viscosity=viscosity, max_dt=0.05)
    rate = exact.nusselt_flux(film_depth, viscosity, angle) * width
    downhill_direction = (np.cos(angle), 0.0, -np.sin(angle))
    sim.set_boundary("inflow", discharge=rate / width, plane=((0.0, 0.0, 0.0), downhill_direction))
    bottom_end = (length * np.cos(angle), 0.5 * width, -length * np.sin(angle))
    sim.add_sink(center=bottom_end, radius=0.05, rate=100.0 * rate)
    sim.set_depth(np.full(len(V), 0.9 * film_depth))
    monitor = InvariantMonitor(sim)
    advance_checked(sim, duration - 1.0, monitor)
    sunk_before = sim.ledger()["sunk"]
    advance_checked(sim, 1.0, monitor, chunks=2)
    downhill = geom.vertices[:, 0] / np.cos(angle)
    middle = (downhill > 0.4) & (downhill < 0.8)
    reference = exact.nusselt_depth(rate / width, viscosity, angle)
    depth = np.asarray(sim.depth)[middle]
    mean_depth = np.sum(depth * geom.dual_areas[middle]) / np.sum(geom.dual_areas[middle])
    return {"n_vertices": len(V), "film_depth": reference,
            "error": float(np.abs(depth / reference - 1.0).max()),
            "mean_error": float(abs(mean_depth / reference - 1.0)),
            "outflow_ratio": (sim.ledger()["sunk"] - sunk_before) / rate,
            **monitor.figures()}


def supercritical_slope(n_along: int = 100, n_across: int = 4, discharge: float = 0.01,
                        slope: float = 0.15, scheme: str = "momentum",
                        expansion: str = DEFAULT_EXPANSION, seed: int = 4,
                        scale: float = 1.0) -> tuple:
    """``run_supercritical_slope``'s simulation at its start: (sim, geom, angle), angle the
    slope's in radians. ``scale`` multiplies every length (the mesh, the film, ``min_depth``) by
    s, the time (``max_dt``) by sqrt(s) and the discharge by s^1.5: the same flow by Froude
    similarity (tests/test_similarity.py)."""
    angle, length = np.arctan(slope), 10.0
    width = n_across * length / n_along
    V, F = builders.inclined_plane(length, width, angle, n_along, n_across, seed=seed)
    sim, geom = make_simulation(scale * V, F, scheme=scheme, expansion=expansion,
                                max_dt=np.sqrt(scale), min_depth=1e-6 * scale, **INVISCID)
    downhill_direction = (np.cos(angle), 0.0, -np.sin(angle))
    sim.set_boundary("inflow", discharge=discharge * scale ** 1.5,
                     plane=((0.0, 0.0, 0.0), downhill_direction))
    bottom_end = scale * np.array([length * np.cos(angle), 0.0, -length * np.sin(angle)])
    sim.set_boundary("transmissive", plane=(bottom_end, downhill_direction))
    sim.set_depth(np.full(len(V), 5e-3 * scale))
    return sim, geom, angle


def run_supercritical_slope(n_along: int = 100, n_across: int = 4, duration: float = 20.0,
                            discharge: float = 0.01, slope: float = 0.15,
                            scheme: str = "momentum", expansion: str = DEFAULT_EXPANSION,
                            seed: int = 4) -> dict:
    """Frictionless supercritical flow down a 10 m plane at ``slope`` (rise over run): the top
    edge lets in ``discharge`` m^2/s (an inflow boundary, at the critical depth), the bottom
    edge is transmissive, the sides are walls; started from a 5 mm film at rest and run for
    ``duration`` s (the liquid crosses the plane in about 3 s), by when the flow is steady and
    accelerates from about 0.8 m/s to 5.4 m/s (Froude number 2.5 to 40). With no friction the
    energy head H = z + d (e . n) + |u|^2 / (2 g) (z the bed's height, d (e . n) the depth's
    vertical extent) is the same everywhere along the flow. Figures: head_spread (m, the largest
    minus the smallest of the area-weighted mean heads over the 1 m bands from s = 0.5 m to
    9.5 m, s the downhill distance), head_drop (m, the mean head over 1 m < s < 2 m minus that
    over 8 m < s < 9 m), head_across (m, the largest over those bands of the area-weighted rms
    of the head about its band's mean: the heads across the flow), outflow_ratio (what left
    through the bottom edge during the last second over what came in), the vertices' downhill
    distances s and heads H (n,) (downhill, head) and the invariants.
    ``expansion``: the momentum scheme's ``Params.expansion``; ``seed``: the irregular cells'."""
    sim, geom, angle = supercritical_slope(n_along, n_across, discharge, slope, scheme, expansion,
                                           seed)
    monitor = InvariantMonitor(sim)
    advance_checked(sim, duration - 1.0, monitor)
    before = sim.ledger()
    advance_checked(sim, 1.0, monitor, chunks=2)
    after = sim.ledger()
    speed2 = np.sum(np.asarray(sim.velocity) ** 2, axis=1)
    head = (geom.vertices[:, 2] + np.asarray(sim.depth) * np.cos(angle)
            + speed2 / (2.0 * exact.G))
    downhill = geom.vertices[:, 0] / np.cos(angle)

    def band(start, stop):
        """The area-weighted mean of the head over start <= s < stop, and its rms about it."""
        inside = (downhill >= start) & (downhill < stop)
        weights = geom.dual_areas[inside] / np.sum(geom.dual_areas[inside])
        mean = weights @ head[inside]
        return float(mean), float(np.sqrt(weights @ (head[inside] - mean) ** 2))

    bands = [band(start, start + 1.0) for start in np.arange(0.5, 9.0, 1.0)]
    means = [mean for mean, _ in bands]
    return {"n_vertices": geom.n_vertices, "downhill": downhill, "head": head,
            "head_spread": max(means) - min(means),
            "head_drop": band(1.0, 2.0)[0] - band(8.0, 9.0)[0],
            "head_across": max(across for _, across in bands),
            "outflow_ratio": ((after["outflow"] - before["outflow"])
                              / (after["inflow"] - before["inflow"])),
            **monitor.figures()}


def run_draining_film(subdivisions: int = 4, times: tuple = (1.0, 3.0, 10.0), radius: float = 1.0,
                      film_depth: float = 1e-3, viscosity: float = 1e-4,
        scheme: str = "momentum") -> dict:
    """A uniform film of ``film_depth`` draining off an icosphere, laminar friction, gravity -z.

    The depth at the top vertex is compared at ``times`` with d = (d0^-2 + 4 g t/(3 nu R))^-1/2
    (valid while d^2 / (3 nu), here 3e-3 s, is much less than t). Figures: errors (relative error
    at each time), error (the largest) and the invariants.
    """
    V, F = builders.icosphere(radius, subdivisions)
    sim, geom = make_simulation(V, F, scheme=scheme, gravity=GRAVITY_DOWN, friction_model="laminar",
                                viscosity=viscosity, max_dt=0.05)
    sim.set_depth(np.full(len(V), film_depth))
    top = int(np.argmax(geom.vertices[:, 2]))
    monitor = InvariantMonitor(sim)
    errors = []
    for t in times:
        advance_checked(sim, t - sim.time, monitor, chunks=2)
        reference = exact.draining_film_depth(t, film_depth, viscosity, radius)
        errors.append(float(abs(sim.depth[top] / reference - 1.0)))
    return {"n_vertices": len(V), "errors": errors, "error": max(errors), **monitor.figures()}


def run_gravity_wave(n_along: int = 300, still_depth: float = 1.0, amplitude: float = 1e-3,
                     times: tuple = (1.5, 3.5),
        scheme: str = "momentum") -> dict:
    """Small Gaussian hump (sigma 1 m, amplitude 1e-3 d0) on still water in a 30 m strip,
    released at rest at x = 10 m; it splits into two halves moving at +-sqrt(g d0).

    The front speed is measured from the centroid of the volume excess over x > 10 m (the
    right-moving half) at the two ``times``: speed = (x_2 - x_1) / (t_2 - t_1). Figures: speed
    (m/s), error (|speed / sqrt(g d0) - 1|), peak_ratio (the half's crest height at the last
    time over the exact a/2: numerical damping) and the invariants.
    """
    center, length = 10.0, 30.0
    V, F = builders.strip(length, 4 * length / n_along, n_along, 4, seed=5)
    sim, geom = make_simulation(V, F, scheme=scheme, max_dt=1.0, **INVISCID)
    x = geom.vertices[:, 0]
    sim.set_depth(still_depth + exact.gaussian_hump(x, center, amplitude, 1.0))
    right = x > center
    weights = geom.dual_areas[right]
    monitor = InvariantMonitor(sim)
    centroids = []
    for t in times:
        advance_checked(sim, t - sim.time, monitor, chunks=2)
        excess = weights * (np.asarray(sim.depth)[right] - still_depth)
        centroids.append(float(np.sum(excess * x[right]) / np.sum(excess)))
    speed = (centroids[1] - centroids[0]) / (times[1] - times[0])
    crest = float(np.max(np.asarray(sim.depth)[right]) - still_depth)
    return {"n_vertices": len(V), "speed": speed,
            "error": float(abs(speed / np.sqrt(exact.G * still_depth) - 1.0)),
            "peak_ratio": crest / (0.5 * amplitude), **monitor.figures()}


BUMP_LENGTH, BUMP_DISCHARGE, BUMP_OUTFLOW = 25.0, 0.18, 0.33  # m, m^2/s, m: SWASHES' case
BUMP_REGIONS = {"upstream": (0.0, 8.0), "approach": (8.0, 10.0), "lee": (10.0, 11.4),
                "jump": (11.4, 12.0), "downstream": (12.0, BUMP_LENGTH)}  # m along x


def transcritical_bump_mesh(n_along: int, n_across: int = 4, seed: int = 6,
                            mesh: str = "strip") -> tuple[np.ndarray, np.ndarray]:
    """The bump's 25 m channel, n_along cells along and n_across square cells across: the
    irregular ``builders.strip`` of ``seed`` (mesh "strip") or ANUGA's mesh for this case,
    ``builders.rectangle_cross`` (mesh "cross", four triangles a cell). Returns V (n, 3), F (m, 3)."""
    width = n_across * BUMP_LENGTH / n_along
    if mesh == "cross":
        return builders.rectangle_cross(0.0, BUMP_LENGTH, 0.0, width, n_along, n_across)
    return builders.strip(BUMP_LENGTH, width, n_along, n_across, seed=seed)


def transcritical_bump_simulation(V: np.ndarray, F: np.ndarray,
                                  scheme: str) -> tuple[sf.Simulation, sf.SurfaceGeometry]:
    """The bump's set-up on the channel (V, F) (``transcritical_bump_mesh``): bottom
    ``bump_bottom``, still water at the outflow's level, 0.18 m^2/s flowing in at x = 0, the level
    held at 0.33 m at x = 25, inviscid. Returns (simulation, geometry)."""
    sim, geom = make_simulation(V, F, scheme=scheme, max_dt=1.0, **INVISCID)
    bottom = exact.bump_bottom(geom.vertices[:, 0])
    sim.set_bottom(bottom)
    sim.set_depth(np.maximum(0.0, BUMP_OUTFLOW - bottom))
    sim.set_boundary("inflow", discharge=BUMP_DISCHARGE,
                     plane=((0.0, 0.0, 0.0), (-1.0, 0.0, 0.0)))
    sim.set_boundary("level", level=BUMP_OUTFLOW, plane=((BUMP_LENGTH, 0.0, 0.0), (1.0, 0.0, 0.0)))
    return sim, geom


def bump_jump(x: np.ndarray, depth: np.ndarray) -> float:
    """The jump's position (m) in a depth field at positions x (n,): the first x past the crest
    (x > 10 m) where the depth exceeds the mean of the supercritical depth at b = 0 and the
    outflow depth; nan where none does."""
    level = 0.5 * (exact.bernoulli_depth(exact.crest_head(BUMP_DISCHARGE), 0.0, BUMP_DISCHARGE,
                                         True) + BUMP_OUTFLOW)
    risen = (x > 10.0) & (depth > level)
    return float(x[risen].min()) if risen.any() else float("nan")


def bump_error_by_region(x: np.ndarray, depth: np.ndarray, weights: np.ndarray) -> dict:
    """Each ``BUMP_REGIONS`` region's share of the bump's area-weighted relative L1 error of a
    depth field (x, depth, weights (n,)): the shares sum to ``relative_l1``'s error."""
    reference = exact.transcritical_bump(x, BUMP_DISCHARGE, BUMP_OUTFLOW)[0]
    share = weights * np.abs(depth - reference) / np.sum(weights * reference)
    return {name: float(share[(x >= low) & (x < high)].sum())
            for name, (low, high) in BUMP_REGIONS.items()}


def run_transcritical_bump(n_along: int = 100, n_across: int = 4, end_time: float = 200.0,
                           scheme: str = "conservative", seed: int = 6,
                           mesh: str = "strip") -> dict:
    """SWASHES' steady transcritical flow with a hydraulic jump: a 25 m channel over
    ``bump_bottom``, a discharge of 0.18 m^2/s flowing in at x = 0, the level held at 0.33 m at
    x = 25, started from still water at that level and run for ``end_time`` s
    (``transcritical_bump_simulation``; the channel ``transcritical_bump_mesh``'s ``mesh`` of
    ``seed``). Figures: error (area-weighted relative L1 of the depth), jump and exact_jump (m:
    ``bump_jump``, numerical; the conjugate-depth position, exact), cell (m, the spacing along),
    inflow (the ledger's inflow over discharge x width x time), head_upstream (m: the vertices'
    mean energy head b + d + u^2 / (2 g) over 2 m < x < 7 m less the critical head the crest
    passes the flow on, 1.5 (q^2 / g)^(1/3) + 0.2 m, the exact upstream head) and the invariants."""
    V, F = transcritical_bump_mesh(n_along, n_across, seed, mesh)
    sim, geom = transcritical_bump_simulation(V, F, scheme)
    monitor = InvariantMonitor(sim)
    advance_checked(sim, end_time, monitor)
    x = geom.vertices[:, 0]
    bottom = exact.bump_bottom(x)
    reference, exact_jump = exact.transcritical_bump(x, BUMP_DISCHARGE, BUMP_OUTFLOW)
    depth = np.asarray(sim.depth)
    upstream = (x > 2.0) & (x < 7.0)
    head = bottom + depth + np.sum(sim.velocity ** 2, axis=1) / (2.0 * exact.G)
    critical_head = exact.crest_head(BUMP_DISCHARGE)
    width = n_across * BUMP_LENGTH / n_along
    return {"n_vertices": len(V), "error": relative_l1(depth, reference, geom.dual_areas),
            "head_upstream": float(head[upstream].mean() - critical_head),
            "jump": bump_jump(x, depth), "exact_jump": exact_jump, "cell": BUMP_LENGTH / n_along,
            "inflow": sim.ledger()["inflow"] / (BUMP_DISCHARGE * width * end_time),
            **monitor.figures()}


# (n_along, n_across, width m, seed): ANUGA's relative L1 error of Stoker's depth on the strip
# run_stoker builds, measured with benchmarks/validation/anuga_compare.py (its own strips, seed 2:
# ANUGA 4.1; the others, the strips of test_validation_expansion's Ritter ladder: ANUGA 4.2, which
# gives seed 2's coarsest the same 5.70e-3)
ANUGA_STOKER = {(200, 2, 0.1, 2): 5.70e-3, (400, 4, 0.1, 2): 3.04e-3, (800, 8, 0.1, 2): 1.53e-3,
                (1600, 16, 0.1, 2): 8.91e-4,
                (200, 4, 0.1, 7): 5.93e-3, (400, 8, 0.1, 7): 3.25e-3, (800, 16, 0.1, 7): 2.10e-3,
                (150, 3, 0.2, 11): 6.49e-3, (300, 6, 0.2, 11): 3.86e-3,
                (100, 2, 0.15, 13): 1.06e-2, (200, 4, 0.15, 13): 4.69e-3,
                (400, 8, 0.15, 13): 2.93e-3, (150, 5, 0.3, 5): 6.58e-3, (300, 10, 0.3, 5): 3.69e-3,
                (200, 2, 0.1, 17): 5.15e-3, (400, 4, 0.1, 17): 2.70e-3, (800, 8, 0.1, 17): 1.54e-3,
                (200, 5, 0.25, 19): 4.64e-3, (400, 10, 0.25, 19): 3.34e-3,
                # ANUGA 4.2 on strips of seeds and aspects the scheme was not tuned on
                (200, 2, 0.1, 23): 4.50e-3, (400, 4, 0.1, 23): 2.53e-3,
                (200, 6, 0.2, 29): 5.48e-3, (300, 9, 0.2, 29): 4.07e-3,
                (150, 2, 0.12, 31): 7.21e-3, (300, 3, 0.12, 31): 4.01e-3,
                (100, 4, 0.4, 37): 8.68e-3, (250, 10, 0.4, 37): 3.98e-3,
                (200, 3, 0.17, 41): 4.99e-3, (400, 7, 0.17, 41): 2.82e-3,
                (200, 7, 0.35, 43): 5.74e-3, (400, 14, 0.35, 43): 3.09e-3}
# right depth (m) -> ANUGA 4.2's error on the 400 x 4 strip of seed 2 with that depth right of
# the dam (a weaker bore; anuga_compare.py's run_anuga)
ANUGA_STOKER_WEAKER = {0.002: 2.12e-3, 0.003: 1.47e-3}
# (n_along, n_across, width m, seed): ANUGA's (relative L1 error, wet tip m: the largest x with
# d >= 1e-6 m) of Ritter's dam break on the strip run_ritter builds, measured with
# benchmarks/validation/anuga_compare.py --case ritter (seeds 2, 7 and 11: ANUGA 4.1)
ANUGA_RITTER = {(200, 2, 0.1, 2): (0.00893, 7.23), (400, 4, 0.1, 2): (0.00450, 7.31),
                (800, 8, 0.1, 2): (0.00198, 7.39), (1600, 16, 0.1, 2): (0.00109, 7.47),
                (200, 4, 0.1, 7): (0.00793, 7.17),
                (400, 8, 0.1, 7): (0.00404, 7.31), (800, 16, 0.1, 7): (0.00253, 7.42),
                (150, 3, 0.2, 11): (0.00941, 7.15), (300, 6, 0.2, 11): (0.00532, 7.32),
                # ANUGA 4.2
                (100, 2, 0.15, 13): (0.0122, 7.04), (200, 4, 0.15, 13): (0.00627, 7.23),
                (400, 8, 0.15, 13): (0.00385, 7.28),
                (150, 5, 0.3, 5): (0.00767, 7.29), (300, 10, 0.3, 5): (0.00395, 7.32),
                (200, 2, 0.1, 17): (0.00792, 7.19), (400, 4, 0.1, 17): (0.00426, 7.31),
                (800, 8, 0.1, 17): (0.00205, 7.37),
                (200, 5, 0.25, 19): (0.00617, 7.22), (400, 10, 0.25, 19): (0.00383, 7.44),
                # ANUGA 4.2 on strips of seeds and aspects the scheme was not tuned on (tips to
                # 0.1 mm)
                (200, 2, 0.1, 23): (0.00499, 7.2315), (400, 4, 0.1, 23): (0.00336, 7.3065),
                (200, 6, 0.2, 29): (0.00799, 7.1864), (300, 9, 0.2, 29): (0.00472, 7.2427),
                (150, 2, 0.12, 31): (0.0101, 7.0483), (300, 3, 0.12, 31): (0.00452, 7.2139),
                (100, 4, 0.4, 37): (0.0120, 7.1153), (250, 10, 0.4, 37): (0.00588, 7.2266),
                (200, 3, 0.17, 41): (0.00729, 7.2156), (400, 7, 0.17, 41): (0.00347, 7.2940),
                (200, 7, 0.35, 43): (0.00727, 7.3176), (400, 14, 0.35, 43): (0.00391, 7.3446)}

# (mesh, n_along): ANUGA 4.2's figures on SWASHES' transcritical bump, on the channel
# transcritical_bump_mesh builds (4 across, seed 6) with anuga_compare.py --case bump: the
# relative L1 error of the depth after 300 s, each BUMP_REGIONS region's share of it, and the
# jump (m)
ANUGA_BUMP = {("strip", 100): (3.29e-3, (5.24e-4, 2.11e-4, 3.10e-4, 1.66e-3, 5.81e-4), 11.683),
              ("strip", 200): (1.70e-3, (1.77e-4, 2.27e-4, 1.55e-4, 9.19e-4, 2.25e-4), 11.676),
              ("strip", 500): (7.08e-4, (6.93e-5, 6.56e-5, 7.30e-5, 4.23e-4, 7.67e-5), 11.680),
              ("cross", 100): (2.23e-3, (3.09e-4, 3.98e-4, 1.38e-4, 1.04e-3, 3.39e-4), 11.708),
              ("cross", 200): (1.08e-3, (1.45e-4, 1.52e-4, 5.37e-5, 5.71e-4, 1.59e-4), 11.688),
              ("cross", 500): (4.53e-4, (7.08e-5, 5.21e-5, 2.02e-5, 2.32e-4, 7.75e-5), 11.675)}


def run_stoker(n_along: int = 800, n_across: int = 8, end_time: float = 6.0,
               scheme: str = "conservative", seed: int = 2, width: float | None = None,
               right: float = 0.001) -> dict:
    """Stoker's dam break on a wet bed on a 10 m strip (``width``, square cells' n_across 10 /
    n_along unless given; irregular cells from ``seed``): d = 0.005 m left of x0 = 5 m,
    ``right`` (0.001 m) right of it, inviscid, compared with the exact solution at ``end_time`` (800 x 8 cells is
    the issue's 7,209-vertex mesh). Figures: error (area-weighted relative L1 of the depth),
    middle_error (relative error of the median depth on the middle plateau), bore_cells (the
    bore's position error in cells along: the largest x where the depth exceeds the mean of the
    middle and right depths) and the invariants."""
    dam, left = 5.0, 0.005
    width = strip_width(n_along, n_across, width)
    V, F = builders.strip(10.0, width, n_along, n_across, seed=seed)
    sim, geom = make_simulation(V, F, scheme=scheme, max_dt=1.0, **INVISCID)
    x = geom.vertices[:, 0]
    sim.set_depth(np.where(x < dam, left, right))
    monitor = InvariantMonitor(sim)
    advance_checked(sim, end_time, monitor)
    depth = np.asarray(sim.depth)
    middle = exact.stoker_middle_depth(left, right)
    bore = exact.stoker_shock(end_time, dam, left, right)
    fan_end = dam + end_time * (2.0 * np.sqrt(exact.G * left) - 3.0 * np.sqrt(exact.G * middle))
    plateau = (x > fan_end + 0.2) & (x < bore - 0.2)
    return {"n_vertices": len(V),
            "error": relative_l1(depth, exact.stoker_depth(x, end_time, dam, left, right),
                                 geom.dual_areas),
            "middle_error": float(abs(np.median(depth[plateau]) / middle - 1.0)),
            "bore_cells": float(abs(x[depth > 0.5 * (middle + right)].max() - bore)
                                * n_along / 10.0),
            **monitor.figures()}


def run_cosine_bell(subdivisions: int = 4, revolutions: float = 1.0, courant: float = 0.5,
                    scheme: str = "momentum", first_order: bool = False) -> dict:
    """Williamson et al.'s test 1: a dye cosine bell c = (1 + cos(pi r / R_b)) / 2 (r the great
    circle distance, R_b = R / 3) carried once around a unit icosphere by a frozen solid-body
    rotation (period 1 s, axis tilted 45 degrees) on a uniform 0.1 m layer, no gravity. The
    velocity is reset before every step's transport (the scheme's stage 6, the one place this
    case reaches past the public API; the momentum scheme's mass flux fully upwind),
    at ``courant`` |u|_max dt / (shortest edge).
    ``first_order``: the same transport with the tracer slopes zeroed (first-order upwind).

    Figures: error (area-weighted l2 of c against the bell it started as, relative), peak_ratio
    (max c / max c0), dye_drift (relative change of sum A d c), c_min, c_max, the invariants.
    """
    V, F = builders.icosphere(1.0, subdivisions)
    geom = sf.precompute((V, F), smoothing_iterations=0)
    sim = sf.Simulation(geom, sf.Params(scheme=scheme, gravity=(0.0, 0.0, 0.0), friction=0.0),
                        n_dyes=1)
    x = geom.vertices / np.linalg.norm(geom.vertices, axis=1)[:, None]
    axis = np.array([0.0, -1.0, 1.0]) / np.sqrt(2.0)
    centre = np.array([1.0, 0.0, 0.0])
    distance = np.arccos(np.clip(x @ centre, -1.0, 1.0))
    bell = np.where(distance < 1.0 / 3.0, 0.5 * (1.0 + np.cos(3.0 * np.pi * distance)), 0.0)
    sim.set_depth(np.full(len(V), 0.1))
    sim.set_dye(bell[:, None])
    sim.set_velocity(2.0 * np.pi * np.cross(axis, geom.vertices))
    frozen = sim.state.velocity.copy()
    edges = geom.vertices[geom.neighbor_indices] - np.repeat(
        geom.vertices, np.diff(geom.neighbor_offsets), axis=0)
    steps = int(np.ceil(revolutions * 2.0 * np.pi / (courant * np.linalg.norm(edges, axis=1).min())))
    dt = revolutions / steps
    monitor = InvariantMonitor(sim)
    s, before = sim.state, geom.dual_areas @ (0.1 * bell)
    s.shoreline_wall.fill(False)
    with tracer_order(first_order):
        for _ in range(steps):
            s.velocity[:] = frozen
            s.friction_share.fill(1.0)  # upwind mass flux: a centred one grows without gravity
            sim.scheme.transport(geom, sim.fields, s, s.bottom, dt)
            s.time += dt
    monitor.check()
    c = sim.dye[:, 0]
    weights = geom.dual_areas
    return {"n_vertices": len(V), "steps": steps,
            "error": float(np.sqrt(weights @ (c - bell) ** 2 / (weights @ bell ** 2))),
            "peak_ratio": float(c.max() / bell.max()),
            "dye_drift": float(abs(weights @ (sim.depth * c) - before) / before),
            "c_min": float(c.min()), "c_max": float(c.max()), **monitor.figures()}


@contextlib.contextmanager
def tracer_order(first: bool):
    """Within: the tracer transport of both schemes and the dissolved material first-order upwind
    (its slopes zeroed) if ``first``; the code is otherwise the same."""
    if not first:
        yield
        return
    originals = schemes.limited_faces, dissolution.limited_faces
    schemes.limited_faces = dissolution.limited_faces = donor_faces
    try:
        yield
    finally:
        schemes.limited_faces, dissolution.limited_faces = originals


def donor_faces(moving, rings, carrier, min_carrier, values, *args) -> None:
    """``tracers.limited_faces`` with every slope zero: each face value is its vertex's own."""
    faces = args[-1]
    faces[:] = np.repeat(values, np.diff(rings.offsets), axis=0)
