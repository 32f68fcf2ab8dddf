"""Meshes users bring (SPEC §14, VALIDATION "real meshes"): the public meshes of meshes/ with their
defects, and a sphere with every defect injected, each loaded with the defaults (repaired),
scaled to 0.3 m and poured on with the library's defaults for 1.5 s.

Each must end with no NaN, an exact ledger, no vertex under an overhang deeper than surface
tension holds there (the pendant depth h_p of ``particles/shedding.py``), and no handful of
vertices gathering the liquid under the overhangs: the ten deepest hanging vertices hold at most
a fifth of what was poured (before the pendant rule, a Homer's chin held 89 % in ten). Poured
at rest, no liquid moves faster than a fall from the top of the mesh, sqrt(2 g SIZE).
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
import trimesh
from mesh_defects import inject_defects

import surfflow as sf
from surfflow.particles.shedding import pendant_depth

MESHES = Path(__file__).resolve().parents[1] / "meshes"
SIZE = 0.3  # m, the largest side of the bounding box
RATE = 2e-5  # m^3/s poured over the top
DURATION = 1.5  # s
FREE_FALL = np.sqrt(2.0 * 9.81 * SIZE)  # m/s: poured at rest, nothing falls further than SIZE


def defective_sphere() -> tuple[np.ndarray, np.ndarray]:
    """An icosphere with 3 pinched vertices, 3 edges in three faces and 3 zero-area faces."""
    ball = trimesh.creation.icosphere(subdivisions=3)
    return inject_defects(np.asarray(ball.vertices), np.asarray(ball.faces), 3, seed=1)


SOURCES = {
    "cow": lambda: MESHES / "cow.obj",
    "teapot": lambda: MESHES / "teapot.obj",
    "suzanne": lambda: MESHES / "suzanne.obj",
    "beetle": lambda: MESHES / "beetle.obj",
    "ogre_patches": lambda: MESHES / "ogre_patches.obj",
    "nut_in_mm": lambda: MESHES / "nut.ply",
    "sphere_with_every_defect": defective_sphere,
}


def poured(name: str):
    """The mesh loaded with the defaults (its repairs' warnings kept), scaled to SIZE, and the
    simulation after DURATION of pouring over its highest point."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mesh = sf.load_mesh(SOURCES[name](), units="mm" if name.endswith("_mm") else "m")
    V = np.asarray(mesh.vertices)
    V = (V - V.min(axis=0)) * (SIZE / np.ptp(V, axis=0).max())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the scaled mesh's repairs were reported above
        geom = sf.precompute((V, np.asarray(mesh.faces)))
    sim = sf.Simulation(geom, sf.Params(gravity=(0.0, -9.81, 0.0)))
    sim.add_source(center=geom.vertices[np.argmax(geom.vertices[:, 1])], radius=0.03 * SIZE / 0.3,
                   rate=RATE)
    while sim.time < DURATION:  # step by step, so that a film running away stops the test
        sim.step()
        fastest = np.linalg.norm(sim.velocity, axis=1).max()
        assert fastest <= FREE_FALL, f"{name}: {fastest:.3g} m/s at t = {sim.time:.4g} s"
    return mesh, caught, geom, sim


KNOWN_FAILURES = {
    "ogre_patches": "the film runs faster than a fall from the top: 2.43 m/s at 0.31 s on a "
                    "boundary corner of two edges under an overhang, 5 um deep, where the "
                    "unsmoothed patches without droplets pass it too (0.309 s; with droplets at "
                    "0.15 s); over the run 18.9 m/s with droplets, 4.65 "
                    "without, and with feature_size=0 8.1 and 3.6 (the six patches are 11 mm "
                    "tall: their own free fall is 0.47 m/s), so it is the film's runtime, no "
                    "longer the smoothing (its crushed and folded triangles, which blew the film "
                    "up to 1e9 m/s with dt 1e-17 s, are guarded: geometry/guarded_moves.py, "
                    "dt >= 1.8e-5 s, 1.7e-5 unsmoothed); issue 39",
    "nut_in_mm": "the film runs faster than a fall from the top, sqrt(2 g 0.3 m) = 2.43 m/s, "
                 "and the ten deepest hanging vertices hold 34 % of the pour (each within its "
                 "pendant depth: the 523-vertex nut's cells are coarse); issue 39",
    "cow": "the film reaches 2.49 m/s at 0.48 s, faster than a fall from the top (2.43 m/s): "
           "with droplets the cow's film peaks at 4.16 m/s over the run, without them at 1.83, "
           "so the film-droplet exchange gains energy (the full Ogre: 20 m/s with droplets, "
           "1.2 without); issue 39",
}


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(
    reason=KNOWN_FAILURES[n], strict=True)) if n in KNOWN_FAILURES else n for n in sorted(SOURCES)])
def test_a_real_mesh_loads_and_pours_with_the_defaults(name):
    mesh, caught, geom, sim = poured(name)
    if name in ("cow", "teapot", "suzanne", "beetle", "ogre_patches", "sphere_with_every_defect"):
        assert mesh.metadata["repairs"], f"{name}: its defects were not repaired"
        assert any(issubclass(w.category, sf.MeshWarning) for w in caught)
    depth = np.asarray(sim.depth)
    assert np.isfinite(depth).all() and np.isfinite(sim.velocity).all() and depth.min() >= 0.0
    book = sim.ledger()
    assert book["poured"] == pytest.approx(RATE * sim.time, rel=1e-12)
    assert abs(book["balance_error"]) <= 1e-12 * book["poured"], book
    rise = geom.normals[:, 1]
    assert np.all(depth <= pendant_depth(rise, sim.params)), (
        f"{name}: {int(np.sum(depth > pendant_depth(rise, sim.params)))} vertices past the "
        f"pendant depth, deepest {depth.max():.4g} m")
    held = depth * geom.dual_areas
    ten_deepest = np.sort(held[rise < 0.0])[-10:].sum()
    print(f"{name}: {geom.n_vertices} vertices, deepest {depth.max() * 1e3:.3g} mm, ten deepest "
          f"hanging hold {ten_deepest / book['poured']:.3g} of the pour, emitted "
          f"{book['emitted'] / book['poured']:.3g}, fastest {np.linalg.norm(sim.velocity, axis=1).max():.3g} m/s")
    assert ten_deepest <= 0.2 * book["poured"], name
