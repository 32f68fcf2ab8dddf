"""Droplets: the bunny pour with droplets (film vs particle time per step, particle count,
simulated seconds per wall second), and a 129k-particle cloud raining onto the bunny (the
particle count of the reference method's SPH benchmark) for the cost per particle-step.

    python benchmarks/timing/droplets.py [--until 3.0] [--cloud 129000] [--repeats 5]

The reference method reports 20.5 ms (film, 23k vertices) + 26.7 ms (129k SPH particles) per
step on a GPU. Public API, except the particle stage: the film/particle split and the cloud time
the step's "exchange" stage (``medians.time_stages``: there is no public hook inside a step)
and the droplets term's ``exchange`` called directly.
"""

import argparse
import statistics
import time
from pathlib import Path

import numba
import numpy as np
from medians import time_stages

import surfflow as sf

SCENE = Path(__file__).resolve().parents[2] / "surfflow" / "examples" / "bunny_pour.toml"


def bunny_pour(until, output):
    """Run bunny_pour to ``until`` s; print the film/particle split per step."""
    runner = sf.SceneRunner(sf.load_scene(SCENE), output_dir=output)
    sim = runner.simulation
    sim.advance(1e-3)  # compile and warm up
    spent = time_stages(sim, ("exchange",))
    counts = []
    start = time.perf_counter()
    while sim.time < until - 1e-12:
        sim.step()
        counts.append(sim.particles.count)
    wall = time.perf_counter() - start
    steps = len(counts)
    particles = 1e3 * sum(spent.values()) / steps
    book = sim.ledger()
    print(f"bunny_pour to t={sim.time:.2f} s: {steps} steps, {1e3 * wall / steps:.2f} ms/step = "
          f"film {1e3 * wall / steps - particles:.2f} + particles {particles:.2f} ms "
          f"({sim.geometry.n_vertices} vertices); particles median {statistics.median(counts):.0f}, "
          f"max {max(counts)}; {sim.time / wall:.3f} simulated s per wall s")
    print(f"    emitted {book['emitted']:.3e}  absorbed {book['absorbed']:.3e}  lost {book['lost']:.3e}"
          f"  airborne {book['airborne']:.3e}  m^3; balance error / poured "
          f"{book['balance_error'] / book['poured']:.1e}; deepest vertex {1e3 * sim.depth.max():.2f} mm")
    return runner


def cloud(runner, n_particles, repeats):
    """n_particles drops falling onto the bunny from a box above it: ms per coupling stage."""
    sim = runner.simulation
    rng = np.random.default_rng(0)
    V = sim.geometry.vertices
    low, high = V.min(0), V.max(0)
    positions = rng.uniform(low, high, (n_particles, 3)) + np.array([0.0, high[1] - low[1], 0.0])
    state = {key: np.copy(value) for key, value in sim.state_dict().items()}
    wall, cpu = [], []
    for _ in range(repeats):
        sim.load_state_dict(state)
        sim.particles.remove(np.ones(sim.particles.count, bool))
        sim.particles.add(positions, np.zeros_like(positions), np.full(n_particles, 1e-9))
        wall_start, cpu_start = time.perf_counter(), time.process_time()
        sim.term("droplets").exchange(sim.geometry, sim.state, 2e-3)
        wall.append(time.perf_counter() - wall_start)
        cpu.append(time.process_time() - cpu_start)
    ms = 1e3 * statistics.median(wall)
    print(f"cloud of {n_particles} particles over the bunny: {ms:.2f} ms per coupling step, "
          f"CPU {1e3 * statistics.median(cpu):.2f} ms (medians of {repeats}; fly + interact + "
          f"collide + absorb + emit), {n_particles / ms * 1e3:.3e} particle-steps/s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--until", type=float, default=3.0)
    parser.add_argument("--cloud", type=int, default=129000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--output", default="/tmp/surfflow-bench-droplets")
    args = parser.parse_args()
    print(f"numba threads: {numba.get_num_threads()}")
    runner = bunny_pour(args.until, args.output)
    cloud(runner, args.cloud, args.repeats)
