"""Surface tension: kernels against known answers and tests/naive_physics.py, then the drop,
capillary-wave and tilted-plane cases of issue 4 through the Simulation."""

import math

import numpy as np
import pytest

import builders
import naive
import naive_physics
import surfflow as sf
from runtime_cases import both_schemes, curved_patch, lumpy_sphere, random_state
from surfflow.schemes.active import ActiveSet
from surfflow.kernels.continuity import edge_fluxes, shoreline_walls, update_depth
from surfflow.kernels.records import (Capillarity, CapillarySurface, ContinuityFluxes, DepthUpdate,
                                      FluxInputs, Levels, energy_head, rings_of)
from surfflow.kernels.tension import (apply_capillary_force, contact_line_depth, hysteresis_line_force,
                                      lift_free_surface, pin_contact_line, ramp_line_tension,
                                      surface_pressure)
from surfflow.kernels.timestep import cfl_time_step
from surfflow.state import surface_fields

MIN_DEPTH = 1e-6
SIGMA = 0.07
HEAD = 1.0 / (1000.0 * 9.81)  # m per Pa: a surface pressure's head p / (rho |g|) for the fluxes
COS_THETA = math.cos(math.radians(60.0))
RAMP_TENSION = ramp_line_tension(60.0)


@pytest.fixture(scope="module", params=["patch", "sphere"])
def geom(request):
    return curved_patch(seed=2) if request.param == "patch" else lumpy_sphere(seed=2)


def near_liquid(geom, depth):
    """(n,) bool: the vertex or one of its neighbours is wet."""
    wet = depth >= MIN_DEPTH
    counts = np.add.reduceat(wet[geom.neighbor_indices].astype(int), geom.neighbor_offsets[:-1])
    return wet | (counts > 0)


def active_set(geom, depth, split=True):
    """The vertices near the liquid and the others, as the momentum scheme's steps split them
    (``split``), else every vertex moving."""
    active = ActiveSet(geom.n_vertices)
    if split:
        active.rebuild(geom, depth, MIN_DEPTH)
    return active


def run_pressure(geom, bottom, depth, wetting_depth, sigma=SIGMA, cos_theta=COS_THETA,
                 split=True, ramp_tension=RAMP_TENSION):
    n = geom.n_vertices
    surface = CapillarySurface(np.full((n, 3), np.nan), np.full(n, np.nan), np.full(n, np.nan),
                               np.full(n, np.nan), np.zeros(n, bool))
    active = active_set(geom, depth, split)
    lift_free_surface(active.reach, geom.vertices, geom.normals,
                      np.zeros_like(depth), np.ones_like(depth), bottom, depth, wetting_depth,
                      surface)
    surface_pressure(active.moving, active.resting,
                     rings_of(geom, surface_fields(geom, (0.0, 0.0, -9.81), "wall")),
                     geom.is_boundary, geom.vertices, geom.normals, depth,
                     Capillarity(wetting_depth, sigma, cos_theta, ramp_tension), MIN_DEPTH,
                     surface)
    assert np.array_equal(surface.near_liquid, near_liquid(geom, depth))
    return surface.pressure


def run_force_and_walls(geom, bottom, depth, pressure, velocity, gravity, density, dt,
                        split=True):
    """The capillary force's updated velocity (n, 2) and its walls (nnz,)."""
    fields = surface_fields(geom, gravity, "wall")
    n = geom.n_vertices
    surface = CapillarySurface(np.full((n, 3), np.nan), np.full(n, np.nan), np.full(n, np.nan),
                               pressure, near_liquid(geom, depth))
    active = active_set(geom, depth, split)
    lift_free_surface(active.reach, geom.vertices, geom.normals,
                      fields.vertex_height, fields.normal_rise, bottom, depth,
                      np.ones_like(depth), surface)
    out, walls = velocity.copy(), np.ones(len(geom.neighbor_indices), bool)
    levels = Levels(fields.vertex_height, fields.normal_rise, bottom,
                    float(np.linalg.norm(gravity)))
    apply_capillary_force(active.moving, active.resting, rings_of(geom, fields), levels, depth,
                          surface, MIN_DEPTH, 1.0 / density, dt, out, walls)
    return out, walls


def run_force(geom, bottom, depth, pressure, velocity, gravity, density, dt):
    return run_force_and_walls(geom, bottom, depth, pressure, velocity, gravity, density, dt)[0]


def flat_square(n=24, jitter=0.25, half_width=1.0):
    V, F = builders.rectangle(-half_width, half_width, -half_width, half_width, n, n,
                              jitter=jitter, seed=4)
    return sf.precompute((V, F), smoothing_iterations=0)


