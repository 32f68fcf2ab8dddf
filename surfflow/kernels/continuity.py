"""The mass equation dd/dt + div_S(d u) = 0 on the barycentric dual cells, with the momentum
A d u carried on the same fluxes (SPEC §4; docs/model.md, "The default scheme").

Flux (m^3/s) through the dual edge of the CSR entry (i, j), N_ij the ``dual_edge_vectors`` and
N_ji the reverse entry's, between two wet vertices (d >= d_min):

    F_ij = (1 - phi_ij) [0.5 (d_i a - d_j b) + (max(0, a + b) + lambda_ij) D_ij]
           + phi_ij d_up 0.5 (a - b)
    a = u_i . N_ij,  b = u_j . N_ji,  d_up = d_i if a > b else d_j
    D_ij = minmod(L_i - L_j, d_i - d_j),  L = H + p_s / (rho |g|)            (``compression_drop``)
    lambda_ij = s_ij sqrt(g_n d) |N| theta'_ij  where D_ij != 0, else 0     (``landshoff_speed``)
    phi_ij = max((k_i + k_j) / 2, clamp((Fr_ij - 1) / FROUDE_RAMP, 0, 1))  (``supercritical_share``)
    Fr_ij = |0.5 (a - b)| / (|N| c),  c^2 = K d                             (means of the two ends)

- the centred part 0.5 (d_i a - d_j b) is minus the adjoint of the pressure gradient's
  Green-Gauss part (kernels/pressure.py): pressure work and potential energy balance, so a
  lake at rest stays at rest to round-off;
- phi_ij blends in the upwind flux where friction slaves the velocity to the depth (k the
  ``friction_share`` min(1, dt k_f) of kernels/friction.py) and where the flow is supercritical
  (as every Riemann flux is there). K = g_n + (sigma / rho) (pi / s)^2 is the wave stiffness
  (``MomentumScheme.use_geometry``): the felt normal gravity plus the capillary celerity of the
  mesh's shortest wave, s the ring spacing;
- the compression flux max(0, a + b) D_ij acts only where the two ends close on each other
  (a bore): O(h^2) in smooth flow, zero at rest. D_ij runs down the head L (H the level of
  kernels/pressure.py, p_s the pressing terms' surface pressure; on a surface accelerating at a
  the head under g - a, ``MomentumScheme.head``) and is bounded by the depth drop;
- lambda_ij is Landshoff's linear term, the gravity wave's speed (g_n the felt normal gravity)
  times |N| (|N|^2 the mean of |N_ij|^2 and |N_ji|^2) times the shock sensor s_ij, the larger
  of the two ends' (kernels/shocks.py, summed in the gravity push): it damps the ripple the
  quadratic compression flux leaves behind a bore. It acts where the edge closes, turned on
  over theta'_ij = clamp((a + b) / (EXPANSION_RAMP v_ij), 0, 1) (``expansion_share`` of the
  reversed speeds, v_ij its speed scale): continuous in the state, so round-off cannot pick
  whether it acts.

Computed from j's side the same expression gives exactly -F_ij, so what leaves i enters j.
The velocity u these fluxes (and the momentum faces' slopes) read is the continuity velocity
w = u* + delta (kernels/continuity_velocity.py); the momentum they carry is the pushed u*.

Wet/dry edges: a dry vertex sends nothing, the wet side's own normal velocity carries its
depth, F = d_wet max(0, u_wet . N), unless the dry vertex is a wall (F = 0): without surface
tension a dry vertex standing above its wet neighbour's free surface (``shoreline_walls``),
with it the contact-line rule of kernels/tension.py.

Boundary: F_b,i = d_i max(0, u_i . Nb_i) (Nb zero for walls) plus an open segment's flux
(kernels/riemann.py ``boundary_flux``; its inflow, F_b,i < 0, is not limited). The outflow
limiter alpha_i (kernels/outflow.py) scales every flux by its donor's factor:

    d_i' = d_i - dt (sum_j alpha_donor F_ij + alpha_i F_b,i) / A_i   >= 0

The momentum rides on the same limited fluxes, each carrying its donor's face velocity u_f
(kernels/momentum_faces.py; Stelling & Duinmeijer 2003, Kramer & Stelling 2008): with
w_ij = -alpha_j F_ij > 0 the limited inflow from j and M_ij the ``edge_transforms``,

    u_i' = u_i + dt / (A_i d_i') (sum_in c_ij (M_ij u_f,ji - u_i)
                                  - sum_out c_ij (u_f,ij - u_i))

with c_ij the limited mass flux where the flow contracts (a + b >= 0; momentum conserved) and,
with ``Params.expansion = "energy_head"`` (the default), min(w_ij, d_i' s_ij) where it expands
(a + b < 0; energy head conserved; the two blended over a small opening, ``carried_weight``),
an inflow's raised where its cell would make energy (``update_depth``).
The faces are half a step on (the MUSCL-Hancock shift), so where the energy head drops weight
(c_ij < w_ij) the differences it leaves out are taken from i's own value at that time,
u_i - S_i dt u_i / 2 (``update_depth``). u_i' is a convex combination of velocities within the
rings' ranges whenever the limiter holds and i's faces are first order; a dry vertex (its
residue keeps its velocity) takes the momentum that flows in over its new depth.

On a moving surface the velocity carried is the film's in the world, u + V (V the surface's
velocity less its mean, ``records.ContinuityFluxes``): each M_ij u_f,ji above reads
M_ij (u_f,ji + V_t,j) + V_n,j P_i n_j and u_i reads u_i + V_t,i (V_t the tangent part in the
vertex's frame, V_n the normal one, P_i onto i's tangent plane), with the faces' slopes those
of the carried velocity (``momentum_faces.surface_part``): the carried term is
-(u . grad) (u + V), nothing for a translation and zero for a film at rest in the world,
whatever the limiter and the upwinding do. The rest of the frame's forces act in the push
(kernels/coriolis.py, kernels/inertia.py).

Two passes, each gathering only: ``edge_fluxes`` (F, F_b, alpha and each donor's face slope,
``momentum_faces.donor_slopes``) then ``update_depth``. The dyes ride on the same fluxes
(kernels/tracers.py). Measured effects of each part and what was tried: docs/validation.md.
"""

