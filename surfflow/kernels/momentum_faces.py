"""Second-order face velocities for the momentum the continuity carries (kernels/continuity.py).

The momentum A d u rides on the limited mass fluxes, each carrying its donor's velocity
reconstructed at the dual edge, as the dyes' concentrations are (kernels/tracers.py, whose
limiter this reuses with the cap of 1, Barth and Jespersen's own): for the CSR entry (i, j) with
F_ij > 0,

    u_f,ij = u_i + S_i (c_ij / 2 - dt u_i / 2),   S_i = theta_i phi_i G_i

G_i (2, 2) the gradient of the two velocity components in i's frame, the neighbours' velocities
carried there by M_ij (the ``edge_transforms``); c_ij the ``neighbor_coords``; the face moved
back by half a step's travel (MUSCL-Hancock, as the dyes').

Where the flow is subcritical G_i is the one-ring least-squares gradient (``ring_fit.py``
weights). Where it is supercritical no wave runs upstream, so the face a donor sends on should
not read what lies downstream of it: G_i turns, over the continuity's supercritical ramp
r_i = clamp(Fr_i - 1, 0, 1) (Fr_i^2 = |u_i|^2 / (K_i d_i), K the wave stiffness;
``continuity.supercritical_ramp``), into the upwind-weighted linear fit

    G_up = argmin sum_j w_ij |u_j - u_i - G c_ij|^2,   w_ij = (1 - cos(c_ij, u_i)) / 2

(1 for a neighbour straight behind i, 1/2 across the flow, 0 straight ahead; ``upstream_entry``,
``upstream_gradient``): G_i = (1 - r_i) G_ring + r_i G_up. A centred gradient there lets each
face feel the cells it feeds, and in steady supercritical flow down an irregular mesh that
feedback stands as a pattern of heads across and along the flow (docs/validation.md). Where the
weighted fit is singular (the ring's weight all on one line) the slope is scaled by 1 - r_i
instead: first order from Fr = 2 on.

Component by component, phi_i is the largest factor up to 1 for which every face i sends
through lies within the component's range over i and its one-ring (a face whose flux is below
``EXPANSION_RAMP`` of i's largest counting in proportion, ``sent_entry``), and theta_i in
[0, 1] the largest for which what stays behind in i lies in it too (the tracers'
``outflow_bound``, the staying volume A_i d_i - dt alpha_i (sum_out F_ij + F_b,i)). Next to a
dry vertex (no velocity to interpolate) and where the ring converges faster than it turns
(-tr G_i > |curl G_i|: a bore, ``converges``), S_i = 0: the donor's velocity, first-order upwind
(docs/validation.md has the figures). The slope is scaled by 1 - phi_i, the friction share by
which the mass flux turns upwind (kernels/friction.py): first order where friction slaves the
velocity to the depth.

On a moving surface the velocity reconstructed is the one the continuity carries, the film's in
the world, w = u + V (``surface_part``): the ring fit, the range and the donor's value are w's,
and the face is w_f,ij = w_i + S_i (c_ij / 2 - dt u_i / 2), still moved back by the film's own
velocity relative to the mesh.

The velocity's ring fits are summed in ``continuity.edge_fluxes``' flux walk, which reads every
neighbour's velocity anyway (``carried_neighbor``, ``fit_velocity_entry``), and the slope is
limited right after the donor's fluxes and outflow factor, which are all it needs
(``donor_slopes``, whose result the walk stores); ``update_depth`` adds
S_j (c_ji / 2 - dt u_j / 2) to the velocity of a donor j whose slope is not zero.
"""

import math

from ._jit import serial_kernel
from .tracers import face_share, fit_entry, limited_slope
from .tuning import PIVOT_FLOOR

NO_UPSTREAM = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)  # ``upstream_entry``'s sums before any entry


@serial_kernel
def sent_entry(sums, g0, g1, offset0, offset1, flux, share):
    """sums = (0, 0, rise, fall, excess) of a velocity component of gradient (g0, g1) with one
    more ring entry of offset (offset0, offset1) = c_ij / 2 - back and flux F_ij: the extreme
    changes p_ij g . offset over the entries sent through (F_ij > 0), excess = sum F_ij g . offset
    over them (the tracers' ``limit_entry`` without its misfit share: the cap stays 1). Each
    entry's change counts in the bound in proportion to its ``share`` p_ij (the tracers'
    ``face_share``: min(1, F_ij / (EXPANSION_RAMP F_max)), F_max the ring's largest outgoing
    flux), so that an entry whose flux round-off makes just positive cannot switch the bound.
    The face itself keeps its whole slope (the dyes' fades with p_ij): a velocity has no range it
    must stay in, and the face can overshoot its ring's range only by as much as the unlimited
    slope reaches, on a flux under ``EXPANSION_RAMP`` of the largest."""
    if flux <= 0.0:
        return sums
    delta = g0 * offset0 + g1 * offset1
    bounded = delta * share
    return (0.0, 0.0, max(sums[2], bounded), min(sums[3], bounded), sums[4] + flux * delta)