def test_flat_film_deeper_than_the_ramp_has_no_pressure():
    geom = flat_square()
    depth = np.full(geom.n_vertices, 0.5)
    eps = np.full(geom.n_vertices, 0.1)
    assert np.allclose(run_pressure(geom, np.zeros_like(depth), depth, eps), 0.0, atol=1e-12)


def test_thin_flat_film_feels_the_wetting_ramp_exactly():
    geom = flat_square()
    depth = np.full(geom.n_vertices, 0.03)
    eps = np.full(geom.n_vertices, 0.1)
    expected = SIGMA * (1 - COS_THETA) * 2 * (1 - 0.3) / 0.1
    assert np.allclose(run_pressure(geom, np.zeros_like(depth), depth, eps), expected, rtol=1e-12)


def test_pressure_inside_a_spherical_cap_is_sigma_times_its_curvature():
    geom = flat_square(n=40, jitter=0.0)
    R, zc = 1.2, -0.8
    r = np.hypot(geom.vertices[:, 0], geom.vertices[:, 1])
    depth = np.maximum(np.sqrt(np.maximum(R ** 2 - r ** 2, 0.0)) + zc, 0.0)
    eps = np.full(geom.n_vertices, 1e-3)
    pressure = run_pressure(geom, np.zeros_like(depth), depth, eps)
    inner = r < 0.6
    assert np.allclose(pressure[inner], SIGMA * 2.0 / R, rtol=5e-3)


