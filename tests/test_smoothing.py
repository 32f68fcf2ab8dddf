"""Known answers for the smoothing stage and the bottom heights (SPEC §2 item 1)."""

import pathlib

import numpy as np
import pytest
import trimesh

from builders import hemispherical_bowl, icosphere, rectangle
from surfflow.config import PrecomputeParams
from surfflow.errors import MeshError, ParameterError
from surfflow.io.extent import mesh_diameter
from surfflow.io.mesh import load_mesh
from surfflow.geometry.frames import vertex_normals
from surfflow.geometry.smoothing import mesh_adjacency, smooth_surface

def bumpy_sphere(subdivisions=5, amplitude=0.01, frequency=8.0):
    """Unit icosphere pushed out to radius 1 + amplitude Y, Y = sin(f x) sin(f y) sin(f z) of the
    unit direction (a bump pattern about eight edges across). Returns V, F, Y (n,)."""
    V, F = icosphere(1.0, subdivisions)
    Y = np.prod(np.sin(frequency * V), axis=1)
    return V * (1.0 + amplitude * Y)[:, None], F, Y


def mean_edge_length(V, F):
    return np.linalg.norm(V[F] - V[np.roll(F, 1, axis=1)], axis=2).mean()


def in_bottom(wavelength, feature, steps=4):
    """The fraction of a sinusoidal relief's amplitude the filter moves into b on a flat surface."""
    tau = (2.0 ** (1.0 / steps) - 1.0) * (feature / np.pi) ** 2
    return 1.0 - (1.0 + tau * (2 * np.pi / wavelength) ** 2) ** -steps


def corrugated_square(cells, wavelength, amplitude, angle=30.0):
    """The unit square on a (cells + 1)^2 grid, z = amplitude sin(2 pi s / wavelength), s along
    the direction at ``angle`` degrees from x. Returns V, F and the phase 2 pi s / wavelength (n,)."""
    V, F = rectangle(0.0, 1.0, 0.0, 1.0, cells, cells, jitter=0.0)
    across = np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle)), 0.0])
    phase = 2 * np.pi * (V @ across) / wavelength
    V[:, 2] = amplitude * np.sin(phase)
    return V, F, phase


@pytest.mark.parametrize("params", [{"feature_size": 0}, {"feature_size": "0%"}, {"smoothing_iterations": 0}])
def test_no_smoothing_keeps_the_mesh_and_gives_zero_bottom(params):
    V, F, _ = bumpy_sphere(subdivisions=2)
    x, b = smooth_surface(V, F, PrecomputeParams(**params))
    assert np.array_equal(x, V)
    assert np.array_equal(b, np.zeros(len(V)))


def test_feature_size_in_percent_is_a_fraction_of_the_diameter():
    V, F, _ = bumpy_sphere(subdivisions=3, amplitude=0.03)
    x, b = smooth_surface(V, F, PrecomputeParams(feature_size="13%"))    # 0.27 m of 2.06 m
    x_m, b_m = smooth_surface(V, F, PrecomputeParams(feature_size=0.13 * mesh_diameter(V, F)))
    assert np.abs(x - x_m).max() < 1e-13 and np.abs(b - b_m).max() < 1e-13
    assert np.abs(b).max() > 0.01


@pytest.mark.parametrize("value, message", [
    ("abc", "'abc' is not a length"), ("2", "'2' is not a length"), (-0.1, "finite length >= 0"),
    ("150%", "not a percentage from 0% to 100%"), ("x%", "not a percentage"), (True, "not a length"),
    (float("nan"), "finite length"), (None, "not a length"),
])
def test_bad_feature_sizes_say_what_is_allowed(value, message):
    with pytest.raises(ParameterError, match=message) as info:
        PrecomputeParams(feature_size=value)
    assert 'a string ending in % (feature_size = "2%")' in str(info.value)