import math

import numba

from ._jit import parallel_kernel, serial_kernel
from .momentum_faces import (NO_UPSTREAM, carried_neighbor, donor_slopes, fit_velocity_entry,
                             own_surface_part, supercritical_fits, surface_part)
from .outflow import limit_outflow
from .pressure import free_surface_height
from .reconstruction import offset_dot
from .tuning import EXPANSION_RAMP, FROUDE_RAMP


@serial_kernel
def dry_stands_above(wet, dry, vertex_height, normal_rise, bottom, depth):
    """Whether the dry vertex stands above the wet one's free surface (a shoreline wall).

    The same test as the pressure's (kernels/pressure.py); called with the same (wet, dry) pair
    from both ends of an edge, so the flux stays antisymmetric.
    """
    return (free_surface_height(dry, vertex_height, normal_rise, bottom, depth)
            > free_surface_height(wet, vertex_height, normal_rise, bottom, depth))


@parallel_kernel
def shoreline_walls(offsets, indices, vertex_height, normal_rise, bottom, depth, min_depth, wall):
    """wall[e] = ``dry_stands_above(wet, dry)`` for every CSR entry e = (i, j) with exactly one
    wet end, False elsewhere: the walls of ``edge_fluxes`` without surface tension.

    offsets (n + 1,), indices (nnz,); vertex_height, normal_rise (n,) as in kernels/pressure.py;
    bottom, depth (n,); wall (nnz,) bool is written, the same for (i, j) and (j, i).
    """
    for i in numba.prange(0, depth.shape[0]):
        wet_i = depth[i] >= min_depth
        for e in range(offsets[i], offsets[i + 1]):
            j = indices[e]
            wet_j = depth[j] >= min_depth
            if wet_i and not wet_j:
                wall[e] = dry_stands_above(i, j, vertex_height, normal_rise, bottom, depth)
            elif wet_j and not wet_i:
                wall[e] = dry_stands_above(j, i, vertex_height, normal_rise, bottom, depth)
            else:
                wall[e] = False


@serial_kernel
def minmod(a, b):
    """The smaller in size of a and b where they agree in sign, else 0."""
    if a * b <= 0.0:
        return 0.0
    return min(a, b) if a > 0.0 else max(a, b)


@serial_kernel
def compression_drop(i, j, head, depth):
    """D_ij (m): the smaller of the depth drop and the head drop L_i - L_j from i to j where the
    two agree in sign, else 0 (see the module docstring); head (n,) L."""
    depth_drop = depth[i] - depth[j]
    if depth_drop == 0.0:
        return 0.0
    return minmod(head[i] - head[j], depth_drop)


@serial_kernel
def mean_size2(dual_edge_vectors, reverse_dual_edge_vectors, e):
    """|N|^2 of the CSR entry e = (i, j): the mean of |N_ij|^2 and |N_ji|^2 (nnz, 2 each)."""
    return 0.5 * ((dual_edge_vectors[e, 0] ** 2 + dual_edge_vectors[e, 1] ** 2)
                  + (reverse_dual_edge_vectors[e, 0] ** 2 + reverse_dual_edge_vectors[e, 1] ** 2))


@serial_kernel
def supercritical_share(i, j, size2, wave_stiffness, depth, normal_i, normal_j):
    """The upwind share the flow's Froude number asks of the dual edge (i, j) between two wet
    ends: clamp(Fr - 1, 0, 1), Fr = |0.5 (a - b)| / (|N| c), c^2 = K d with the wave stiffness K
    and d the two ends' means, size2 = |N|^2 the mean of |N_ij|^2 and |N_ji|^2 (see the module
    docstring). Symmetric in i and j bit for bit; exactly 0 where the flow is subcritical, so it
    costs no square root there."""
    speed = 0.5 * (normal_i - normal_j)
    support = 0.25 * (wave_stiffness[i] + wave_stiffness[j]) * (depth[i] + depth[j]) * size2
    return supercritical_ramp(speed * speed, support)


