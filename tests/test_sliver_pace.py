"""No single sliver sets the pace (issue 21): the time step's length is the dual cell's size
(``kernels/fields.dual_cell_size``), which a sliver triangle or a short edge does not collapse.

A 1 cm icosphere carries a water drop with surface tension on its top face; the same sphere is
spoilt there by one cap sliver (a vertex pushed onto the opposite edge until its face is 1e-4 of
an edge high) or by a short edge (an edge split 1e-4 of its length from one end, two needles).
With the shortest ring edge as the length, the short edge alone made the run take thousands of
times the steps (measured: 613,696 steps instead of 94 for a split at 1e-2; the capillary limit
goes as the length squared). Each run takes well under a second once compiled.
"""

import numpy as np
import pytest
import trimesh

import builders
import naive
import naive_physics
import surfflow as sf
from surfflow.io.procedural import icosphere
from surfflow.kernels.fields import dual_cell_size
from surfflow.step_limits import dual_cell_sizes, length_words, smallest_cells
from surfflow.terms.base import Term

RADIUS = 0.01
THINNESS = 1e-4


def top_face(V, F):
    """The face whose centroid is highest (+y) and its first edge's length."""
    f = int(np.argmax(V[F].mean(axis=1)[:, 1]))
    a, b, _ = F[f]
    return f, float(np.linalg.norm(V[b] - V[a]))


def sphere_with_cap_sliver():
    """The top face (a, b, c) made a sliver: c moved towards the midpoint of ab until the face is
    THINNESS edges high (c keeps its ring, so no cell shrinks much)."""
    V, F = icosphere(3, RADIUS)
    f, length = top_face(V, F)
    a, b, c = F[f]
    middle = 0.5 * (V[a] + V[b])
    V[c] = middle + THINNESS * length * (V[c] - middle) / np.linalg.norm(V[c] - middle)
    return V, F


def sphere_with_short_edge():
    """The top face's edge ab split at THINNESS of its length from a: a short edge and two
    needle triangles, as a triangulation of random points makes them."""
    V, F = icosphere(3, RADIUS)
    f, _ = top_face(V, F)
    a, b, _ = F[f]
    V = np.vstack([V, V[a] + THINNESS * (V[b] - V[a])])
    k = len(V) - 1
    faces = []
    for face in F.tolist():
        for s in range(3):
            u, w, o = face[s], face[(s + 1) % 3], face[(s + 2) % 3]
            if {u, w} == {a, b}:
                faces += [[u, k, o], [k, w, o]]
                break
        else:
            faces.append(face)
    return V, np.array(faces)


def drop_run(mesh, duration=0.1):
    """Steps, the simulation and its initial volume after ``duration`` of a 1 mm high drop of
    4 mm radius on the sphere's top, with surface tension and gravity."""
    geom = sf.precompute(mesh, feature_size=0)
    params = sf.Params(gravity=(0.0, -9.81, 0.0), surface_tension=0.072, contact_angle=60.0,
                       friction_model="laminar")
    sim = sf.Simulation(geom, params)
    distance = np.linalg.norm(geom.vertices - (0.0, RADIUS, 0.0), axis=1)
    sim.set_depth(np.maximum(0.0, 1e-3 * (1.0 - (distance / 0.004) ** 2)))
    volume = sim.total_volume()
    sim.advance(duration)
    return int(sim.state.step_count), sim, volume


def mean_thickness(sim) -> float:
    """The drop's volume-weighted mean depth int d^2 dA / int d dA (m): its height, whatever
    vertex lies at its apex."""
    volumes = sim.geometry.dual_areas * sim.depth
    return float(volumes @ sim.depth / volumes.sum())


@pytest.fixture(scope="module")
def plain_run():
    return drop_run(icosphere(3, RADIUS))


@pytest.mark.parametrize("spoil", [
    sphere_with_cap_sliver, sphere_with_short_edge])
