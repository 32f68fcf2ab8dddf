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
dry vertex (no velocity to interpolate) and where the ring converges (tr G_i < 0: a bore),
S_i = 0: the donor's velocity, first-order upwind (kernels/continuity.py has the figures). Where
the flow is supercritical the slope is scaled by 1 - clamp(Fr_i - 1, 0, 1), Fr_i^2 =
|u_i|^2 / (K_i d_i) with the continuity's wave stiffness K (``continuity.supercritical_ramp``,
the ramp over which the mass flux turns upwind): first order from Fr = 2 on, and wherever no
wave is supported. Measured on Ritter's dry dam break (tests/test_validation_ritter.py), whose
thin tip is supercritical: second-order faces there piled the tip into a blob that ran the
front (d > 1e-4 m) 0.23 m ahead of the exact one at 500 cells along (0.11 m behind with the
donor's velocity) and broke the front's convergence. With the ramp the front's test passes, and
SWASHES' bump, whose reach past the crest runs at Fr 1 to 2, keeps most of the gain: depth L1
0.0077 at 100 cells along, where a switch to first order at Fr = 1 left 0.0107 and second order
everywhere 0.0070 (both with the continuity's supercritical upwind share).
"""

import numba

from ._jit import parallel_kernel, serial_kernel
from .continuity import supercritical_ramp
from .tracers import fit_entry, limited_slope, sender


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


@parallel_kernel
def velocity_slopes(moving, offsets, indices, edge_transforms, neighbor_coords, fit_weights,
                    dual_areas, depth, min_depth, wave_stiffness, velocity, shift, edge_flux,
                    boundary_flux, outflow_factor, dt, slopes):
    """slopes[i] = S_i (2, 2) (row: the velocity component, column: the direction in i's frame)
    of every vertex i of ``moving`` that sends through an entry (F_ij > 0) (module docstring;
    0 next to a dry vertex, where the ring converges or where the flow is supercritical); the
    others' are left as they are (no face of theirs is read).

    moving (int64 list, schemes/active.py); offsets (n + 1,), indices (nnz,); edge_transforms
    (nnz, 2, 2); neighbor_coords, fit_weights (nnz, 2); dual_areas, depth (n,); wave_stiffness
    (n,) K (m/s^2, the wave speed's: c^2 = K d, kernels/continuity.py); velocity (n, 2);
    shift (s): dt / 2; edge_flux (nnz,), boundary_flux (n,) and outflow_factor (n,) from
    ``continuity.edge_fluxes``. Writes slopes (n, 2, 2).
    """
    for k in numba.prange(0, moving.shape[0]):
        i = moving[k]
        start, stop = offsets[i], offsets[i + 1]
        sending, leaving, active = sender(i, start, stop, indices, depth, min_depth, edge_flux,
                                          boundary_flux)
        if not sending:
            continue
        u0, u1 = velocity[i, 0], velocity[i, 1]
        weight = 1.0 - supercritical_ramp(u0 * u0 + u1 * u1, wave_stiffness[i] * depth[i])
        upwind = not active or weight == 0.0  # dry, or supercritical beyond Fr = 2
        fit0, fit1 = (0.0, 0.0, u0, u0), (0.0, 0.0, u1, u1)
        for e in range(start, start if upwind else stop):  # the fit only where it may be used
            j, m = indices[e], edge_transforms[e]
            weight0, weight1 = fit_weights[e, 0], fit_weights[e, 1]
            fit0 = fit_entry(fit0, weight0, weight1,
                             m[0, 0] * velocity[j, 0] + m[0, 1] * velocity[j, 1], u0)
            fit1 = fit_entry(fit1, weight0, weight1,
                             m[1, 0] * velocity[j, 0] + m[1, 1] * velocity[j, 1], u1)
        if upwind or fit0[0] + fit1[1] < 0.0:  # or a converging ring: the donor's velocity
            slopes[i, 0, 0] = slopes[i, 0, 1] = slopes[i, 1, 0] = slopes[i, 1, 1] = 0.0
            continue
        back0, back1 = shift * u0, shift * u1
        sums0 = sums1 = (0.0, 0.0, 0.0, 0.0, 0.0)
        for e in range(start, stop):
            offset0 = 0.5 * neighbor_coords[e, 0] - back0
            offset1 = 0.5 * neighbor_coords[e, 1] - back1
            sums0 = sent_entry(sums0, fit0[0], fit0[1], offset0, offset1, edge_flux[e])
            sums1 = sent_entry(sums1, fit1[0], fit1[1], offset0, offset1, edge_flux[e])
        scale = dt * outflow_factor[i]
        room = max(dual_areas[i] * depth[i] - scale * leaving, 0.0)
        slope00, slope01 = limited_slope(fit0, sums0, u0, room, scale)
        slope10, slope11 = limited_slope(fit1, sums1, u1, room, scale)
        slopes[i, 0, 0], slopes[i, 0, 1] = weight * slope00, weight * slope01
        slopes[i, 1, 0], slopes[i, 1, 1] = weight * slope10, weight * slope11