@serial_kernel
def supercritical_ramp(speed2, support):
    """clamp(Fr - 1, 0, 1) with Fr^2 = speed2 / support (a squared speed over the squared wave
    speed, c^2 = K d): 0 for subcritical flow (no square root taken), 1 where nothing supports a
    wave (support <= 0: advection alone)."""
    if speed2 <= support:
        return 0.0
    if support <= 0.0:
        return 1.0
    return min(1.0, (math.sqrt(speed2 / support) - 1.0) / FROUDE_RAMP)


@serial_kernel
def landshoff_speed(sensor, gravity_sum, depth_sum, size2):
    """C s c |N| (m^2/s), the Landshoff term's speed through a dual edge (see the module
    docstring): sensor s the larger of the two ends' (kernels/shocks.py), c^2 = g_n d the gravity
    wave's with the normal gravity g_n and the depth d the ends' means (gravity_sum, depth_sum
    their sums), size2 |N|^2 the mean of |N_ij|^2 and |N_ji|^2; 0 where nothing presses the
    liquid down."""
    support = 0.25 * gravity_sum * depth_sum * size2
    return sensor * math.sqrt(support) if support > 0.0 else 0.0


@serial_kernel
def face_flux(wet_i, wet_j, depth_i, depth_j, normal_i, normal_j, share, drop, landshoff):
    """F_ij (m^3/s) from the two ends' wetness, depths, normal velocities a = u_i . N_ij and
    b = u_j . N_ji, the upwind share phi_ij, the compression flux's drop D_ij (m) and the
    Landshoff term's speed (m^2/s) (see the module docstring). Swapping the ends
    gives exactly -F_ij.
    """
    if wet_i and wet_j:
        centred = 0.5 * (depth_i * normal_i - depth_j * normal_j)
        speed = 0.5 * (normal_i - normal_j)
        upwind = speed * (depth_i if speed > 0.0 else depth_j)
        compression = (max(0.0, normal_i + normal_j) + landshoff) * drop
        return (1.0 - share) * (centred + compression) + share * upwind
    if wet_i:
        return depth_i * normal_i if normal_i > 0.0 else 0.0
    if wet_j:
        return -depth_j * normal_j if normal_j > 0.0 else 0.0
    return 0.0


