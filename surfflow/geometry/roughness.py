"""Friction anisotropy tensors (SPEC §2 item 5), dimensionless and in each vertex's tangent frame:

    T_v = (1 + eta1 r1) x1 x1^T + (1 + eta2 r2) x2 x2^T      (2, 2), symmetric positive definite;

the runtime multiplies T_v by gamma (linear friction) or 3 nu / d^2 (laminar).

Feature-based T (``feature_friction_tensors``). Around each smoothed vertex v the semi-flattened
model (SOM) is the height field of the bottom over v's tangent plane: the ring vertex j sits at
its tangent coordinates c_j (``neighbor_coords``, length preserving) and height b_j, v at the
origin and height b_v. Its vertex normals are n_j ~ (-m_j, 1), with m_j = g_j / sqrt(1 + |g_j|^2)
and g_j the gradient of b at j: that of the least-squares quadratic through j's own flattened
ring, g_j = sum_k w_jk (b_k - b_j) with the ring fit's weights (``kernels.ring_fit``: exact for
quadratic bottoms on any flat mesh; the linear fit where j has fewer than 5 neighbours), carried
into v's frame by M_vj. On each one-ring triangle t = (v, j_a, j_b) the
shape operator is the derivative of the linearly interpolated normals along the triangle's edges,

    J_t [c_a  c_b] = [m_a - m_v   m_b - m_v],      S_t = (J_t + J_t^T) / 2,

exact for the Hessian of a quadratic bottom at small slopes (the derivative of the linear
interpolant of an exact, linear gradient field). The area-weighted mean
C_v = sum_t a_t S_t^T S_t / sum_t a_t over the one-ring (a_t the flattened triangle's area, so the
sum covers v's control area) has eigenvalues k1^2 >= k2^2 along x1, x2; the dimensionless
roughness is r = k sqrt(A_v), the rms curvature times the control cell's length scale.

Artist-specified T: ``friction_from_scalar_field`` takes x1 along the tangent gradient of a
per-vertex scalar (say a texture's brightness), r1 = |grad f| sqrt(A_v) and r2 = 0;
``check_friction_tensors`` validates tensors the user gives directly.

Tangent gradients (``ring_gradients``) are the area-weighted mean of the gradients of the
linear interpolant over the flattened one-ring triangles: zero for constants and exact for
linear fields on any mesh.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ..errors import ParameterError
from ..kernels._jit import parallel_kernel, serial_kernel, serial_twin
from ..kernels.ring_fit import ring_fit_weights, ring_fit_weights_numpy

_SYMMETRY_TOLERANCE = 1e-9


@serial_kernel
def _ring_triangle(offsets, is_boundary, i, k):
    """CSR entries (a, b) of the k-th one-ring triangle (i, j_a, j_b) of vertex i."""
    start = offsets[i]
    b = start + k + 1
    if b == offsets[i + 1] and not is_boundary[i]:
        b = start
    return start + k, b


@serial_kernel
def _ring_triangle_count(offsets, is_boundary, i):
    """Number of one-ring triangles of vertex i (valence, or valence - 1 on the boundary)."""
    valence = offsets[i + 1] - offsets[i]
    return valence - 1 if is_boundary[i] else valence


@serial_kernel
def _ring_gradient(values, offsets, indices, coords, is_boundary, i):
    """sum_t det_t G_t / sum_t det_t over i's flattened one-ring triangles: (gx, gy)."""
    gx = 0.0
    gy = 0.0
    weight = 0.0
    for k in range(_ring_triangle_count(offsets, is_boundary, i)):
        a, b = _ring_triangle(offsets, is_boundary, i, k)
        ax, ay = coords[a, 0], coords[a, 1]
        bx, by = coords[b, 0], coords[b, 1]
        da = values[indices[a]] - values[i]
        db = values[indices[b]] - values[i]
        gx += by * da - ay * db
        gy += ax * db - bx * da
        weight += ax * by - ay * bx
    if weight == 0.0:
        return 0.0, 0.0
    return gx / weight, gy / weight


