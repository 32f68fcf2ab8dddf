"""Known answers for the smoothing stage and the bottom heights (SPEC §2 item 1)."""

import numpy as np
import pytest
import trimesh

from builders import hemispherical_bowl, icosphere, rectangle
from surfflow.config import PrecomputeParams
from surfflow.errors import MeshError
from surfflow.geometry.frames import vertex_normals
from surfflow.geometry.smoothing import mesh_adjacency, smooth_surface

METHODS = ("taubin", "implicit")


def bumpy_sphere(subdivisions=5, amplitude=0.01, frequency=8.0):
    """Unit icosphere pushed out to radius 1 + amplitude Y, Y = sin(f x) sin(f y) sin(f z) of the
    unit direction (a bump pattern about eight edges across). Returns V, F, Y (n,)."""
    V, F = icosphere(1.0, subdivisions)
    Y = np.prod(np.sin(frequency * V), axis=1)
    return V * (1.0 + amplitude * Y)[:, None], F, Y


def mean_edge_length(V, F):
    return np.linalg.norm(V[F] - V[np.roll(F, 1, axis=1)], axis=2).mean()


def test_zero_iterations_keep_the_mesh_and_give_zero_bottom():
    V, F, _ = bumpy_sphere(subdivisions=2)
    x, b = smooth_surface(V, F, PrecomputeParams(smoothing_iterations=0))
    assert np.array_equal(x, V)
    assert np.array_equal(b, np.zeros(len(V)))


@pytest.mark.parametrize("method", METHODS)
def test_irregular_plane_stays_the_same_plane(method):
    V, F = rectangle(0.0, 1.0, 0.0, 1.0, 24, 24, jitter=0.25)
    x, b = smooth_surface(V, F, PrecomputeParams(smoothing_method=method))
    assert np.abs(x - V).max() < 1e-12
    assert np.abs(b).max() < 1e-14


@pytest.mark.parametrize("method", METHODS)
def test_sphere_does_not_shrink(method):
    V, F = icosphere(1.0, 4)
    x, _ = smooth_surface(V, F, PrecomputeParams(smoothing_method=method, smoothing_iterations=20))
    assert abs(np.linalg.norm(x, axis=1).mean() - 1.0) < 0.01
    assert abs(trimesh.Trimesh(x, F, process=False).volume / trimesh.Trimesh(V, F, process=False).volume - 1) < 0.01


@pytest.mark.parametrize("method", METHODS)
def test_smooth_sphere_has_almost_no_bottom(method):
    V, F = icosphere(1.0, 4)
    _, b = smooth_surface(V, F, PrecomputeParams(smoothing_method=method))
    # measured: taubin 1.1e-3, implicit 5e-4 (a sub-percent radius change, edges ~0.07)
    assert np.abs(b).max() < 0.03 * mean_edge_length(V, F)


@pytest.mark.parametrize("method", METHODS)
def test_original_vertices_lie_on_the_smoothed_normal_lines(method):
    V, F, _ = bumpy_sphere(subdivisions=4, amplitude=0.02)
    x, b = smooth_surface(V, F, PrecomputeParams(smoothing_method=method, normal_line_iterations=8))
    n = vertex_normals(x, F)
    assert np.abs(np.cross(V - x, n)).max() < 1e-9
    assert np.allclose(b, np.einsum("ij,ij->i", V - x, n), rtol=0, atol=1e-15)


def test_bottom_recovers_the_bump_height():
    V, F, Y = bumpy_sphere(subdivisions=5, amplitude=0.01)
    params = PrecomputeParams(smoothing_method="implicit", smoothing_iterations=10, implicit_step=10.0)
    x, b = smooth_surface(V, F, params)
    # measured relative L2 error 0.064 (what the implicit smoothing leaves of the bump, plus
    # the sampling of the smoothed sphere); the smoothed surface is a sphere to 0.1 % of R
    assert np.linalg.norm(b - 0.01 * Y) / np.linalg.norm(0.01 * Y) < 0.1
    assert np.abs(np.linalg.norm(x, axis=1) - 1.0).max() < 2e-3


def test_taubin_pass_removes_the_finest_detail():
    V, F = icosphere(1.0, 4)
    n = vertex_normals(V, F)
    checker = np.where(np.arange(len(V)) % 2 == 0, 1.0, -1.0) * 0.002
    x, b = smooth_surface(V + checker[:, None] * n, F, PrecomputeParams(smoothing_iterations=20))
    assert np.corrcoef(b, checker)[0, 1] > 0.9


@pytest.mark.parametrize("method", METHODS)
def test_boundary_vertices_of_an_open_mesh_stay_put(method):
    V, F = hemispherical_bowl(1.0, 12)
    rng = np.random.default_rng(1)
    V = V + rng.normal(scale=0.01, size=V.shape)
    x, b = smooth_surface(V, F, PrecomputeParams(smoothing_method=method))
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
