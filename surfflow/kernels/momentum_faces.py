"""Second-order face velocities for the momentum the continuity carries (kernels/continuity.py).

The momentum A d u rides on the limited mass fluxes, each carrying its donor's velocity
reconstructed at the dual edge, as the dyes' concentrations are (kernels/tracers.py, whose
limiter this reuses with the cap of 1, Barth and Jespersen's own): for the CSR entry (i, j) with
F_ij > 0,

    u_f,ij = u_i + S_i (c_ij / 2 - dt u_i / 2),   S_i = theta_i phi_i G_i

G_i (2, 2) the one-ring least-squares gradient (``ring_fit.py`` weights) of the two velocity
components in i's frame, the neighbours' velocities carried there by M_ij (the
``edge_transforms``); c_ij the ``neighbor_coords``; the face moved back by half a step's travel
(MUSCL-Hancock, as the dyes'). Component by component, phi_i is the largest factor up to 1 for
which every face i sends through lies within the component's range over i and its one-ring, and
theta_i in [0, 1] the largest for which what stays behind in i lies in it too (the tracers'
``outflow_bound``, the staying volume A_i d_i - dt alpha_i (sum_out F_ij + F_b,i)). Next to a
dry vertex (no velocity to interpolate) and where the ring converges faster than it turns
(-tr G_i > |curl G_i|: a bore, ``converges``), S_i = 0: the donor's velocity, first-order
upwind (docs/validation.md has the figures). Where the flow is supercritical the slope is
scaled by 1 - clamp(Fr_i - 1, 0, 1), Fr_i^2 = |u_i|^2 / (K_i d_i) with the continuity's wave
stiffness K (``continuity.supercritical_ramp``, the ramp over which the mass flux turns
upwind): first order from Fr = 2 on, and wherever no wave is supported; and by 1 - phi_i, the
friction share by which the mass flux turns upwind (kernels/friction.py): first order where
friction slaves the velocity to the depth.

On a moving surface the velocity reconstructed is the one the continuity carries, the film's in
the world, w = u + V (``surface_part``): the ring fit, the range and the donor's value are w's,
and the face is w_f,ij = w_i + S_i (c_ij / 2 - dt u_i / 2), still moved back by the film's own
velocity relative to the mesh.

The velocity's ring fit is summed in ``continuity.edge_fluxes``' flux walk, which reads every
neighbour's velocity anyway (``fit_velocity_entry``), and the slope is limited right after the
donor's fluxes and outflow factor, which are all it needs (``donor_slopes``); ``update_depth``
adds S_j (c_ji / 2 - dt u_j / 2) to the velocity of a donor j whose slope is not zero.
"""

from ._jit import serial_kernel
from .tracers import fit_entry, limited_slope


@serial_kernel
def sent_entry(sums, g0, g1, offset0, offset1, flux):
    """sums = (0, 0, rise, fall, excess) of a velocity component of gradient (g0, g1) with one
    more ring entry of offset (offset0, offset1) = c_ij / 2 - back and flux F_ij: the extreme
    changes g . offset over the entries sent through (F_ij > 0), excess = sum F_ij g . offset
    over them (the tracers' ``limit_entry`` without its misfit share: the cap stays 1)."""
    if flux <= 0.0:
        return sums
    delta = g0 * offset0 + g1 * offset1
    return (0.0, 0.0, max(sums[2], delta), min(sums[3], delta), sums[4] + flux * delta)


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
    m, t, n = rings.edge_transforms[e], fluxes.frames, fluxes.normals
    tilt0 = t[i, 0, 0] * n[j, 0] + t[i, 0, 1] * n[j, 1] + t[i, 0, 2] * n[j, 2]
    tilt1 = t[i, 1, 0] * n[j, 0] + t[i, 1, 1] * n[j, 1] + t[i, 1, 2] * n[j, 2]
    return (m[0, 0] * v[j, 0] + m[0, 1] * v[j, 1] + v[j, 2] * tilt0,
            m[1, 0] * v[j, 0] + m[1, 1] * v[j, 1] + v[j, 2] * tilt1)


@serial_kernel
def own_surface_part(i, fluxes):
    """The surface's velocity at i in its own frame (2,), V_t,i; (0, 0) on a still surface."""
    v = fluxes.surface_velocity
    if v.shape[0] == 0:
        return 0.0, 0.0
    return v[i, 0], v[i, 1]


