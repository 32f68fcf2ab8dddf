"""Second-order transport of what rides on a mass flux: dyes and dissolved material (SPEC §10).

A tracer is a concentration c (n, k) carried by a carrier of volume V_i = A_i h_i and fluxes F_ij
(antisymmetric, the donor's outflow factor alpha applied, as in kernels/continuity.py). For the
dyes the carrier is the liquid (h = d, F the mass fluxes); for the dissolved depth s it is the
surface area swept by the solute velocity (h = 1, F = (u_s,i . N_ij - u_s,j . N_ji) / 2, c = s);
the conservative scheme's stages carry their dyes on their HLL mass fluxes the same way.
The tracer volume crossing the dual edge is alpha_donor F_ij c_f, with the donor's concentration
reconstructed at the edge midpoint moved back by half a step's travel (MUSCL-Hancock):

    c_f = c_i + p_ij theta_i phi_i g_i . (c_ij / 2 - dt u_i / 2),
    p_ij = min(1, F_ij / (EXPANSION_RAMP F_max,i))

u_i the carrier's velocity (the shift makes a one-stage step second order in time; the
conservative scheme's Heun stages use no shift, dt u_i / 2 -> 0), g_i the one-ring
least-squares gradient (``ring_fit.py`` weights), p_ij the face's share (``face_share``,
F_max,i the largest of i's outgoing fluxes): a face whose flux is below ``EXPANSION_RAMP`` of
the largest fades to first order with its flux, so that a face across the flow, whose flux
round-off makes just positive or just negative, cannot switch the limiter below.

phi_i is a compressive Barth-Jespersen factor: the largest factor, up to a cap, for which every
face i sends through (F_ij > 0) stays in [low_i, high_i], the range of c over i and its one-ring
(only the faces i sends through count: the others are never read). The cap is 1 (Barth and
Jespersen's own) where the linear fit explains the ring, and rises to ``COMPRESSION`` where it
does not, at a jump or an extremum, measured by the ring's misfit share

    r_i = sum_j |c_j - c_i - g_i . c_ij| / sum_j |c_j - c_i|

(cap 1 for r_i <= ``SMOOTH_MISFIT``, ``COMPRESSION`` for r_i >= ``JUMP_MISFIT``, linear
between). On a smooth profile r_i falls with the cell size, so refinement turns the compression
off; an edge stays a few cells wide instead of spreading. A constant cap would square a
smooth bell into a plateau instead. The dyes' rows of docs/validation.md give the figures.

theta_i in [0, 1] is the largest factor for which what stays behind in i lies in that range too:

    (V_i - O_i) c_i - theta_i E_i  in  (V_i - O_i) [low_i, high_i]
    O_i = dt alpha_i (sum_out F_ij + F_b,i),   E_i = dt alpha_i sum_out F_ij (c_f,ij - c_i) / theta_i

(sums over i's outgoing fluxes, F_b,i > 0 the boundary outflow, which leaves with c_i). Then

    c_i' V_i' = (V_i - O_i) c_i - theta_i E_i + dt sum_in alpha_j |F_ij| c_f,j

is a convex combination of values within the donors' ranges: no new extrema where the carrier
has no divergence (for the liquid always: V' = V - O + inflow), dyes stay in [0, 1] without
clipping, and the tracer volume is conserved to round-off (c_f is a function of the donor and
the edge, the same seen from both ends). With theta = 0 or g = 0 the transport is first-order
upwind. Next to a carrier below ``min_carrier`` (a dry vertex: no concentration to interpolate)
the gradient is zero, as in the depth's reconstruction. Two passes, each gathering only, all
tracers in each: ``limited_faces`` (c_f of the CSR entries of a vertex that sends, two tracers
per walk of the ring) then ``carry`` (every entry's donor face, branch-free); a vertex that
sends nothing (dry ground) is skipped by the first, one that holds no carrier after the step by
the second. They cannot be one pass: the face a vertex receives needs its donor's whole ring
(its limited gradient), and only the donor computes that.
"""

import math

import numba

