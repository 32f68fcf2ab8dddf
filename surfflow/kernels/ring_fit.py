"""Least-squares gradient weights on the one-ring: grad f_i = sum_j w_ij (f_j - f_i).

With c_j the ring vertex x_j in i's tangent coordinates (``neighbor_coords``) and s the ring's
rms radius, f_j - f_i is fitted in the least-squares sense over i's one-ring by the quadratic
without a constant term

    q(c) = g . c + 0.5 c^T K c          (5 coefficients: g, and the 3 entries of K)

Its gradient at i is g = sum_j w_ij (f_j - f_i): with B the ring's (k, 5) design matrix, rows
(u, v, u^2 / 2, u v, v^2 / 2) at (u, v) = c_j / s, the weights are the first two rows of
(B^T B)^-1 B^T, divided by s. Being a sum of differences it is exactly zero for a constant f;
it is exact for any quadratic f on a flat ring, second-order accurate on a curved one (the
barycentric Green-Gauss gradient is first order in f's curvature wherever the ring is not
symmetric). Where the quadratic is not determined (fewer than 5 neighbours, as on most boundary
vertices, or a pivot below ``PIVOT_FLOOR`` of the largest diagonal entry of B^T B) the linear fit
q = g . c is used, exact for linear f; a ring with no linear fit either (all neighbours on one
line, no valid mesh has it) gets zero weights.
"""

import numba
import numpy as np

from ._jit import parallel_kernel, serial_kernel

from .tuning import PIVOT_FLOOR, RING_FIT_BLOCK


@serial_kernel
def solve_normal_equations(normal, rhs):
    """Solve normal X = rhs in place (normal (p, p), rhs (p, k); X is written into rhs) by
    Gaussian elimination with partial pivoting. Returns False, leaving garbage, when a pivot falls
    below PIVOT_FLOOR times the largest diagonal entry of ``normal``. Allocates nothing."""
    size = normal.shape[0]
    largest = 0.0
    for d in range(size):
        largest = max(largest, abs(normal[d, d]))
    floor = PIVOT_FLOOR * largest
    for col in range(size):
        pivot = col
        for row in range(col + 1, size):
            if abs(normal[row, col]) > abs(normal[pivot, col]):
                pivot = row
        if abs(normal[pivot, col]) <= floor:
            return False
        for c in range(size):
            normal[col, c], normal[pivot, c] = normal[pivot, c], normal[col, c]
        for c in range(rhs.shape[1]):
            rhs[col, c], rhs[pivot, c] = rhs[pivot, c], rhs[col, c]
        for row in range(col + 1, size):
            factor = normal[row, col] / normal[col, col]
            for c in range(col, size):
                normal[row, c] -= factor * normal[col, c]
            for c in range(rhs.shape[1]):
                rhs[row, c] -= factor * rhs[col, c]
    for row in range(size - 1, -1, -1):
        for c in range(rhs.shape[1]):
            for m in range(row + 1, size):
                rhs[row, c] -= normal[row, m] * rhs[m, c]
            rhs[row, c] /= normal[row, row]
    return True


@serial_kernel
def fit_ring(coords, start, stop, n_terms, basis_scratch, normal_scratch, weights):
    """Write the gradient weights of the ``n_terms``-coefficient fit (5 quadratic, 2 linear) for
    the CSR entries start..stop into weights (nnz, 2); returns False if the fit is singular.
    basis_scratch (>= n_terms, >= stop - start) and normal_scratch (>= n_terms, >= n_terms) are
    work space."""
    k = stop - start
    total = 0.0
    for m in range(start, stop):
        total += coords[m, 0] ** 2 + coords[m, 1] ** 2
    scale = np.sqrt(total / k)
    basis = basis_scratch[:n_terms, :k]
    for m in range(k):
        u, v = coords[start + m, 0] / scale, coords[start + m, 1] / scale
        basis[0, m], basis[1, m] = u, v
        if n_terms == 5:
            basis[2, m], basis[3, m], basis[4, m] = 0.5 * u * u, u * v, 0.5 * v * v
    normal = normal_scratch[:n_terms, :n_terms]
    for row in range(n_terms):
        for col in range(row + 1):  # symmetric: the upper triangle is the lower one's mirror
            total = 0.0
            for m in range(k):
                total += basis[row, m] * basis[col, m]
            normal[row, col] = total
            normal[col, row] = total
    if not solve_normal_equations(normal, basis):
        return False
    for m in range(k):
        weights[start + m, 0] = basis[0, m] / scale
        weights[start + m, 1] = basis[1, m] / scale
    return True


