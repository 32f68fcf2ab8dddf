"""The cotangent Laplacian of a surface mesh, mass-lumped with the dual areas, and its largest
eigenvalue (the ripple mode's stability bound).

    (Lap z)_i = (1 / A_i) sum_j w_ij (z_j - z_i),     w_ij = (cot alpha_ij + cot beta_ij) / 2

alpha_ij, beta_ij the angles opposite the edge (i, j) in its one or two triangles, A_i the
barycentric dual area (``geom.dual_areas``). The weights sit on the CSR one-rings of the geometry
(``neighbor_offsets``, ``neighbor_indices``), symmetric: w_ij = w_ji. On an open mesh this is the
natural (Neumann, reflecting) boundary; a held (Dirichlet) vertex is left out of the eigenvalue
problem. With K the stiffness matrix (K_ii = sum_j w_ij, K_ij = -w_ij) and M = diag(A),
-Lap = M^-1 K, whose eigenvalues are real and >= 0 (K is the P1 finite-element stiffness,
positive semi-definite on any mesh, obtuse triangles included).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import ArpackNoConvergence, eigsh


def cotangent_weights(geom) -> np.ndarray:
    """(nnz,) w_ij on the CSR entries (i, j) of ``geom``'s one-rings, in 1 (dimensionless).

    Each triangle adds half the cotangent of its angle at a corner to the opposite edge, in
    both directions; summed serially (np.add.at), so the result is deterministic.

    Examples
    --------
    >>> import surfflow as sf
    >>> from surfflow.io.procedural import plane
    >>> geom = sf.precompute(plane((1.0, 1.0), (2, 2)), feature_size=0)
    >>> w = cotangent_weights(geom)
    >>> sorted(set(np.round(w, 12)))           # right triangles: the grid's 5-point stencil
    [0.0, 0.5, 1.0]
    """
    V, F = geom.vertices, geom.faces
    n = geom.n_vertices
    rows = np.repeat(np.arange(n), np.diff(geom.neighbor_offsets))
    entry_keys = rows * n + geom.neighbor_indices
    order = np.argsort(entry_keys, kind="stable")
    weights = np.zeros(len(entry_keys))
    for corner in range(3):
        a, b, c = F[:, corner], F[:, (corner + 1) % 3], F[:, (corner + 2) % 3]
        u, v = V[b] - V[a], V[c] - V[a]
        cot = np.einsum("ij,ij->i", u, v) / np.linalg.norm(np.cross(u, v), axis=1)
        for i, j in ((b, c), (c, b)):
            where = order[np.searchsorted(entry_keys, i * n + j, sorter=order)]
            np.add.at(weights, where, 0.5 * cot)
    return weights


def stiffness_matrix(geom, weights: np.ndarray) -> sp.csr_matrix:
    """K (n, n), in 1: K_ij = -w_ij, K_ii = sum_j w_ij, so (K z)_i = -A_i (Lap z)_i."""
    n = geom.n_vertices
    rows = np.repeat(np.arange(n), np.diff(geom.neighbor_offsets))
    off = sp.csr_matrix((-weights, (rows, geom.neighbor_indices)), shape=(n, n))
    return (off - sp.diags(np.asarray(off.sum(axis=1)).ravel())).tocsr()


def largest_eigenvalue(geom, weights: np.ndarray, held: np.ndarray) -> float:
    """An upper bound (1/m^2) of the largest eigenvalue lambda_max of -Lap on the free vertices.

    The symmetric form S = M^-1/2 K M^-1/2 restricted to the vertices not ``held`` (n,) bool has
    the same eigenvalues. Lanczos (ARPACK, a fixed start vector, so deterministic) gives the Ritz
    value theta and its residual r; S has an eigenvalue within |r| of theta, and theta + |r| is
    returned, never above Gershgorin's bound max_i sum_j |S_ij| (returned if ARPACK does not
    converge). 0 when every vertex is held.
    """
    free = np.flatnonzero(~held)
    if free.size == 0:
        return 0.0
    scale = sp.diags(1.0 / np.sqrt(geom.dual_areas[free]))
    S = (scale @ stiffness_matrix(geom, weights)[free][:, free] @ scale).tocsr()
    gershgorin = float(abs(S).sum(axis=1).max())
    if free.size < 3:
        return float(np.linalg.eigvalsh(S.toarray()).max())
    start = np.cos(np.arange(free.size) * 2.3) + 1.5  # any fixed vector not orthogonal to the top
    try:
        theta, vectors = eigsh(S, k=1, which="LA", v0=start, tol=1e-9, maxiter=20 * free.size)
    except ArpackNoConvergence:
        return gershgorin
    residual = np.linalg.norm(S @ vectors[:, 0] - theta[0] * vectors[:, 0])
    return min(float(theta[0] + residual), gershgorin)
