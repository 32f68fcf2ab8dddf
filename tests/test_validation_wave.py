"""Gravity-wave speed (VALIDATION.md): a Gaussian hump of 1e-3 d0 on still water d0 = 1 m in a
30 m strip (300 x 4 irregular cells) splits into two halves running at sqrt(g d0); the speed of
the right-moving half, measured from its volume centroid between t = 1.5 s and 3.5 s, must be
within 2 %.
"""

from validation_cases import run_gravity_wave
from validation_harness import assert_invariants


def test_gravity_wave_front_moves_at_shallow_water_speed():
    figures = run_gravity_wave()
    assert figures["error"] < 0.02, figures
    assert_invariants(figures)
