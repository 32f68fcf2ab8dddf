"""Fuzzed scenes (issue 21): 1,000 scenes drawn as users' scripts build them, and the 30 m
sphere under heavy rain with droplets.

    python benchmarks/fuzz.py [--scenes 1000] [--steps 80] [--seed 21] [--meshes made]

Each scene comes from the hypothesis strategy of ``tests/fuzz_scenes.py`` (the one the 50-scene
CI test draws from, here with a random seed; ``--meshes real`` draws the project's own meshes,
``fuzz_scenes.REAL_MESHES``, with their defects, instead of the made ones) and takes
``--steps`` steps; the script prints the figures the issue asks for: scenes refused at set-up
(with a surfflow error), NaN, raw errors, negative depths, ledger errors above 1e-12 of the
volume that entered (and the largest), and the peak memory (tracemalloc: what numpy and Python
allocated) against the stated bound, plus how many scenes emitted droplets and the most
particles in flight. Then the sphere: 30 m across, 5 cm of water and 100 mm/h of rain for 1 s.
"""

import argparse
import sys
import time
import tracemalloc
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from fuzz_scenes import (LEDGER_TOLERANCE, MEMORY_BOUND, MESH_KINDS, REAL_MESHES,  # noqa: E402
                         check, entered_volume, heavy_rain_sphere, run_scene, scenes)
from hypothesis import HealthCheck, given, seed, settings  # noqa: E402


def fuzz(n_scenes: int, steps: int, random_seed: int, kinds=MESH_KINDS) -> None:
    """Run ``n_scenes`` fuzzed scenes on meshes of ``kinds`` and print the figures."""
    outcomes = []
    start = time.perf_counter()

    @seed(random_seed)
    @settings(max_examples=n_scenes, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(scenes(kinds))
    def one(scene):
        outcomes.append(run_scene(scene, steps))
        if len(outcomes) % 100 == 0:
            print(f"    ... {len(outcomes)} scenes, {time.perf_counter() - start:.0f} s",
                  flush=True)

    one()
    wall = time.perf_counter() - start
    ran = [o for o in outcomes if o.refused is None]
    problems = Counter(p.split(":")[0].split(" ")[0] for o in outcomes for p in check(o))
    raw = [o for o in ran if o.error is not None and not o.nan]
    with_drops = [o for o in ran if o.scene.droplets]
    print(f"{len(outcomes)} fuzzed scenes, {steps} steps each, in {wall:.0f} s: "
          f"{len(outcomes) - len(ran)} refused at set-up, {len(ran)} ran")
    print(f"    NaN: {sum(o.nan for o in ran)}   raw errors: {len(raw)}   negative depth: "
          f"{sum(o.min_depth < 0.0 for o in ran)}   ledger errors above {LEDGER_TOLERANCE:g}: "
          f"{sum(o.ledger_error > LEDGER_TOLERANCE for o in ran)} (largest "
          f"{max((o.ledger_error for o in ran), default=0.0):.2g})")
    print(f"    peak memory: largest {max(o.peak_bytes for o in outcomes) / 2**20:.1f} MiB, bound "
          f"{MEMORY_BOUND / 2**20:.0f} MiB, {sum(o.peak_bytes > MEMORY_BOUND for o in outcomes)} "
          f"over")
    print(f"    droplets on {len(with_drops)} scenes, emitting on "
          f"{sum(o.emitted > 0.0 for o in with_drops)}; most particles in flight "
          f"{max((o.max_particles_seen for o in with_drops), default=0)}")
    for o in raw[:5]:
        print(f"    raw error: {o.scene}\n        {o.error}")
    for o in outcomes:
        if o.refused is not None:
            print(f"    refused ({o.scene.kind}, {o.scene.scale:.3g} m): {o.refused[:160]}")
    if problems:
        print(f"    problems: {dict(problems)}")


def sphere() -> None:
    """The 30 m sphere under heavy rain with droplets for 1 s: steps, particles, ledger, memory."""
    sim = heavy_rain_sphere()
    tracemalloc.start()
    start = time.perf_counter()
    sim.advance(1.0)
    wall = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    book = sim.ledger()
    drops = sim.particles
    print(f"30 m sphere, 5 cm of water + 100 mm/h of rain, droplets, 1 s: {sim.state.step_count} "
          f"steps in {wall:.1f} s; {drops.count} particles in flight (budget "
          f"{drops.max_particles}, largest {drops.volumes.max():.3g} m^3)")
    print(f"    emitted {book['emitted']:.4g}  absorbed {book['absorbed']:.4g}  lost "
          f"{book['lost']:.4g}  airborne {book['airborne']:.4g} m^3 of {entered_volume(book):.4g}; "
          f"balance error / entered {abs(book['balance_error']) / entered_volume(book):.1e}; "
          f"peak memory {peak / 2**20:.1f} MiB")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=1000)
    parser.add_argument("--steps", type=int, default=80)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--meshes", choices=("made", "real"), default="made",
                        help="made: fuzz_scenes.MESH_KINDS; real: the project's meshes")
    args = parser.parse_args()
    sphere()
    fuzz(args.scenes, args.steps, args.seed, MESH_KINDS if args.meshes == "made" else REAL_MESHES)