@parallel_kernel
def edge_fluxes(moving, resting, rings, inputs, depth, velocity, friction_share, min_depth, dt,
                fluxes):
    """Pass 1: unlimited fluxes F_ij (m^3/s), boundary outflow F_b,i and the limiter alpha_i,
    then each donor's momentum face slope (``momentum_faces.donor_slopes``).

    moving, resting (int64 lists, together every vertex once; schemes/active.py): the vertices
    computed, and those with no wet end on any entry (F = 0, F_b = 0, alpha = 1 written);
    rings a ``records.Rings`` (fit_weights: the faces' velocity fit); inputs a
    ``records.FluxInputs`` (wall: ``shoreline_walls`` or ``tension.apply_capillary_force``);
    depth (n,); velocity (n, 2); friction_share (n,) from kernels/friction.py.
    Writes the ``records.ContinuityFluxes`` fluxes: edge_flux (nnz,), boundary_flux (n,) F_b,i
    (the outflow plus open_flux), outflow_factor (n,), and at the moving vertices slopes and
    excess (zero where the faces are the donor's velocity: next to a dry vertex, where i sends
    nothing, or with zero fit weights; a resting vertex sends nothing, so its are never read).
    """
    offsets, indices, dual_areas = rings.offsets, rings.indices, rings.dual_areas
    fit_weights, neighbor_coords = rings.fit_weights, rings.neighbor_coords
    dual_edge_vectors, reverse_dual_edge_vectors = (rings.dual_edge_vectors,
                                                    rings.reverse_dual_edge_vectors)
    wall, head, wave_stiffness = inputs.wall, inputs.head, inputs.wave_stiffness
    normal_gravity, sensor = inputs.normal_gravity, inputs.sensor
    boundary_outflow_normals, open_flux = inputs.outflow_normals, inputs.open_flux
    edge_flux, boundary_flux, outflow_factor = (fluxes.edge_flux, fluxes.boundary_flux,
                                                fluxes.outflow_factor)
    slopes, excess = fluxes.slopes, fluxes.excess
    for k in numba.prange(0, moving.shape[0]):
        i = moving[k]
        wet_i = depth[i] >= min_depth
        sensor_i = sensor[i]
        u0, u1 = velocity[i, 0], velocity[i, 1]
        # the weight of the momentum faces' slope: none on a dry i, nor where friction slaves
        # the velocity; where the flow is supercritical the slope looks upstream (upwind)
        order = 0.0
        upwind = 0.0
        if wet_i and friction_share[i] < 1.0:
            order = 1.0 - friction_share[i]
            upwind = supercritical_ramp(u0 * u0 + u1 * u1, wave_stiffness[i] * depth[i])
        part0, part1 = own_surface_part(i, fluxes)
        w0, w1 = u0 + part0, u1 + part1
        # its carried velocity's ring fits, and the upwind-weighted fit's sums
        fits = ((0.0, 0.0, w0, w0), (0.0, 0.0, w1, w1), NO_UPSTREAM)
        outgoing = 0.0
        largest = 0.0  # i's largest outgoing edge flux: the scale of donor_slopes' ramp
        ring_wet = wet_i
        for e in range(offsets[i], offsets[i + 1]):
            j = indices[e]
            wet_j = depth[j] >= min_depth
            ring_wet &= wet_j
            if wall[e] or not (wet_i or wet_j):  # nothing crosses; a dry pair costs no reads
                edge_flux[e] = 0.0
                continue
            normal_i = u0 * dual_edge_vectors[e, 0] + u1 * dual_edge_vectors[e, 1]
            normal_j = (velocity[j, 0] * reverse_dual_edge_vectors[e, 0]
                        + velocity[j, 1] * reverse_dual_edge_vectors[e, 1])
            if order > 0.0:
                fits = fit_velocity_entry(fits, (w0, w1),
                                          carried_neighbor(e, i, j, rings, velocity, fluxes),
                                          (fit_weights[e, 0], fit_weights[e, 1]),
                                          (neighbor_coords[e, 0], neighbor_coords[e, 1]),
                                          (u0, u1), upwind)
            share = 0.5 * (friction_share[i] + friction_share[j])
            drop = 0.0
            landshoff = 0.0
            if wet_i and wet_j:
                size2 = mean_size2(dual_edge_vectors, reverse_dual_edge_vectors, e)
                # supercritical flow: upwind, as every Riemann flux is there
                share = max(share, supercritical_share(i, j, size2, wave_stiffness, depth,
                                                       normal_i, normal_j))
                if normal_i + normal_j > 0.0:  # closing: the compression flux
                    drop = compression_drop(i, j, head, depth)
                    sensor_ij = max(sensor_i, sensor[j]) if drop != 0.0 else 0.0
                    if sensor_ij > 0.0:  # its onset ramped as the edge starts to close
                        landshoff = landshoff_speed(sensor_ij,
                                                    normal_gravity[i] + normal_gravity[j],
                                                    depth[i] + depth[j], size2) * expansion_share(
                            -normal_i, -normal_j, size2, wave_stiffness, depth, velocity, i, j)
            flux = face_flux(wet_i, wet_j, depth[i], depth[j], normal_i, normal_j, share, drop,
                             landshoff)
            edge_flux[e] = flux
            if flux > 0.0:
                outgoing += flux
                largest = max(largest, flux)
        leaving = 0.0
        if wet_i:
            normal_b = (velocity[i, 0] * boundary_outflow_normals[i, 0]
                        + velocity[i, 1] * boundary_outflow_normals[i, 1])
            leaving = depth[i] * max(0.0, normal_b)
        flux_b = leaving + open_flux[i]
        boundary_flux[i] = flux_b
        outgoing += max(0.0, flux_b)
        alpha = limit_outflow(dual_areas[i] * depth[i], dt, outgoing)
        outflow_factor[i] = alpha
        if not (ring_wet and outgoing > 0.0):  # the faces: the donor's velocity
            order = 0.0
        fit0, fit1, order = supercritical_fits(fits[0], fits[1], fits[2], upwind, order)
        room = max(dual_areas[i] * depth[i] - dt * alpha * outgoing, 0.0)
        (slopes[i, 0, 0], slopes[i, 0, 1], slopes[i, 1, 0], slopes[i, 1, 1], excess[i, 0],
         excess[i, 1]) = donor_slopes(fit0, fit1, order, offsets[i], offsets[i + 1], edge_flux,
                                      neighbor_coords, (0.5 * dt * u0, 0.5 * dt * u1), (w0, w1),
                                      room, dt * alpha, largest)
    for k in range(resting.shape[0]):  # a copy: one thread, no wake-up of the others
        i = resting[k]
        for e in range(offsets[i], offsets[i + 1]):
            edge_flux[e] = 0.0
        boundary_flux[i] = 0.0
        outflow_factor[i] = 1.0


@serial_kernel
def donor_face(j, e, reverse_edges, velocity, slopes, neighbor_coords, shift):
    """u_j + S_j (c_ji / 2 - shift u_j) (j's frame) of the donor j sending through the entry
    e = (i, j), at its own entry (j, i): its face velocity u_f, or on a moving surface the face's
    carried velocity w_f less the surface's velocity at j (``momentum_faces.donor_slopes``)."""
    s00, s01, s10, s11 = slopes[j, 0, 0], slopes[j, 0, 1], slopes[j, 1, 0], slopes[j, 1, 1]
    if s00 == 0.0 and s01 == 0.0 and s10 == 0.0 and s11 == 0.0:  # first order
        return velocity[j, 0], velocity[j, 1]
    back0, back1 = shift * velocity[j, 0], shift * velocity[j, 1]
    entry = reverse_edges[e]
    return (velocity[j, 0] + offset_dot(s00, s01, neighbor_coords, entry, back0, back1),
            velocity[j, 1] + offset_dot(s10, s11, neighbor_coords, entry, back0, back1))