from ._jit import parallel_kernel, serial_kernel
from .reconstruction import offset_dot
from .tuning import EXPANSION_RAMP

COMPRESSION = 2.0  # the cap of phi at a jump
SMOOTH_MISFIT, JUMP_MISFIT = 0.15, 0.45  # misfit shares r where the cap starts to rise, reaches it


@serial_kernel
def fit_entry(fit, weight0, weight1, value, c):
    """fit = (g0, g1, low, high) of a tracer whose value at the vertex is c, with one more ring
    entry of fit weights (weight0, weight1) and value: the least-squares gradient's sums and
    the range over the vertex and its ring, entry by entry."""
    g0, g1, low, high = fit
    return (g0 + weight0 * (value - c), g1 + weight1 * (value - c), min(low, value),
            max(high, value))


@serial_kernel
def face_share(flux, largest):
    """p_ij = min(1, F_ij / (``EXPANSION_RAMP`` largest)) of a face sent through (F_ij > 0),
    largest the donor's largest outgoing flux; 0 for a face not sent through. A face whose flux
    round-off makes just positive has no say, so it cannot switch its donor's limiter."""
    if flux <= 0.0:
        return 0.0
    return min(1.0, flux / (EXPANSION_RAMP * largest))


@serial_kernel
def limit_entry(sums, g0, g1, diff, coord0, coord1, offset0, offset1, flux, share):
    """sums = (misfit, total, rise, fall, excess) of a tracer of gradient (g0, g1) with one more
    ring entry: diff = c_j - c_i, (coord0, coord1) = c_ij, (offset0, offset1) = c_ij / 2 - back,
    flux F_ij, share its ``face_share`` p_ij (0 for a face not sent through). misfit and total:
    the share r's sums; rise >= 0 >= fall: the extreme changes p_ij g . offset of the faces,
    excess: sum F_ij p_ij g . offset."""
    misfit, total, rise, fall, excess = sums
    delta = share * (g0 * offset0 + g1 * offset1)
    return (misfit + abs(diff - g0 * coord0 - g1 * coord1), total + abs(diff), max(rise, delta),
            min(fall, delta), excess + flux * delta)


@serial_kernel
def compression_cap(misfit, total):
    """The cap of phi: 1 where the linear fit explains the ring, up to ``COMPRESSION`` where
    its misfit share r = misfit / total (module docstring) is large."""
    share = misfit / total if total > 0.0 else 0.0
    rise = min(1.0, max(0.0, (share - SMOOTH_MISFIT) / (JUMP_MISFIT - SMOOTH_MISFIT)))
    return 1.0 + (COMPRESSION - 1.0) * rise


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
def limited_slope(fit, sums, c, room, scale):
    """theta phi g of a tracer from its ring's ``fit_entry`` fit and ``limit_entry`` sums (module
    docstring), zero where the ring is flat. phi's Barth-Jespersen bound
    min((high - c) / rise, (low - c) / fall) is the minimum over each sent entry's own bound,
    bit for bit: a correctly rounded quotient is monotone in its divisor."""
    g0, g1, low, high = fit
    misfit, total, rise, fall, excess = sums
    if low == high:
        return 0.0, 0.0
    bound = (high - c) / rise if rise > 0.0 else math.inf
    if fall < 0.0:
        bound = min(bound, (low - c) / fall)
    phi = max(min(compression_cap(misfit, total), bound), 0.0)
    theta = outflow_bound(room, scale * phi * excess, c, low, high)
    return theta * phi * g0, theta * phi * g1


@serial_kernel
def sender(i, start, stop, indices, carrier, min_carrier, carrier_flux, carrier_boundary):
    """(largest, leaving, active) of vertex i over its CSR entries start..stop: the largest
    F_ij > 0 (0 where i sends through none), the carrier flux out of it (sum of those and
    F_b,i > 0; an inflow brings clear liquid), whether i and its whole ring hold at least
    min_carrier."""
    leaving = max(carrier_boundary[i], 0.0)
    largest = 0.0
    active = carrier[i] >= min_carrier
    for e in range(start, stop):
        flux = carrier_flux[e]
        largest = max(largest, flux)
        leaving += flux if flux > 0.0 else 0.0
        active &= carrier[indices[e]] >= min_carrier
    return largest, leaving, active