@serial_kernel
def surface_part(e, i, j, rings, fluxes):
    """The surface's velocity at j seen from i at the entry e = (i, j), in i's frame (2,): its
    tangent part carried by M_ij as the film's is, and its normal part V_n,j n_j projected,
    M_ij V_t,j + V_n,j P_i n_j; the part of j's carried velocity w_j = u_j + V_j that i reads
    besides M_ij u_j. (0, 0) on a still surface. rings a ``records.Rings`` (edge_transforms),
    fluxes a ``records.ContinuityFluxes`` (surface_velocity, frames, normals)."""
    v = fluxes.surface_velocity
    if v.shape[0] == 0:
        return 0.0, 0.0
    m, t, n = rings.edge_transforms, fluxes.frames, fluxes.normals
    tilt0 = t[i, 0, 0] * n[j, 0] + t[i, 0, 1] * n[j, 1] + t[i, 0, 2] * n[j, 2]
    tilt1 = t[i, 1, 0] * n[j, 0] + t[i, 1, 1] * n[j, 1] + t[i, 1, 2] * n[j, 2]
    return (m[e, 0, 0] * v[j, 0] + m[e, 0, 1] * v[j, 1] + v[j, 2] * tilt0,
            m[e, 1, 0] * v[j, 0] + m[e, 1, 1] * v[j, 1] + v[j, 2] * tilt1)


@serial_kernel
def own_surface_part(i, fluxes):
    """The surface's velocity at i in its own frame (2,), V_t,i; (0, 0) on a still surface."""
    v = fluxes.surface_velocity
    if v.shape[0] == 0:
        return 0.0, 0.0
    return v[i, 0], v[i, 1]


@serial_kernel
def upstream_entry(sums, c0, c1, u0, u1, diff0, diff1):
    """sums = (n00, n01, n11, r00, r01, r10, r11), the upwind-weighted fit's normal equations
    N = sum_j w c c^T and right-hand sides r_k = sum_j w c (u_j - u_i)_k (module docstring),
    with one more ring entry: offset c = (c0, c1), the donor's velocity (u0, u1) (the direction
    the weight w = (1 - cos(c, u)) / 2 looks back along; 1/2 where u = 0) and the neighbour's
    velocity less the donor's (diff0, diff1). Start from ``NO_UPSTREAM``."""
    size2 = (c0 * c0 + c1 * c1) * (u0 * u0 + u1 * u1)
    ahead = (c0 * u0 + c1 * u1) / math.sqrt(size2) if size2 > 0.0 else 0.0
    w = 0.5 * (1.0 - ahead)
    n00, n01, n11, r00, r01, r10, r11 = sums
    return (n00 + w * c0 * c0, n01 + w * c0 * c1, n11 + w * c1 * c1, r00 + w * c0 * diff0,
            r01 + w * c1 * diff0, r10 + w * c0 * diff1, r11 + w * c1 * diff1)


@serial_kernel
def upstream_gradient(sums):
    """(g00, g01, g10, g11, solved): the upwind-weighted fit's gradient G_up = N^-1 r of the
    ``upstream_entry`` sums (row: the velocity component), and False, with a zero gradient,
    where N is singular: det N / m at or below ``PIVOT_FLOOR`` m, m = max(n00, n11) (the second
    pivot against the largest diagonal entry, as ``ring_fit.solve_normal_equations`` judges)."""
    n00, n01, n11, r00, r01, r10, r11 = sums
    det = n00 * n11 - n01 * n01
    largest = max(n00, n11)
    if not det > PIVOT_FLOOR * largest * largest:
        return 0.0, 0.0, 0.0, 0.0, False
    return ((n11 * r00 - n01 * r01) / det, (n00 * r01 - n01 * r00) / det,
            (n11 * r10 - n01 * r11) / det, (n00 * r11 - n01 * r10) / det, True)


@serial_kernel
def supercritical_fits(fit0, fit1, sums, upwind, order):
    """(fit0, fit1, order): the ring fits (g0, g1, low, high) of the two velocity components
    with their gradients turned by the supercritical ramp r = ``upwind`` into the upwind-weighted
    fit's, G = (1 - r) G_ring + r G_up, the ranges kept; where that fit is singular the gradients
    are kept and the slope's weight ``order`` scaled by 1 - r instead (module docstring)."""
    if upwind == 0.0 or order == 0.0:
        return fit0, fit1, order
    g00, g01, g10, g11, solved = upstream_gradient(sums)
    if not solved:
        return fit0, fit1, order * (1.0 - upwind)
    keep = 1.0 - upwind
    return ((keep * fit0[0] + upwind * g00, keep * fit0[1] + upwind * g01, fit0[2], fit0[3]),
            (keep * fit1[0] + upwind * g10, keep * fit1[1] + upwind * g11, fit1[2], fit1[3]),
            order)