@serial_kernel
def expansion_share(a, b, size2, wave_stiffness, depth, velocity, i, j):
    """theta_ij in [0, 1], how far the dual edge (i, j) counts as expanding:

        theta_ij = clamp(-(a + b) / (EXPANSION_RAMP v_ij), 0, 1),
        v_ij^2 = |N|^2 (c^2 + (|u_i|^2 + |u_j|^2) / 2)

    a = u_i . N_ij, b = u_j . N_ji, c^2 = K d and |N|^2 = size2 as in ``supercritical_share``
    (means of the two ends; c = 0 where nothing supports a wave, K <= 0), v_ij the edge's speed
    scale, waves' and flow's together. 0 where the normal velocities close on each other
    (a + b >= 0), 1 once they part by a small share of that scale: continuous in the state, so
    round-off cannot pick the branch, even where the flow runs along the edge (a, b round-off).
    velocity (n, 2) the step's starting velocity."""
    opening = -(a + b)
    if opening <= 0.0:
        return 0.0
    wave2 = max(0.25 * (wave_stiffness[i] + wave_stiffness[j]) * (depth[i] + depth[j]), 0.0)
    flow2 = 0.5 * (velocity[i, 0] ** 2 + velocity[i, 1] ** 2
                   + velocity[j, 0] ** 2 + velocity[j, 1] ** 2)
    ramp = EXPANSION_RAMP * math.sqrt(size2 * (wave2 + flow2))
    return 1.0 if opening >= ramp else opening / ramp


@serial_kernel
def normal_speeds(e, i, j, rings, velocity):
    """(a, b) = (u_i . N_ij, u_j . N_ji) (m^2/s) of the CSR entry e = (i, j): each end's normal
    velocity through the dual edge towards the other; rings a ``records.Rings``, velocity
    (n, 2)."""
    forward, backward = rings.dual_edge_vectors, rings.reverse_dual_edge_vectors
    return (velocity[i, 0] * forward[e, 0] + velocity[i, 1] * forward[e, 1],
            velocity[j, 0] * backward[e, 0] + velocity[j, 1] * backward[e, 1])


@serial_kernel
def carried_weight(e, i, j, velocity, rings, weight, new_depth, outward, wave_stiffness, depth):
    """The weight (m^3/s) with which the dual edge of the entry e = (i, j) carries a velocity
    difference into the wet vertex i (``update_depth``):

        c_ij = (1 - theta_ij) w + theta_ij min(w, d_i' s_ij)

    w the limited mass flux ``weight`` (momentum conserved, where the flow decelerates along the
    edge), min(w, d_i' s_ij) the energy head's weight (where it accelerates), theta_ij the
    ``expansion_share`` of a = u_i . N_ij and b = u_j . N_ji, s_ij the mean normal speed through
    the dual edge in the flux's direction, (a - b) / 2 out of i if ``outward`` else (b - a) / 2
    (m^2/s, 0 if the velocities run against the flux), d_i' i's new depth. velocity (n, 2) the
    step's starting velocity; rings a ``records.Rings``; wave_stiffness K, depth d (n,) the
    step's."""
    a, b = normal_speeds(e, i, j, rings, velocity)
    theta = expansion_share(a, b, mean_size2(rings.dual_edge_vectors,
                                             rings.reverse_dual_edge_vectors, e),
                            wave_stiffness, depth, velocity, i, j)
    if theta == 0.0:
        return weight
    speed = 0.5 * (a - b) if outward else 0.5 * (b - a)
    return (1.0 - theta) * weight + theta * min(weight, new_depth * max(speed, 0.0))


@serial_kernel
def centred_inflow(e, i, j, rings, depth, velocity, outflow_factor_j):
    """w_c (m^3/s): the centred part of the mass flux from j into i through the dual edge of the
    entry e = (i, j), 0.5 (d_j b - d_i a) alpha_j, a = u_i . N_ij, b = u_j . N_ji, the part the
    pressure gradient's work balances (module docstring); rings a ``records.Rings``, depth (n,)
    and velocity (n, 2) the fluxes'."""
    a, b = normal_speeds(e, i, j, rings, velocity)
    return 0.5 * (depth[j] * b - depth[i] * a) * outflow_factor_j


@serial_kernel
def inflow_energy(weight, head_weight, u0, u1, v0, v1, released):
    """(E, slope): the energy (m^5/s^3, per unit density) the inflow w = ``weight`` (m^3/s) into
    i makes carried with the energy head's weight h = ``head_weight``, and how fast raising that
    weight removes it (``update_depth``):

        E(c) = w (|u|^2 - |v|^2) / 2 - c u . (u - v) + R,   slope = -dE/dc = u . (u - v)

    the mass w leaves j at the face velocity v = (v0, v1) and takes i's velocity u = (u0, u1),
    whose liquid moves by c (v - u) dt / (A_i d_i'), and R = ``released`` = (w - w_c)
    (Phi_i - Phi_j), the potential energy the mass flux beyond its centred part w_c
    (``centred_inflow``; the pressure's work balances w_c's) moves between the potentials
    Phi = |g| L of the two ends. At c = w, the momentum's weight, the first two terms are the
    mixing loss -w |u - v|^2 / 2."""
    slope = u0 * (u0 - v0) + u1 * (u1 - v1)
    return (0.5 * weight * (u0 * u0 + u1 * u1 - v0 * v0 - v1 * v1) - head_weight * slope
            + released), slope