def test_pressure_matches_naive(geom):
    depth, _, bottom, _ = random_state(geom, seed=3)
    eps = contact_line_depth(geom.dual_areas, 60.0, 1.0)
    expected = naive_physics.surface_pressure(geom, bottom, depth, eps, SIGMA, COS_THETA, MIN_DEPTH,
                                              RAMP_TENSION)
    assert np.allclose(run_pressure(geom, bottom, depth, eps), expected, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("gravity", [(0.0, 0.0, 0.0), (0.0, 0.0, -9.81)])
def test_capillary_force_matches_naive(geom, gravity):
    depth, velocity, bottom, _ = random_state(geom, seed=4)
    pressure = np.random.default_rng(5).normal(0.0, 10.0, geom.n_vertices)
    expected = naive_physics.capillary_force(geom, bottom, depth, pressure, gravity, 1000.0,
                                             MIN_DEPTH, velocity, 0.01)
    got = run_force(geom, bottom, depth, pressure, velocity, gravity, 1000.0, 0.01)
    assert np.allclose(got, expected, rtol=1e-10, atol=1e-13)


def test_active_set_changes_nothing_and_lifts_only_where_the_rings_reach(geom):
    """On mostly dry ground, pressure, force and walls over the active set (schemes/active.py;
    the free surface lifted at its moving and border vertices alone, NaN elsewhere) equal a
    scan of every vertex bit for bit; the border is every resting vertex with a moving
    neighbour."""
    depth, velocity, bottom, _ = random_state(geom, seed=8, dry_fraction=0.85)
    active = active_set(geom, depth)
    reached = np.zeros(geom.n_vertices, bool)
    for i in active.moving:
        reached[geom.neighbor_indices[geom.neighbor_offsets[i]:geom.neighbor_offsets[i + 1]]] = True
    reached[active.moving] = False
    assert len(active.border) and np.array_equal(np.sort(active.border), np.flatnonzero(reached))
    eps = contact_line_depth(geom.dual_areas, 60.0, 1.0)
    pressure = run_pressure(geom, bottom, depth, eps)
    assert np.array_equal(pressure, run_pressure(geom, bottom, depth, eps, split=False))
    for split, every in zip(
            run_force_and_walls(geom, bottom, depth, pressure, velocity, (0, 0, -9.81), 1e3, 0.01),
            run_force_and_walls(geom, bottom, depth, pressure, velocity, (0, 0, -9.81), 1e3, 0.01,
                                split=False)):
        assert np.array_equal(split, every)


def test_uniform_pressure_pushes_nothing(geom):
    depth, velocity, bottom, _ = random_state(geom, seed=6, dry_fraction=0.0)
    pressure = np.full(geom.n_vertices, 3.7)
    got = run_force(geom, bottom, depth, pressure, velocity, (0.0, 0.0, 0.0), 1000.0, 0.1)
    assert np.array_equal(got, velocity)


def run_walled_continuity(geom, depth, velocity, pressure, gravity, dt):
    """One continuity step behind the contact-line walls; returns (depth, velocity, flux,
    capillary walls, hydrostatic walls)."""
    n, nnz = geom.n_vertices, len(geom.neighbor_indices)
    fields = surface_fields(geom, gravity, "wall")
    bottom, no_outflow = np.zeros(n), np.zeros((n, 2))
    hydrostatic = np.ones(nnz, bool)
    walls = run_force_and_walls(geom, bottom, depth, pressure, velocity, gravity, 1000.0, dt)[1]
    shoreline_walls(geom.neighbor_offsets, geom.neighbor_indices, fields.vertex_height,
                    fields.normal_rise, bottom, depth, MIN_DEPTH, hydrostatic)
    flux, boundary, alpha = np.zeros(nnz), np.zeros(n), np.zeros(n)
    every = ActiveSet(n)  # every vertex moving
    slopes, excess = np.zeros((n, 2, 2)), np.zeros((n, 2))
    rings = naive.donor_velocity_rings(geom)  # the naive continuity's donor velocities
    inputs = FluxInputs(walls,
                        fields.vertex_height + (bottom + depth) * fields.normal_rise + HEAD * pressure,
                        np.linalg.norm(gravity) * fields.normal_rise, np.zeros(n), np.zeros(n),
                        no_outflow, np.zeros(n))
    fluxes = ContinuityFluxes(flux, boundary, alpha, slopes, excess, np.zeros((0, 3)),
                              geom.tangent_frames, geom.normals)
    edge_fluxes(every.moving, every.resting, rings, inputs, depth, velocity, np.zeros(n),
                MIN_DEPTH, dt, fluxes)
    depth_out, velocity_out = np.zeros(n), np.zeros((n, 2))
    update_depth(every.moving, every.resting, rings, depth, velocity, velocity, fluxes,
                 np.zeros((n, 2)), MIN_DEPTH,
                 energy_head(inputs.wave_stiffness, np.linalg.norm(gravity) * inputs.head,
                             len(geom.neighbor_indices)), dt,
                 DepthUpdate(depth_out, velocity_out, np.zeros(n)))
    return depth_out, velocity_out, flux, walls, hydrostatic


def test_flux_enters_no_dry_vertex_the_contact_line_rule_walls_off(geom):
    """The mass flux obeys the force's walls (capillary_wall, the rule the naive force tests
    above check): nothing crosses them, the flux stays antisymmetric, and the step matches the
    naive continuity with the same rule. Without them a drop's rim leaks through edges the force
    treats as walls (measured: 71 % of the cells newly wetted by a drop on an incline)."""
    gravity = (0.0, 0.0, -9.81)
    depth, velocity, _, dye = random_state(geom, seed=11)
    pressure = np.random.default_rng(12).normal(0.0, 100.0, geom.n_vertices)
    got = run_walled_continuity(geom, depth, velocity, pressure, gravity, 0.05)
    new_depth, new_velocity, flux, walls, hydrostatic = got
    assert np.array_equal(walls, walls[geom.reverse_edges])
    assert (walls & ~hydrostatic).any() and (hydrostatic & ~walls).any()
    assert np.all(flux[walls] == 0.0) and np.array_equal(flux, -flux[geom.reverse_edges])
    is_wall = naive_physics.capillary_wall(geom, np.zeros_like(depth), depth, pressure, gravity,
                                           1000.0)
    wet = depth >= MIN_DEPTH
    rows = np.repeat(np.arange(geom.n_vertices), np.diff(geom.neighbor_offsets))
    assert np.array_equal(walls, [wet[i] != wet[j] and (is_wall(i, j) if wet[i] else is_wall(j, i))
                                  for i, j in zip(rows, geom.neighbor_indices)])
    expected = naive.continuity(geom, np.zeros_like(depth), depth, velocity, dye,
                                np.zeros_like(depth), np.asarray(gravity),
                                np.zeros((geom.n_vertices, 2)), MIN_DEPTH, 0.05, is_wall,
                                HEAD * pressure, expansion_head=True)
    assert np.allclose(new_depth, expected[0], rtol=1e-11, atol=1e-17)
    # each velocity to 1e-12 of its own length (a frame's component of a nearly drained cell's
    # velocity can be far smaller than the velocity: relative to it, the round-off of d' is not)
    miss = np.linalg.norm(new_velocity - expected[1], axis=1)
    assert np.all(miss <= 1e-12 * np.linalg.norm(expected[1], axis=1) + 1e-15)
    assert new_depth.min() >= 0.0
    volume = geom.dual_areas @ depth
    assert geom.dual_areas @ new_depth == pytest.approx(volume, rel=1e-13)
    walled_in = np.array([depth[i] < MIN_DEPTH and all(
        walls[geom.neighbor_offsets[i]:geom.neighbor_offsets[i + 1]] | (depth[
            geom.neighbor_indices[geom.neighbor_offsets[i]:geom.neighbor_offsets[i + 1]]]
            < MIN_DEPTH)) for i in range(geom.n_vertices)])
    assert walled_in.any() and np.all(new_depth[walled_in] == 0.0)


def test_capillary_time_step_matches_naive(geom):
    """The CFL pass's capillary limit alone (still, no gravity), then with the CFL one."""
    depth, _, _, _ = random_state(geom, seed=8)
    eps = contact_line_depth(geom.dual_areas, 60.0, 1.0)
    fields = surface_fields(geom, (0, 0, -9.81), "wall")
    still = np.zeros((geom.n_vertices, 2))
    flow, _, got, at = cfl_time_step(depth, still, fields.ring_spacing, 0.0, MIN_DEPTH, 0.5, eps,
                                     SIGMA, COS_THETA, 1000.0)
    limits = naive_physics.capillary_time_steps(geom, depth, eps, SIGMA, COS_THETA, 1000.0,
                                                MIN_DEPTH, 0.5)
    expected = limits.min()
    assert flow == np.inf and got == pytest.approx(expected, rel=1e-12)
    assert at == int(np.argmin(limits))   # the vertex that sets it
    velocity = np.random.default_rng(9).normal(0.0, 1.0, (geom.n_vertices, 2))
    flow, _, got, _ = cfl_time_step(depth, velocity, fields.ring_spacing, 9.81, MIN_DEPTH, 0.5,
                                    eps, SIGMA, COS_THETA, 1000.0)
    assert got == pytest.approx(expected, rel=1e-12)
    assert flow == pytest.approx(naive.time_step(geom, depth, velocity, 9.81, MIN_DEPTH, 0.5,
                                                 np.inf), rel=1e-12)


def run_pinning(geom, depth, velocity, line_force, dt):
    out = velocity.copy()
    pin_contact_line(geom.neighbor_offsets, geom.neighbor_indices, geom.dual_edge_vectors,
                     geom.dual_areas, depth, line_force, MIN_DEPTH, dt, out)
    return out


def test_hysteresis_line_force_is_sigma_times_the_cosine_gap():
    assert hysteresis_line_force(0.07, 60.0, 0.0) == 0.0
    assert hysteresis_line_force(2.0, 90.0, 20.0) == pytest.approx(4.0 * math.sin(math.radians(10)))
    clipped = math.cos(math.radians(165.0)) - math.cos(math.radians(180.0))
    assert hysteresis_line_force(1.0, 175.0, 20.0) == pytest.approx(clipped)
    with pytest.raises(sf.ParameterError, match="contact_angle_hysteresis"):
        sf.Params(contact_angle_hysteresis=-1.0)


def test_contact_line_friction_slows_only_the_rim_and_never_reverses():
    geom = flat_square()
    x = geom.vertices[:, 0]
    depth = np.where(x < 0.0, 0.01, 0.0)
    velocity = np.where(depth[:, None] > 0, [0.3, -0.1], 0.0)
    velocity[np.argmin(np.abs(x + 0.04))] *= 0.01
    got = run_pinning(geom, depth, velocity, 1e-3, 0.01)
    ring_dry = np.array([any(depth[j] < MIN_DEPTH for j in geom.neighbor_indices[
        geom.neighbor_offsets[i]:geom.neighbor_offsets[i + 1]]) for i in range(geom.n_vertices)])
    rim = (depth > 0) & ring_dry
    assert np.array_equal(got[~rim], velocity[~rim])
    speed_before = np.linalg.norm(velocity[rim], axis=1)
    speed_after = np.linalg.norm(got[rim], axis=1)
    assert np.all(speed_after < speed_before)
    assert np.any(speed_after == 0.0) and np.any(speed_after > 0.0)
    assert np.all(np.einsum("ij,ij->i", got[rim], velocity[rim]) >= 0.0)


def test_contact_line_friction_matches_naive(geom):
    depth, velocity, _, _ = random_state(geom, seed=9)
    got = run_pinning(geom, depth, velocity, 1e-2, 0.01)
    expected = naive_physics.contact_line_friction(geom, depth, 1e-2, MIN_DEPTH, velocity, 0.01)
    assert np.allclose(got, expected, rtol=1e-12, atol=1e-15)
    changed = np.any(got != velocity, axis=1)
    stopped = np.all(got == 0.0, axis=1) & np.any(velocity != 0.0, axis=1)
    assert changed.any() and stopped.any() and (changed & ~stopped).any()


def exact_cap_base_radius(volume, theta_degrees):
    """Base radius a of the spherical cap of this volume meeting the plane at theta."""
    t = math.radians(theta_degrees)
    return (3 * volume / math.pi * math.sin(t) ** 3
            / ((1 - math.cos(t)) ** 2 * (2 + math.cos(t)))) ** (1 / 3)


def fitted_cap(geom, depth, threshold):
    """(contact angle in degrees, base radius) of the sphere fitted to the points (x, y, d) of the
    vertices deeper than ``threshold`` (the macroscopic drop, above the wetting ramp)."""
    x, y = geom.vertices[:, 0], geom.vertices[:, 1]
    m = depth > threshold
    A = np.column_stack([2 * x[m], 2 * y[m], 2 * depth[m], np.ones(m.sum())])
    cx, cy, cz, c = np.linalg.lstsq(A, x[m] ** 2 + y[m] ** 2 + depth[m] ** 2, rcond=None)[0]
    R = math.sqrt(c + cx ** 2 + cy ** 2 + cz ** 2)
    return math.degrees(math.acos(-cz / R)), math.sqrt(R ** 2 - cz ** 2)


def released_drop(theta, cells=36, scheme="momentum"):
    """A cylinder of liquid (radius 0.5, height 0.3) released on a flat square 1.35 times as
    wide as the cap it should become, no gravity, with the momentum ``scheme``: (simulation,
    half width of the square)."""
    half_width = 1.35 * exact_cap_base_radius(math.pi * 0.5 ** 2 * 0.3, theta)
    geom = flat_square(cells, 0.25, half_width)
    params = sf.Params(gravity=(0.0, 0.0, 0.0), friction_model="laminar", viscosity=0.1,
                       surface_tension=1.0, density=1.0, contact_angle=theta, cfl=1.0, max_dt=1.0,
                       scheme=scheme)
    sim = sf.Simulation(geom, params)
    sim.set_depth(np.where(np.hypot(geom.vertices[:, 0], geom.vertices[:, 1]) < 0.5, 0.3, 0.0))
    return sim, half_width


@pytest.mark.slow
@pytest.mark.parametrize("scheme", both_schemes())
@pytest.mark.parametrize("theta, duration", [(30.0, 4.0), (60.0, 2.0), (90.0, 2.0)])
def test_cylinder_of_liquid_relaxes_to_the_spherical_cap_of_its_contact_angle(theta, duration,
                                                                               scheme):
    """The thin 30 degree drop spreads slowest (measured: 31.4 degrees at 4 s; conservative
    29.9); at 2 s the 60 and 90 degree drops stand at 59.1 and 87.5 (conservative 58.9 and
    88.4), the 90 degree one still relaxing (``test_right_angle_drop_settles_within_two_degrees``
    measures it at rest). The wetting ramp's line tension is cancelled by the counter line
    energy (``kernels/tension.py``)."""
    cells = 36
    sim, half_width = released_drop(theta, cells, scheme)
    geom, params = sim.geometry, sim.params
    volume = sim.total_volume()
    base = exact_cap_base_radius(volume, theta)
    sim.advance(duration)
    ramp = contact_line_depth(geom.dual_areas, theta, params.contact_line_width).max()
    angle, radius = fitted_cap(geom, sim.depth, ramp)
    assert abs(angle - theta) < 3.0
    assert abs(radius - base) < 2 * half_width / cells
    assert abs(sim.total_volume() / volume - 1) < 1e-12


def settled_angle(sim, theta, longest=8.0, rate=0.1):
    """(angle, time): the fitted cap's contact angle (degrees) once it changes by less than
    ``rate`` degrees over a second of simulated time, or after ``longest`` seconds."""
    ramp = contact_line_depth(sim.geometry.dual_areas, theta, sim.params.contact_line_width).max()
    before = math.inf
    while True:
        sim.advance(1.0)
        angle = fitted_cap(sim.geometry, sim.depth, ramp)[0]
        if abs(angle - before) < rate or sim.time >= longest:
            return angle, sim.time
        before = angle


PINNED_RIM = ("issue 40: the released 90 degree drop leaves a foot outside its cap's base "
              "(vertices 3 to 7 mm deep at r = 0.52 m, the base 0.483 m) whose concave corner "
              "holds its pressure below the drop's (3.8 against 4.07 Pa); it drains only at "
              "a thin film's mobility d^3 / (3 nu): 87.4 degrees at 42 cells once its angle "
              "changes by less than 0.1 a second, 87.6 at 15 s (88.9 / "
              "89.0 / 90.3 / 88.3 / 88.6 / 88.3 at 24 / 30 / 33 / 36 / 39 / 48; the conservative "
              "scheme 88.5 at 42); started from its exact cap, the same mesh settles at 88.6")


@pytest.mark.slow
@pytest.mark.parametrize("scheme, cells", [
    ("momentum", 36), ("conservative", 36), ("conservative", 42),
    pytest.param("momentum", 42, marks=pytest.mark.xfail(strict=True, reason=PINNED_RIM))])
def test_right_angle_drop_settles_within_two_degrees(scheme, cells):
    """Issue 40's target: the 90 degree drop of the test above, once settled, within 2 degrees
    of theta_c, at the suite's resolution (36 cells) and at another. At 2 s the momentum
    scheme's drop is still relaxing (87.5 degrees at 36 cells, its base still shrinking);
    measured once settled (its angle changing by less than 0.1 degrees a second, by 3 to 6 s):
    88.3 at 36 cells; conservative 88.5 at 36 and 42. Currents of 1.5 cm/s still circulate
    through the drop's rim then (docs/model.md, "Known limitations"). Where the released rim
    pins depends on the collapse's path: over 20 to 48 cells the momentum scheme's drops settle
    between 87.2 and 90.3 degrees (88.5 on average), against 89.6 / 88.6 started from the cap
    at 36 / 42 cells, so this bar holds at 36 cells by the pinned state the drop lands in."""
    sim, _ = released_drop(90.0, cells, scheme)
    volume = sim.total_volume()
    angle, time = settled_angle(sim, 90.0)
    assert time < 8.0, (angle, time)  # at rest, not stopped by the clock
    assert abs(angle - 90.0) < 2.0, (angle, time)
    assert abs(sim.total_volume() / volume - 1) < 1e-12


def cap_drop(theta, cells=36):
    """``released_drop``'s simulation with its liquid set to the exact spherical cap of the same
    volume meeting the ground at ``theta`` (degrees)."""
    sim, _ = released_drop(theta, cells)
    volume = sim.total_volume()
    t = math.radians(theta)
    radius = exact_cap_base_radius(volume, theta) / math.sin(t)  # the sphere's
    r = np.hypot(sim.geometry.vertices[:, 0], sim.geometry.vertices[:, 1])
    cap = np.maximum(np.sqrt(np.maximum(radius ** 2 - r ** 2, 0.0)) - radius * math.cos(t), 0.0)
    sim.set_depth(cap * volume / (sim.geometry.dual_areas @ cap))
    return sim


@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason="docs/model.md, Known limitations: currents of 2.3 cm/s "
                   "circulate through the rim's thinnest wet vertex (r = 0.501 m, d = 8 mm; the "
                   "base 0.483 m) after 3 s, 2.1 after 8 s")
