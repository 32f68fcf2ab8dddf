"""Smoothing stage of precompute (SPEC §2 item 1): smoothed positions x and bottom heights b.

The input mesh (V = X, F) is smoothed either with Taubin's uniform ("umbrella") weights,

    L x_i = (1 / |N(i)|) sum_{j in N(i)} x_j - x_i,

in lambda/mu passes (x += lambda L x; x += mu L x, which does not shrink), or by
implicit (backward Euler) mean-curvature passes (M + t K) x_new = M x (cotan stiffness K and
lumped mass M of the input mesh, t = implicit_step times the mean squared edge length),
solved with Jacobi-preconditioned conjugate gradients; after every implicit pass each closed
connected component is scaled about its centroid back to its original enclosed volume, so nothing
shrinks (open components are held by their fixed boundary instead).

Boundary vertices of open meshes are kept FIXED (x_i = X_i, so b_i = 0 there): they trivially
stay on the boundary curve, and the interior is smoothed towards them.

Then the normal-line adjustment: each smoothed x_i is moved by the tangential part of X_i - x_i,

    x_i <- x_i + (I - n_i n_i^T) (X_i - x_i),

the normals recomputed, and this repeated, so that X_i lies on the line through x_i along n_i.
The bottom height is b_i = (X_i - x_i) . n_i with the final normals.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from ..config import PrecomputeParams
from ..errors import MeshError
from .frames import vertex_normals

_CG_TOLERANCE = 1e-8
_CG_MAX_ITERATIONS = 500


def smooth_surface(V: np.ndarray, F: np.ndarray, params: PrecomputeParams) -> tuple[np.ndarray, np.ndarray]:
    """Smooth the mesh and return the smoothed positions and the bottom heights.

    V: (n, 3) float input positions X; F: (m, 3) int triangles, consistently oriented.
    params: uses smoothing_iterations, smoothing_method, taubin_lambda, taubin_mu, implicit_step,
        normal_line_iterations and normal_weighting.
    Returns x (n, 3) smoothed positions and b (n,) bottom heights, b_i = (X_i - x_i) . n_i.
    With zero smoothing iterations x == V and b == 0 exactly.
    """
    X = np.ascontiguousarray(V, dtype=np.float64)
    F = np.ascontiguousarray(F, dtype=np.int64)
    if params.smoothing_iterations == 0:
        return X.copy(), np.zeros(X.shape[0])
    adjacency, boundary = mesh_adjacency(F, X.shape[0])
    if params.smoothing_method == "taubin":
        x = taubin_smooth(X, adjacency, boundary, params.smoothing_iterations,
                          params.taubin_lambda, params.taubin_mu)
    else:
        x = implicit_smooth(X, F, adjacency, boundary, params.smoothing_iterations, params.implicit_step)
    return normal_line_adjust(X, x, F, params.normal_line_iterations, params.normal_weighting)


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


def taubin_smooth(X: np.ndarray, adjacency: sp.csr_matrix, boundary: np.ndarray, iterations: int,
                  lam: float, mu: float) -> np.ndarray:
    """Taubin lambda/mu smoothing with umbrella weights; boundary vertices stay fixed.

    X: (n, 3); adjacency: (n, n) symmetric 0/1; boundary: (n,) bool. Returns (n, 3).
    """
    averaging = sp.diags(1.0 / np.asarray(adjacency.sum(axis=1)).ravel()) @ adjacency
    moving = (~boundary).astype(np.float64)[:, None]
    x = X.copy()
    for _ in range(iterations):
        for factor in (lam, mu):
            x += (factor * moving) * (averaging @ x - x)
    return x


def implicit_smooth(X: np.ndarray, F: np.ndarray, adjacency: sp.csr_matrix, boundary: np.ndarray,
                    iterations: int, step: float) -> np.ndarray:
    """Backward-Euler mean-curvature smoothing, volume-corrected per closed component.

    Each pass solves (M + t K) x_new = M x with the cotan stiffness K and the lumped barycentric
    mass M of the input mesh X (implicit fairing, Desbrun et al. 1999; keeping the operator of X
    keeps the system's conditioning, and the cost, fixed), t = step * (mean squared edge length of X);
    the boundary vertices stay fixed. X: (n, 3); F: (m, 3); adjacency: (n, n) symmetric 0/1;
    boundary: (n,) bool. Returns (n, 3).
    """
    free = np.flatnonzero(~boundary)
    fixed = np.flatnonzero(boundary)
    edges = X[F] - X[np.roll(F, -1, axis=1)]
    time_step = step * np.mean(np.einsum("ijk,ijk->ij", edges, edges))
    labels, closed = _closed_components(F, adjacency, boundary)
    volumes0 = _component_volumes(X, F, labels)
    stiffness, mass = _cotan_stiffness_and_mass(X, F)
    system = (sp.diags(mass) + time_step * stiffness).tocsr()
    system_free = system[free][:, free]
    coupling = time_step * stiffness[free][:, fixed]
    inverse_diagonal = 1.0 / system_free.diagonal()
    x = X.copy()
    for _ in range(iterations):
        rhs = mass[free, None] * x[free] - coupling @ x[fixed]
        x[free] = _jacobi_cg(system_free, rhs, x[free], inverse_diagonal)
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


def _jacobi_cg(A, B, X, inverse_diagonal):
    """Solve A X = B for the columns of B (k, 3) by Jacobi-preconditioned conjugate gradients.

    A: (k, k) symmetric positive definite and strictly diagonally dominant (so a few tens of
    iterations reach the relative residual _CG_TOLERANCE); X: (k, 3) start. Returns (k, 3).
    """
    X = X.copy()
    R = B - A @ X
    Z = inverse_diagonal[:, None] * R
    P = Z.copy()
    rz = np.einsum("ij,ij->j", R, Z)
    target = _CG_TOLERANCE * np.linalg.norm(B, axis=0)
    for _ in range(_CG_MAX_ITERATIONS):
        if np.all(np.linalg.norm(R, axis=0) <= target):
            break
        AP = A @ P
        alpha = rz / np.where(rz == 0.0, 1.0, np.einsum("ij,ij->j", P, AP))
        X += alpha * P
        R -= alpha * AP
        Z = inverse_diagonal[:, None] * R
        rz_new = np.einsum("ij,ij->j", R, Z)
        P = Z + (rz_new / np.where(rz == 0.0, 1.0, rz)) * P
        rz = rz_new
    return X


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
    rescale = closed & (volumes * volumes0 > 0)
    scale = np.cbrt(np.where(rescale, volumes0 / np.where(rescale, volumes, 1.0), 1.0))
    counts = np.bincount(labels, minlength=closed.size)[:, None]
    centroids = np.stack([np.bincount(labels, weights=x[:, a], minlength=closed.size) for a in range(3)], 1) / counts
    moving = rescale[labels]
    x = x.copy()
    x[moving] = centroids[labels[moving]] + scale[labels[moving], None] * (x[moving] - centroids[labels[moving]])
    return x


def normal_line_adjust(X: np.ndarray, x: np.ndarray, F: np.ndarray, iterations: int,
                       weighting: str) -> tuple[np.ndarray, np.ndarray]:
    """Move x so each X_i lies on the line through x_i along n_i; return x (n, 3) and b (n,).

    Each pass: x_i <- x_i + (I - n_i n_i^T)(X_i - x_i) with the current normals n (n, 3).
    Then b_i = (X_i - x_i) . n_i with the normals of the final x.
    """
    x = x.copy()
    for _ in range(iterations):
        normals = vertex_normals(x, F, weighting=weighting)
        offset = X - x
        x += offset - np.einsum("ij,ij->i", offset, normals)[:, None] * normals
    normals = vertex_normals(x, F, weighting=weighting)
    return x, np.einsum("ij,ij->i", X - x, normals)