@serial_kernel
def outflow_energy(flux, weight, u0, u1, f0, f1):
    """The energy (m^5/s^3) the outflow F = ``flux`` (m^3/s, limited) out of i makes when it
    leaves at i's face velocity u + f and its momentum is carried with the weight c =
    ``weight`` (``update_depth``): the kinetic energy it takes, F |u + f|^2 / 2, less what i
    loses, F |u|^2 / 2 - c u . f,

        O = (F - c) u . f + F |f|^2 / 2

    u = (u0, u1) i's velocity and f = (f0, f1) its face's offset from it (zero where i's faces
    are first order)."""
    return (flux - weight) * (u0 * f0 + u1 * f1) + 0.5 * flux * (f0 * f0 + f1 * f1)


@serial_kernel
def raised_share(spare, made, slope):
    """r in [0, 1]: the share of an inflow's spare weight w - h = ``spare`` by which its energy
    head's weight h is raised (c = h + r (w - h)) so that the energy it is booked, ``made`` E,
    falling by ``slope`` per unit of c, is no more than zero: r = E / ((w - h) slope) where
    that is at most 1 and E > 0, none where E <= 0 or raising removes nothing (slope <= 0).
    Where even c = w leaves energy made (r > 1) the raise is the whole w - h while it removes
    at least ``EXPANSION_RAMP`` of that energy (r <= 1 / EXPANSION_RAMP), and tapers as
    1 / (EXPANSION_RAMP r) beyond, to none as the slope vanishes: continuous in the state, so
    round-off cannot pick the raise."""
    if made <= 0.0 or slope <= 0.0 or spare <= 0.0:
        return 0.0
    share = made / (spare * slope)
    if share <= 1.0:
        return share
    return min(1.0, 1.0 / (EXPANSION_RAMP * share))


@serial_kernel
def mixed_velocity(u0, u1, change0, change1, dt, volume):
    """u + dt G / V (m/s): the velocity u (two components) after the momentum change G
    (change0, change1; m^4/s^2) reaches the new volume V = A_i d_i' > 0 (m^3) over dt. As
    dt / V times G; where dt / V overflows (a residue whose volume is subnormal, below about
    1e-308 x dt) as the quotient (dt G) / V, which stays finite, and is u itself where dt G
    underflows."""
    share = dt / volume
    if share < math.inf:
        return u0 + share * change0, u1 + share * change1
    return u0 + dt * change0 / volume, u1 + dt * change1 / volume