@parallel_kernel
def _ring_gradients_kernel(values, offsets, indices, coords, is_boundary, gradients):
    """gradients[i] = _ring_gradient(i) for every vertex."""
    for i in prange(0, values.shape[0]):
        gradients[i, 0], gradients[i, 1] = _ring_gradient(values, offsets, indices, coords, is_boundary, i)


@parallel_kernel
def _som_slopes_kernel(bottom, offsets, indices, weights, slopes):
    """slopes[i] = g_i / sqrt(1 + |g_i|^2), the tangential part of the SOM normal at i (up to
    sign), with g_i = sum_j w_ij (b_j - b_i) the gradient of the bottom's least-squares quadratic
    through i's one-ring (weights (nnz, 2) from ``kernels.ring_fit.ring_fit_weights``)."""
    for i in prange(0, bottom.shape[0]):
        gx = 0.0
        gy = 0.0
        for e in range(offsets[i], offsets[i + 1]):
            difference = bottom[indices[e]] - bottom[i]
            gx += weights[e, 0] * difference
            gy += weights[e, 1] * difference
        norm = np.sqrt(1.0 + gx * gx + gy * gy)
        slopes[i, 0] = gx / norm
        slopes[i, 1] = gy / norm


_som_slopes_kernel_serial = serial_twin(_som_slopes_kernel)


def ring_gradients(values, neighbor_offsets, neighbor_indices, neighbor_coords, is_boundary):
    """Tangent gradient of a per-vertex scalar, in each vertex's frame.

    values: (n,) float; neighbor_offsets (n + 1,), neighbor_indices (nnz,): CSR one-rings;
    neighbor_coords: (nnz, 2) x_j in i's tangent coordinates; is_boundary: (n,) bool.
    Returns (n, 2).
    """
    values = np.ascontiguousarray(values, dtype=np.float64)
    gradients = np.empty((values.shape[0], 2))
    _ring_gradients_kernel(values, neighbor_offsets, neighbor_indices, neighbor_coords,
                           is_boundary, gradients)
    return gradients


@serial_kernel
def _anisotropy(c00, c01, c11, length, eta1, eta2, out):
    """Write (1 + eta1 r1) x1 x1^T + (1 + eta2 r2) x2 x2^T from C = [[c00, c01], [c01, c11]]."""
    mean = 0.5 * (c00 + c11)
    radius = np.hypot(0.5 * (c00 - c11), c01)
    r1 = np.sqrt(max(mean + radius, 0.0)) * length
    r2 = np.sqrt(max(mean - radius, 0.0)) * length
    angle = 0.5 * np.arctan2(c01, 0.5 * (c00 - c11))
    cos, sin = np.cos(angle), np.sin(angle)
    along, across = 1.0 + eta1 * r1, 1.0 + eta2 * r2
    out[0, 0] = along * cos * cos + across * sin * sin
    out[1, 1] = along * sin * sin + across * cos * cos
    out[0, 1] = (along - across) * cos * sin
    out[1, 0] = out[0, 1]


@serial_kernel
def _slope_change(slopes, transforms, indices, v, e):
    """m_j - m_v for the CSR entry e = (v, j), with m_j carried into v's frame by M_vj."""
    m = slopes[indices[e]]
    dx = transforms[e, 0, 0] * m[0] + transforms[e, 0, 1] * m[1] - slopes[v, 0]
    dy = transforms[e, 1, 0] * m[0] + transforms[e, 1, 1] * m[1] - slopes[v, 1]
    return dx, dy