def test_one_sliver_runs_at_nearly_the_pace_of_the_clean_sphere(spoil, plain_run):
    plain_steps, plain, _ = plain_run
    steps, sim, volume = drop_run(spoil())
    assert steps < 2 * plain_steps, (steps, plain_steps)
    assert np.all(np.isfinite(sim.depth)) and np.all(sim.depth >= 0.0)
    assert np.all(np.isfinite(sim.velocity))
    assert sim.total_volume() == pytest.approx(volume, rel=1e-12)
    # stable: the drop moves as on the clean sphere, nothing rings at the sliver
    plain_speed = np.abs(plain.velocity).max()
    assert np.abs(sim.velocity).max() < 1.5 * plain_speed
    assert mean_thickness(sim) == pytest.approx(mean_thickness(plain), rel=0.05)
    assert sim.depth.max() == pytest.approx(plain.depth.max(), rel=0.2)


def test_cell_size_is_the_edge_on_equilateral_triangles_and_ignores_a_short_edge():
    V = np.array([[0.0, 0.0, 0.0]] + [[np.cos(t), np.sin(t), 0.0]
                                       for t in np.arange(6) * np.pi / 3])
    F = np.array([[0, 1 + k, 1 + (k + 1) % 6] for k in range(6)])
    geom = sf.precompute((V, F), feature_size=0)
    size = dual_cell_size(geom.neighbor_offsets, geom.dual_edge_vectors, geom.dual_areas, 0)
    assert size == pytest.approx(1.0, rel=1e-12)
    clean = sf.precompute(icosphere(3, RADIUS), feature_size=0)
    spoilt = sf.precompute(sphere_with_short_edge(), feature_size=0)
    sizes = [np.array([dual_cell_size(g.neighbor_offsets, g.dual_edge_vectors, g.dual_areas, i)
                       for i in range(g.n_vertices)]) for g in (clean, spoilt)]
    shortest_edge = np.linalg.norm(spoilt.neighbor_coords, axis=1).min()
    assert shortest_edge < 1e-3 * sizes[0].min()
    assert sizes[1].min() > 0.4 * sizes[0].min()


class Metronome(Term):
    """A term that holds the step to ``beat`` seconds."""

    name = "metronome"
    stages = ("max_time_step",)

    def __init__(self, beat: float):
        self.beat = beat

    def max_time_step(self, state, fields) -> float:
        return self.beat


def flat_film(size: float, depth: float, **params) -> sf.Simulation:
    """A film ``depth`` deep over a flat square ``size`` on a side (20 x 20 cells), gravity
    into it, water's density and a 10 degree contact angle (a contact-line depth of about 0.18
    cells: under the centimetre square's film below, so its wetting ramp's stiffness is off)."""
    V, F = builders.rectangle(0.0, size, 0.0, size, 20, 20)
    geom = sf.precompute((V, F), smoothing_iterations=0, feature_size=0)
    sim = sf.Simulation(geom, sf.Params(gravity=(0.0, 0.0, -9.81), density=1000.0,
                                        contact_angle=10.0, **params), particles=None)
    sim.set_depth(np.full(geom.n_vertices, depth))
    return sim


def test_what_sets_the_step_is_named_with_the_length_it_gives():
    """A 1 m square under a 1 cm film: the flow's CFL limit, cfl r / sqrt(g d), sets the step
    (surface tension's, cfl r / (2 pi / r sqrt(d sigma / rho)), is 2.4 times longer). The same
    scaled to 1 cm, under 0.2 mm: surface tension's, which falls with the square of the cell,
    is 41 times shorter than the flow's. Then max_dt, then a term's own limit, where they are
    the shortest."""
    metre = flat_film(1.0, 0.01, surface_tension=0.072, max_dt=1.0)
    dt = metre.step()
    spacing = metre.fields.ring_spacing
    assert metre.step_limit == "flow"
    assert dt == pytest.approx(naive.time_step(metre.geometry, np.full(len(spacing), 0.01),
                                               np.zeros((len(spacing), 2)), 9.81, 1e-6, 0.5,
                                               np.inf), rel=1e-12)
    centimetre = flat_film(0.01, 2e-4, surface_tension=0.072, max_dt=1.0)
    eps, sigma, cos_theta, density = centimetre.term("tension").capillary_limit()
    assert (eps < 2e-4).all()
    expected = naive_physics.capillary_time_step(centimetre.geometry, np.full(len(eps), 2e-4),
                                                 eps, sigma, cos_theta, density, 1e-6, 0.5)
    assert centimetre.step() == pytest.approx(expected, rel=1e-12)
    assert centimetre.step_limit == "surface tension"
    capped = flat_film(1.0, 0.01, max_dt=1e-3)
    assert capped.step() == 1e-3 and capped.step_limit == "max_dt"
    capped.add_term(Metronome(1e-4))
    assert capped.step() == 1e-4 and capped.step_limit == "metronome"