def test_drop_started_as_its_cap_comes_to_rest():
    """The 90 degree drop of ``test_right_angle_drop_settles_within_two_degrees``, started from
    its exact cap: with no gravity and laminar friction the surface energy is the only energy
    left and friction dissipates every motion, so the drop comes to rest at a minimum of the
    discrete energy: after 3 s (its angle settles, at 89.6 degrees, within 2 s) no vertex moves
    faster than 1e-4 m/s, 1e-5 of the capillary speed sigma / mu."""
    sim = cap_drop(90.0)
    volume = sim.total_volume()
    sim.advance(3.0)
    assert np.abs(sim.velocity).max() < 1e-4
    assert abs(sim.total_volume() / volume - 1) < 1e-12


@pytest.mark.slow
@pytest.mark.parametrize("cells", [
    pytest.param(16, marks=pytest.mark.xfail(strict=True, reason=(
        "docs/model.md, Known limitations: with 5.9 cells across its base radius the wetting "
        "ramp is 0.62 of the cap's height deep, films thinner than it pay only part of the "
        "wetting energy, and the drop spreads into a film: 0.19 of the cap's height after 6 s"))),
    20])
def test_coarse_right_angle_drop_beads(cells):
    """``released_drop``'s 90 degree drop on a coarse mesh (5.9 / 7.4 cells across its base
    radius at 16 / 20 cells; 13 at the suite's 36) still beads: 6 s after its release its
    deepest vertex stands at least 0.8 of its exact cap's height (at 90 degrees the base radius
    a), where a film spread from it would be a fraction of that. Measured: 0.19 / 0.96."""
    sim, _ = released_drop(90.0, cells)
    height = exact_cap_base_radius(sim.total_volume(), 90.0)
    sim.advance(6.0)
    assert sim.depth.max() >= 0.8 * height, sim.depth.max() / height


