"""Smoothing by feature size: how well the friction tensors find grooves, against wavelength /
feature size, on flat corrugated planes at two resolutions and on the grooved bunny and cow.

Each surface carries sinusoidal grooves of wavelength L (peak-to-trough depth L / 10) across a
known direction e (on the curved meshes: the tangential part of a fixed world axis; vertices where
the grooves face the axis almost head-on, |tangential part| < 0.5, are left out). Printed per case:
  L / f     wavelength over feature size (bumps f wide are L / f = 2)
  edges/L   mesh edges per wavelength
  median    median |x1 . e| over interior vertices, x1 the strong friction direction (1 = exact,
            0.64 = random directions)
  >0.9      fraction of interior vertices with |x1 . e| > 0.9 (x1 within 26 degrees of e)
  in b      the groove amplitude found in the bottom heights over the amplitude, on the planes,
            and the filter's prediction 1 - (1 + tau (2 pi / L)^2)^-s
  ratio     median T1 / T2, the friction anisotropy
and the precompute time. Run: python benchmarks/validation/feature_size.py

Public API, except ``grooved_plane`` (the procedural grooved panel of the scenes, from the mesh
input that stays in ``io/``) and ``mesh_diameter`` (what a percentage feature size is of).
"""

import sys
import time
from pathlib import Path

import numpy as np

import surfflow as sf
from surfflow.io.extent import mesh_diameter
from surfflow.io.procedural import grooved_plane

MESHES = Path(__file__).resolve().parents[2] / "meshes"
GROOVE_ANGLE = 30.0   # degrees from x to the groove-crossing direction: not along the grid


def strong_direction(geom):
    """(n, 3) world direction x1 of the largest eigenvalue of each friction tensor, and T1 / T2."""
    values, vectors = np.linalg.eigh(geom.friction_tensors)
    return np.einsum("ia,iak->ik", vectors[:, :, 1], geom.tangent_frames), values[:, 1] / values[:, 0]


def alignment(geom, across, keep):
    """median |x1 . e|, fraction > 0.9 and median T1/T2 over the vertices in ``keep``."""
    x1, ratio = strong_direction(geom)
    cosine = np.abs(np.einsum("ij,ij->i", x1, across))[keep]
    return np.median(cosine), np.mean(cosine > 0.9), np.median(ratio[keep])


def predicted_in_bottom(wavelength, feature, steps=4):
    tau = (2.0 ** (1.0 / steps) - 1.0) * (feature / np.pi) ** 2
    return 1.0 - (1.0 + tau * (2 * np.pi / wavelength) ** 2) ** -steps


def plane_rows(feature_size):
    angle = np.radians(GROOVE_ANGLE)
    across = np.array([np.cos(angle), np.sin(angle), 0.0])
    feature = float(feature_size.rstrip("%")) / 100 * np.sqrt(2.0)
    for wavelength in (0.025, 0.05, 0.1, 0.2, 0.4):
        for cells in (80, 160):
            V, F = grooved_plane((1.0, 1.0), (cells, cells), groove_depth=wavelength / 10,
                                 groove_spacing=wavelength, groove_angle=GROOVE_ANGLE)
            start = time.perf_counter()
            geom = sf.precompute((V, F), feature_size=feature_size)
            seconds = time.perf_counter() - start
            inner = np.max(np.abs(V[:, :2]), axis=1) < 0.5 - max(wavelength, feature)
            phase = 2 * np.pi * (V[:, :2] @ across[:2]) / wavelength
            found = np.linalg.lstsq(np.column_stack([np.sin(phase), np.cos(phase)])[inner],
                                    geom.bottom[inner], rcond=None)[0]
            in_bottom = np.hypot(*found) / (wavelength / 20)
            median, strong, ratio = alignment(geom, np.tile(across, (len(V), 1)), ~geom.is_boundary)
            yield (f"plane {cells}x{cells}", wavelength, feature, 1.0 / cells, median, strong,
                   f"{in_bottom:5.2f} ({predicted_in_bottom(wavelength, feature):4.2f})", ratio, seconds)


def grooved(V, F, wavelength, axis):
    """V displaced along its normals by (L / 20) sin(2 pi (V . axis) / L); also the groove-crossing
    direction (n, 3) and the mask of vertices where it is well defined."""
    normals = sf.precompute((V, F), feature_size=0).normals
    displaced = V + (wavelength / 20 * np.sin(2 * np.pi * (V @ axis) / wavelength))[:, None] * normals
    tangential = axis - (normals @ axis)[:, None] * normals
    length = np.linalg.norm(tangential, axis=1)
    return displaced, tangential / np.maximum(length, 1e-12)[:, None], length > 0.5


def separated(path):
    """(V, F) of a mesh file with coincident vertices kept apart and nudged by 1e-6 x the
    bounding-box diagonal, so that precompute does not merge them (the cow's pinched vertex)."""
    mesh = sf.load_mesh(path, process_duplicates=False)
    V, F = np.array(mesh.vertices), np.asarray(mesh.faces)
    _, first = np.unique(V, axis=0, return_index=True)
    later = np.setdiff1d(np.arange(len(V)), first)
    V[later] += 1e-6 * np.linalg.norm(np.ptp(V, axis=0))
    return V, F


def mesh_rows(feature_size):
    axis = np.array([1.0, 0.3, 0.2]) / np.linalg.norm([1.0, 0.3, 0.2])
    for name in ("bunny", "cow"):
        V, F = separated(MESHES / f"{name}.obj")
        edge = np.linalg.norm(V[F] - V[np.roll(F, 1, axis=1)], axis=2).mean()
        feature = float(feature_size.rstrip("%")) / 100 * mesh_diameter(V, F)
        for wavelength in (0.5, 1.0, 2.0, 4.0):
            L = wavelength * feature
            if L < 3 * edge:
                continue
            X, across, keep = grooved(V, F, L, axis)
            start = time.perf_counter()
            geom = sf.precompute((X, F), feature_size=feature_size)
            seconds = time.perf_counter() - start
            median, strong, ratio = alignment(geom, across, keep & ~geom.is_boundary)
            yield name, L, feature, edge, median, strong, "", ratio, seconds


def main():
    print(f"{'surface':<16}{'L/f':>6}{'edges/L':>9}{'median':>8}{'>0.9':>7}{'in b (pred.)':>14}"
          f"{'ratio':>7}{'time s':>8}")
    for feature_size in sys.argv[1:] or ("1%", "2%", "5%"):
        print(f"feature_size = {feature_size!r}")
        rows = list(plane_rows(feature_size)) + list(mesh_rows(feature_size))
        for name, L, feature, edge, median, strong, in_bottom, ratio, seconds in rows:
            print(f"{name:<16}{L / feature:6.2f}{L / edge:9.1f}{median:8.3f}{strong:7.2f}"
                  f"{in_bottom:>14}{ratio:7.2f}{seconds:8.2f}")


if __name__ == "__main__":
    main()
