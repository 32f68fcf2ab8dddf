"""Lakes at rest (VALIDATION.md): a horizontal free surface must stay still to round-off, over an
immersed bump, around an emerged (dry-topped) bump and in a curved hemispherical bowl.

The bump cases run 10^4 adaptive steps (100 s of simulated time) on a 25 m strip of 100 x 4 and
of 400 x 4 irregular cells; the finer strip puts more wet vertices on the shoreline's slope,
where round-off (1e-17) is the only seed a growing mode needs. The bowl runs 4,000 steps (40 s)
on a 32-ring hemisphere of radius 1 m, its depths perturbed by round-off-sized noise (1e-14
relative).
"""

import pytest

from validation_cases import run_lake_bowl, run_lake_bump
from validation_harness import assert_invariants


@pytest.mark.parametrize("n_along", [100, 400])
def test_lake_at_rest_over_immersed_bump_stays_still(n_along):
    figures = run_lake_bump(level=0.5, n_along=n_along, steps=10_000)
    assert figures["max_speed"] < 1e-12, figures
    assert figures["max_depth_change"] < 1e-12, figures
    assert_invariants(figures)


@pytest.mark.parametrize("n_along", [100, 400])
def test_lake_at_rest_around_emerged_bump_stays_still(n_along):
    figures = run_lake_bump(level=0.1, n_along=n_along, steps=10_000)
    assert figures["max_speed"] < 1e-10, figures
    assert figures["max_depth_change"] < 1e-10, figures
    assert_invariants(figures)


def test_lake_at_rest_in_hemispherical_bowl_stays_still():
    figures = run_lake_bowl()
    assert figures["surface_spread"] < 1e-14, "the initial free surface is not horizontal"
    assert figures["max_speed"] < 1e-8, figures
    assert figures["max_depth_change"] < 1e-8, figures
    assert_invariants(figures)
