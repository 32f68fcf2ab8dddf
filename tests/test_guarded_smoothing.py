"""The smoothing keeps the triangulation usable (``geometry/guarded_moves.py``): an open finger
narrower than the feature size, leaning over, is what the Ogre's small patches are (issue 39).

Smoothed freely, the finger is flattened onto its fixed rim: its triangles are crushed and the
normal-line adjustment's tangential moves, longer than the ring, fold them over; a film poured
on it then runs many times faster than a fall from its top. Guarded, no triangle keeps less than
half its smallest altitude or turns away from its corners' normals, and the film stays below
the free fall.
"""

from __future__ import annotations

import numpy as np
import trimesh

import surfflow as sf
from surfflow.config import PrecomputeParams
from surfflow.geometry.frames import vertex_normals
from surfflow.geometry.guarded_moves import MoveGuard
from surfflow.geometry.smoothing import heat_flow_smooth, mesh_adjacency, normal_line_adjust, smooth_surface
from test_smoothing import bumpy_sphere

FEATURE = 0.012  # m, wider than the finger (5 mm) and about its height (12.5 mm)


def leaning_finger():
    """A capsule 5 mm wide cut open 1 mm above its lower cap's equator, leaning 0.8 of its height
    sideways, y up: V (n, 3), F (m, 3)."""
    capsule = trimesh.creation.capsule(height=2.0, radius=0.5, count=[12, 12])
    kept = capsule.faces[capsule.vertices[capsule.faces].mean(axis=1)[:, 2] > -0.2]
    used, F = np.unique(kept, return_inverse=True)
    V = np.array(capsule.vertices[used])
    V[:, 0] += 0.8 * (V[:, 2] + 0.2)
    return V[:, [0, 2, 1]] * 0.005, F.reshape(-1, 3)[:, ::-1]


def altitudes_and_facing(x, F):
    """Smallest altitude of each face (m,) and the least n_t . n_v over its corners (m,)."""
    corners = x[F]
    cross = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    area2 = np.linalg.norm(cross, axis=1)
    longest = np.linalg.norm(corners - np.roll(corners, -1, axis=1), axis=2).max(axis=1)
    facing = np.einsum("ij,ikj->ik", cross / area2[:, None], vertex_normals(x, F)[F]).min(axis=1)
    return area2 / longest, facing


def test_a_finger_narrower_than_the_feature_keeps_its_triangles():
    V, F = leaning_finger()
    params = PrecomputeParams(feature_size=FEATURE)
    adjacency, boundary = mesh_adjacency(F, len(V))
    free = heat_flow_smooth(V, F, adjacency, boundary, FEATURE, params.smoothing_iterations)
    free, _ = normal_line_adjust(V, free, F, params.normal_line_iterations, params.normal_weighting)
    guarded, b = smooth_surface(V, F, params)
    before, _ = altitudes_and_facing(V, F)
    thinned, turned = altitudes_and_facing(free, F)
    # measured unguarded: altitudes down to 0.145 of the input's, a face turned right over (-0.999)
    assert (thinned / before).min() < 0.2 and turned.min() < -0.9
    kept, facing = altitudes_and_facing(guarded, F)
    assert np.all(kept >= 0.5 * before)
    assert facing.min() > 0.0  # measured 0.094
    assert np.abs(b).max() > 1e-3  # the finger still goes largely into the relief (1.3 mm)


def test_a_film_poured_on_the_finger_stays_below_the_free_fall():
    """Poured at rest on the top, nothing moves faster than a fall from the top, sqrt(2 g H)
    (measured 0.443 m/s of 0.495 over 0.5 s; smoothed unguarded: 24.5 m/s by 0.6 s)."""
    V, F = leaning_finger()
    geom = sf.precompute((V, F), feature_size=FEATURE)
    sim = sf.Simulation(geom, sf.Params(gravity=(0.0, -9.81, 0.0)))
    sim.add_source(center=geom.vertices[np.argmax(geom.vertices[:, 1])], radius=0.002, rate=1e-7)
    free_fall = np.sqrt(2.0 * 9.81 * np.ptp(V[:, 1]))
    while sim.time < 0.5:
        sim.step()
        fastest = np.linalg.norm(sim.velocity, axis=1).max()
        assert fastest < free_fall, f"{fastest:.3g} m/s at t = {sim.time:.4g} s"
    book = sim.ledger()
    assert abs(book["balance_error"]) <= 1e-12 * book["poured"]


def test_a_gentle_relief_is_smoothed_bit_for_bit_as_without_the_guard():
    V, F, _ = bumpy_sphere(subdivisions=4, amplitude=0.02)
    params = PrecomputeParams(feature_size="10%")
    guarded = smooth_surface(V, F, params)
    guard = MoveGuard(V, F, params.normal_weighting)
    assert not guard.unfaithful_vertices(guarded[0]).any()
    centred = V - sf.io.extent.area_centroid(V, F)
    adjacency, boundary = mesh_adjacency(F, len(V))
    feature = params.feature_length(sf.io.extent.mesh_diameter(V, F))
    free = heat_flow_smooth(centred, F, adjacency, boundary, feature, params.smoothing_iterations)
    free, b = normal_line_adjust(centred, free, F, params.normal_line_iterations, params.normal_weighting)
    assert np.array_equal(guarded[0], V + (free - centred)) and np.array_equal(guarded[1], b)