@parallel_kernel
def limited_faces(moving, rings, carrier, min_carrier, values, velocity, shift, fluxes, dt,
                  faces):
    """Pass 1: faces[e, k] = c_f of every CSR entry e = (i, j) of a vertex i that sends through
    any (F_ij > 0): tracer k of i at the midpoint of the edge moved back by shift u_i,
    c_i + theta_i phi_i g_i . (c_ij / 2 - shift u_i) (module docstring). The entries of a vertex
    that sends nothing (dry ground) are left as they are: ``carry`` weighs each face by its
    entry's F_ij, which is 0 there.

    moving (int64 list): the vertices that may send (schemes/active.py: the others have no
    flux); rings a ``records.Rings`` (offsets, indices, neighbor_coords c_ij, fit_weights,
    dual_areas read); carrier h (n,); values c (n, k); velocity (n, 2) the carrier's, in each
    vertex's frame; shift (s): dt / 2 for a one-stage step, 0 inside a Runge-Kutta stage;
    fluxes a ``records.CarrierFluxes`` (F, F_b and alpha of this step). Writes faces (nnz, k).
    """
    offsets, indices, dual_areas = rings.offsets, rings.indices, rings.dual_areas
    neighbor_coords, fit_weights = rings.neighbor_coords, rings.fit_weights
    carrier_flux, carrier_boundary, outflow_factor = (fluxes.flux, fluxes.boundary,
                                                      fluxes.outflow_factor)
    for k in numba.prange(0, moving.shape[0]):
        i = moving[k]
        start, stop = offsets[i], offsets[i + 1]
        largest, leaving, active = sender(i, start, stop, indices, carrier, min_carrier,
                                          carrier_flux, carrier_boundary)
        if not largest > 0.0:
            continue
        scale = dt * outflow_factor[i]
        room = max(dual_areas[i] * carrier[i] - scale * leaving, 0.0)
        back0, back1 = shift * velocity[i, 0], shift * velocity[i, 1]
        for a in range(0, values.shape[1], 2):  # two tracers at a time: b = a + 1, if any
            paired = a + 1 < values.shape[1]
            b = a + 1 if paired else a
            c_a, c_b = values[i, a], values[i, b]
            g0_a = g1_a = g0_b = g1_b = 0.0  # no gradient next to a dry vertex
            if active:
                fit_a, fit_b = (0.0, 0.0, c_a, c_a), (0.0, 0.0, c_b, c_b)
                for e in range(start, stop):
                    j, weight0, weight1 = indices[e], fit_weights[e, 0], fit_weights[e, 1]
                    fit_a = fit_entry(fit_a, weight0, weight1, values[j, a], c_a)
                    if paired:
                        fit_b = fit_entry(fit_b, weight0, weight1, values[j, b], c_b)
                sums_a = sums_b = (0.0, 0.0, 0.0, 0.0, 0.0)
                for e in range(start, stop):
                    j, coord0, coord1 = indices[e], neighbor_coords[e, 0], neighbor_coords[e, 1]
                    offset0, offset1 = 0.5 * coord0 - back0, 0.5 * coord1 - back1
                    flux = carrier_flux[e]
                    share = face_share(flux, largest)
                    sums_a = limit_entry(sums_a, fit_a[0], fit_a[1], values[j, a] - c_a, coord0,
                                         coord1, offset0, offset1, flux, share)
                    if paired:
                        sums_b = limit_entry(sums_b, fit_b[0], fit_b[1], values[j, b] - c_b,
                                             coord0, coord1, offset0, offset1, flux, share)
                g0_a, g1_a = limited_slope(fit_a, sums_a, c_a, room, scale)
                g0_b, g1_b = limited_slope(fit_b, sums_b, c_b, room, scale)
            for e in range(start, stop):
                share = face_share(carrier_flux[e], largest)
                faces[e, a] = c_a + share * offset_dot(g0_a, g1_a, neighbor_coords, e, back0,
                                                       back1)
                if paired:
                    faces[e, b] = c_b + share * offset_dot(g0_b, g1_b, neighbor_coords, e,
                                                           back0, back1)