def test_the_vertex_that_paces_the_run_is_named_and_tallied():
    """A 1 cm film at rest on a 10 cm UV sphere (24 x 24): every vertex's flow limit is
    cfl r_i / sqrt(g d), so the first step is set at the smallest dual cell, which lies in a
    pole's fan, 0.3 of the median cell. Over the run that follows, the tally holds every step
    once, each vertex-set step at its vertex, and its report names the vertices that set the
    most with their cells against the median. Before the run, ``smallest_cells`` of the
    geometry's dual cells names the same vertex."""
    geom = sf.precompute(sf.load_mesh(trimesh.creation.uv_sphere(radius=0.1, count=[24, 24])),
                         feature_size=0)
    sim = sf.Simulation(geom, sf.Params(gravity=(0.0, -9.81, 0.0), max_dt=1.0), particles=None)
    sim.set_depth(np.full(geom.n_vertices, 0.01))
    assert sim.step_limit is None and sim.step_limit_vertex is None and sim.step_limits.steps == 0
    dt = sim.step()
    spacing = sim.fields.ring_spacing
    vertex = sim.step_limit_vertex
    assert sim.step_limit == "flow" and spacing[vertex] == spacing.min()
    assert dt == pytest.approx(0.5 * spacing.min() / np.sqrt(9.81 * 0.01), rel=1e-12)
    poles = {int(np.argmax(geom.vertices[:, 2])), int(np.argmin(geom.vertices[:, 2]))}  # on z
    ring = set(geom.neighbor_indices[geom.neighbor_offsets[vertex]:
                                     geom.neighbor_offsets[vertex + 1]].tolist())
    assert poles & ring, "the smallest cell lies next to a pole"
    assert spacing.min() / np.median(spacing) == pytest.approx(0.3, abs=0.01)
    assert np.array_equal(dual_cell_sizes(geom), spacing)   # what precompute and info print
    assert smallest_cells(spacing, 1) == [(vertex, spacing.min() / np.median(spacing))]

    sim.advance(0.05)
    tally = sim.step_limits
    assert tally.steps == sim.state.step_count
    assert sum(tally.vertices.values()) == tally.limits["flow"] + tally.limits["surface tension"]
    (first, steps), *_ = tally.pacing_vertices()
    assert steps == max(tally.vertices.values())
    lines = tally.report(spacing)
    assert lines[0].startswith(f"what set the time step over {tally.steps} steps: flow")
    assert steps > 1 and lines[1] == (f"vertex {first} set {steps} steps "
                                      f"({100 * steps / tally.steps:.0f} %); its cell is "
                                      f"{spacing[first] / np.median(spacing):.2g} of the median cell")
    assert len(lines) == 1 + min(3, len(tally.vertices))
    summary = tally.summary(spacing, 2)
    assert summary["steps"] == tally.steps and sum(summary["limits"].values()) == tally.steps
    assert summary["vertices"][0] == {"vertex": first, "steps": steps,
                                      "cell": spacing[first] / np.median(spacing)}
    assert sf.Simulation(geom).step_limits.report(spacing) == []
    again = sf.Simulation(geom, sim.params, particles=None)   # kept in the state: a restart
    again.load_state_dict(sim.state_dict())                     # goes on counting
    assert (again.step_limits.limits, again.step_limits.vertices) == (tally.limits,
                                                                      tally.vertices)
    data = {k: v for k, v in sim.state_dict().items() if not k.startswith("step_limit")}
    again.load_state_dict(data)                                 # a checkpoint without it
    assert again.step_limits.steps == 0 and not again.step_limits.vertices


def test_cell_sizes_are_told_in_the_unit_that_reads_best():
    assert [length_words(x) for x in (4.4, 1.0, 0.999, 0.0061, 2.5e-5, 1e-9)] == [
        "4.4 m", "1 m", "999 mm", "6.1 mm", "25 um", "1e-09 m"]