def test_sessile_drop_rim_stops_flickering():
    """A 60 degree drop on flat ground, 1 s after release: its rim cells stop switching between
    wet and dry. Measured: 10 flips between 1 and 1.5 s (475 in the first 0.5 s); ~21,000 when the
    flux leaked through the contact-line walls. A 90 degree drop keeps ~1.5 flips per step: rim
    vertices resting at d = d_min that dither across it by 1e-8 of d_min, not wetting."""
    sim, _ = released_drop(60.0)
    params = sim.params
    volume = sim.total_volume()
    sim.advance(1.0)
    wet, flips = sim.depth >= params.min_depth, 0
    while sim.time < 1.5:
        sim.step()
        now = sim.depth >= params.min_depth
        flips += int(np.count_nonzero(now != wet))
        wet = now
    assert flips < 200
    assert abs(sim.total_volume() / volume - 1) < 1e-12


def standing_wave_period(gravity, cells=24, length=0.2, depth=0.01, sigma_over_rho=0.01,
                         scheme="momentum"):
    """Period of the first standing wave d0 (1 + 0.02 cos(pi x / L)) on a strip (a channel: its
    edges are walls), measured from two zero crossings of its amplitude, and the linear theory's
    period."""
    V, F = builders.strip(length, 4 * length / cells, cells, 4, jitter=0.2, seed=1)
    geom = sf.precompute((V, F), smoothing_iterations=0)
    k = math.pi / length
    x = geom.vertices[:, 0]
    params = sf.Params(gravity=(0.0, 0.0, -gravity), friction=0.0, surface_tension=sigma_over_rho,
                       density=1.0, contact_angle=0.0, cfl=1.0, max_dt=0.01, scheme=scheme,
                       boundary="wall")
    sim = sf.Simulation(geom, params)
    sim.set_depth(depth * (1 + 0.02 * np.cos(k * x)))
    mode = geom.dual_areas * np.cos(k * x)
    omega = math.sqrt(gravity * depth * k ** 2 + sigma_over_rho * depth * k ** 4)
    times, amplitudes = [0.0], [float(mode @ (sim.depth - depth))]
    while sim.time < 0.9 * 2 * math.pi / omega:
        sim.step()
        times.append(sim.time)
        amplitudes.append(float(mode @ (sim.depth - depth)))
    t, a = np.array(times), np.array(amplitudes)
    z = np.flatnonzero(np.sign(a[:-1]) != np.sign(a[1:]))
    crossings = t[z] - a[z] * (t[z + 1] - t[z]) / (a[z + 1] - a[z])
    return 2 * (crossings[1] - crossings[0]), 2 * math.pi / omega


