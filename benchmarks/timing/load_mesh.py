"""Time load_mesh / validate_mesh: the bunny file and large icospheres (median of several runs).

Prints wall and CPU seconds: on a shared machine the CPU time (one thread) is the steadier figure.
Run: python benchmarks/timing/load_mesh.py [repeats]
"""

import pathlib
import sys

import trimesh
from medians import median_seconds

import surfflow as sf

MESHES = pathlib.Path(__file__).resolve().parents[2] / "meshes"


def report(label: str, action, repeats: int) -> None:
    wall, cpu = median_seconds(action, repeats)
    print(f"{label}: {wall:.3f} s wall, {cpu:.3f} s CPU")


def main(repeats: int = 5) -> None:
    bunny = MESHES / "bunny.obj"
    report("bunny.obj load_mesh (read + validate)", lambda: sf.load_mesh(bunny), repeats)
    mesh = trimesh.load(bunny, force="mesh", process=False)
    report(f"bunny.obj validate_mesh only ({len(mesh.vertices)} vertices)",
           lambda: sf.validate_mesh(mesh.vertices, mesh.faces), repeats)
    for subdivisions in (7, 8):
        sphere = trimesh.creation.icosphere(subdivisions=subdivisions)
        report(f"icosphere({subdivisions}) load_mesh, {len(sphere.vertices)} vertices / "
               f"{len(sphere.faces)} faces", lambda sphere=sphere: sf.load_mesh(sphere), repeats)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
