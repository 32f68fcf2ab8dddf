"""Precompute timings: the bunny (28k vertices), a subdivided bunny (112k) and a torus (205k).

Prints, as medians of several runs once numba has compiled:
  load     load_mesh + validate_mesh from the OBJ file (bunny only) or from (V, F) arrays
  connect  the connectivity part: ordered one-rings, reverse edges, components
  smooth   smoothing (feature size 2 %), normal-line adjustment and bottom heights
  position the position-dependent part a deforming mesh redoes every step (update_positions:
           normals, areas, frames, M_ij, neighbour coordinates, dual-edge vectors, and the
           feature-based friction tensors from the bottom heights)
  friction the feature-based friction tensors alone
  total    sf.precompute end to end
and the cold start (import + first precompute with an empty numba cache, in a fresh process) and
the warm start (the same again with the cache filled).

    python benchmarks/timing/precompute.py [--repeats 5]

Internals, in one import: the stages of ``sf.precompute`` (topology, smoothing, the
position-dependent arrays, the friction tensors) are not public; this times them one by one.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np
import trimesh
from medians import median_ms

import surfflow as sf
from surfflow.geometry import precompute as stages, roughness, smoothing, topology

BUNNY = Path(__file__).resolve().parents[2] / "meshes" / "bunny.obj"


def stage_times(source, repeats):
    params = sf.PrecomputeParams()
    mesh = sf.load_mesh(source)
    V, F = np.asarray(mesh.vertices), np.asarray(mesh.faces)
    geom = sf.precompute((V, F))
    rings = topology.build_topology(F, len(V))
    arrays = stages.position_arrays(geom.vertices, rings)
    return len(V), {
        "load": median_ms(lambda: sf.load_mesh(source), repeats),
        "connect": median_ms(lambda: topology.build_topology(F, len(V)), repeats),
        "smooth": median_ms(lambda: smoothing.smooth_surface(V, F, params), repeats),
        "position": median_ms(lambda: sf.update_positions(geom, geom.vertices), repeats),
        "friction": median_ms(lambda: roughness.feature_friction_tensors(
            geom.bottom, rings.neighbor_offsets, rings.neighbor_indices,
            arrays["neighbor_coords"], arrays["edge_transforms"], arrays["dual_areas"],
            rings.is_boundary, params.roughness_gains), repeats),
        "total": median_ms(lambda: sf.precompute((V, F)), repeats),
    }


def start_time(cache_dir):
    """Seconds for import + first precompute of the bunny in a fresh process."""
    code = f"import surfflow as sf; sf.precompute({str(BUNNY)!r})"
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=env)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    bunny = trimesh.load(BUNNY, force="mesh", process=False, merge_tex=True, merge_norm=True)
    fine = bunny.subdivide()
    print(f"numba threads: {numba.get_num_threads()}")
    print(f"{'mesh':<22}{'vertices':>9}" + "".join(f"{k:>10}" for k in
          ("load", "connect", "smooth", "position", "friction", "total")) + "   (ms, median)")
    torus = trimesh.creation.torus(1.0, 0.3, major_sections=640, minor_sections=320)
    for name, source in (("bunny", str(BUNNY)), ("bunny subdivided", (fine.vertices, fine.faces)),
                         ("torus", (torus.vertices, torus.faces))):
        n, times = stage_times(source, args.repeats)
        print(f"{name:<22}{n:>9}" + "".join(f"{t:>10.1f}" for t in times.values()))
    with tempfile.TemporaryDirectory() as cache_dir:
        cold = start_time(cache_dir)
        warm = [start_time(cache_dir) for _ in range(3)]
    print(f"cold start (import + first bunny precompute, empty numba cache): {cold:.1f} s")
    print(f"warm start (same, cache filled, median of 3): {np.median(warm):.1f} s")


if __name__ == "__main__":
    main()
