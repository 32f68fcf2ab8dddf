"""The conservative momentum scheme (Params(scheme="conservative"), SPEC §10) and the boundary
segments: exact answers (Stoker's wet dam break, SWASHES' transcritical bump, Ritter's front),
lake at rest, volume conservation edge by edge, threads, restarts, the other terms, and errors.
"""

import numba
import numpy as np
import pytest

import builders
import surfflow as sf
import surfflow.schemes.hll_stage as hll_stage
import surfflow.schemes.shared as shared
from runtime_cases import (curved_patch, dyed_pour_on_threads, lumpy_sphere, numba_threads,
                           wet_simulation)
from validation_cases import (donor_faces, run_lake_bowl, run_lake_bump, run_ritter, run_stoker,
                              run_transcritical_bump)
from validation_harness import assert_invariants

CONSERVATIVE = {"gravity": (0.0, 0.0, -9.81), "friction": 0.0, "scheme": "conservative"}
SCHEMES = ["momentum", "conservative"]


def test_stoker_middle_state_and_bore_position():
    """The middle state within 1 % and the bore within one cell (the L1 error at 200 x 4:
    0.0052; the momentum scheme's 0.0056 since it takes this scheme's fluxes around bores,
    schemes/bores.py; 0.0064 before, 0.0074 before its Landshoff term)."""
    figures = run_stoker(n_along=200, n_across=4)
    assert figures["middle_error"] < 0.01, figures
    assert figures["bore_cells"] < 1.0, figures
    assert_invariants(figures)


def test_mass_flux_is_antisymmetric_bit_for_bit_on_a_curved_mesh():
    geom = lumpy_sphere(seed=2)
    sim = wet_simulation(geom, sf.Params(gravity=(0.4, 0.0, -9.81), scheme="conservative"),
                         n_dyes=1, seed=2)
    sim.step()
    flux = sim.scheme.mass_flux
    assert np.count_nonzero(flux) > 0.5 * flux.size
    assert np.array_equal(flux, -flux[geom.reverse_edges])


@pytest.mark.parametrize("level", [0.5, 0.1])
def test_lake_at_rest_over_a_bump(level):
    figures = run_lake_bump(level, n_along=60, steps=500, scheme="conservative")
    assert figures["max_speed"] < 1e-12, figures
    assert figures["max_depth_change"] < 1e-14, figures
    assert_invariants(figures)


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("level", [0.5, 0.1])
def test_lake_at_rest_held_at_its_level_by_a_level_boundary(level, scheme):
    """A level segment at the lake's level (and a zero discharge at the other end) moves
    nothing: the ghost's level equals the lake's, so its push and flux vanish."""
    figures = run_lake_bump(level, n_along=60, steps=500, scheme=scheme, held=True)
    assert figures["max_speed"] < 1e-12, figures
    assert figures["max_depth_change"] < 1e-14, figures
    assert_invariants(figures)


def test_lake_at_rest_in_a_bowl_with_round_off_noise():
    figures = run_lake_bowl(n_rings=16, steps=1000, scheme="conservative")
    assert figures["max_speed"] < 1e-8, figures
    assert_invariants(figures)


def test_ritter_front_within_two_cells_at_500_along():
    figures = run_ritter(n_along=500, scheme="conservative")
    assert abs(figures["front"] - figures["exact_front"]) < 2 * 10.0 / 500, figures
    assert figures["error"] < 0.05, figures
    assert_invariants(figures)


def test_transcritical_flow_over_a_bump_with_a_hydraulic_jump():
    """SWASHES: inflow 0.18 m^2/s, level 0.33 m at the outlet, run to its steady state (200 s);
    depth L1 < 1 %, the jump within two cells, and the inflow booked exactly as discharge x
    width x time. The momentum scheme places the jump, books the inflow and meets the 1 % too,
    but this scheme's error is below three quarters of its, the margin this scheme is kept for
    (measured 0.0021 against 0.0030): the momentum scheme's depth is low around the crest
    (docs/model.md, the default scheme's limits)."""
    figures = run_transcritical_bump(n_along=100, end_time=200.0)
    assert figures["error"] < 0.01, figures
    assert abs(figures["jump"] - figures["exact_jump"]) < 2 * figures["cell"], figures
    assert abs(figures["inflow"] - 1.0) < 1e-12, figures
    assert_invariants(figures)
    velocity_form = run_transcritical_bump(n_along=100, end_time=200.0, scheme="momentum")
    assert abs(velocity_form["jump"] - velocity_form["exact_jump"]) < 2 * figures["cell"], \
        velocity_form
    assert abs(velocity_form["inflow"] - 1.0) < 1e-12, velocity_form
    assert velocity_form["error"] < 0.01, velocity_form
    assert_invariants(velocity_form)
    assert figures["error"] < 0.75 * velocity_form["error"], (figures, velocity_form)


