"""Where liquid leaves the film (SPEC §8, ``particles/shedding.py``, docs/guide/droplets.md):
only a pendant film deeper than h_p = sqrt(2 sigma / (rho g_n)) and liquid running over a free
edge; a pool on a face turned towards gravity never sheds. Droplets are on by default."""

import math

import numpy as np
import pytest
import trimesh
from builders import MESHES, hemispherical_bowl, rectangle
from exact_solutions import lake_depth
from validation_harness import max_speed

import surfflow as sf
from surfflow.config import SCHEMES
from surfflow.io.procedural import tray
from surfflow.particles import Droplets
from surfflow.particles.shedding import pendant_depth

DOWN = (0.0, 0.0, -9.81)
WATER_SIGMA = 0.072


def lake(V, F, level):
    """A lake at rest at height ``level`` on (V, F) with the default Params (droplets on, free
    edges), inviscid so that nothing but the scheme's balance keeps it still."""
    geom = sf.precompute((V, F), smoothing_iterations=0)
    sim = sf.Simulation(geom, sf.Params(gravity=DOWN, friction=0.0))
    sim.set_depth(lake_depth(geom.vertices, geom.normals, np.array(DOWN), level))
    return sim


@pytest.mark.parametrize("basin", ["tray", "bowl"])
def test_lake_at_rest_with_droplets_on_emits_nothing_and_stays_still(basin):
    """VALIDATION.md "lake at rest with droplets": 3 cm of water in a 20 cm tray whose rims rise
    5 cm, and a lake 3 cm deep in a 10 cm hemispherical bowl, for 1 s."""
    if basin == "tray":
        V, F = tray(size=(0.2, 0.2), resolution=(24, 24), rim_height=0.05, rim_width=0.03)
        sim = lake(V, F, 0.03)
    else:
        V, F = hemispherical_bowl(0.1, 12)
        sim = lake(V, F, -0.07)
    assert sim.particles is not None and sim.depth.max() > 0.029
    sim.advance(1.0)
    book = sim.ledger()
    assert book["emitted"] == 0.0 and book["outflow"] == 0.0 and sim.particles.count == 0
    assert max_speed(sim) < 1e-8
    assert abs(book["balance_error"]) < 1e-12 * book["initial"]


def plate_film(V, F, underside, depth, boundary="wall", **params):
    faces = F[:, ::-1] if underside else F
    geom = sf.precompute((V, faces), smoothing_iterations=0)
    sim = sf.Simulation(geom, sf.Params(gravity=DOWN, boundary=boundary, **params),
                        particles=Droplets(drag=0.0, floor=-0.2))
    sim.set_depth(np.full(geom.n_vertices, depth))
    return sim


@pytest.fixture(scope="module")
def plate():
    """A 10 cm square plate in z = 0, 16 x 16 cells."""
    return rectangle(0.0, 0.1, 0.0, 0.1, 16, 16, jitter=0.2)


@pytest.mark.parametrize("depth", [0.005, 0.05, 0.5])
def test_upper_side_of_a_plate_never_sheds_whatever_its_depth(plate, depth):
    sim = plate_film(*plate, underside=False, depth=depth)
    sim.advance(0.2)
    book = sim.ledger()
    assert book["emitted"] == 0.0 and sim.particles.count == 0
    assert book["current"] == pytest.approx(book["initial"], rel=1e-12)


def test_film_under_a_plate_drips_to_keep_depth(plate):
    """6 mm of water under the plate, above h_p = sqrt(2 sigma / (rho g)) = 3.83 mm: everything
    above keep_depth drips and falls past the floor (VALIDATION.md "film under a plate")."""
    keep = 1e-4
    sim = plate_film(*plate, underside=True, depth=6e-3, keep_depth=keep)
    sim.advance(0.5)
    book = sim.ledger()
    assert book["lost"] == pytest.approx(book["initial"] * (1.0 - keep / 6e-3), rel=1e-12)
    assert np.allclose(sim.depth, keep, rtol=1e-12)
    assert abs(book["balance_error"]) < 1e-12 * book["initial"]