@pytest.mark.parametrize("scheme", both_schemes())
@pytest.mark.parametrize("gravity", [0.0, 2.5])
def test_capillary_waves_follow_the_linear_dispersion_relation(gravity, scheme):
    measured, expected = standing_wave_period(gravity, scheme=scheme)
    assert measured == pytest.approx(expected, rel=0.02)


INCLINE = math.radians(30.0)
INCLINE_GRAVITY = 3.0
DROP_VOLUME = math.pi * 0.15 ** 2 * 0.08


def furmidge_ratio(theta, hysteresis):
    """sigma w (cos theta_r - cos theta_a) / (rho g sin(alpha) V) for the incline's drop
    (sigma = rho = 1), w the base width of the spherical cap of its volume at theta: above 1 the
    hysteresis can hold the drop, below 1 it runs."""
    width = 2 * exact_cap_base_radius(DROP_VOLUME, theta)
    pull = INCLINE_GRAVITY * math.sin(INCLINE) * DROP_VOLUME
    return width * hysteresis_line_force(1.0, theta, hysteresis) / pull


def spherical_cap_depth(r, volume, theta):
    """Depth (n,) at distances r (n,) from its centre of the spherical cap of this volume meeting
    the plane at theta degrees (zero beyond its base radius)."""
    t = math.radians(theta)
    radius = exact_cap_base_radius(volume, theta) / math.sin(t)
    return np.maximum(np.sqrt(np.maximum(radius ** 2 - r ** 2, 0.0)) - radius * math.cos(t), 0.0)


