"""Mesh loading with repair: median wall and CPU seconds of ``sf.load_mesh`` on the bunny file and on a
subdivided bunny of about 900k faces with defects injected, clean and repaired.

    python benchmarks/mesh_repair.py [--repeats 5] [--subdivisions 2] [--defects 100]

The large mesh is the bunny split ``--subdivisions`` times (each face into four, midpoints
shared), then given ``--defects`` of each kind the loader repairs (``inject_defects``): pinched
vertices (a small tetrahedron hanging by one corner from a vertex of the surface), edges in
three faces (a fin face on an edge) and zero-area faces (a face split at an edge's midpoint with
a sliver of zero area on that edge). It is passed as (V, F) arrays, so file parsing is not in
its figures, and timed also with ``repair=False`` on the clean mesh, today's checks alone. The
bunny's figure includes reading the OBJ. Public API (``sf.load_mesh``, ``trimesh``), and
``inject_defects`` from ``tests/mesh_defects.py``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import trimesh

import surfflow as sf

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from mesh_defects import inject_defects  # noqa: E402  (the tests' defect maker)

BUNNY = Path(__file__).resolve().parents[1] / "meshes" / "bunny.obj"


def subdivided_bunny(subdivisions: int) -> tuple[np.ndarray, np.ndarray]:
    """The bunny's (V, F) split into 4**subdivisions times as many faces."""
    mesh = sf.load_mesh(BUNNY)
    V, F = np.asarray(mesh.vertices), np.asarray(mesh.faces)
    for _ in range(subdivisions):
        V, F = trimesh.remesh.subdivide(V, F)
    return V, F


def median_seconds(load, repeats: int) -> tuple[str, object]:
    """Median wall and CPU seconds of ``load()`` over ``repeats`` runs, as text, and its last
    result (the CPU time of this process, which a busy machine inflates less)."""
    wall, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", sf.MeshWarning)
            result = load()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return f"{statistics.median(wall):.3f} s ({statistics.median(cpu):.3f} s CPU)", result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--subdivisions", type=int, default=2)
    parser.add_argument("--defects", type=int, default=100, help="of each kind")
    args = parser.parse_args()
    seconds, mesh = median_seconds(lambda: sf.load_mesh(BUNNY), args.repeats)
    print(f"bunny.obj ({len(mesh.faces)} faces, clean, read from the file): {seconds}")
    V, F = subdivided_bunny(args.subdivisions)
    seconds, mesh = median_seconds(lambda: sf.load_mesh((V, F)), args.repeats)
    print(f"subdivided bunny ({len(F)} faces, clean, arrays): {seconds}")
    seconds, mesh = median_seconds(lambda: sf.load_mesh((V, F), repair=False), args.repeats)
    print(f"subdivided bunny ({len(F)} faces, clean, arrays, repair=False): {seconds}")
    V, F = inject_defects(V, F, args.defects)
    seconds, mesh = median_seconds(lambda: sf.load_mesh((V, F)), args.repeats)
    kinds = ", ".join(f"{r.kind} {r.count}" for r in mesh.metadata["repairs"])
    print(f"subdivided bunny with defects ({len(F)} faces, arrays): {seconds}; repairs: {kinds}")


if __name__ == "__main__":
    main()