def carry_dye_spot(monkeypatch, first_order):
    """A Gaussian dye spot carried 2 m by a uniform 0.5 m/s current (no gravity); its peak."""
    if first_order:
        def no_gradients(*args):
            for gradient in args[-2:]:
                gradient[:] = 0.0
        monkeypatch.setattr(hll_stage, "limited_gradients", no_gradients)
        monkeypatch.setattr(shared, "limited_faces", donor_faces)
    V, F = builders.strip(10.0, 1.0, 100, 10, seed=7)
    geom = sf.precompute((V, F), smoothing_iterations=0)
    sim = sf.Simulation(geom, sf.Params(gravity=(0.0, 0.0, 0.0), friction=0.0, max_dt=0.02,
                                        scheme="conservative"), n_dyes=1)
    x, y = geom.vertices[:, 0], geom.vertices[:, 1]
    sim.set_depth(np.full(geom.n_vertices, 0.1))
    sim.set_velocity(np.tile([0.5, 0.0, 0.0], (geom.n_vertices, 1)))
    sim.set_dye(np.exp(-((x - 3.0) ** 2 + (y - 0.5) ** 2) / (2 * 0.15 ** 2))[:, None])
    sim.advance(4.0)
    return sim.dye[:, 0].max()


def test_second_order_reconstruction_keeps_a_dye_spot_sharper(monkeypatch):
    second = carry_dye_spot(monkeypatch, first_order=False)
    first = carry_dye_spot(monkeypatch, first_order=True)
    assert second > first + 0.1, (second, first)


def test_one_and_two_threads_agree_bit_for_bit():
    params = sf.Params(gravity=(0.3, 0, -9.81), scheme="conservative")
    two = min(2, numba.config.NUMBA_NUM_THREADS)
    for a, b in zip(dyed_pour_on_threads(1, params), dyed_pour_on_threads(two, params)):
        assert np.array_equal(a, b)


