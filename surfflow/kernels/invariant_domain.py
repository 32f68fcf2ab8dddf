"""The shallow-water speed bound a stage of the HLL stages keeps (its invariant domain).

For the homogeneous shallow-water equations the Riemann invariants w+ = u_n + 2 c and
w- = u_n - 2 c (c = sqrt(g_n d), u_n the velocity along a direction) are carried along the
characteristics, so in one dimension the exact solution of a Riemann problem keeps u + 2 c at or
below the data's largest and u - 2 c at or above their smallest: |u| + 2 c = max(u + 2 c,
2 c - u) stays at or below the data's largest |u| + 2 c (the liquid that runs ahead of a
rarefaction onto a dry bed, the fastest there is, moves at u + 2 c: Ritter's front). The set
{(d, q): |q| <= W d - 2 sqrt(g_n) d^(3/2)} is convex, also with q a 2D vector, so a first-order
Godunov or HLL update under its CFL condition, an average of such Riemann solutions, keeps it
(Guermond & Popov 2016, invariant domains). A second-order stage on a curved mesh does not,
where a cell drains: its new velocity (d u - dt sum q / A) / d' is a difference of fluxes over a
depth d' that can be a hundredth of d, so an error of the fluxes is multiplied by d / d'. The
bound below puts such a cell back in the domain, and adds what the step's accelerations a
(gravity's and the terms') give in dt:

    |u_i'| + 2 c_i' <= W_i + dt |a_i|,   W_i = max over j in {i} and i's ring of (|u_j| + 2 c_j)

    c_j = sqrt(max(g_n,j, 0) d_j),   c_i' = sqrt(max(g_n,i, 0) min(d_i', max over those j of d_j))

g_n the normal gravity the film feels (|g| (e . n) + a . n on a surface accelerated by a, as
the fluxes' wave speeds feel it; 0 under an overhang, where the film has no gravity wave).
Bounding |u_i'| alone by W_i + dt |a_i| would leave a cell 2 c_i' of slack above its ring, in
which the speed of a thin film can ratchet up stage by stage between neighbours
(tests/test_real_meshes.py: a film poured down a face ran faster than a fall from the top).
The new depth counts only up to the ring's deepest: a stage that raises a depth above its
whole ring compresses, and in 2D, where the velocity along an edge passes through its Riemann
problem unchanged, sheared streams pressed together can raise |u| + 2 c above the data's, which
the bound must not clip. A velocity past the bound is scaled down to it, keeping its direction
(to rest where the bound is zero); the depth, and so the volume, is untouched.
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
    depth (n,) and velocity (n, 2), normal_gravity (n,) g_n (m/s^2, the felt one) and the
    stage's gravity and terms' accelerations (n, 2) each; offsets, indices: the CSR rings."""
    for k in numba.prange(reached.shape[0]):
        i = reached[k]
        if depth_out[i] < min_depth:
            continue
        fastest = ring_speed(i, depth, velocity, normal_gravity)
        deepest = depth[i]
        for e in range(offsets[i], offsets[i + 1]):
            fastest = max(fastest, ring_speed(indices[e], depth, velocity, normal_gravity))
            deepest = max(deepest, depth[indices[e]])
        push = dt * (math.hypot(acceleration[i, 0], acceleration[i, 1])
                     + math.hypot(term_acceleration[i, 0], term_acceleration[i, 1]))
        own = twice_celerity(normal_gravity[i], min(depth_out[i], deepest))
        bound = max(fastest - own, 0.0) + push
        speed = math.hypot(velocity_out[i, 0], velocity_out[i, 1])
        if speed > bound:
            scale = bound / speed
            velocity_out[i, 0] *= scale
            velocity_out[i, 1] *= scale


@serial_kernel
def ring_speed(j, depth, velocity, normal_gravity):
    """|u_j| + 2 c_j: the fastest a state from j can run."""
    return (math.hypot(velocity[j, 0], velocity[j, 1])
            + twice_celerity(normal_gravity[j], depth[j]))


@serial_kernel
def twice_celerity(normal_gravity, depth):
    """2 c = 2 sqrt(max(g_n, 0) d) (m/s): twice the gravity wave's speed on a depth d (m) under
    the normal gravity g_n (m/s^2), 0 where the film feels none."""
    return 2.0 * math.sqrt(max(normal_gravity, 0.0) * depth)
