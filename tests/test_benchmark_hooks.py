"""The timing benchmarks reach into the step in one place, ``benchmarks/timing/medians.py``'s
``time_stages``, which wraps the stage lists and the step's helpers by name. Nothing else runs
the benchmarks in the suite, so a renamed helper would only show when someone times a step
(``benchmarks/realtime.py`` once crashed so). This keeps the names honest, for both schemes."""

import sys
from pathlib import Path

import numpy as np
import pytest

import builders
import surfflow as sf
from runtime_cases import both_schemes

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks" / "timing"))

import medians  # noqa: E402


@pytest.fixture(scope="module")
def strip():
    V, F = builders.strip(4.0, 0.4, 20, 2, seed=8)
    return sf.precompute((V, F), smoothing_iterations=0)


@pytest.mark.parametrize("scheme", both_schemes())
def test_every_timed_helper_and_stage_is_in_the_step(strip, scheme):
    params = sf.Params(gravity=(0.0, 0.0, -9.81), surface_tension=0.07, scheme=scheme)
    sim = sf.Simulation(strip, params, n_dyes=1)
    sim.set_depth(np.where(strip.vertices[:, 0] < 0.5, 0.01, 0.0))
    for helper in medians.STEP_HELPERS:
        assert callable(getattr(sim, helper, None)), f"Simulation has no step helper {helper}"
    spent = medians.time_stages(sim)
    for _ in range(3):
        sim.step()
    assert spent["time_step"] > 0.0 and spent["transport"] > 0.0
    assert abs(sim.ledger()["balance_error"]) < 1e-15
