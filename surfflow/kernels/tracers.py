"""Second-order transport of what rides on a mass flux: dyes and dissolved material (SPEC §10).

A tracer is a concentration c (n, k) carried by a carrier of volume V_i = A_i h_i and fluxes F_ij
(antisymmetric, the donor's outflow factor alpha applied, as in kernels/continuity.py). For the
dyes the carrier is the liquid (h = d, F the mass fluxes); for the dissolved depth s it is the
surface area swept by the solute velocity (h = 1, F = (u_s,i . N_ij - u_s,j . N_ji) / 2, c = s);
the conservative scheme's stages carry their dyes on their HLL mass fluxes the same way.
The tracer volume crossing the dual edge is alpha_donor F_ij c_f, with the donor's concentration
reconstructed at the edge midpoint moved back by half a step's travel (MUSCL-Hancock):

    c_f = c_i + theta_i g_i . (c_ij / 2 - dt u_i / 2)

u_i the carrier's velocity (the shift is second order in time for a one-stage step; the
conservative scheme's Heun stages use no shift, dt u_i / 2 -> 0; measured on a cosine bell on
a sphere: without it a one-stage step steepens the bell into a plateau whose l2 error grows with
refinement), g_i the one-ring least-squares gradient (``ring_fit.py`` weights) limited as Barth
and Jespersen's (kernels/reconstruction.py), so every c_f lies in [low_i, high_i], the range of
c over i and its one-ring, and theta_i in [0, 1] the largest factor for which what stays
behind in i lies in that range too:

    (V_i - O_i) c_i - theta_i E_i  in  (V_i - O_i) [low_i, high_i]
    O_i = dt alpha_i (sum_out F_ij + F_b,i),   E_i = dt alpha_i sum_out F_ij (c_f,ij - c_i) / theta_i

(sums over i's outgoing fluxes, F_b,i > 0 the boundary outflow, which leaves with c_i). Then

    c_i' V_i' = (V_i - O_i) c_i - theta_i E_i + dt sum_in alpha_j |F_ij| c_f,j

is a convex combination of values within the donors' ranges: no new extrema where the carrier
has no divergence (for the liquid always: V' = V - O + inflow), dyes stay in [0, 1] without
clipping, and the tracer volume is conserved to round-off (c_f is a function of the donor and
the edge, the same seen from both ends). With theta = 0 or g = 0 the transport is first-order
upwind. Next to a carrier below ``min_carrier`` (a dry vertex: no concentration to interpolate)
the gradient is zero, as in the depth's reconstruction. Two passes, each gathering only:
``limited_faces`` (c_f per CSR entry, read by both ends) then ``carry``.
"""

import numba

from ._jit import parallel_kernel, serial_kernel
from .reconstruction import bounded_factor, offset_dot


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


@parallel_kernel
def limited_faces(offsets, indices, neighbor_coords, fit_weights, dual_areas, carrier,
                  min_carrier, values, velocity, shift, carrier_flux, carrier_boundary,
                  outflow_factor, dt, faces):
    """Pass 1: faces[e, k] = c_f of the CSR entry e = (i, j): tracer k of i at the midpoint of
    the edge moved back by shift u_i, c_i + theta_i g_i . (c_ij / 2 - shift u_i) (limited;
    module docstring).

    offsets (n + 1,), indices (nnz,); neighbor_coords, fit_weights (nnz, 2); dual_areas,
    carrier h (n,); values c (n, k); velocity (n, 2) the carrier's, in each vertex's frame;
    shift (s): dt / 2 for a one-stage step, 0 inside a Runge-Kutta stage; carrier_flux F (nnz,),
    carrier_boundary F_b (n,) and outflow_factor alpha (n,) of this step. Writes faces (nnz, k).
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
        back0, back1 = shift * velocity[i, 0], shift * velocity[i, 1]
        for k in range(values.shape[1]):
            c = values[i, k]
            g0, g1, low, high = ring_gradient(start, stop, indices, fit_weights, values, i, k)
            if not active or low == high:
                g0, g1 = 0.0, 0.0
            else:
                phi = bounded_factor(start, stop, neighbor_coords, back0, back1, c, low, high,
                                     g0, g1)
                g0, g1 = phi * g0, phi * g1
                excess = 0.0
                for e in range(start, stop):
                    if carrier_flux[e] > 0.0:
                        excess += carrier_flux[e] * offset_dot(g0, g1, neighbor_coords, e, back0,
                                                               back1)
                theta = outflow_bound(room, scale * excess, c, low, high)
                g0, g1 = theta * g0, theta * g1
            for e in range(start, stop):
                faces[e, k] = c + offset_dot(g0, g1, neighbor_coords, e, back0, back1)


@parallel_kernel
def carry(offsets, indices, reverse_edges, dual_areas, carrier, carrier_out, values, faces,
          carrier_flux, carrier_boundary, outflow_factor, dt, upper, values_out, outflow_volume):
    """Pass 2: c' = (tracer volume after the fluxes) / (A h'), within [0, upper].

    reverse_edges (nnz,); carrier h and carrier_out h' (n,) (for the liquid its depths before and
    after the continuity; for s ones); values (n, k); faces (nnz, k) from ``limited_faces``;
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
                    net += alpha_i * flux * faces[e, k]
                else:
                    net += outflow_factor[indices[e]] * flux * faces[reverse_edges[e], k]
            outflow_volume[i, k] = leaving * values[i, k]
            tracer = volume * values[i, k] - dt * net - leaving * values[i, k]
            concentration = tracer / volume_out if volume_out > 0.0 else 0.0
            values_out[i, k] = min(upper, max(0.0, concentration))