def tilted_underside(psi_degrees):
    """The plate's underside turned so its normal makes the angle psi with gravity (0: a
    horizontal ceiling, 90: a vertical wall); 2.5 mm cells, narrower than a pendant drop, so that
    each holds h_p (wider ones hold their drops: the test after)."""
    V, F = rectangle(0.0, 0.02, 0.0, 0.02, 8, 8)
    psi = math.radians(psi_degrees)
    turn = np.array([[1.0, 0.0, 0.0],
                     [0.0, math.cos(psi), -math.sin(psi)],
                     [0.0, math.sin(psi), math.cos(psi)]])
    return V @ turn.T, F


def pendant_formula(psi_degrees, sigma=WATER_SIGMA, rho=1000.0, g=9.81):
    """h_p = sqrt(2 sigma / (rho g max(cos psi, 1/4))) (docs/guide/droplets.md)."""
    return math.sqrt(2.0 * sigma / (rho * g * max(math.cos(math.radians(psi_degrees)), 0.25)))


@pytest.mark.parametrize("psi", [0.0, 30.0, 60.0, 80.0])
@pytest.mark.parametrize("sigma", [0.0, 0.03])
def test_pendant_threshold_against_tilt(psi, sigma):
    """A uniform film on a tilted underside for one short step: 0.2 % thinner than the formula's
    h_p it stays, 0.2 % thicker it sheds to keep_depth (surface_tension 0 takes water's)."""
    V, F = tilted_underside(psi)
    expected = pendant_formula(psi, sigma if sigma > 0.0 else WATER_SIGMA)
    for factor, sheds in ((0.998, False), (1.002, True)):
        sim = plate_film(V, F, underside=True, depth=factor * expected, max_dt=1e-5,
                         surface_tension=sigma)
        assert np.allclose(sim.geometry.normals[:, 2], -math.cos(math.radians(psi)))
        sim.step()
        shed = sim.ledger()["emitted"] > 0.0
        assert shed == sheds, (psi, factor)
        if sheds:
            assert np.all(sim.depth == sim.params.keep_depth)


def test_pendant_depth_is_infinite_on_faces_turned_towards_gravity():
    params = sf.Params(gravity=DOWN)
    rise = np.array([1.0, 0.5, 0.0, -0.1, -0.5, -1.0])
    h = pendant_depth(rise, params)
    assert np.all(np.isinf(h[:3]))
    assert h[3:] == pytest.approx([pendant_formula(math.degrees(math.acos(-r))) for r in rise[3:]])
    assert params.pendant_limit() == pytest.approx(pendant_formula(0.0))



def test_a_cell_wider_than_a_drop_holds_its_drops_not_a_film_as_deep():
    """Under a horizontal plate of water h_p = 3.83 mm: a 2 mm cell holds h_p; a 1 cm^2 cell
    the film a drip leaves (keep_depth) and one hemisphere of radius h_p over its area; a
    10 cm^2 cell (wider than the Rayleigh-Taylor wavelength lambda = 2 pi h_p / sqrt(2)) one
    per lambda^2, h_p / (3 pi) deep on average over keep_depth; a face turned up still holds
    anything."""
    keep = 1e-4
    params = sf.Params(gravity=DOWN, keep_depth=keep)
    h = pendant_formula(0.0)
    rise = np.array([-1.0, -1.0, -1.0, 1.0])
    areas = np.array([4e-6, 1e-4, 1e-3, 1e-3])
    held = pendant_depth(rise, params, areas)
    hemisphere = 2.0 * math.pi * h ** 3 / 3.0
    wavelength = 2.0 * math.pi * h / math.sqrt(2.0)
    assert held[0] == pytest.approx(h, rel=1e-12)
    assert held[1] == pytest.approx(keep + hemisphere / 1e-4, rel=1e-12)
    assert held[2] == pytest.approx(keep + hemisphere / wavelength ** 2, rel=1e-12)
    assert held[2] == pytest.approx(keep + h / (3.0 * math.pi), rel=1e-12)
    assert np.isinf(held[3])


