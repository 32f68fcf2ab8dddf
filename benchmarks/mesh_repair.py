"""Mesh loading with repair: median seconds of ``sf.load_mesh`` on the bunny file and on a
subdivided bunny of about 900k faces with defects injected, clean and repaired.

    python benchmarks/mesh_repair.py [--repeats 5] [--subdivisions 2] [--defects 100]

The large mesh is the bunny split ``--subdivisions`` times (each face into four, midpoints
shared), then given ``--defects`` of each kind the loader repairs (``inject_defects``): pinched
vertices (a small tetrahedron hanging by one corner from a vertex of the surface), edges in
three faces (a fin face on an edge) and zero-area faces (a face split at an edge's midpoint with
a sliver of zero area on that edge). It is passed as (V, F) arrays, so file parsing is not in
its figures, and timed also with ``repair=False`` on the clean mesh, today's checks alone. The
bunny's figure includes reading the OBJ. Public API only (``sf.load_mesh``, ``trimesh``).
"""

from __future__ import annotations

import argparse
import statistics
import time
import warnings
from pathlib import Path

import numpy as np
import trimesh

import surfflow as sf

BUNNY = Path(__file__).resolve().parents[1] / "meshes" / "bunny.obj"


def subdivided_bunny(subdivisions: int) -> tuple[np.ndarray, np.ndarray]:
    """The bunny's (V, F) split into 4**subdivisions times as many faces."""
    mesh = sf.load_mesh(BUNNY)
    V, F = np.asarray(mesh.vertices), np.asarray(mesh.faces)
    for _ in range(subdivisions):
        V, F = trimesh.remesh.subdivide(V, F)
    return V, F


def inject_defects(V: np.ndarray, F: np.ndarray, count: int, seed: int = 0):
    """(V, F) with ``count`` pinched vertices, ``count`` edges in three faces and ``count``
    zero-area faces added at random places far apart."""
    rng = np.random.default_rng(seed)
    faces = rng.choice(len(F), size=3 * count, replace=False)
    pinch_faces, fin_faces, cap_faces = np.split(faces, 3)
    scale = np.linalg.norm(V[F[0, 0]] - V[F[0, 1]])
    new_V, new_F = [V], [F]
    n = len(V)
    for f in pinch_faces:  # a small tetrahedron hanging off vertex F[f, 0]
        apex = V[F[f, 0]]
        tip = apex + scale * np.array([[1.0, 0, 0], [0, 1, 0], [0, 0, 1]])
        a, b, c = n, n + 1, n + 2
        new_V.append(tip)
        new_F.append(np.array([[F[f, 0], b, a], [F[f, 0], a, c], [F[f, 0], c, b], [a, b, c]]))
        n += 3
    for f in fin_faces:  # a third face on the edge (F[f, 0], F[f, 1])
        centre = V[F[f]].mean(0)
        normal = np.cross(V[F[f, 1]] - V[F[f, 0]], V[F[f, 2]] - V[F[f, 0]])
        new_V.append((centre + normal / np.linalg.norm(normal) * scale)[None])
        new_F.append(np.array([[F[f, 1], F[f, 0], n]]))
        n += 1
    F_out = np.concatenate(new_F)
    for f in cap_faces:  # split face f at the midpoint m of its edge (a, b): faces (a, m, c),
        a, b, c = F[f]  # (m, b, c) and the sliver (a, b, m) of zero area glued along (a, b)
        new_V.append(((V[a] + V[b]) / 2)[None])
        F_out[f] = [a, n, c]
        F_out = np.concatenate([F_out, [[n, b, c], [b, a, n]]])
        n += 1
    return np.concatenate(new_V), F_out


def median_seconds(load, repeats: int) -> tuple[float, object]:
    """Median wall seconds of ``load()`` over ``repeats`` runs, and its last result."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", sf.MeshWarning)
            result = load()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--subdivisions", type=int, default=2)
    parser.add_argument("--defects", type=int, default=100, help="of each kind")
    args = parser.parse_args()
    seconds, mesh = median_seconds(lambda: sf.load_mesh(BUNNY), args.repeats)
    print(f"bunny.obj ({len(mesh.faces)} faces, clean, read from the file): {seconds:.3f} s")
    V, F = subdivided_bunny(args.subdivisions)
    seconds, mesh = median_seconds(lambda: sf.load_mesh((V, F)), args.repeats)
    print(f"subdivided bunny ({len(F)} faces, clean, arrays): {seconds:.3f} s")
    seconds, mesh = median_seconds(lambda: sf.load_mesh((V, F), repair=False), args.repeats)
    print(f"subdivided bunny ({len(F)} faces, clean, arrays, repair=False): {seconds:.3f} s")
    V, F = inject_defects(V, F, args.defects)
    seconds, mesh = median_seconds(lambda: sf.load_mesh((V, F)), args.repeats)
    kinds = ", ".join(f"{r.kind} {r.count}" for r in mesh.metadata["repairs"])
    print(f"subdivided bunny with defects ({len(F)} faces, arrays): {seconds:.3f} s; repairs: {kinds}")


if __name__ == "__main__":
    main()
