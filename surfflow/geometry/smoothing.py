"""Smoothing stage of precompute (SPEC §2 item 1): smoothed positions x and bottom heights b.

The input mesh (V = X, F) is smoothed by heat flow over a diffusion time set by the feature size
f (``PrecomputeParams.feature_size``, in metres; a percentage is of the mesh's rotation-invariant
diameter, ``io/extent.py``), in s backward-Euler steps (s =
``smoothing_iterations``) of

    (M + tau K) x_new = M x,      tau = (2^(1/s) - 1) (f / pi)^2,

with the cotan stiffness K and the lumped barycentric mass M of the input mesh X (implicit
fairing, Desbrun et al. 1999). K and M discretise the Laplace-Beltrami operator, so the filter is a
property of the surface, not of its triangulation: on a flat patch a sinusoidal relief of
wavelength L keeps the fraction (1 + tau (2 pi / L)^2)^-s of its amplitude, exactly 1/2 for bumps
f wide (L = 2 f). The system is factorised once (sparse LU) and solved s times, so the cost does not
grow with f. After every step each closed connected component is scaled about its centroid back
to its original enclosed volume, so nothing shrinks (open components are held by their fixed
boundary instead).

Boundary vertices of open meshes are kept FIXED (x_i = X_i, so b_i = 0 there): they trivially
stay on the boundary curve, and the interior is smoothed towards them.

Then the normal-line adjustment: each smoothed x_i is moved by the tangential part of X_i - x_i,

    x_i <- x_i + (I - n_i n_i^T) (X_i - x_i),

the normals recomputed, and this repeated, so that X_i lies on the line through x_i along n_i.
The bottom height is b_i = (X_i - x_i) . n_i with the final normals.

Both the heat flow's result and every normal-line pass are taken through a ``MoveGuard``
(``guarded_moves.py``): a vertex moves only so far that no triangle loses more than half its
smallest altitude or folds over, so where the detail is too large for the mesh to follow (a
patch or protrusion narrower than f) the surface keeps more of it and X_i may stay off the
normal line (b is still the normal part of X_i - x_i).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components
from scipy.sparse.linalg import splu

from ..config import PrecomputeParams
from ..errors import MeshError
from ..io.extent import area_centroid, mesh_diameter
from .frames import vertex_normals
from .guarded_moves import MoveGuard

def smooth_surface(V: np.ndarray, F: np.ndarray, params: PrecomputeParams) -> tuple[np.ndarray, np.ndarray]:
    """Smooth the mesh and return the smoothed positions and the bottom heights.

    V: (n, 3) float input positions X; F: (m, 3) int triangles, consistently oriented.
    params: uses feature_size, smoothing_iterations, normal_line_iterations and normal_weighting.
    Returns x (n, 3) smoothed positions and b (n,) bottom heights, b_i = (X_i - x_i) . n_i.
    With a zero feature size or zero smoothing iterations x == V and b == 0 exactly.
    """
    X = np.ascontiguousarray(V, dtype=np.float64)
    F = np.ascontiguousarray(F, dtype=np.int64)
    feature = params.feature_length(mesh_diameter(X, F))
    if feature == 0.0 or params.smoothing_iterations == 0:
        return X.copy(), np.zeros(X.shape[0])
    adjacency, boundary = mesh_adjacency(F, X.shape[0])
    local = X - area_centroid(X, F)    # round-off of the mesh's size, wherever it is placed
    guard = MoveGuard(local, F, params.normal_weighting)
    x = guard.limit(local, heat_flow_smooth(local, F, adjacency, boundary, feature,
                                            params.smoothing_iterations))
    x, bottom = normal_line_adjust(local, x, F, params.normal_line_iterations,
                                   params.normal_weighting, guard)
    return X + (x - local), bottom


def mesh_adjacency(F: np.ndarray, n_vertices: int) -> tuple[sp.csr_matrix, np.ndarray]:
    """Symmetric 0/1 vertex adjacency (n, n) CSR and the (n,) bool mask of boundary vertices.

    A directed edge (i, j) of a consistently oriented mesh lies on the boundary when its
    reverse (j, i) belongs to no face.
    """
    tails = F.ravel()
    heads = np.roll(F, -1, axis=1).ravel()
    directed = sp.csr_matrix((np.ones(tails.size), (tails, heads)), shape=(n_vertices, n_vertices))
    directed.sum_duplicates()
    unmatched = (directed - directed.T).tocsr()
    unmatched.eliminate_zeros()
    boundary = np.diff(unmatched.indptr) > 0
    adjacency = ((directed + directed.T) > 0).astype(np.float64).tocsr()
    isolated = np.flatnonzero(np.diff(adjacency.indptr) == 0)
    if isolated.size:
        raise MeshError(
            f"vertex {isolated[0]} (and {isolated.size - 1} more) belongs to no face; "
            "remove unreferenced vertices before precompute (load_mesh does this)"
        )
    return adjacency, boundary


def heat_flow_smooth(X: np.ndarray, F: np.ndarray, adjacency: sp.csr_matrix, boundary: np.ndarray,
                     feature_size: float, steps: int) -> np.ndarray:
    """Heat flow that removes detail narrower than ``feature_size``, volume-corrected per closed
    component (module docstring).

    X: (n, 3); F: (m, 3); adjacency: (n, n) symmetric 0/1; boundary: (n,) bool, vertices that
    stay fixed; feature_size: metres, > 0; steps: backward-Euler steps, >= 1. Returns (n, 3).
    """
    free = np.flatnonzero(~boundary)
    fixed = np.flatnonzero(boundary)
    if free.size == 0:
        return X.copy()
    tau = (2.0 ** (1.0 / steps) - 1.0) * (feature_size / np.pi) ** 2
    labels, closed = _closed_components(F, adjacency, boundary)
    volumes0 = _component_volumes(X, F, labels)
    stiffness, mass = _cotan_stiffness_and_mass(X, F)
    system = (sp.diags(mass) + tau * stiffness).tocsc()
    solve = splu(system[free][:, free], permc_spec="MMD_AT_PLUS_A",
                 options={"SymmetricMode": True}).solve
    coupling = tau * stiffness[free][:, fixed]
    x = X.copy()
    for _ in range(steps):
        x[free] = solve(mass[free, None] * x[free] - coupling @ x[fixed])
        x = _restore_volumes(x, F, labels, closed, volumes0)
    return x


def _cotan_stiffness_and_mass(x, F):
    """Cotan stiffness K (n, n) CSR, K_ij = -(cot a_ij + cot b_ij) / 2, rows summing to zero,
    and the lumped barycentric mass (n,): a third of the area of each incident triangle."""
    n = x.shape[0]
    rows, cols, weights = [], [], []
    corners = x[F]
    twice_areas = np.linalg.norm(np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0]), axis=1)
    safe_twice_areas = np.maximum(twice_areas, np.finfo(float).tiny)
    for k in range(3):
        i, j = (k + 1) % 3, (k + 2) % 3
        a, b = corners[:, i] - corners[:, k], corners[:, j] - corners[:, k]
        half_cot = 0.5 * np.einsum("ij,ij->i", a, b) / safe_twice_areas
        rows += [F[:, i], F[:, j]]
        cols += [F[:, j], F[:, i]]
        weights += [half_cot, half_cot]
    off_diagonal = sp.csr_matrix((np.concatenate(weights), (np.concatenate(rows), np.concatenate(cols))),
                                 shape=(n, n))
    stiffness = sp.diags(np.asarray(off_diagonal.sum(axis=1)).ravel()) - off_diagonal
    mass = np.bincount(F.ravel(), weights=np.repeat(twice_areas / 6.0, 3), minlength=n)
    return stiffness.tocsr(), mass


def _closed_components(F, adjacency, boundary):
    """(n,) component labels and the (n_components,) bool mask of components without boundary."""
    n_components, labels = connected_components(adjacency, directed=False)
    has_boundary = np.bincount(labels, weights=boundary.astype(np.float64), minlength=n_components) > 0
    return labels, ~has_boundary


def _component_volumes(x, F, labels):
    """(n_components,) signed volume enclosed by each component: sum of det(x0, x1, x2) / 6."""
    p0, p1, p2 = x[F[:, 0]], x[F[:, 1]], x[F[:, 2]]
    face_volumes = np.einsum("ij,ij->i", p0, np.cross(p1, p2)) / 6.0
    return np.bincount(labels[F[:, 0]], weights=face_volumes, minlength=labels.max() + 1)


def _restore_volumes(x, F, labels, closed, volumes0):
    """Scale each closed component about its centroid so it encloses its original volume;
    open components are returned untouched."""
    volumes = _component_volumes(x, F, labels)
    rescale = closed & (np.sign(volumes) == np.sign(volumes0)) & (volumes0 != 0.0)
    scale = np.cbrt(np.where(rescale, volumes0 / np.where(rescale, volumes, 1.0), 1.0))
    counts = np.bincount(labels, minlength=closed.size)[:, None]
    centroids = np.stack([np.bincount(labels, weights=x[:, a], minlength=closed.size) for a in range(3)], 1) / counts
    moving = rescale[labels]
    x = x.copy()
    x[moving] = centroids[labels[moving]] + scale[labels[moving], None] * (x[moving] - centroids[labels[moving]])
    return x


def normal_line_adjust(X: np.ndarray, x: np.ndarray, F: np.ndarray, iterations: int,
                       weighting: str, guard: MoveGuard | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Move x so each X_i lies on the line through x_i along n_i; return x (n, 3) and b (n,).

    Each pass: x_i <- x_i + (I - n_i n_i^T)(X_i - x_i) with the current normals n (n, 3), the
    move limited by ``guard`` (``guarded_moves.py``) where given.
    Then b_i = (X_i - x_i) . n_i with the normals of the final x.
    """
    x = x.copy()
    for _ in range(iterations):
        normals = vertex_normals(x, F, weighting=weighting)
        offset = X - x
        moved = x + (offset - np.einsum("ij,ij->i", offset, normals)[:, None] * normals)
        x = moved if guard is None else guard.limit(x, moved)
    normals = vertex_normals(x, F, weighting=weighting)
    return x, np.einsum("ij,ij->i", X - x, normals)