def test_irregular_plane_stays_the_same_plane():
    V, F = rectangle(0.0, 1.0, 0.0, 1.0, 24, 24, jitter=0.25)
    x, b = smooth_surface(V, F, PrecomputeParams(feature_size="10%"))
    assert np.abs(x - V).max() < 1e-12
    assert np.abs(b).max() < 1e-14


def test_sphere_does_not_shrink():
    V, F = icosphere(1.0, 4)
    x, _ = smooth_surface(V, F, PrecomputeParams(feature_size="20%"))
    assert abs(np.linalg.norm(x, axis=1).mean() - 1.0) < 0.01
    # measured: volume kept to 4e-10 (the heat flow's is restored exactly; the normal-line
    # adjustment then moves vertices tangentially), mean radius 0.9996
    assert abs(trimesh.Trimesh(x, F, process=False).volume / trimesh.Trimesh(V, F, process=False).volume - 1) < 1e-8


def test_smooth_sphere_has_almost_no_bottom():
    V, F = icosphere(1.0, 4)
    _, b = smooth_surface(V, F, PrecomputeParams())
    # measured: 1.2e-3 edges (where the icosphere's vertices of valence 5 sit)
    assert np.abs(b).max() < 0.01 * mean_edge_length(V, F)


def test_original_vertices_lie_on_the_smoothed_normal_lines():
    V, F, _ = bumpy_sphere(subdivisions=4, amplitude=0.02)
    x, b = smooth_surface(V, F, PrecomputeParams(feature_size="10%", normal_line_iterations=8))
    n = vertex_normals(x, F)
    assert np.abs(np.cross(V - x, n)).max() < 1e-9
    assert np.allclose(b, np.einsum("ij,ij->i", V - x, n), rtol=0, atol=1e-15)


def test_bottom_recovers_the_bump_height():
    """Bumps about 0.4 wide (wavelength 2 pi / 8) with a feature size three times that."""
    V, F, Y = bumpy_sphere(subdivisions=5, amplitude=0.01)
    x, b = smooth_surface(V, F, PrecomputeParams(feature_size=1.2))
    # measured relative L2 error 0.076 (the bump pattern's longer-wave parts stay in the smoothed
    # surface, plus its sampling); the smoothed surface is a sphere to 0.09 % of R
    assert np.linalg.norm(b - 0.01 * Y) / np.linalg.norm(0.01 * Y) < 0.1
    assert np.abs(np.linalg.norm(x, axis=1) - 1.0).max() < 2e-3


@pytest.mark.parametrize("ratio", [1.0, 2.0, 4.0])
def test_relief_splits_between_surface_and_bottom_as_the_filter_predicts(ratio):
    """Grooves of wavelength L = ratio x feature size on a flat square: the fraction of their
    amplitude in b is 1 - (1 + tau k^2)^-s (0.90, 0.50 and 0.17), away from the fixed boundary."""
    feature = 0.05
    wavelength = ratio * feature
    V, F, phase = corrugated_square(160, wavelength, 0.002)
    _, b = smooth_surface(V, F, PrecomputeParams(feature_size=feature))
    inner = np.all((V[:, :2] > 2 * feature) & (V[:, :2] < 1 - 2 * feature), axis=1)
    fit = np.linalg.lstsq(np.column_stack([np.sin(phase), np.cos(phase)])[inner], b[inner], rcond=None)[0]
    # measured: 0.883 / 0.895, 0.495 / 0.500, 0.168 / 0.169 at 8, 16 and 32 edges per
    # wavelength (0.888, 0.497, 0.168 at twice the resolution); no phase shift (1e-8)
    assert abs(fit[0] / 0.002 - in_bottom(wavelength, feature)) < 0.015
    assert abs(fit[1]) < 1e-4