def drop_front_advance_on_an_incline(theta, start, hysteresis, scheme="momentum"):
    """How far (m) the downhill-most point deeper than 1 mm moves between t = 1 s and t = 2 s
    for a drop placed as the spherical cap of volume ``DROP_VOLUME`` at theta, centred ``start``
    m down a strip (1.8 m long, 1 m wide, walls) tilted by 30 degrees; and the cell size."""
    length, width, cell = 1.8, 1.0, 0.025
    V, F = builders.inclined_plane(length, width, INCLINE, round(length / cell),
                                   round(width / cell), jitter=0.2, seed=2)
    geom = sf.precompute((V, F), smoothing_iterations=0)
    downhill = V[:, 0] / math.cos(INCLINE)
    params = sf.Params(gravity=(0.0, 0.0, -INCLINE_GRAVITY), friction=1.3, surface_tension=1.0,
                       density=1.0, contact_angle=theta, contact_angle_hysteresis=hysteresis,
                       cfl=1.0, max_dt=0.01, scheme=scheme)
    sim = sf.Simulation(geom, params)
    r = np.hypot(downhill - start, V[:, 1] - width / 2)
    sim.set_depth(spherical_cap_depth(r, DROP_VOLUME, theta))
    assert sim.total_volume() == pytest.approx(DROP_VOLUME, rel=0.05)
    sim.advance(1.0)
    before = downhill[sim.depth > 1e-3].max()
    sim.advance(1.0)
    return downhill[sim.depth > 1e-3].max() - before, cell


