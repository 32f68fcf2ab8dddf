"""Droplets: the bunny pour with droplets (film vs particle time per step, particle count,
simulated seconds per wall second), a 129k-particle cloud raining onto the bunny (the
particle count of the reference method's SPH benchmark) for the cost per particle-step; the
stream (issue 23): ms per particle step with 1k, 10k and 100k drops in flight while the two
spouts pour, and the film's ms per step of bunny_pour with its spouts against the same pours as
surface sources (liquid arriving as particles must not slow the film).

    python benchmarks/droplets.py [--until 3.0] [--cloud 129000] [--repeats 5]
        [--stream 1000,10000,100000] [--film-until 1.0]

The reference method reports 20.5 ms (film, 23k vertices) + 26.7 ms (129k SPH particles) per
step on a GPU. Public API, except the particle stage: the film/particle split and the cloud time
the step's "exchange" stage (``medians.time_stages``: there is no public hook inside a step)
and the droplets term's ``exchange`` called directly.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent / "timing"))

from medians import time_stages  # noqa: E402

import surfflow as sf  # noqa: E402

SCENE = Path(__file__).resolve().parents[1] / "surfflow" / "examples" / "bunny_pour.toml"


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


def stream(runner, counts, repeats):
    """ms per particle step (the droplets' exchange stage: flight, the spouts' release,
    collision, landing) with ``counts`` drops in flight: a column 4 cm wide and 0.6 m tall from
    10 cm above the bunny (inside the droplets' bounds), falling at 3 m/s (none lands in the
    timed steps), while bunny_pour's spouts pour; the drops fill a tenth of the column (a
    spray: their size shrinks as their number grows)."""
    sim = runner.simulation
    base = {key: np.copy(value) for key, value in sim.state_dict().items()}
    V = sim.geometry.vertices
    top = V.max(0)
    for n in counts:
        rng = np.random.default_rng(1)
        angle, radius = rng.uniform(0, 2 * np.pi, n), 0.02 * np.sqrt(rng.uniform(0, 1, n))
        column = np.column_stack([0.39 + radius * np.cos(angle), top[1] + 0.1 + rng.uniform(0, 0.6, n),
                                  0.365 + radius * np.sin(angle)])
        volume = 0.1 * np.pi * 0.02 ** 2 * 0.6 / n
        wall = []
        for _ in range(repeats):
            sim.load_state_dict(base)
            sim.particles.remove(np.ones(sim.particles.count, bool))
            sim.particles.add(column, np.tile([0.0, -3.0, 0.0], (n, 1)), np.full(n, volume))
            start = time.perf_counter()
            for _ in range(5):
                sim.term("droplets").exchange(sim.geometry, sim.state, 2e-3)
            wall.append((time.perf_counter() - start) / 5)
        print(f"stream of {n} drops in flight (+ the spouts'): {1e3 * statistics.median(wall):.2f} ms "
              f"per particle step (median of {repeats}), {sim.particles.count} after")


def spray(counts, repeats):
    """ms per step of the droplets alone (flight and the neighbour interaction) for ``counts``
    drops of broad sizes, radii log-uniform from 0.03 to 3 mm (each size class on a grid of its
    own), in a cube holding 1 % of liquid by volume, at rest, no gravity."""
    from surfflow.particles import Droplets

    for n in counts:
        rng = np.random.default_rng(2)
        radius = 3e-5 * 100.0 ** rng.uniform(size=n)
        volumes = 4.0 / 3.0 * np.pi * radius ** 3
        side = float(np.cbrt(volumes.sum() / 0.01))
        wall = []
        for _ in range(repeats):
            drops = Droplets(separation=0.5, smoothing=0.1)
            drops.gravity = np.zeros(3)
            drops.add(rng.uniform(0.0, side, (n, 3)), np.zeros((n, 3)), volumes)
            drops.step(1e-4)  # compile, first bucket table
            start = time.perf_counter()
            for _ in range(5):
                drops.step(1e-4)
            wall.append((time.perf_counter() - start) / 5)
        print(f"spray of {n} drops of radii 0.03-3 mm, 1 % liquid by volume: "
              f"{1e3 * statistics.median(wall):.2f} ms per particle step (median of {repeats})")


POURS = (((0.39, 0.34, 0.365), 0.03, 2.0e-5, 0.0, 2.0, (0.9, 0.15, 0.1)),
         ((0.17, 0.44, 0.35), 0.02, 1.0e-5, 0.5, 2.5, (0.95, 0.8, 0.1)))
"""bunny_pour's two pours before issue 23, as surface sources: centre, radius, rate, start,
stop, colour"""
SOURCES = "".join(f"""
[[sources]]
type = "pour"
center = {list(center)}
radius = {radius}
rate = {rate}
start = {start}
stop = {stop}
color = {list(color)}
""" for center, radius, rate, start, stop, color in POURS)


def film_with_sources_and_nozzles(until, repeats, output, block=20):
    """The film's ms per step (the step less the droplets' exchange stage) of bunny_pour with
    its two spouts and with the same pours as surface sources (issue 23's before): both run to
    ``until`` s, then step in alternating blocks of ``block`` steps, 2 ``repeats`` blocks each
    (the shared machine's load changes by the minute: alternating blocks see the same load);
    medians over the blocks, and the wet vertices at the end."""
    text = SCENE.read_text()
    as_sources = text[:text.index("[[emitters]]")] + SOURCES + text[text.index("[droplets]"):]
    path = Path(output) / "bunny_pour_sources.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(as_sources.replace('name = "bunny_pour"', 'name = "bunny_pour_sources"'))
    sims = {name: sf.SceneRunner(sf.load_scene(scene), output_dir=output).simulation
            for name, scene in (("spouts", SCENE), ("surface sources", path))}
    spent, film = {}, {name: [] for name in sims}
    for name, sim in sims.items():
        sim.advance(until)
        spent[name] = time_stages(sim, ("exchange",))
    for _ in range(2 * repeats):
        for name, sim in sims.items():
            particles, start = sum(spent[name].values()), time.perf_counter()
            for _ in range(block):
                sim.step()
            wall = time.perf_counter() - start - (sum(spent[name].values()) - particles)
            film[name].append(1e3 * wall / block)
    print(f"bunny_pour from t = {until} s, the film's ms per step (medians of {2 * repeats} "
          f"alternating blocks of {block} steps): " + ", ".join(
              f"{name} {statistics.median(values):.2f} ({int(np.sum(sims[name].depth > sims[name].params.min_depth))} "
              f"wet vertices)" for name, values in film.items()))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--until", type=float, default=3.0)
    parser.add_argument("--cloud", type=int, default=129000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--output", default="/tmp/surfflow-bench-droplets")
    parser.add_argument("--stream", default="1000,10000,100000")
    parser.add_argument("--film-until", type=float, default=1.0)
    parser.add_argument("--spray", default="10000,100000",
                        help="drop counts of the broad-size spray, alone (--spray-only: only it)")
    parser.add_argument("--spray-only", action="store_true")
    args = parser.parse_args()
    print(f"numba threads: {numba.get_num_threads()}")
    spray([int(n) for n in args.spray.split(",")], args.repeats)
    if args.spray_only:
        sys.exit(0)
    runner = bunny_pour(args.until, args.output)
    cloud(runner, args.cloud, args.repeats)
    stream(runner, [int(n) for n in args.stream.split(",")], args.repeats)
    film_with_sources_and_nozzles(args.film_until, args.repeats, args.output)