@pytest.mark.parametrize("surface", ["grooved square", "bumpy sphere"])
def test_same_surface_at_two_resolutions_gives_the_same_bottom(surface):
    """b at the vertices a coarse mesh shares with its refinement: equal to discretisation error,
    shrinking under refinement (the split is a property of the surface, not of the mesh)."""
    if surface == "grooved square":
        cells = (40, 80, 160)
        meshes = [corrugated_square(c, 0.1, 0.005)[:2] for c in cells]
        params = PrecomputeParams(feature_size=0.05)

        def shared(k):
            i, j = np.meshgrid(np.arange(cells[k] + 1), np.arange(cells[k] + 1), indexing="xy")
            return (2 * j * (cells[k + 1] + 1) + 2 * i).ravel()
    else:
        meshes = [bumpy_sphere(subdivisions, amplitude=0.01)[:2] for subdivisions in (3, 4, 5)]
        params = PrecomputeParams(feature_size=0.4)

        def shared(k):
            return np.arange(len(meshes[k][0]))
    bottoms = [smooth_surface(V, F, params)[1] for V, F in meshes]
    scale = np.abs(bottoms[-1]).max()
    errors = [np.abs(bottoms[k] - bottoms[k + 1][shared(k)]).max() / scale for k in range(2)]
    for k in range(2):
        assert np.allclose(meshes[k][0], meshes[k + 1][0][shared(k)], atol=1e-12)
    # measured: grooved square 0.087, 0.027 (then 0.0077 at 160 / 320 cells); bumpy sphere
    # 0.126, 0.046 (then 0.015): second order, ratios 0.31 and 0.36
    assert errors[1] < 0.06
    assert errors[1] < 0.5 * errors[0]


def test_default_smoothing_of_the_bunny_folds_no_face():
    """The default feature size (2 % of the diagonal) keeps every smoothed face of the scanned
    bunny facing the way its input face does (larger ones fold a few: 3 % 0.02 %, 5 % 0.14 %)."""
    mesh = load_mesh(pathlib.Path(__file__).resolve().parents[1] / "meshes" / "bunny.obj")
    V, F = np.asarray(mesh.vertices), np.asarray(mesh.faces)
    x, b = smooth_surface(V, F, PrecomputeParams())
    before = np.cross(V[F[:, 1]] - V[F[:, 0]], V[F[:, 2]] - V[F[:, 0]])
    after = np.cross(x[F[:, 1]] - x[F[:, 0]], x[F[:, 2]] - x[F[:, 0]])
    assert np.all(np.einsum("ij,ij->i", before, after) > 0)
    assert np.abs(b).max() > 1e-3          # measured 4.4 mm of detail (0.44 % of the diagonal)


def test_boundary_vertices_of_an_open_mesh_stay_put():
    V, F = hemispherical_bowl(1.0, 12)
    rng = np.random.default_rng(1)
    V = V + rng.normal(scale=0.01, size=V.shape)
    x, b = smooth_surface(V, F, PrecomputeParams())
    _, boundary = mesh_adjacency(F, len(V))
    assert boundary.sum() == 72
    assert np.array_equal(x[boundary], V[boundary])
    assert np.array_equal(b[boundary], np.zeros(boundary.sum()))
    assert np.abs(x[~boundary] - V[~boundary]).max() > 1e-3


def test_adjacency_and_boundary_of_a_grid():
    V, F = rectangle(0.0, 1.0, 0.0, 1.0, 5, 4)
    adjacency, boundary = mesh_adjacency(F, len(V))
    assert boundary.sum() == 2 * (5 + 4)
    assert (adjacency != adjacency.T).nnz == 0
    assert adjacency.nnz == 2 * (5 * 5 + 4 * 6 + 5 * 4)   # horizontal, vertical, diagonal edges


def test_vertex_in_no_face_is_rejected():
    V, F = rectangle(0.0, 1.0, 0.0, 1.0, 3, 3)
    V = np.vstack([V, [5.0, 5.0, 5.0]])
    with pytest.raises(MeshError, match="vertex 16"):
        smooth_surface(V, F, PrecomputeParams())