@serial_kernel
def carried_neighbor(e, i, j, rings, velocity, fluxes):
    """(w0, w1): j's carried velocity seen from i at the entry e = (i, j), in i's frame,
    M_ij u_j plus the ``surface_part``. rings a ``records.Rings`` (edge_transforms read),
    velocity (n, 2), fluxes a ``records.ContinuityFluxes``."""
    m = rings.edge_transforms
    part0, part1 = surface_part(e, i, j, rings, fluxes)
    return (m[e, 0, 0] * velocity[j, 0] + m[e, 0, 1] * velocity[j, 1] + part0,
            m[e, 1, 0] * velocity[j, 0] + m[e, 1, 1] * velocity[j, 1] + part1)


@serial_kernel
def fit_velocity_entry(fits, carried, neighbor, weights, offset, velocity, upwind):
    """fits = (fit0, fit1, sums) with one more ring entry (i, j): the ``tracers.fit_entry`` fits
    (g0, g1, low, high) of the two components of the donor's carried velocity ``carried``
    (start at (0, 0, w0, w0) and (0, 0, w1, w1)) with the neighbour's ``neighbor``
    (``carried_neighbor``) and the entry's fit weights ``weights``, and, where the supercritical
    ramp ``upwind`` is not 0, the ``upstream_entry`` sums of the entry's ``offset`` c_ij and the
    donor's ``velocity`` u_i (start at ``NO_UPSTREAM``). Every argument but fits a pair (2,):
    called for every ring entry, it takes no records (``_jit.py``)."""
    fit0, fit1, sums = fits
    w0, w1 = carried
    value0, value1 = neighbor
    if upwind > 0.0:
        sums = upstream_entry(sums, offset[0], offset[1], velocity[0], velocity[1], value0 - w0,
                              value1 - w1)
    return (fit_entry(fit0, weights[0], weights[1], value0, w0),
            fit_entry(fit1, weights[0], weights[1], value1, w1), sums)


@serial_kernel
def converges(fit0, fit1):
    """Whether the ring closes in on the donor faster than it turns: -tr G > |curl G|, with the
    velocity gradient G = ((g00, g01), (g10, g11)) of the ring fits fit0 = (g00, g01, ...) and
    fit1 = (g10, g11, ...) (row: the component), tr G = g00 + g11 the divergence and
    curl G = g10 - g01 twice the turn rate. A bore's ring converges (tr G < 0, no turn); a rigid
    turn u = Omega x r has tr G = 0 and curl G = 2 Omega, whose sign of tr G round-off decides:
    its faces stay second order, which reproduce its linear velocity exactly."""
    return fit0[0] + fit1[1] < -abs(fit1[0] - fit0[1])


@serial_kernel
def donor_slopes(fit0, fit1, order, start, stop, edge_flux, neighbor_coords, back, carried,
                 room, scale, largest):
    """(s00, s01, s10, s11, excess0, excess1): the limited slope S_i = order theta_i phi_i G_i
    of donor i's face velocities u_f,ij = u_i + S_i (c_ij / 2 - back) (module docstring; row:
    the velocity component, column: the direction in i's frame) and what they carry out of i
    beyond u_i, excess = sum_out F_ij (u_f,ij - u_i), the outflow factor not applied; all 0
    where the face velocity is the donor's (first order).

    fit0, fit1 the ring fits of i's carried velocity's components (``fit_velocity_entry`` over
    the whole ring); order in [0, 1] the weight of the slope, 0 where i or a ring vertex is dry
    or i sends nothing, else 1 - the friction share (``supercritical_fits``: times 1 - the
    supercritical ramp where the upwind-weighted fit is singular; 0: the donor's velocity);
    start, stop i's CSR entries; edge_flux (nnz,) F; neighbor_coords (nnz, 2) c; back (2,) the
    half step's travel dt u_i / 2; carried (2,) i's carried velocity w_i; room (m^3) what stays
    in i, max(A_i d_i - scale sum_out F_ij, 0); scale dt alpha_i; largest (m^3/s) the largest
    outgoing F_ij, the scale of ``sent_entry``'s ramp (summed in the flux walk).
    """
    if order == 0.0 or converges(fit0, fit1):  # the donor's velocity
        return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    back0, back1 = back
    sums0 = sums1 = (0.0, 0.0, 0.0, 0.0, 0.0)
    sent0 = sent1 = 0.0  # sum_out F_ij (c_ij / 2 - back)
    for e in range(start, stop):
        flux = edge_flux[e]
        offset0 = 0.5 * neighbor_coords[e, 0] - back0
        offset1 = 0.5 * neighbor_coords[e, 1] - back1
        share = face_share(flux, largest)
        sums0 = sent_entry(sums0, fit0[0], fit0[1], offset0, offset1, flux, share)
        sums1 = sent_entry(sums1, fit1[0], fit1[1], offset0, offset1, flux, share)
        if flux > 0.0:
            sent0 += flux * offset0
            sent1 += flux * offset1
    slope00, slope01 = limited_slope(fit0, sums0, carried[0], room, scale)
    slope10, slope11 = limited_slope(fit1, sums1, carried[1], room, scale)
    slope00, slope01, slope10, slope11 = (order * slope00, order * slope01, order * slope10,
                                          order * slope11)
    return (slope00, slope01, slope10, slope11, slope00 * sent0 + slope01 * sent1,
            slope10 * sent0 + slope11 * sent1)