def test_every_term_runs_with_the_conservative_scheme_and_books_every_volume():
    """Surface tension, wind, laminar friction, sources, a sink, dissolution, an outflow boundary
    and a dye together on a curved patch: finite, depth >= 0, volume booked to round-off."""
    geom = curved_patch(seed=3)
    params = sf.Params(gravity=(0.5, 0.2, -9.81), boundary="outflow", friction_model="laminar",
                       surface_tension=0.07, wind=(1.0, 0.0, 0.0), wind_coefficient=0.5,
                       max_dt=0.005, scheme="conservative")
    sim = wet_simulation(geom, params, n_dyes=1, seed=3)
    sim.set_soluble_layer(np.full(geom.n_vertices, 1e-4))
    sim.add_source(geom.vertices[geom.n_vertices // 2], 0.15, 2e-4, dye=0)
    sim.add_sink(geom.vertices[7], 0.2, 5e-4)
    for _ in range(300):
        sim.step()
        assert sim.state.depth.min() >= 0.0
    book = sim.ledger()
    assert book["outflow"] > 0 and book["sunk"] > 0
    assert abs(book["balance_error"]) < 1e-12 * (book["initial"] + book["poured"])
    assert np.isfinite(sim.velocity).all() and np.isfinite(sim.dye).all()


def test_restart_from_a_state_dict_is_bit_identical():
    geom = curved_patch(seed=4)
    params = sf.Params(gravity=(0.3, 0.0, -9.81), scheme="conservative")
    sim = wet_simulation(geom, params, n_dyes=2, seed=4)
    sim.advance(0.1)
    saved = sim.state_dict()
    sim.advance(0.1)
    again = sf.Simulation(geom, params, n_dyes=2)
    again.load_state_dict(saved)
    again.advance(0.1)
    for name in ("depth", "velocity", "dye"):
        assert np.array_equal(getattr(sim, name), getattr(again, name)), name


@pytest.mark.parametrize("scheme", SCHEMES)
def test_a_level_boundary_fills_a_channel_to_its_level_and_books_the_inflow(scheme):
    V, F = builders.strip(4.0, 0.4, 40, 4, seed=8)
    geom = sf.precompute((V, F), smoothing_iterations=0)
    params = sf.Params(gravity=(0.0, 0.0, -9.81), friction=1.0, scheme=scheme, boundary="wall")
    sim = sf.Simulation(geom, params)  # a channel: walls along it, the level at its end
    sim.set_depth(np.full(geom.n_vertices, 0.05))
    sim.set_boundary("level", level=0.1, mask=geom.vertices[:, 0] > 3.99)
    sim.advance(30.0)
    book = sim.ledger()
    assert np.abs(sim.depth - 0.1).max() < 1e-3
    assert book["inflow"] - book["outflow"] == pytest.approx(0.05 * 4.0 * 0.4, rel=0.01)
    assert abs(book["balance_error"]) < 1e-12 * book["current"]


@pytest.mark.parametrize("scheme", SCHEMES)
def test_a_discharge_may_be_a_function_of_time(scheme):
    V, F = builders.strip(4.0, 0.4, 40, 4, seed=8)
    geom = sf.precompute((V, F), smoothing_iterations=0)
    sim = sf.Simulation(geom, sf.Params(**{**CONSERVATIVE, "scheme": scheme}, max_dt=0.01))
    sim.set_depth(np.full(geom.n_vertices, 0.05))
    sim.set_boundary("inflow", discharge=lambda t: 0.01 if t < 1.0 else 0.0,
                     plane=((0.0, 0.0, 0.0), (-1.0, 0.0, 0.0)))
    sim.advance(2.0)
    assert sim.ledger()["inflow"] == pytest.approx(0.01 * 0.4 * 1.0, rel=1e-12)


@pytest.mark.parametrize("call, message", [
    (lambda sim, x: sim.set_boundary("inflow", level=0.1, mask=x < 0.01), "discharge"),
    (lambda sim, x: sim.set_boundary("transmissive", discharge=1.0, mask=x < 0.01), "neither"),
    (lambda sim, x: sim.set_boundary("drain", mask=x < 0.01), "not allowed"),
    (lambda sim, x: sim.set_boundary("transmissive", mask=x < 0.01, plane=((0, 0, 0), (1, 0, 0))),
     "exactly one"),
    (lambda sim, x: sim.set_boundary("transmissive", mask=x > 100.0), "at least two"),
    (lambda sim, x: sim.set_boundary("transmissive", plane=((0, 0, 0), (0, 0, 0))), "zero length"),
])
def test_bad_boundary_segments_are_named(call, message):
    V, F = builders.strip(4.0, 0.4, 20, 2, seed=8)
    geom = sf.precompute((V, F), smoothing_iterations=0)
    sim = sf.Simulation(geom, sf.Params(**CONSERVATIVE))
    with pytest.raises(sf.ParameterError, match=message):
        call(sim, geom.vertices[:, 0])


def channel_with_segments(scheme, threads=None):
    """A 4 m channel over a bump, a discharge in at x = 0, a level held at x = 4, a dye poured;
    ``scheme``'s simulation with its depth set (on ``threads`` numba threads if given)."""
    V, F = builders.strip(4.0, 0.4, 40, 4, seed=8)
    geom = sf.precompute((V, F), smoothing_iterations=0)
    sim = sf.Simulation(geom, sf.Params(**{**CONSERVATIVE, "scheme": scheme}, max_dt=0.01),
                        n_dyes=1)
    x = geom.vertices[:, 0]
    bottom = 0.02 * np.exp(-(x - 2.0) ** 2)
    sim.set_bottom(bottom)
    sim.set_depth(0.05 - bottom)
    sim.set_boundary("inflow", discharge=0.01, plane=((0.0, 0.0, 0.0), (-1.0, 0.0, 0.0)))
    sim.set_boundary("level", level=0.04, plane=((4.0, 0.0, 0.0), (1.0, 0.0, 0.0)))
    sim.add_source(geom.vertices[60], 0.1, 1e-4, dye=0)
    return sim


@pytest.mark.parametrize("scheme", SCHEMES)
def test_open_segments_restart_bit_for_bit_and_agree_on_one_and_two_threads(scheme):
    sim = channel_with_segments(scheme)
    sim.advance(0.2)
    saved = sim.state_dict()
    sim.advance(0.2)
    again = channel_with_segments(scheme)
    again.load_state_dict(saved)
    again.advance(0.2)
    with numba_threads(1):  # the others on every thread
        other = channel_with_segments(scheme)
        other.advance(0.2)
        other.advance(0.2)
    book = sim.ledger()
    assert book["inflow"] > 0.0 and book["outflow"] > 0.0, book
    assert abs(book["balance_error"]) < 1e-12 * book["current"], book
    for name in ("depth", "velocity", "dye"):
        assert np.array_equal(getattr(sim, name), getattr(again, name)), name
        assert np.array_equal(getattr(sim, name), getattr(other, name)), name


def test_unknown_scheme_is_refused():
    with pytest.raises(sf.ParameterError, match="scheme"):
        sf.Params(scheme="upwind")


def test_random_wet_dry_state_stays_non_negative_and_finite():
    sim = wet_simulation(lumpy_sphere(seed=6), sf.Params(gravity=(0.0, 0.0, -9.81),
                                                         scheme="conservative"), n_dyes=2, seed=6)
    for _ in range(200):
        sim.step()
        assert sim.state.depth.min() >= 0.0
    assert np.isfinite(sim.velocity).all()
    assert 0.0 <= sim.dye.min() and sim.dye.max() <= 1.0
    assert abs(sim.ledger()["balance_error"]) < 1e-12 * sim.ledger()["initial"]
