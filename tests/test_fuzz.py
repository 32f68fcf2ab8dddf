"""The fuzz test (issue 21): 50 scenes drawn as users' scripts build them (``fuzz_scenes.py``:
meshes of six kinds from 1 cm to 100 m, turned and moved at random, any gravity, scheme,
friction, boundary, surface tension, droplets, motion, dyes, pours, rain and sinks), 80 steps
each. Every scene runs without NaN or negative depth, with the ledger exact to 1e-12 of the
volume that entered and its peak memory under ``MEMORY_BOUND``, or is refused at set-up with a
surfflow error. ``benchmarks/fuzz.py`` runs 1,000."""

from fuzz_scenes import check, run_scene, scenes
from hypothesis import HealthCheck, given, settings

STEPS = 80


@settings(max_examples=50, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(scenes())
def test_fuzzed_scenes_run_clean_or_are_refused_at_set_up(scene):
    outcome = run_scene(scene, STEPS)
    assert check(outcome) == [], (scene, outcome.error)
    assert outcome.refused is not None or outcome.steps == STEPS
