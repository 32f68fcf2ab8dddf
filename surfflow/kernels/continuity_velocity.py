"""The velocity the default scheme's continuity moves the depth with (SPEC §4; docs/model.md,
"The default scheme").

Stelling and Duinmeijer (2003) solve the momentum equation first and move the depth with the
new velocity u^{n+1}. The default's transport carries the momentum on the same fluxes that move
the depth, in one pass (kernels/continuity.py), so when the fluxes are made the step's velocity
is the pushed one, u* = u^n + dt a (gravity, pressure, the terms, friction), without the
advection's part of u^{n+1}. The continuity takes that part from the last step:

    w_i = u*_i + delta_i,   delta_i = (1 - phi_i) (u_i^n - u*_i^{n-1})

the last step's advective increment (the transport's u^n less the velocity it started from).
In steady flow u*_i^{n-1} = u*_i^n, so w = u^n: the depth moves with the state's own velocity.
With w = u* the vertices run slow by dt (u . grad) u where the flow accelerates (the bump's
approach, its head low with it).

delta_i is kept only where the transport alone made i's velocity, so that it predicts this
step's: i and every vertex of its ring wet before and after the step (at a front or a contact
line the walls and the contact line's holds set the velocity). In the bore patch it fades by
the share of the fluxes Heun's stages make, to (1 - r_i) delta_i at the ends of the patch's
entries (``BoreFluxes.fade_increment``; a bore's increment changes from step to step as the
bore moves), continuous in the state as the patch's weights are. It also fades with i's upwind
share phi_i = max(k_i, clamp((Fr_i - 1) / FROUDE_RAMP, 0, 1)),
Fr_i^2 = |u_i|^2 / (K_i d_i), the share with which the flux turns upwind (kernels/continuity.py):
where friction slaves the velocity (k the friction share) the step's velocity is the friction
balance's, and where the flow is supercritical a lagged increment in the upwind flux feeds back
on itself and leaves a two-step oscillation of the velocity.
"""

import numba

from ._jit import parallel_kernel, serial_kernel
from .continuity import supercritical_ramp


@serial_kernel
def ring_stays_wet(offsets, indices, depth, depth_next, min_depth, i):
    """Whether vertex i and every vertex of its ring are wet (d >= d_min) in both depth (n,) and
    depth_next (n,)."""
    if depth[i] < min_depth or depth_next[i] < min_depth:
        return False
    for e in range(offsets[i], offsets[i + 1]):
        j = indices[e]
        if depth[j] < min_depth or depth_next[j] < min_depth:
            return False
    return True


@parallel_kernel
def advective_increment(moving, resting, rings, depth, depth_next, velocity, velocity_next,
                        wave_stiffness, friction_share, min_depth, increment):
    """delta_i = (1 - phi_i) (u_i' - u_i) (m/s) where ``ring_stays_wet``, else 0, into increment
    (n, 2) (see the module docstring; faded in the bore patch after it).

    moving, resting (int64 lists, together every vertex once; schemes/active.py): the vertices
    computed and the others (0 written, on one thread); rings a ``records.Rings`` (offsets,
    indices read); depth, depth_next (n,) the step's depth and the transport's; velocity (n, 2)
    the one the transport started from, velocity_next (n, 2) the one it made; wave_stiffness K
    (n,) m/s^2 (``MomentumScheme.use_geometry``); friction_share (n,) k
    (kernels/friction.py)."""
    offsets, indices = rings.offsets, rings.indices
    for k in numba.prange(0, moving.shape[0]):
        i = moving[k]
        if not ring_stays_wet(offsets, indices, depth, depth_next, min_depth, i):
            increment[i, 0] = 0.0
            increment[i, 1] = 0.0
            continue
        u0, u1 = velocity_next[i, 0], velocity_next[i, 1]
        keep = 1.0 - max(friction_share[i],  # both shares lie in [0, 1]
                         supercritical_ramp(u0 * u0 + u1 * u1, wave_stiffness[i] * depth_next[i]))
        increment[i, 0] = keep * (u0 - velocity[i, 0])
        increment[i, 1] = keep * (u1 - velocity[i, 1])
    for k in range(resting.shape[0]):
        i = resting[k]
        increment[i, 0] = 0.0
        increment[i, 1] = 0.0