@pytest.mark.slow
@pytest.mark.parametrize("scheme", both_schemes(
    "the 90 degree drop, released as its cap, slides 0.25 m between 1 and 2 s (0.27 m from "
    "0.45 m), wetting the ground ahead with a film (5.6e-7 m^3 in that second) that counts as "
    "wet, so the hold acts at the film's edge, not on the drop's deep rim columns; started at "
    "rest from the shape it settles to under 6 degrees it stays (0.000 m), so the release's "
    "undamped oscillation drives the creep (docs/guide/schemes.md)"))
def test_large_angle_drop_stays_pinned_on_an_incline_while_a_small_angle_one_runs(scheme):
    """One surface, 3 degrees of contact-angle hysteresis: Furmidge's criterion
    rho g sin(alpha) V <= sigma w (cos theta_r - cos theta_a) holds for the 90 degree drop
    (retention 1.72 times the pull along the slope) and fails for the 10 degree one (0.74: its
    cosine gap is sin(10) = 0.17 times as large, its width only 2.5 times), so the first stays
    wherever it is placed and the second runs. w is the base width of the drop's spherical cap:
    the capillary length sqrt(sigma / (rho g cos(alpha))) = 0.62 m exceeds the 90 degree cap's
    0.28 m and the 10 degree cap's 0.69 m is near it (Bond number (a / l_c)^2 = 0.31), so the
    caps are the drops' shapes to within that. Each drop starts as that cap, at rest, on a
    strip wide enough to hold it: the 10 degree cap (V = 5.65e-3 m^3: R = a / sin(10) = 1.99 m,
    height R (1 - cos(10)) = 0.030 m, 0.69 m across) fits 1 m with 6 cells either side and
    clears the top edge, centred 0.45 m down, by 4 cells. (Released as a cylinder 0.3 m across on
    a 0.6 m strip it could not exist as a drop there: it collapsed at 4-5 m/s and the scheme's
    damping of that motion decided where its front stood.)
    Measured (semi-Lagrangian): the 90 degree fronts do not move between 1 and 3 s at 0.35 and
    0.45 m; the 10 degree front runs 0.37 m between 1 and 2 s (conservative: 0.55 m). Without
    hysteresis nothing holds the 90 degree drop (its front runs 0.54 m between 1 and 2 s).
    The threshold sits where Furmidge puts it: at 2 degrees (ratio 1.15) the 90 degree drop
    slides 0.11 m in its first 0.5 s and stops, at 4 degrees (ratio 0.99) the 10 degree drop
    still runs (0.30 m between 1 and 2 s)."""
    hysteresis = 3.0
    assert furmidge_ratio(90.0, hysteresis) > 1.5 and furmidge_ratio(10.0, hysteresis) < 0.8
    running, cell = drop_front_advance_on_an_incline(10.0, 0.45, hysteresis, scheme)
    assert running > 3 * cell
    for start in (0.35, 0.45):
        assert drop_front_advance_on_an_incline(90.0, start, hysteresis, scheme)[0] < cell
    assert drop_front_advance_on_an_incline(90.0, 0.35, 0.0, scheme)[0] > 3 * cell
