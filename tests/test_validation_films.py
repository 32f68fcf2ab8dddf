"""Thin viscous films with laminar friction (VALIDATION.md).

Nusselt film: a 1 m plane tilted 30 degrees, 100 x 4 irregular cells, nu = 1e-4 m^2/s, fed at
the top with the flux per width of a 2 mm film (an inflow boundary, in both schemes) and
drained by a sink at the bottom; the
steady depth on the middle part must equal (3 nu q / (g sin beta))^(1/3) within 1e-3 relative
at every vertex, and what the sink takes must balance what is fed.

Draining film: a 1 mm film on a sphere of radius 1 m (2,562 vertices), nu = 1e-4 m^2/s; the
depth at the top must follow d = (d0^-2 + 4 g t / (3 nu R))^(-1/2) within 2 % at t = 1, 3 and
10 s (d^2 / (3 nu) is 3e-3 s there, much less than t).
"""

import pytest
from runtime_cases import both_schemes
from validation_cases import run_draining_film, run_nusselt
from validation_harness import assert_invariants


@pytest.mark.parametrize("scheme", both_schemes())
def test_nusselt_film_on_incline_reaches_exact_depth(scheme):
    figures = run_nusselt(scheme=scheme)
    assert abs(figures["outflow_ratio"] - 1.0) < 0.01, f"not yet steady: {figures}"
    assert figures["error"] < 1e-3, figures
    assert_invariants(figures)


def test_draining_film_at_top_of_sphere_follows_exact_thinning():
    figures = run_draining_film(times=(1.0, 3.0, 10.0))
    assert figures["error"] < 0.02, figures
    assert_invariants(figures)