@serial_kernel
def fit_velocity_entry(fit0, fit1, w0, w1, e, i, j, rings, velocity, fluxes):
    """The ``tracers.fit_entry`` fits (g0, g1, low, high) of a donor's carried velocity
    components (w0, w1) with one more ring entry e = (i, j): w_j in i's frame, M_ij u_j plus the
    ``surface_part``; fit0 and fit1 start at (0, 0, w0, w0) and (0, 0, w1, w1). rings a
    ``records.Rings`` (edge_transforms, fit_weights read), velocity (n, 2), fluxes a
    ``records.ContinuityFluxes``."""
    m = rings.edge_transforms[e]
    weight0, weight1 = rings.fit_weights[e, 0], rings.fit_weights[e, 1]
    part0, part1 = surface_part(e, i, j, rings, fluxes)
    return (fit_entry(fit0, weight0, weight1,
                      m[0, 0] * velocity[j, 0] + m[0, 1] * velocity[j, 1] + part0, w0),
            fit_entry(fit1, weight0, weight1,
                      m[1, 0] * velocity[j, 0] + m[1, 1] * velocity[j, 1] + part1, w1))


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
def donor_slopes(i, rings, depth, velocity, fluxes, fit0, fit1, order, leaving, scale, shift):
    """The limited slope S_i = order theta_i phi_i G_i of donor i's face velocities
    u_f,ij = u_i + S_i (c_ij / 2 - shift u_i) (module docstring), and what
    they carry out of i beyond u_i, excess[i] = sum_out F_ij (u_f,ij - u_i) (2,), the outflow
    factor not applied; both 0 where the face velocity is the donor's (first order).

    rings a ``records.Rings`` (offsets, neighbor_coords, dual_areas read); depth (n,); velocity
    (n, 2); fluxes a ``records.ContinuityFluxes`` (edge_flux read: i's fluxes); fit0, fit1 the
    ring fits of its velocity's components (``fit_velocity_entry`` over the whole ring); order in
    [0, 1] the weight of the slope, 0 where i or a ring vertex is dry or i sends nothing, else
    1 - the supercritical ramp (0: the donor's velocity); leaving (m^3/s) the flux out of i,
    scale dt alpha_i, shift (s) dt / 2. Writes fluxes.slopes (n, 2, 2) (row: the velocity component, column: the
    direction in i's frame) and fluxes.excess (n, 2) at i.
    """
    start, stop = rings.offsets[i], rings.offsets[i + 1]
    neighbor_coords, dual_areas = rings.neighbor_coords, rings.dual_areas
    edge_flux, slopes, excess = fluxes.edge_flux, fluxes.slopes, fluxes.excess
    slopes[i, 0, 0] = slopes[i, 0, 1] = slopes[i, 1, 0] = slopes[i, 1, 1] = 0.0
    excess[i, 0] = excess[i, 1] = 0.0
    if order == 0.0:  # the donor's velocity
        return
    if converges(fit0, fit1):  # the donor's velocity
        return
    back0, back1 = shift * velocity[i, 0], shift * velocity[i, 1]
    sums0 = sums1 = (0.0, 0.0, 0.0, 0.0, 0.0)
    sent0 = sent1 = 0.0  # sum_out F_ij (c_ij / 2 - shift u_i)
    for e in range(start, stop):
        flux = edge_flux[e]
        offset0 = 0.5 * neighbor_coords[e, 0] - back0
        offset1 = 0.5 * neighbor_coords[e, 1] - back1
        sums0 = sent_entry(sums0, fit0[0], fit0[1], offset0, offset1, flux)
        sums1 = sent_entry(sums1, fit1[0], fit1[1], offset0, offset1, flux)
        if flux > 0.0:
            sent0 += flux * offset0
            sent1 += flux * offset1
    room = max(dual_areas[i] * depth[i] - scale * leaving, 0.0)
    part0, part1 = own_surface_part(i, fluxes)
    slope00, slope01 = limited_slope(fit0, sums0, velocity[i, 0] + part0, room, scale)
    slope10, slope11 = limited_slope(fit1, sums1, velocity[i, 1] + part1, room, scale)
    slope00, slope01, slope10, slope11 = (order * slope00, order * slope01, order * slope10,
                                          order * slope11)
    slopes[i, 0, 0], slopes[i, 0, 1], slopes[i, 1, 0], slopes[i, 1, 1] = (slope00, slope01,
                                                                          slope10, slope11)
    excess[i, 0] = slope00 * sent0 + slope01 * sent1
    excess[i, 1] = slope10 * sent0 + slope11 * sent1