def open_incline(boundary, particles=True, scheme="momentum"):
    """A 20 x 10 cm plate tilted 10 degrees, 1 mm of water on it, edges of the given kind."""
    V, F = rectangle(0.0, 0.2, 0.0, 0.1, 20, 10)
    angle = math.radians(10.0)
    V = np.stack([V[:, 0] * math.cos(angle), V[:, 1], -V[:, 0] * math.sin(angle)], axis=1)
    geom = sf.precompute((V, F), smoothing_iterations=0)
    drops = Droplets(floor=-0.2) if particles else None
    sim = sf.Simulation(geom, sf.Params(gravity=DOWN, boundary=boundary, scheme=scheme),
                        particles=drops)
    sim.set_depth(np.full(geom.n_vertices, 1e-3))
    return sim


@pytest.mark.parametrize("scheme", SCHEMES)
def test_free_edge_sheds_what_reaches_it_and_a_wall_keeps_it(scheme):
    free, wall = open_incline("free", scheme=scheme), open_incline("wall", scheme=scheme)
    while free.particles.count == 0 and free.time < 0.5:
        free.step()
    g = free.geometry
    edge, normal = g.vertices[g.is_boundary], g.normals[g.is_boundary]
    born = free.particles.positions[:free.particles.count]
    offset = born[:, None, :] - edge[None, :, :]                       # (particles, edge, 3)
    along = np.einsum("pej,ej->pe", offset, normal)
    across = np.linalg.norm(offset - along[..., None] * normal[None], axis=2)
    nearest = across.argmin(axis=1)
    # shed from edge vertices: on their normal lines, above the surface (stacked along them)
    assert across.min(axis=1).max() < 1e-9 and (along[np.arange(len(born)), nearest] > 0).all()
    # a drop grows at the edge until it makes a parcel P: each of the ceil(D / P) particles
    # sharing D >= P holds at least P / 2 (slivers shed every step would hold 1e-9 of it)
    parcel = max(free.particles.max_volume, np.pi / 6.0 * g.dual_areas[g.is_boundary].min() ** 1.5)
    assert free.particles.volumes[:free.particles.count].min() >= 0.5 * parcel
    for sim in (free, wall):
        sim.advance(0.5)
    book = free.ledger()
    assert book["emitted"] > 0.2 * book["initial"]
    assert book["outflow"] == pytest.approx(0.0, abs=1e-15 * book["initial"])
    forming = free.term("droplets").edge_drops.sum()  # airborne too: drops growing at the edge
    assert forming > 0.0
    assert book["lost"] + book["airborne"] - forming == pytest.approx(
        book["emitted"] - book["absorbed"], rel=1e-12)
    assert abs(book["balance_error"]) < 1e-12 * book["initial"]
    kept = wall.ledger()
    assert kept["emitted"] == 0.0 and kept["outflow"] == 0.0
    assert kept["current"] == pytest.approx(kept["initial"], rel=1e-12)


def test_free_edge_without_droplets_lets_the_liquid_out_booked():
    sim = open_incline("free", particles=None)
    sim.advance(0.5)
    book = sim.ledger()
    assert sim.particles is None and book["outflow"] > 0.2 * book["initial"]
    assert abs(book["balance_error"]) < 1e-12 * book["initial"]


def test_pendant_film_without_droplets_drips_booked(plate):
    V, F = plate
    geom = sf.precompute((V, F[:, ::-1]), smoothing_iterations=0)
    sim = sf.Simulation(geom, sf.Params(gravity=DOWN, boundary="wall"), particles=None)
    sim.set_depth(np.full(geom.n_vertices, 6e-3))
    sim.advance(0.1)
    book = sim.ledger()
    keep = sim.params.keep_depth
    assert book["dripped"] == pytest.approx(book["initial"] * (1.0 - keep / 6e-3), rel=1e-12)
    assert abs(book["balance_error"]) < 1e-12 * book["initial"]


def test_removed_thresholds_say_why():
    for name in ("emit_depth", "overhang_emit_depth"):
        with pytest.raises(sf.ParameterError, match=f"{name}=0.1: this parameter was removed"):
            sf.Params(**{name: 0.1})
    with pytest.raises(sf.ParameterError, match="keep_depth"):
        sf.Params(keep_depth=0.004)


