"""Smoothing and feature-friction timings: the bunny (28k vertices), the bunny subdivided once
(112k) and a corrugated open grid of about 200k vertices.

Prints, as medians of several runs after a warm-up (numba compiled), wall and CPU seconds of
  2%        smooth_surface with the default parameters (feature size 2 % of the bounding-box
            diagonal: heat flow in 4 steps, 5 normal-line passes)
  10%       smooth_surface with feature size 10 % (the cost does not grow with the feature size:
            one sparse LU factorisation, then 4 solves)
  friction  feature_friction_tensors from the bottom heights (parallel numba kernels)
On a shared machine CPU time is the steadier figure (the friction kernel runs on all threads).
Run: python benchmarks/timing/smoothing_roughness.py [repeats]

Internals, in one import: this times two stages of ``sf.precompute`` (smoothing, the friction
tensors) on their own, which are not public.
"""

import functools
import pathlib
import sys

import numpy as np
import trimesh
from medians import median_seconds

import surfflow as sf
from surfflow.geometry import precompute as stages, roughness, smoothing, topology

MESHES = pathlib.Path(__file__).resolve().parents[2] / "meshes"


def corrugated_grid(cells):
    """A (cells + 1)^2 vertex grid of the unit square with z = 0.002 sin(2 pi x / 0.05)."""
    x, y = np.meshgrid(np.linspace(0, 1, cells + 1), np.linspace(0, 1, cells + 1), indexing="xy")
    V = np.column_stack([x.ravel(), y.ravel(), 0.002 * np.sin(2 * np.pi * x.ravel() / 0.05)])
    a = (np.arange(cells)[None, :] + (cells + 1) * np.arange(cells)[:, None]).ravel()
    F = np.concatenate([np.column_stack([a, a + 1, a + cells + 2]), np.column_stack([a, a + cells + 2, a + cells + 1])])
    return V, F


def meshes():
    bunny = trimesh.load(MESHES / "bunny.obj", process=False)
    V, F = np.asarray(bunny.vertices), np.asarray(bunny.faces)
    yield "bunny", V, F
    yield "bunny x4", *trimesh.remesh.subdivide(V, F)
    yield "grid", *corrugated_grid(447)


def main(repeats=3):
    print(f"{'mesh':10s} {'vertices':>9s}   {'2%':>13s}   {'10%':>13s}   "
          f"{'friction':>13s}   (wall / cpu s)")
    wide = sf.PrecomputeParams(feature_size="10%")
    for name, V, F in meshes():
        default = median_seconds(functools.partial(smoothing.smooth_surface, V, F, sf.PrecomputeParams()),
                                 repeats)
        wider = median_seconds(functools.partial(smoothing.smooth_surface, V, F, wide), repeats)
        x, bottom = smoothing.smooth_surface(V, F, sf.PrecomputeParams())
        rings = topology.build_topology(F, len(V))
        arrays = stages.position_arrays(x, rings)
        friction = median_seconds(functools.partial(
            roughness.feature_friction_tensors, bottom, rings.neighbor_offsets, rings.neighbor_indices,
            arrays["neighbor_coords"], arrays["edge_transforms"], arrays["dual_areas"],
            rings.is_boundary, (1.0, 1.0)), repeats)
        cells = "   ".join(f"{w:6.3f} / {c:5.3f}" for w, c in (default, wider, friction))
        print(f"{name:10s} {len(V):9d}   {cells}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