@parallel_kernel
def _feature_tensors_kernel(slopes, offsets, indices, coords, transforms, dual_areas, is_boundary,
                            eta1, eta2, tensors):
    """tensors[v] from the area-weighted mean of S_t^T S_t over v's one-ring (module docstring)."""
    for v in prange(0, slopes.shape[0]):
        c00 = 0.0
        c01 = 0.0
        c11 = 0.0
        total = 0.0
        for k in range(_ring_triangle_count(offsets, is_boundary, v)):
            a, b = _ring_triangle(offsets, is_boundary, v, k)
            ax, ay = coords[a, 0], coords[a, 1]
            bx, by = coords[b, 0], coords[b, 1]
            det = ax * by - ay * bx
            if det == 0.0:
                continue
            dax, day = _slope_change(slopes, transforms, indices, v, a)
            dbx, dby = _slope_change(slopes, transforms, indices, v, b)
            # J = [dm_a dm_b] [c_a c_b]^-1, S = (J + J^T) / 2, accumulate area * S^T S
            j00 = (dax * by - dbx * ay) / det
            j01 = (dbx * ax - dax * bx) / det
            j10 = (day * by - dby * ay) / det
            j11 = (dby * ax - day * bx) / det
            s01 = 0.5 * (j01 + j10)
            area = 0.5 * abs(det)
            c00 += area * (j00 * j00 + s01 * s01)
            c01 += area * (j00 + j11) * s01
            c11 += area * (s01 * s01 + j11 * j11)
            total += area
        if total > 0.0:
            c00, c01, c11 = c00 / total, c01 / total, c11 / total
        _anisotropy(c00, c01, c11, np.sqrt(dual_areas[v]), eta1, eta2, tensors[v])


_feature_tensors_kernel_serial = serial_twin(_feature_tensors_kernel)


def feature_friction_tensors(bottom, neighbor_offsets, neighbor_indices, neighbor_coords,
                             edge_transforms, dual_areas, is_boundary, gains, still=True):
    """Feature-based friction anisotropy from the bottom heights (module docstring).

    bottom: (n,) b; neighbor_offsets (n + 1,), neighbor_indices (nnz,): CSR one-rings, ordered;
    neighbor_coords: (nnz, 2) x_j in i's tangent coordinates; edge_transforms: (nnz, 2, 2) M_ij;
    dual_areas: (n,) A_i; is_boundary: (n,) bool; gains: (eta1, eta2).
    Returns (n, 2, 2) symmetric positive definite tensors; the identity where b is flat.
    ``still``: on the kernels' serial twins (``fill_feature_friction_tensors``).

    Example: ``T = feature_friction_tensors(b, g.neighbor_offsets, g.neighbor_indices,
    g.neighbor_coords, g.edge_transforms, g.dual_areas, g.is_boundary, (1.0, 1.0))``.
    """
    n = len(bottom)
    tensors = np.empty((n, 2, 2))
    fill_feature_friction_tensors(np.ascontiguousarray(bottom, dtype=np.float64), neighbor_offsets,
                                  neighbor_indices, np.ascontiguousarray(neighbor_coords, dtype=np.float64),
                                  np.ascontiguousarray(edge_transforms, dtype=np.float64),
                                  np.ascontiguousarray(dual_areas, dtype=np.float64), is_boundary,
                                  gains, (np.empty((len(neighbor_indices), 2)), np.empty((n, 2))),
                                  tensors, still)
    return tensors


def fill_feature_friction_tensors(bottom, neighbor_offsets, neighbor_indices, neighbor_coords,
                                  edge_transforms, dual_areas, is_boundary, gains, scratch, tensors,
                                  still=False):
    """``feature_friction_tensors`` into tensors (n, 2, 2), with scratch = (fit weights (nnz, 2),
    slopes (n, 2)) as work space; every array float64 and contiguous (a deforming surface refills
    them every step; ``still``: a one-off precompute, on the kernels' serial twins,
    ``kernels._jit.serial_twin``)."""
    weights, slopes = scratch
    fit_kernel, slopes_kernel, tensors_kernel = (
        (ring_fit_weights_numpy, _som_slopes_kernel_serial, _feature_tensors_kernel_serial) if still
        else (ring_fit_weights, _som_slopes_kernel, _feature_tensors_kernel))
    fit_kernel(*map(read_only, (neighbor_offsets, neighbor_coords)), weights)
    slopes_kernel(bottom, neighbor_offsets, neighbor_indices, weights, slopes)
    tensors_kernel(slopes, neighbor_offsets, neighbor_indices, neighbor_coords, edge_transforms,
                   dual_areas, is_boundary, float(gains[0]), float(gains[1]), tensors)


