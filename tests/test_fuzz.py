"""The fuzz test (issue 21): 50 scenes drawn as users' scripts build them (``fuzz_scenes.py``:
meshes of six kinds from 1 cm to 100 m, turned and moved at random, any gravity, scheme,
friction, boundary, surface tension, droplets, motion, dyes, pours, rain and sinks), 80 steps
each. Every scene runs without NaN or negative depth, with the ledger exact to 1e-12 of the
volume that entered and its peak memory under ``MEMORY_BOUND``, or is refused at set-up with a
surfflow error. The same on the project's own meshes, with their defects (``REAL_MESHES``), on
fewer scenes: their steps cost more. ``benchmarks/fuzz.py`` runs 1,000 (``--meshes real``: the
project's meshes)."""

from fuzz_scenes import REAL_MESHES, FuzzScene, check, run_scene, scenes
from hypothesis import HealthCheck, example, given, settings

STEPS = 80
REAL_SCENES = 8

SUBNORMAL_RESIDUE = FuzzScene(
    kind="cylinder", scale=1.0,
    quaternion=(-5.5641803419590276e-275, -0.7427944243167719, -0.4896603325454544,
                -0.30189679495009025),
    translation=(-6.731785551237159, -2.2250738585e-313, 4.432419721248651e-51),
    gravity=(-0.7989347141001213, -0.9038659783558387, -1.401298464324817e-45),
    friction_model="laminar", boundary="outflow", surface_tension=0.072,
    contact_angle=170.49258387531083, scheme="momentum", droplets=False, tight_budget=False,
    motion=None, n_dyes=0, initial_depth=0.0, pours=2, rain=0.0, sink=False, seed=2642)
"""Two pours on a tilted cylinder, contact angle 170 degrees: by step 74 the bore patch carries a
residue of subnormal depth onto a dry vertex, whose new volume A d' is so small that dt / (A d')
overflows (``continuity.mixed_velocity``)."""


def runs_clean_or_is_refused(scene):
    """``scene`` takes ``STEPS`` steps passing every check of ``fuzz_scenes.check``, or is
    refused at set-up with a surfflow error."""
    outcome = run_scene(scene, STEPS)
    assert check(outcome) == [], (scene, outcome.error)
    assert outcome.refused is not None or outcome.steps == STEPS


@settings(max_examples=50, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(scenes())
@example(SUBNORMAL_RESIDUE)
def test_fuzzed_scenes_run_clean_or_are_refused_at_set_up(scene):
    runs_clean_or_is_refused(scene)


@settings(max_examples=REAL_SCENES, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(scenes(REAL_MESHES))
def test_fuzzed_scenes_on_the_projects_meshes_run_clean_or_are_refused_at_set_up(scene):
    runs_clean_or_is_refused(scene)
