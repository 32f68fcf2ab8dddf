"""The shallow-water speed bound a stage of the conservative scheme keeps (its invariant domain).

For the homogeneous shallow-water equations the Riemann invariants w+ = u_n + 2 c and
w- = u_n - 2 c (c = sqrt(g_n d), u_n the velocity along a direction) are carried along the
characteristics, so no state reached from the states of a ring is faster than the fastest of
them plus twice its wave speed: the liquid that runs ahead of a rarefaction onto a dry bed, the
fastest there is, moves at u + 2 c (Ritter's front). A first-order Godunov or HLL update under
its CFL condition is an average of such Riemann solutions and keeps that bound (Guermond &
Popov 2016, invariant domains). A second-order stage on a curved mesh does not, where a cell
drains: its new velocity (d u - dt sum q / A) / d' is a difference of fluxes over a depth d'
that can be a hundredth of d, so an error of the fluxes is multiplied by d / d'. The bound
below puts such a cell back in the domain, and adds what the step's accelerations a (gravity's
and the terms') give in dt:

    |u_i'| <= max over j in {i} and i's ring of (|u_j| + 2 sqrt(max(g_n,j, 0) d_j)) + dt |a_i|

g_n,j = |g| (e . n_j) the gravity pressing the film onto the surface (0 under an overhang,
where the film has no gravity wave). A velocity past the bound is scaled down to it, keeping
its direction; the depth, and so the volume, is untouched.
"""

from __future__ import annotations

import math

import numba

from ._jit import parallel_kernel, serial_kernel


@parallel_kernel
def keep_speed_bound(reached, offsets, indices, depth, velocity, normal_gravity, acceleration,
                     term_acceleration, min_depth, dt, depth_out, velocity_out):
    """Scale velocity_out (n, 2) at the vertices ``reached`` (m,) int64 whose new depth
    depth_out (n,) is wet down to the bound of the module docstring, from the stage's starting
    depth (n,) and velocity (n, 2), normal_gravity (n,) g_n (m/s^2) and the stage's gravity and
    terms' accelerations (n, 2) each; offsets, indices: the CSR rings."""
    for k in numba.prange(reached.shape[0]):
        i = reached[k]
        if depth_out[i] < min_depth:
            continue
        fastest = ring_speed(i, depth, velocity, normal_gravity)
        for e in range(offsets[i], offsets[i + 1]):
            fastest = max(fastest, ring_speed(indices[e], depth, velocity, normal_gravity))
        push = dt * (math.hypot(acceleration[i, 0], acceleration[i, 1])
                     + math.hypot(term_acceleration[i, 0], term_acceleration[i, 1]))
        bound = fastest + push
        speed = math.hypot(velocity_out[i, 0], velocity_out[i, 1])
        if speed > bound:
            scale = bound / speed
            velocity_out[i, 0] *= scale
            velocity_out[i, 1] *= scale


@serial_kernel
def ring_speed(j, depth, velocity, normal_gravity):
    """|u_j| + 2 c_j, c_j = sqrt(max(g_n,j, 0) d_j): the fastest a state from j can run."""
    wave = math.sqrt(max(normal_gravity[j], 0.0) * depth[j])
    return math.hypot(velocity[j, 0], velocity[j, 1]) + 2.0 * wave
