"""Meshes users bring (SPEC §14, VALIDATION "real meshes"): the public meshes of meshes/ with their
defects, and a sphere with every defect injected, each loaded with the defaults (repaired),
scaled to 0.3 m and poured on with the library's defaults for 1.5 s.

Each must end with no NaN, an exact ledger, no vertex under an overhang deeper than surface
tension holds there (the depth h_c its cell holds, ``particles/shedding.py``), and no handful of
vertices gathering the liquid under the overhangs: the ten deepest hanging vertices hold at most
a fifth of what was poured (before the pendant rule, a Homer's chin held 89 % in ten). Poured
at rest, no liquid moves faster than a fall from the top of the mesh, sqrt(2 g SIZE).
"""

from __future__ import annotations

import functools
import warnings

import numpy as np
import pytest
import trimesh
from builders import MESHES
from mesh_defects import inject_defects

import surfflow as sf
from surfflow.particles.shedding import pendant_depth

SIZE = 0.3  # m, the largest side of the bounding box
RATE = 2e-5  # m^3/s poured over the top
DURATION = 1.5  # s
FREE_FALL = np.sqrt(2.0 * 9.81 * SIZE)  # m/s: poured at rest, nothing falls further than SIZE


def defective_sphere(only=None) -> tuple[np.ndarray, np.ndarray]:
    """An icosphere with 3 pinched vertices, 3 edges in three faces and 3 zero-area faces, or
    one defect of the kind ``only`` ("pinch", "fin", "cap"), or ("flip") one face wound the other
    way."""
    ball = trimesh.creation.icosphere(subdivisions=3)
    V, F = np.asarray(ball.vertices), np.asarray(ball.faces)
    if only == "flip":
        return V, np.concatenate([F[:7], F[7:8, ::-1], F[8:]])
    return inject_defects(V, F, 1 if only else 3, seed=1, only=only)


SOURCES = {
    "cow": lambda: MESHES / "cow.obj",
    "teapot": lambda: MESHES / "teapot.obj",
    "suzanne": lambda: MESHES / "suzanne.obj",
    "beetle": lambda: MESHES / "beetle.obj",
    "ogre_patches": lambda: MESHES / "ogre_patches.obj",
    "nut_in_mm": lambda: MESHES / "nut.ply",
    "sphere_with_every_defect": defective_sphere,
    "sphere_with_a_pinched_vertex": lambda: defective_sphere("pinch"),
    "sphere_with_a_three_face_edge": lambda: defective_sphere("fin"),
    "sphere_with_a_zero_area_face": lambda: defective_sphere("cap"),
    "sphere_with_a_flipped_face": lambda: defective_sphere("flip"),
}


@functools.cache
def poured(name: str):
    """The mesh loaded with the defaults (its repairs' warnings kept), scaled to SIZE, the
    simulation after DURATION of pouring over its highest point, and the fastest the film ran
    (m/s) and when (s); each mesh is poured once for the two tests."""
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
    fastest, when = 0.0, 0.0
    while sim.time < DURATION:
        sim.step()
        speed = float(np.linalg.norm(sim.velocity, axis=1).max())
        if speed > fastest:
            fastest, when = speed, sim.time
    return mesh, caught, geom, sim, fastest, when


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_a_real_mesh_loads_and_pours_with_the_defaults(name):
    mesh, caught, geom, sim, _, _ = poured(name)
    if name in ("cow", "teapot", "suzanne", "beetle", "ogre_patches") or name.startswith("sphere"):
        assert mesh.metadata["repairs"], f"{name}: its defects were not repaired"
        assert any(issubclass(w.category, sf.MeshWarning) for w in caught)
    depth = np.asarray(sim.depth)
    assert np.isfinite(depth).all() and np.isfinite(sim.velocity).all() and depth.min() >= 0.0
    book = sim.ledger()
    assert book["poured"] == pytest.approx(RATE * sim.time, rel=1e-12)
    assert abs(book["balance_error"]) <= 1e-12 * book["poured"], book
    rise = geom.normals[:, 1]
    held_depth = pendant_depth(rise, sim.params, geom.dual_areas)
    assert np.all(depth <= held_depth), (
        f"{name}: {int(np.sum(depth > held_depth))} vertices past what their cells hold, "
        f"deepest {depth.max():.4g} m")
    held = depth * geom.dual_areas
    ten_deepest = np.sort(held[rise < 0.0])[-10:].sum()
    print(f"{name}: {geom.n_vertices} vertices, deepest {depth.max() * 1e3:.3g} mm, ten deepest "
          f"hanging hold {ten_deepest / book['poured']:.3g} of the pour, emitted "
          f"{book['emitted'] / book['poured']:.3g}, fastest {np.linalg.norm(sim.velocity, axis=1).max():.3g} m/s")
    assert ten_deepest <= 0.2 * book["poured"], name


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_a_film_poured_at_rest_runs_no_faster_than_a_fall_from_the_top(name):
    *_, fastest, when = poured(name)
    assert fastest <= FREE_FALL, f"{name}: {fastest:.3g} m/s at t = {when:.4g} s"