@parallel_kernel
def update_depth(moving, resting, rings, depth, velocity, start_velocity, fluxes,
                 boundary_momentum, min_depth, energy, dt, out):
    """Pass 2: apply the limited fluxes to the depth and carry the momentum A d u on them.

    With w_ij = -alpha_j F_ij > 0 the limited inflow from j, w_b = -F_b,i > 0 an inflow through
    an open segment at the velocity u_b = G_b,i / F_b,i, u_f the donors' face velocities
    (kernels/momentum_faces.py) and d_i' the new depth,

        u_i' = u_i + dt / (A_i d_i') (sum_in c_ij (M_ij u_f,ji - u_i) + w_b (u_b - u_i)
                                      - sum_out c_ij (u_f,ij - u_i))

    with the carried weight c_ij (``carried_weight``; out of i the mass flux is alpha_i F_ij,
    and u_f,ij - u_i is zero where i's faces are first order) the mass flux itself where the flow
    contracts from j to i (a + b >= 0, a = u_i . N_ij, b = u_j . N_ji: the normal velocities
    close on each other, as at a bore or a hydraulic jump), so that what leaves j is what enters
    i and sum_i A_i d_i u_i is conserved; and, with the ``energy`` head, where the flow expands
    (a + b < 0: i runs away from j faster than j comes on) c_ij = min(w_ij, d_i' s_ij), s_ij =
    (b - a) / 2 the mean normal speed into i through the dual edge (m^2/s; out of i, (a - b) / 2
    and the cap alpha_i F_ij), a and b from the step's starting velocity (before the push:
    the pushed one biases each accelerating cell by dt |g grad H| (u_i - u_j) / g). There the
    term is dt s_ij / A_i (M_ij u_f,ji - u_i), the advective form u . grad u = grad(|u|^2 / 2)
    at the face's mean speed: in one dimension (|N| = 1 per unit width, cell dx)
    -dt (u_i + u_j) / 2 (u_i - u_j) / dx = -dt (u_i^2 - u_j^2) / (2 dx), a difference of
    u^2 / 2 that telescopes along a streamline, so with the pressure gradient's difference of the
    level H the energy head H + |u|^2 / (2 g) is conserved (Stelling & Duinmeijer 2003): the
    momentum form there loses (u_i - u_j)^2 / (2 g) per cell (a Borda-Carnot loss, which
    belongs to an expanding jet behind a sudden widening, not to a smooth acceleration down a
    slope, over a crest or at a dry-bed front, whose thin, fast tip the mass weight, divided by
    its small new depth, would tie to the slower liquid behind it). The switch between the two
    turns over a small opening (``expansion_share``), so c_ij is continuous in the state. The cap
    by w_ij keeps u_i' a convex combination wherever the outflow limiter holds. A dry i (below
    d_min: its residue keeps its velocity, which the inflow mixes with by volume) never
    expands.

    The faces u_f are the velocities half a step on (u_f,ij = u_i + S_i (c_ij / 2 - dt u_i / 2),
    the MUSCL-Hancock shift), and u_i is the step's. Where the weights balance the mass
    (c = w) that offset cancels with the new depth, but the energy head's weights leave
    D = sum_in (w - c) - sum_out (w - c) over: the offset times D is a change of u_i of order
    dt per step, so a steady flow would settle to a state that depends on dt. Where i's faces
    are second order the differences the energy head drops are therefore taken from i's own
    half-step value u~_i = u_i - S_i dt u_i / 2 (its face at its own centre):

        u_i' = [the update above] + dt / (A_i d_i') D (u~_i - u_i)

    which leaves the momentum share (theta = 0, D = 0) as it is.

    The inviscid equations make no energy: where the flow expands while it changes (a
    rarefaction, a dry-bed front) the energy head's weights alone would. So the step books the
    energy each wet cell makes, and raises its expanding inflows' weights, each no further than
    w_ij, until the cell makes none:

        E_i = sum_in E_ij(h_ij) + sum_out O_ij + D u_i . (u~_i - u_i)
              - A_i d_i |u_i - u_i^0|^2 / (2 dt)

    E_ij what an expanding inflow makes at its energy head's weight h_ij (``inflow_energy``:
    its transfer's kinetic energy and the potential energy its mass flux moves beyond what the
    pressure's work balances), O_ij what an outflow sent at i's face makes (``outflow_energy``;
    zero where i's faces are first order), the third term the dropped weight's half-step
    difference above, and the last what the push loses: its work, which the centred flux of
    the pushed velocity u balances, exceeds the kinetic energy it gives by |u - u^0|^2 / 2 per
    unit mass (u^0 the step's starting velocity). Each inflow takes the share
    (w_ij - h_ij) / sum_in (w - h) of E_i besides its own E_ij, and is raised by
    ``raised_share`` of its spare weight w_ij - h_ij, its energy falling by
    u_i . (u_i - v_ij) plus the half-step term's per unit of raise: one inflow at a time, so
    that each raise stays continuous in the state. In steady flow E_i is of the order of the
    scheme's truncation error (Bernoulli), and the raise small.

    moving, resting as in ``edge_fluxes`` (a resting vertex keeps its depth and velocity: no
    flux, d' = d - 0); rings a ``records.Rings``; depth (n,), velocity (n, 2) read;
    start_velocity (n, 2) the step's before the push (a and b of the carried weights); fluxes
    the ``records.ContinuityFluxes`` of ``edge_fluxes`` (slopes S and excess from
    ``momentum_faces.donor_slopes``: u_f,ij = u_i + S_i (c_ij / 2 - dt u_i / 2));
    boundary_momentum (n, 2) G_b, the momentum an inflow carries (read where F_b < 0;
    kernels/riemann.py ``boundary_fluxes`` without the push); energy the
    ``records.EnergyHead`` (the wave stiffness K of ``expansion_share``, the potential |g| L
    and the inflows' rows this pass writes and reads): the energy head where the flow expands,
    or ``records.NO_ENERGY_HEAD``: momentum everywhere. Writes
    the ``records.DepthUpdate``
    out: depth, velocity and the volume that left through the boundary (m^3).
    """
    offsets, indices, reverse_edges = rings.offsets, rings.indices, rings.reverse_edges
    edge_transforms, neighbor_coords = rings.edge_transforms, rings.neighbor_coords
    dual_areas = rings.dual_areas
    edge_flux, boundary_flux, outflow_factor = (fluxes.edge_flux, fluxes.boundary_flux,
                                                fluxes.outflow_factor)
    slopes, excess = fluxes.slopes, fluxes.excess
    depth_out, velocity_out, outflow_volume = out.depth, out.velocity, out.outflow_volume
    rows = energy.inflows
    shift = 0.5 * dt
    for k in numba.prange(0, moving.shape[0]):
        i = moving[k]
        alpha_i = outflow_factor[i]
        net = 0.0
        for e in range(offsets[i], offsets[i + 1]):
            flux = edge_flux[e]
            if flux > 0.0:
                net += flux * alpha_i
            elif flux < 0.0:
                net += flux * outflow_factor[indices[e]]
        flux_b = boundary_flux[i]
        leaving = alpha_i * flux_b if flux_b > 0.0 else 0.0
        if flux_b < 0.0:
            net += flux_b
        new_depth = depth[i] - dt * (net + leaving) / dual_areas[i]
        if new_depth < 0.0:  # round-off of a fully drained cell; NaN passes through to the check
            new_depth = 0.0
        depth_out[i] = new_depth
        outflow_volume[i] = dt * leaving
        u0 = velocity[i, 0]
        u1 = velocity[i, 1]
        expands = energy.wave_stiffness.shape[0] > 0 and depth[i] >= min_depth
        own0, own1 = own_surface_part(i, fluxes)
        inflow = 0.0
        dropped = 0.0  # sum_in (w - c) - sum_out (w - c): the weight the energy head takes off
        pull0 = 0.0
        pull1 = 0.0
        spare_total = 0.0  # sum_in (w - h) over the expanding inflows
        cell_made = 0.0  # the energy E_i's terms of the cell's own (the outflows, D, the push)
        excess0, excess1 = excess[i, 0], excess[i, 1]  # what leaves beyond u_i
        s00, s01, s10, s11 = slopes[i, 0, 0], slopes[i, 0, 1], slopes[i, 1, 0], slopes[i, 1, 1]
        sent = expands and (s00 != 0.0 or s01 != 0.0 or s10 != 0.0 or s11 != 0.0)
        back0, back1 = shift * u0, shift * u1
        centre0 = centre1 = 0.0  # u_i - u~_i = S_i dt u_i / 2, i's face offset at its centre
        if sent:  # the excess again, edge by edge with the carried weights
            excess0 = excess1 = 0.0
            centre0, centre1 = s00 * back0 + s01 * back1, s10 * back0 + s11 * back1
        for e in range(offsets[i], offsets[i + 1]):
            flux = edge_flux[e]
            if expands:
                rows[e, 0] = 0.0  # no spare weight unless an expanding inflow books one
            if flux > 0.0 and sent:
                weight = carried_weight(e, i, indices[e], start_velocity, rings, alpha_i * flux,
                                        new_depth, True, energy.wave_stiffness, depth)
                dropped -= alpha_i * flux - weight
                f0 = offset_dot(s00, s01, neighbor_coords, e, back0, back1)
                f1 = offset_dot(s10, s11, neighbor_coords, e, back0, back1)
                excess0 += weight * f0
                excess1 += weight * f1
                cell_made += outflow_energy(alpha_i * flux, weight, u0 + own0, u1 + own1, f0, f1)
            elif flux < 0.0:
                j = indices[e]
                weight = -flux * outflow_factor[j]
                face0, face1 = donor_face(j, e, reverse_edges, velocity, slopes,
                                          neighbor_coords, shift)
                part0, part1 = surface_part(e, i, j, rings, fluxes)  # j's face into i's frame
                carried0 = edge_transforms[e, 0, 0] * face0 + edge_transforms[e, 0, 1] * face1
                carried1 = edge_transforms[e, 1, 0] * face0 + edge_transforms[e, 1, 1] * face1
                carried0 += part0
                carried1 += part1
                if expands:
                    head_weight = carried_weight(e, i, j, start_velocity, rings, weight,
                                                 new_depth, False, energy.wave_stiffness, depth)
                    if head_weight < weight:  # else no weight can make less energy
                        released = (weight - centred_inflow(e, i, j, rings, depth, velocity,
                                                            outflow_factor[j])) * (
                            energy.potential[i] - energy.potential[j])
                        made, slope = inflow_energy(weight, head_weight, u0 + own0,
                                                    u1 + own1, carried0, carried1, released)
                        spare = weight - head_weight
                        rows[e, 0], rows[e, 1], rows[e, 2] = spare, made, slope
                        rows[e, 3], rows[e, 4] = carried0, carried1
                        spare_total += spare
                    dropped += weight - head_weight
                    weight = head_weight
                inflow += weight
                pull0 += weight * carried0
                pull1 += weight * carried1
        if expands:
            half = -((u0 + own0) * centre0 + (u1 + own1) * centre1)  # u . (u~ - u) per unit of D
            push0, push1 = u0 - start_velocity[i, 0], u1 - start_velocity[i, 1]
            cell_made += dropped * half - 0.5 * dual_areas[i] * depth[i] * (
                push0 * push0 + push1 * push1) / dt
            for e in range(offsets[i], offsets[i + 1]):
                spare = rows[e, 0]
                if spare > 0.0:  # the cell's own terms shared by the inflows' spare weights
                    raised = spare * raised_share(spare, rows[e, 1]
                                                  + cell_made * spare / spare_total,
                                                  rows[e, 2] + half)
                    inflow += raised
                    pull0 += raised * rows[e, 3]
                    pull1 += raised * rows[e, 4]
                    dropped -= raised
        if flux_b < 0.0:  # an inflow through an open segment, w_b u_b = -G_b
            inflow -= flux_b
            pull0 -= boundary_momentum[i, 0]
            pull1 -= boundary_momentum[i, 1]
        if not sent:
            excess0, excess1 = alpha_i * excess0, alpha_i * excess1
        volume = dual_areas[i] * new_depth  # A_i d_i' (m^3)
        if volume > 0.0 and (inflow > 0.0 or excess0 != 0.0 or excess1 != 0.0):
            if sent:  # the dropped weight's differences from i's half-step value u~_i
                excess0 += dropped * centre0
                excess1 += dropped * centre1
            u0, u1 = mixed_velocity(u0, u1, pull0 - inflow * (u0 + own0) - excess0,
                                    pull1 - inflow * (u1 + own1) - excess1, dt, volume)
        velocity_out[i, 0] = u0
        velocity_out[i, 1] = u1
    for k in range(resting.shape[0]):  # a copy: one thread, no wake-up of the others
        i = resting[k]
        depth_out[i] = depth[i]
        outflow_volume[i] = 0.0
        velocity_out[i, 0] = velocity[i, 0]
        velocity_out[i, 1] = velocity[i, 1]
