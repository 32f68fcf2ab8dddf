"""The step as a list of terms (``surfflow/terms/base.py``): a term acts in the stages it
names, the volumes it returns are booked by the simulation, an absent term is not in the list,
and each scheme declares the stages it covers."""

import numpy as np
import pytest

import builders
import surfflow as sf
from surfflow.terms import STAGES, Term

STILL = {"gravity": (0.0, 0.0, 0.0), "friction": 0.0}


@pytest.fixture(scope="module")
def strip():
    V, F = builders.strip(4.0, 0.4, 20, 2, seed=8)
    return sf.precompute((V, F), smoothing_iterations=0)


def wet(geom, params=None, **kwargs):
    sim = sf.Simulation(geom, sf.Params(**(params or STILL)), **kwargs)
    sim.set_depth(np.full(geom.n_vertices, 0.01))
    return sim


class BodyForce(Term):
    """A constant acceleration a (3,) in the world: u += dt a_t (a's tangential part) in the
    push stage."""

    name = "body_force"
    stages = ("push",)

    def __init__(self, acceleration):
        self.acceleration = np.asarray(acceleration, dtype=np.float64)
        self.pushes = 0

    def push(self, geom, fields, state, bottom, dt):
        state.velocity += dt * np.einsum("iaj,j->ia", geom.tangent_frames, self.acceleration)
        self.pushes += 1


class Spring(Term):
    """Pours ``rate`` m^3/s onto vertex 0 in the sources stage; returns it as ``poured`` unless
    ``booked`` is False (then the volume enters unbooked)."""

    name = "spring"
    stages = ("add_sources",)

    def __init__(self, rate, booked=True):
        self.rate, self.booked, self.total = rate, booked, 0.0

    def add_sources(self, geom, state, dt):
        state.depth[0] += self.rate * dt / geom.dual_areas[0]
        self.total += self.rate * dt
        return {"poured": self.rate * dt} if self.booked else {}

    def state_dict(self):
        return {"spring_total": np.float64(self.total)}

    def load_state_dict(self, data):
        self.total = float(data["spring_total"])


def test_a_custom_term_acts_in_its_stage(strip):
    sim = wet(strip, dict(STILL, max_dt=0.01))
    force = sim.add_term(BodyForce([0.5, 0.0, 0.0]))
    assert sim.terms == (sim.term("droplets"), sim.term("wetness"), force) and sim.term("body_force") is force
    for _ in range(3):
        sim.step()
    assert force.pushes == 3
    x = strip.vertices[:, 0]
    inner = (x > x.min() + 0.5) & (x < x.max() - 0.5)  # away from the walls at the ends
    assert np.allclose(sim.velocity[inner], [0.5 * sim.time, 0.0, 0.0], rtol=0.0, atol=1e-12)


@pytest.mark.parametrize("scheme", ["momentum", "conservative"])
def test_the_volume_a_term_returns_is_booked(strip, scheme):
    sim = wet(strip, dict(STILL, scheme=scheme))
    spring = sim.add_term(Spring(2e-5))
    sim.advance(0.5)
    book = sim.ledger()
    assert book["poured"] == pytest.approx(spring.total, rel=1e-12) and spring.total > 0.0
    assert abs(book["balance_error"]) < 1e-12 * book["current"]


def test_a_volume_not_returned_breaks_the_balance(strip):
    sim = wet(strip)
    spring = sim.add_term(Spring(2e-5, booked=False))
    sim.advance(0.5)
    assert sim.ledger()["poured"] == 0.0
    assert sim.ledger()["balance_error"] == pytest.approx(spring.total, rel=1e-9)


def test_a_volume_under_an_unknown_entry_is_refused(strip):
    sim = wet(strip)
    spring = sim.add_term(Spring(2e-5))
    spring.add_sources = lambda geom, state, dt: {"spilled": 1e-9}
    sim._bind_stages()
    with pytest.raises(sf.SimulationError, match="'spilled', which is no ledger entry; return "
                                                 "one of initial, poured"):
        sim.step()


def test_a_terms_state_travels_in_the_state_dict(strip):
    sim = wet(strip)
    sim.add_term(Spring(2e-5))
    sim.advance(0.2)
    data = sim.state_dict()
    again = sf.Simulation(strip, sim.params)
    spring = again.add_term(Spring(2e-5))
    again.load_state_dict(data)
    assert spring.total == float(data["spring_total"]) > 0.0


def test_absent_terms_are_not_in_the_list(strip):
    plain = sf.Simulation(strip, sf.Params(), particles=None)
    assert [t.name for t in plain.terms] == ["dripping", "wetness"] and plain.term("tension") is None
    assert [t.name for t in sf.Simulation(strip, sf.Params()).terms] == ["droplets", "wetness"]
    sim = sf.Simulation(strip, sf.Params(surface_tension=0.07, wind=(1.0, 0.0, 0.0),
                                         wind_coefficient=0.5), particles=True)
    assert [t.name for t in sim.terms] == ["tension", "wind", "droplets", "wetness"]
    sim.set_soluble_layer(np.zeros(strip.n_vertices))
    sim.move_to(strip.vertices)
    assert [t.name for t in sim.terms] == ["motion", "tension", "wind", "dissolution", "droplets",
                                           "wetness"]
    custom = sim.add_term(BodyForce([0.0, 0.0, 0.0]))
    assert sim.terms[-1] is custom
    assert sim.add_term(BodyForce([1.0, 0.0, 0.0])) is sim.terms[-1] and len(sim.terms) == 7


def test_a_term_naming_an_unknown_stage_is_refused(strip):
    class Stray(Term):
        name, stages = "stray", ("push", "levitate")

    with pytest.raises(sf.ParameterError, match="levitate"):
        sf.Simulation(strip, sf.Params()).add_term(Stray())


def test_schemes_declare_the_stages_they_cover(strip):
    momentum = sf.Simulation(strip, sf.Params()).scheme
    conservative = sf.Simulation(strip, sf.Params(scheme="conservative")).scheme
    assert momentum.stages == ("push", "apply_friction", "transport")
    assert conservative.stages == ("transport",)
    assert set(momentum.stages) <= set(STAGES)
    assert not hasattr(momentum, "advect")
    assert not any(hasattr(conservative, name) for name in ("advect", "push", "apply_friction"))


def test_boundary_segments_are_named_by_kind(strip):
    sim = sf.Simulation(strip, sf.Params(scheme="conservative"))
    assert sim.boundary_segments == ()
    x = strip.vertices[:, 0]
    sim.set_boundary("inflow", discharge=0.01, mask=x < x.min() + 1e-9)
    sim.set_boundary("transmissive", mask=x > x.max() - 1e-9)
    kinds = [(segment.kind, segment.value) for segment in sim.boundary_segments]
    assert kinds == [("inflow", 0.01), ("transmissive", 0.0)]
    assert all(len(segment.vertices) >= 2 for segment in sim.boundary_segments)