@serial_kernel
def settled(volume, value, net, leaving, dt, volume_out, upper):
    """c' = (A h c - dt net - leaving c) / (A h') within [0, upper]: what stays of a tracer at
    value c in carrier volume A h, net its tracer flux out of the vertex, leaving the carrier
    volume through the boundary, A h' = volume_out > 0 the carrier volume after the step."""
    tracer = volume * value - dt * net - leaving * value
    return min(upper, max(0.0, tracer / volume_out))


@parallel_kernel
def carry(moving, resting, rings, carrier, carrier_out, values, faces, fluxes, dt, upper,
          update):
    """Pass 2: c' = (tracer volume after the fluxes) / (A h'), within [0, upper].

    moving, resting (int64 lists, together every vertex once; schemes/active.py): the vertices
    computed, and those with no flux (F = 0, F_b = 0: what ``settled`` gives them with a zero
    net flux); rings a ``records.Rings`` (offsets, indices, reverse_edges, dual_areas read);
    carrier h and carrier_out h' (n,) (for the liquid its depths before and after the
    continuity; for s ones); values (n, k); faces (nnz, k) from ``limited_faces``; fluxes as
    there. Writes the ``records.TracerUpdate`` update: values (n, k) and outflow_volume (n, k),
    the tracer volume (m^3) that left through the boundary. A vertex with no carrier after the
    step holds no tracer. Each entry adds alpha_donor F_ij c_f of its donor's face (i's own
    entry if F_ij > 0, j's reverse entry if F_ij < 0; an entry with F_ij = 0 adds a zero), two
    tracers per walk of the ring.
    """
    offsets, indices, reverse_edges = rings.offsets, rings.indices, rings.reverse_edges
    dual_areas = rings.dual_areas
    carrier_flux, carrier_boundary, outflow_factor = (fluxes.flux, fluxes.boundary,
                                                      fluxes.outflow_factor)
    values_out, outflow_volume = update.values, update.outflow_volume
    for k in numba.prange(0, moving.shape[0]):
        i = moving[k]
        alpha_i = outflow_factor[i]
        leaving = dt * alpha_i * max(carrier_boundary[i], 0.0)
        volume = dual_areas[i] * carrier[i]
        volume_out = dual_areas[i] * carrier_out[i]
        for t in range(values.shape[1]):
            outflow_volume[i, t] = leaving * values[i, t]
            values_out[i, t] = 0.0
        if volume_out <= 0.0:
            continue
        for a in range(0, values.shape[1], 2):  # two tracers at a time: b = a + 1, if any
            b = min(a + 1, values.shape[1] - 1)
            net_a, net_b = 0.0, 0.0
            for e in range(offsets[i], offsets[i + 1]):
                flux = carrier_flux[e]
                sent = flux > 0.0
                face = e if sent else reverse_edges[e]
                alpha = alpha_i if sent else outflow_factor[indices[e]]
                net_a += alpha * flux * faces[face, a]
                net_b += alpha * flux * faces[face, b]
            values_out[i, a] = settled(volume, values[i, a], net_a, leaving, dt, volume_out, upper)
            values_out[i, b] = settled(volume, values[i, b], net_b, leaving, dt, volume_out, upper)
    for k in range(resting.shape[0]):  # a copy: one thread, no wake-up of the others
        i = resting[k]
        volume_out = dual_areas[i] * carrier_out[i]
        for a in range(values.shape[1]):
            outflow_volume[i, a] = 0.0 * values[i, a]
            values_out[i, a] = 0.0
        if volume_out <= 0.0:
            continue
        for a in range(values.shape[1]):
            values_out[i, a] = settled(dual_areas[i] * carrier[i], values[i, a], 0.0, 0.0, dt,
                                       volume_out, upper)
