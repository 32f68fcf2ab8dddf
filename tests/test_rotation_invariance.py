"""The same object gets the same physics whichever way it was exported (issue 21): for a random
rotation and translation, a fresh precompute of the moved mesh, with the default feature size
"2%" (of the mesh's diameter, ``io/extent.py``), equals ``update_positions`` of the geometry on
the same motion. Before, the percentage was of the axis-aligned box and the two differed by
1.4e-5 relative.

Measured worst cases over these meshes: positions, normals, frames, areas, transports and dual
edges 6e-14 of their scale; bottom heights 2e-13 of the diameter; friction tensors 1e-14, but
1.4e-11 on the grooved open patch (its one-ring quadratic fits, solved by normal equations,
amplify the round-off of the rotated coordinates). 30 examples, about 2 s.
"""

import functools

import numpy as np
import trimesh
from hypothesis import given, settings
from hypothesis import strategies as st

import surfflow as sf
from surfflow.geometry.precompute import update_positions
from surfflow.io.extent import mesh_diameter
from test_geometry import flat_patch

LENGTHS = ("vertices", "neighbor_coords", "dual_edge_vectors", "boundary_normals", "bottom")
UNITLESS = ("normals", "tangent_frames", "edge_transforms")


def bumpy_ellipsoid():
    sphere = trimesh.creation.icosphere(3)
    V = np.array(sphere.vertices) * [1.0, 0.7, 1.3]
    return V * (1 + 0.03 * np.sin(9 * V[:, 0]) * np.sin(7 * V[:, 2]))[:, None], np.array(sphere.faces)


def bumpy_torus():
    torus = trimesh.creation.torus(1.0, 0.35, major_sections=48, minor_sections=16)
    V = np.array(torus.vertices)
    return V * (1 + 0.02 * np.sin(5 * V[:, 0]) * np.cos(4 * V[:, 1]))[:, None], np.array(torus.faces)


def grooved_patch():
    """An open, irregular patch, bent and grooved."""
    V, F = flat_patch(24, 20, jitter=0.2)
    V[:, 2] = 0.1 * np.sin(3 * V[:, 0]) + 0.01 * np.sin(40 * V[:, 1])
    return V, F


MESHES = {"ellipsoid": bumpy_ellipsoid, "torus": bumpy_torus, "patch": grooved_patch}


@functools.cache
def precomputed(name):
    V, F = MESHES[name]()
    return V, F, sf.precompute((V, F))


def rotation_matrix(quaternion):
    w, x, y, z = np.asarray(quaternion) / np.linalg.norm(quaternion)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


quaternions = st.lists(st.floats(-1.0, 1.0), min_size=4, max_size=4).filter(
    lambda q: np.linalg.norm(q) > 0.1)
shifts = st.lists(st.floats(-3.0, 3.0), min_size=3, max_size=3)


@settings(max_examples=30, deadline=None)
@given(name=st.sampled_from(sorted(MESHES)), quaternion=quaternions, shift=shifts)
def test_fresh_precompute_of_a_moved_mesh_equals_update_positions(name, quaternion, shift):
    V, F, geom = precomputed(name)
    diameter = mesh_diameter(V, F)
    R, t = rotation_matrix(quaternion), np.array(shift) * diameter
    updated = update_positions(geom, geom.vertices @ R.T + t)
    fresh = sf.precompute((V @ R.T + t, F))
    # the moved coordinates carry a round-off of eps |X|, |X| <= |t| + D, so the diameter moves by
    # a few eps (1 + |t| / D) relative (measured up to 13 eps (1 + |t| / D) over 6,000 random poses)
    round_off = 32.0 * np.finfo(np.float64).eps * (1.0 + np.linalg.norm(t) / diameter)
    assert np.isclose(mesh_diameter(V @ R.T + t, F), diameter, rtol=round_off, atol=0.0)
    scales = {**dict.fromkeys(LENGTHS, diameter), **dict.fromkeys(UNITLESS, 1.0),
              "dual_areas": np.abs(fresh.dual_areas).max()}
    for field, scale in scales.items():
        error = np.abs(getattr(updated, field) - getattr(fresh, field)).max()
        assert error <= 1e-12 * scale, (field, error / scale)
    friction_error = np.abs(updated.friction_tensors - fresh.friction_tensors).max()
    assert friction_error <= 1e-10, friction_error        # measured up to 1.4e-11 (docstring)
    assert np.abs(geom.bottom).max() > 1e-4 * diameter                  # it was smoothed


def test_a_percentage_feature_size_does_not_change_when_the_mesh_turns():
    """A cube's axis-aligned box diagonal is sqrt(3) a, and sqrt(5) a turned 45 degrees about z;
    its diameter is sqrt(3) a at any angle."""
    box = trimesh.creation.box((2.0, 2.0, 2.0))
    V, F = np.array(box.vertices), np.array(box.faces)
    turned = V @ rotation_matrix([np.cos(np.pi / 8), 0.0, 0.0, np.sin(np.pi / 8)]).T
    assert np.linalg.norm(np.ptp(turned, axis=0)) > 1.25 * np.linalg.norm(np.ptp(V, axis=0))
    for W in (V, turned + 5.0):
        assert np.isclose(mesh_diameter(W, F), 2.0 * np.sqrt(3.0), rtol=1e-14, atol=0.0)
