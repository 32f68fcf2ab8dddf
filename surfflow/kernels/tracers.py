"""Second-order transport of what rides on a mass flux: dyes and dissolved material (SPEC §10).

A tracer is a concentration c (n, k) carried by a carrier of volume V_i = A_i h_i and fluxes F_ij
(antisymmetric, the donor's outflow factor alpha applied, as in kernels/continuity.py). For the
dyes the carrier is the liquid (h = d, F the mass fluxes); for the dissolved depth s it is the
surface area swept by the solute velocity (h = 1, F = (u_s,i . N_ij - u_s,j . N_ji) / 2, c = s);
the conservative scheme's stages carry their dyes on their HLL mass fluxes the same way.
The tracer volume crossing the dual edge is alpha_donor F_ij c_f, with the donor's concentration
reconstructed at the edge midpoint (MUSCL):

    c_f = c_i + theta_i g_i . c_ij / 2

g_i the one-ring least-squares gradient (``ring_fit.py`` weights) limited by Barth and Jespersen
(``reconstruction.barth_jespersen``), so every c_f lies in [low_i, high_i], the range of c over
i and its one-ring, and theta_i in [0, 1] the largest factor for which what stays behind in i
lies in that range too:

    (V_i - O_i) c_i - theta_i E_i  in  (V_i - O_i) [low_i, high_i]
    O_i = dt alpha_i (sum_out F_ij + F_b,i),   E_i = dt alpha_i sum_out F_ij g_i . c_ij / 2

(sums over i's outgoing fluxes, F_b,i > 0 the boundary outflow, which leaves with c_i). Then

    c_i' V_i' = (V_i - O_i) c_i - theta_i E_i + dt sum_in alpha_j |F_ij| c_f,j

is a convex combination of values within the donors' ranges: no new extrema where the carrier
has no divergence (for the liquid always: V' = V - O + inflow), dyes stay in [0, 1] without
clipping, and the tracer volume is conserved to round-off (c_f is a function of the donor and
the edge, the same seen from both ends). With theta = 0 or g = 0 the transport is first-order
upwind. Next to a carrier below ``min_carrier`` (a dry vertex: no concentration to interpolate)
the gradient is zero, as in the depth's reconstruction. Two passes, each gathering only:
``limited_slopes`` then ``carry``.
"""

import numba

from ._jit import parallel_kernel, serial_kernel
from .reconstruction import barth_jespersen


@serial_kernel
def ring_gradient(start, stop, indices, fit_weights, values, i, k):
    """(g0, g1, low, high): the least-squares gradient of values[:, k] at i from its ring
    entries start..stop, and the range of values[:, k] over i and its ring."""
    g0, g1, low, high = 0.0, 0.0, values[i, k], values[i, k]
    for e in range(start, stop):
        value = values[indices[e], k]
        g0 += fit_weights[e, 0] * (value - values[i, k])
        g1 += fit_weights[e, 1] * (value - values[i, k])
        low, high = min(low, value), max(high, value)
    return g0, g1, low, high


@serial_kernel
def outflow_bound(room, excess, value, low, high):
    """theta in [0, 1] with room value - theta excess within room [low, high] (room >= 0 the
    carrier volume that stays behind, excess E of the module docstring)."""
    if excess > 0.0:
        limit = room * (value - low)
    elif excess < 0.0:
        limit = room * (high - value)
        excess = -excess
    else:
        return 1.0
    if limit >= excess:
        return 1.0
    return max(limit, 0.0) / excess


@serial_kernel
def face_value(i, e, coords, values, slopes, k):
    """c_f: tracer k of vertex i reconstructed at the midpoint of the edge coords[e] (i's ring)."""
    return values[i, k] + 0.5 * (slopes[i, k, 0] * coords[e, 0] + slopes[i, k, 1] * coords[e, 1])


@parallel_kernel
def limited_slopes(offsets, indices, neighbor_coords, fit_weights, dual_areas, carrier,
                   min_carrier, values, carrier_flux, carrier_boundary, outflow_factor, dt,
                   slopes):
    """Pass 1: slopes[i, k] = theta_i g_i (limited; module docstring), in i's frame.

    offsets (n + 1,), indices (nnz,); neighbor_coords, fit_weights (nnz, 2); dual_areas,
    carrier h (n,); values c (n, k); carrier_flux F (nnz,), carrier_boundary F_b (n,) and
    outflow_factor alpha (n,) of this step. Writes slopes (n, k, 2).
    """
    for i in numba.prange(carrier.shape[0]):
        start, stop = offsets[i], offsets[i + 1]
        active = carrier[i] >= min_carrier
        leaving = max(carrier_boundary[i], 0.0)  # an inflow (< 0) brings clear liquid
        for e in range(start, stop):
            active = active and carrier[indices[e]] >= min_carrier
            if carrier_flux[e] > 0.0:
                leaving += carrier_flux[e]
        scale = dt * outflow_factor[i]
        room = max(dual_areas[i] * carrier[i] - scale * leaving, 0.0)
        for k in range(values.shape[1]):
            slopes[i, k, 0] = 0.0
            slopes[i, k, 1] = 0.0
            if not active:
                continue
            g0, g1, low, high = ring_gradient(start, stop, indices, fit_weights, values, i, k)
            phi = barth_jespersen(start, stop, neighbor_coords, values[i, k], low, high, g0, g1)
            g0, g1 = phi * g0, phi * g1
            excess = 0.0
            for e in range(start, stop):
                if carrier_flux[e] > 0.0:
                    excess += carrier_flux[e] * 0.5 * (g0 * neighbor_coords[e, 0]
                                                       + g1 * neighbor_coords[e, 1])
            theta = outflow_bound(room, scale * excess, values[i, k], low, high)
            slopes[i, k, 0] = theta * g0
            slopes[i, k, 1] = theta * g1


@parallel_kernel
def carry(offsets, indices, reverse_edges, neighbor_coords, dual_areas, carrier, carrier_out,
          values, slopes, carrier_flux, carrier_boundary, outflow_factor, dt, upper, values_out,
          outflow_volume):
    """Pass 2: c' = (tracer volume after the fluxes) / (A h'), within [0, upper].

    reverse_edges (nnz,); carrier h and carrier_out h' (n,) (for the liquid its depths before and
    after the continuity; for s ones); values (n, k); slopes (n, k, 2) from ``limited_slopes``;
    fluxes as there. Writes values_out (n, k) and outflow_volume (n, k), the tracer volume (m^3)
    that left through the boundary.
    """
    for i in numba.prange(carrier.shape[0]):
        alpha_i = outflow_factor[i]
        leaving = dt * alpha_i * max(carrier_boundary[i], 0.0)
        volume = dual_areas[i] * carrier[i]
        volume_out = dual_areas[i] * carrier_out[i]
        for k in range(values.shape[1]):
            net = 0.0
            for e in range(offsets[i], offsets[i + 1]):
                flux = carrier_flux[e]
                if flux > 0.0:
                    net += alpha_i * flux * face_value(i, e, neighbor_coords, values, slopes, k)
                else:
                    j = indices[e]
                    net += (outflow_factor[j] * flux
                            * face_value(j, reverse_edges[e], neighbor_coords, values, slopes, k))
            outflow_volume[i, k] = leaving * values[i, k]
            tracer = volume * values[i, k] - dt * net - leaving * values[i, k]
            concentration = tracer / volume_out if volume_out > 0.0 else 0.0
            values_out[i, k] = min(upper, max(0.0, concentration))