def test_poured_bunny_keeps_no_film_deeper_than_tension_holds():
    """The Stanford bunny scaled to 0.3 m, the defaults, 2e-5 m^3/s poured over its top for
    1 s. No vertex is deeper than the pendant limit of its face, and no handful of vertices
    gathers the liquid: each vertex under an overhang holds at most h_max A_max (h_max = 2 h_p,
    the limit's cap), so the 10 deepest there hold at most 10 h_max A_max of the film.
    Measured before the rule (droplets off, no limit): one vertex 0.66 m deep, the 10 deepest
    holding 46 % of the film."""
    mesh = trimesh.load(MESHES / "bunny.obj", process=False)
    V = np.asarray(mesh.vertices)
    V = (V - V.min(axis=0)) * (0.3 / np.ptp(V, axis=0).max())
    geom = sf.precompute((V, np.asarray(mesh.faces)))
    sim = sf.Simulation(geom, sf.Params(gravity=(0.0, -9.81, 0.0)))
    sim.add_source(center=geom.vertices[np.argmax(geom.vertices[:, 1])], radius=0.02, rate=2e-5)
    sim.advance(1.0)
    depth, held = np.asarray(sim.depth), np.asarray(sim.depth) * geom.dual_areas
    limit = pendant_depth(geom.normals[:, 1], sim.params)
    assert np.all(depth <= limit)
    hanging = geom.normals[:, 1] < 0.0
    deepest = np.sort(held[hanging])[-10:].sum()
    bound = 10 * 2.0 * sim.params.pendant_limit() * geom.dual_areas.max()
    assert deepest <= bound
    assert bound < 0.2 * held.sum()  # the bound is a small share of the film: no gathering
    book = sim.ledger()
    assert book["emitted"] > 0.0 and abs(book["balance_error"]) < 1e-12 * book["poured"]


SLIDE = (0.5, 0.0, 0.0)  # m/s, the plate's steady velocity in the two tests below


def sliding_plate(underside, depth):
    """A 2 cm plate (2.5 mm cells: every cell holds h_p), its ceiling or its top, sliding at
    SLIDE with a film of ``depth`` at rest on it, after three steps (the surface's velocity needs
    two moves)."""
    V, F = rectangle(0.0, 0.02, 0.0, 0.02, 8, 8)
    sim = plate_film(V, F, underside=underside, depth=depth, max_dt=1e-4)
    sim.set_motion(sf.motion.Keyframes(times=[0.0, 10.0], translations=[(0, 0, 0),
                                                                          np.multiply(SLIDE, 10)]))
    for _ in range(3):
        sim.step()
    return sim


def test_drops_leave_a_moving_surface_with_its_velocity():
    """A film at rest on a ceiling sliding at V: what drips from it moves at V (no slip, so
    nothing moves relative to the film), not at rest in the world."""
    sim = sliding_plate(underside=True, depth=1e-4)
    assert sim.ledger()["emitted"] == 0.0
    before = sim.particles.count
    sim.set_depth(np.full(sim.geometry.n_vertices, 1.2 * sim.params.pendant_limit()))
    sim.step()
    new = slice(before, sim.particles.count)
    assert sim.particles.count > before
    assert np.allclose(sim.particles.velocities[new, :2], SLIDE[:2], rtol=0, atol=1e-9)


def test_a_drop_falling_on_a_moving_surface_brings_its_velocity_relative_to_it():
    """A drop falling straight down onto a plate sliding at V lands, in the plate's frame,
    moving at -V: the film it makes on a dry plate runs backwards at |V|."""
    sim = sliding_plate(underside=False, depth=0.0)
    centre = sim.geometry.vertices.mean(axis=0)
    sim.particles.add(centre[None] + (0.0, 0.0, 1e-4), np.array([[0.0, 0.0, -1.0]]),
                      np.array([1e-9]))
    while sim.particles.count:  # 1 mm/step: it lands on the second
        sim.step()
    wet = sim.depth > 0.0
    assert sim.ledger()["absorbed"] == pytest.approx(1e-9, rel=1e-12)
    assert wet.sum() == 3  # the triangle it hit
    assert np.allclose(sim.velocity[wet], -np.asarray(SLIDE), rtol=0, atol=1e-9)