def read_only(array):
    """A read-only view of ``array``: the types of a geometry's arrays (``SurfaceGeometry``), with
    which the simulation's set-up calls the same ring fit, so that it compiles once."""
    view = array.view()
    view.setflags(write=False)
    return view


def friction_from_scalar_field(values, neighbor_offsets, neighbor_indices, neighbor_coords,
                               dual_areas, is_boundary, gains):
    """Artist-specified anisotropy from a per-vertex scalar f (say a texture's brightness).

    x1 is the direction of the tangent gradient g = grad f, r1 = |g| sqrt(A_i), r2 = 0, so
    T_i = I + eta1 sqrt(A_i) g g^T / |g| (the identity where g = 0). f should be
    dimensionless (r1 then is). Arrays as in ``feature_friction_tensors``; values: (n,).
    Returns (n, 2, 2).
    """
    values = np.asarray(values, dtype=np.float64)
    n = neighbor_offsets.shape[0] - 1
    if values.shape != (n,):
        raise ParameterError(
            f"the friction scalar field must hold one number per vertex, shape ({n},); got shape "
            f"{values.shape}"
        )
    if not np.all(np.isfinite(values)):
        v = int(np.flatnonzero(~np.isfinite(values))[0])
        raise ParameterError(
            f"the friction scalar field is not finite at vertex {v} ({values[v]}); give finite "
            "values, for example a texture's brightness in [0, 1]"
        )
    gradients = ring_gradients(values, neighbor_offsets, neighbor_indices, neighbor_coords, is_boundary)
    norms = np.sqrt(np.einsum("ij,ij->i", gradients, gradients))
    scale = float(gains[0]) * np.sqrt(dual_areas) / np.where(norms > 0.0, norms, 1.0)
    tensors = np.einsum("i,ij,ik->ijk", scale, gradients, gradients)
    tensors[:, 0, 0] += 1.0
    tensors[:, 1, 1] += 1.0
    return tensors


def check_friction_tensors(tensors, n_vertices):
    """Validate user-given tensors: (n, 2, 2), finite, symmetric, positive definite.

    Returns them as a float64 (n, 2, 2) array; raises ParameterError naming the first bad vertex.
    """
    T = np.array(tensors, dtype=np.float64)
    if T.shape != (n_vertices, 2, 2):
        raise ParameterError(
            f"friction tensors must have shape ({n_vertices}, 2, 2), one 2x2 tensor per vertex in "
            f"its tangent frame; got shape {T.shape}"
        )
    with np.errstate(invalid="ignore"):
        scale = np.abs(T).max(axis=(1, 2))
        problems = (
            (~np.all(np.isfinite(T), axis=(1, 2)), "is not finite"),
            (np.abs(T[:, 0, 1] - T[:, 1, 0]) > _SYMMETRY_TOLERANCE * scale, "is not symmetric"),
            ((T[:, 0, 0] <= 0.0) | (T[:, 0, 0] * T[:, 1, 1] - T[:, 0, 1] * T[:, 1, 0] <= 0.0),
             "is not positive definite"),
        )
    bad = np.stack([mask for mask, _ in problems])
    if bad.any():
        v = int(np.flatnonzero(bad.any(axis=0))[0])
        problem = problems[int(np.argmax(bad[:, v]))][1]
        raise ParameterError(
            f"friction tensor of vertex {v} {problem} ({T[v].tolist()}); give symmetric positive "
            "definite 2x2 tensors in each vertex's tangent frame, for example the identity"
        )
    return T