@parallel_kernel
def ring_fit_weights(offsets, neighbor_coords, weights):
    """weights (nnz, 2), written: w_ij of the one-ring least-squares gradient (module docstring).

    offsets (n + 1,): CSR one-rings; neighbor_coords (nnz, 2): x_j in i's tangent coordinates.
    Blocks of ``RING_FIT_BLOCK`` vertices share one scratch space; every vertex's weights depend on its
    ring alone, so the result does not depend on the number of threads.
    """
    n = offsets.shape[0] - 1
    for block in numba.prange((n + RING_FIT_BLOCK - 1) // RING_FIT_BLOCK):
        first, last = block * RING_FIT_BLOCK, min(n, (block + 1) * RING_FIT_BLOCK)
        largest_ring = 0
        for i in range(first, last):
            largest_ring = max(largest_ring, offsets[i + 1] - offsets[i])
        basis = np.empty((5, largest_ring))
        normal = np.empty((5, 5))
        for i in range(first, last):
            start, stop = offsets[i], offsets[i + 1]
            for n_terms in (5, 2):  # the quadratic, or where it is not determined the linear fit
                if stop - start >= n_terms and fit_ring(neighbor_coords, start, stop, n_terms,
                                                        basis, normal, weights):
                    break
            else:
                weights[start:stop] = 0.0  # no linear fit either


def ring_fit_weights_numpy(offsets, neighbor_coords, weights):
    """:func:`ring_fit_weights` in numpy, the same numbers bit for bit (the same operations in
    the same order, vectorised over the vertices of one valence): a still surface's one fill at
    the set-up, for which the kernel's compile (1.2 s on a cold start, with :func:`fit_ring` and
    :func:`solve_normal_equations`) cost far more than this does (60 ms on 28k vertices).
    Arrays as in :func:`ring_fit_weights`."""
    valences = np.diff(offsets)
    with np.errstate(all="ignore"):  # a failed fit goes on with garbage, then is redone
        for k in np.unique(valences):
            vertices = np.flatnonzero(valences == k)
            entries = offsets[vertices][:, None] + np.arange(k)
            coords = neighbor_coords[entries]  # (m, k, 2)
            fitted = np.zeros(len(vertices), dtype=bool)
            for n_terms in (5, 2):
                left = ~fitted & (k >= n_terms)
                rows, done = fit_rings(coords[left], n_terms)
                weights[entries[left][done]] = rows[done]
                fitted[np.flatnonzero(left)[done]] = True
            weights[entries[~fitted]] = 0.0  # no linear fit either


def fit_rings(coords, n_terms):
    """:func:`fit_ring` for m rings of k neighbours each, coords (m, k, 2): the weights (m, k, 2)
    and whether each fit succeeded, (m,) bool."""
    k = coords.shape[1]
    total = np.zeros(len(coords))
    for m in range(k):
        total += coords[:, m, 0] ** 2 + coords[:, m, 1] ** 2
    scale = np.sqrt(total / k)
    u, v = coords[:, :, 0] / scale[:, None], coords[:, :, 1] / scale[:, None]
    basis = np.stack([u, v, 0.5 * u * u, u * v, 0.5 * v * v][:n_terms], axis=1)  # (m, p, k)
    normal = np.empty((len(coords), n_terms, n_terms))
    for row in range(n_terms):
        for col in range(row + 1):
            column_sum = np.zeros(len(coords))
            for m in range(k):
                column_sum += basis[:, row, m] * basis[:, col, m]
            normal[:, row, col] = column_sum
            normal[:, col, row] = column_sum
    solved = solve_all_normal_equations(normal, basis)
    return np.stack([basis[:, 0] / scale[:, None], basis[:, 1] / scale[:, None]], axis=2), solved


def solve_all_normal_equations(normal, rhs):
    """:func:`solve_normal_equations` for m systems at once, normal (m, p, p) and rhs (m, p, k),
    in place; returns which succeeded, (m,) bool."""
    size = normal.shape[1]
    every = np.arange(len(normal))
    largest = np.zeros(len(normal))
    for d in range(size):
        largest = np.maximum(largest, np.abs(normal[:, d, d]))
    floor = PIVOT_FLOOR * largest
    solved = np.ones(len(normal), dtype=bool)
    for col in range(size):
        pivot = col + np.argmax(np.abs(normal[:, col:, col]), axis=1)
        solved &= np.abs(normal[every, pivot, col]) > floor
        for array in (normal, rhs):
            pivot_rows = array[every, pivot].copy()
            array[every, pivot] = array[:, col]
            array[:, col] = pivot_rows
        for row in range(col + 1, size):
            factor = normal[:, row, col] / normal[:, col, col]
            normal[:, row, col:] -= factor[:, None] * normal[:, col, col:]
            rhs[:, row] -= factor[:, None] * rhs[:, col]
    for row in range(size - 1, -1, -1):
        for m in range(row + 1, size):
            rhs[:, row] -= normal[:, row, m][:, None] * rhs[:, m]
        rhs[:, row] /= normal[:, row, row][:, None]
    return solved
