"""A soluble layer that the flow dissolves, carries and deposits again (SPEC §3).

Per vertex: soluble layer m >= 0 (part of the bottom, b = b_geometry + m), dissolved material of
depth s >= 0 (volume per area, density rho_s = r rho) moving with its own velocity u_s. The
equations, with the liquid's depth d and velocity u:

    exchange     dm/dt = -q + x,   ds/dt + div_S(s u_s) = q - x
                 q = min(e_p (d + s) |u|, m / dt, (c_max d - s) / dt)     (dissolution)
                 x = (s - c_max d)^+ / dt                                 (precipitation)
    drag         d  du/dt   = -r s c_d |u - u_s| (u - u_s)
                 r s du_s/dt =  r s c_d |u - u_s| (u - u_s)
    friction     du_s/dt = -kappa K u_s              (K the liquid's bottom friction tensor)

Dissolved material starts at rest: it joins with zero momentum, u_s' = s u_s / (s + q dt), and the
drag then makes the liquid pay for its acceleration. The sum of A (m + s) over the surface
changes only by round-off and by what leaves through outflow boundaries.

The drag is integrated exactly: the relative velocity w = u - u_s obeys dw/dt = -k |w| w with
k = c_d (1 + r s / d), so w' = w / (1 + k |w| dt), while the mixture's momentum
d u + r s u_s stays as it was; the exchange therefore conserves momentum exactly and is stable
for any dt. Transport (the upwind fluxes of ``continuity`` carrying s reconstructed to second
order, ``tracers``), advection of u_s (``advection``),
the gravity-pressure acceleration and the friction (``friction`` with kappa times the
coefficients) reuse the liquid's kernels; the weight of s enters the hydrostatic pressure through
the height b + m + r s the caller passes as the bottom.
"""

import math

import numba

from ._jit import parallel_kernel


@parallel_kernel
def exchange_soluble_layer(depth, velocity, layer, dissolved, solute_velocity, bottom, rate,
                           solubility, min_depth, dt):
    """Dissolve and precipitate, in place: layer m, dissolved s, bottom b (n,) (which rises and
    falls with m), solute_velocity (n, 2).

    depth (n,), velocity (n, 2) of the liquid; rate e_p; solubility c_max. A dry vertex
    (d < d_min) holds no dissolved material: all of it precipitates.
    """
    for i in numba.prange(0, depth.shape[0]):
        d = depth[i] if depth[i] >= min_depth else 0.0
        s = dissolved[i]
        capacity = solubility * d - s
        speed = math.sqrt(velocity[i, 0] ** 2 + velocity[i, 1] ** 2)
        if capacity > 0.0 and layer[i] > 0.0 and speed > 0.0:
            taken = min(dt * rate * (d + s) * speed, min(layer[i], capacity))
            joined = s + taken
            solute_velocity[i, 0] *= s / joined
            solute_velocity[i, 1] *= s / joined
            layer[i] -= taken
            bottom[i] -= taken
            dissolved[i] = joined
        elif capacity < 0.0:
            layer[i] -= capacity
            bottom[i] -= capacity
            dissolved[i] = s + capacity
        if dissolved[i] <= 0.0:
            solute_velocity[i, 0] = 0.0
            solute_velocity[i, 1] = 0.0


@parallel_kernel
def exchange_drag(depth, velocity, dissolved, solute_velocity, density_ratio, drag, min_depth, dt):
    """Drag between liquid and dissolved material, momentum-conserving, in place.

    depth, dissolved (n,); velocity, solute_velocity (n, 2) in each vertex's frame;
    density_ratio r = rho_s / rho; drag c_d (1/m).
    """
    for i in numba.prange(0, depth.shape[0]):
        d = depth[i]
        solute_mass = density_ratio * dissolved[i]
        if d < min_depth or solute_mass <= 0.0:
            continue
        total = d + solute_mass
        w0 = velocity[i, 0] - solute_velocity[i, 0]
        w1 = velocity[i, 1] - solute_velocity[i, 1]
        mean0 = (d * velocity[i, 0] + solute_mass * solute_velocity[i, 0]) / total
        mean1 = (d * velocity[i, 1] + solute_mass * solute_velocity[i, 1]) / total
        relax = 1.0 + dt * drag * (total / d) * math.sqrt(w0 * w0 + w1 * w1)
        w0 /= relax
        w1 /= relax
        velocity[i, 0] = mean0 + solute_mass / total * w0
        velocity[i, 1] = mean1 + solute_mass / total * w1
        solute_velocity[i, 0] = mean0 - d / total * w0
        solute_velocity[i, 1] = mean1 - d / total * w1
