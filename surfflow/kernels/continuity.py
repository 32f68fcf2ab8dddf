"""The mass equation dd/dt + div_S(d u) = 0 on the barycentric dual cells (SPEC §4).

Flux (m^3/s) through the dual edge of the CSR entry (i, j), N the ``dual_edge_vectors`` and
(j, i) the reverse entry, between two wet vertices:

    F_ij = (1 - phi_ij) [0.5 (d_i a - d_j b) + (max(0, a + b) + lambda_ij) D_ij]
           + phi_ij d_up 0.5 (a - b)
    a = u_i . N_ij,  b = u_j . N_ji,  d_up = d_i if a > b else d_j
    D_ij = minmod(L_i - L_j, d_i - d_j),  L = H + p_s / (rho |g|)
    lambda_ij = C max(s_i, s_j) sqrt(g_n d) |N|  where a + b > 0, else 0

Computed from j's side the same expression gives exactly -F_ij, so what leaves i enters j. The
centred flux of d u is minus the adjoint of the pressure gradient's Green-Gauss part
(kernels/pressure.py, which blends in a least-squares fit by the same phi as below): pressure
work and potential energy balance, so round-off around a lake at rest cannot grow.
The upwind flux is SPEC §4's. They are blended by phi_ij, the mean of the two ends'
``friction_share`` min(1, dt k) (kernels/friction.py): where friction slaves the velocity to
the depth (a creeping film, a kinematic wave) the centred flux alone is unstable and the flux
is upwind; where inertia rules (waves, dam breaks) it is centred. Measured: fully upwind lets
round-off grow to 0.45 m/s in an inviscid bowl lake in 4,000 steps, stalls Ritter's front
0.45 m short and triples Thacker's error; fully centred breaks the Nusselt film (87 % error).
Depth stays non-negative through the outflow limiter below, not through upwinding.

Where the flow is supercritical the flux is upwind too, as every Riemann flux is there (both
waves run downstream, and HLL's flux is the upwind one): phi_ij is at least
clamp(Fr_ij - 1, 0, 1), Fr_ij = |0.5 (a - b)| / (|N| c) the mean normal speed over the wave
speed c^2 = K d, with |N|^2, K and d the two ends' means (``supercritical_share``). The wave
stiffness K = g_n + (sigma / rho) (pi / s)^2 (``MomentumScheme.use_geometry``) is the normal
gravity the liquid feels (-(g - a) . n on a surface accelerating at a) plus the capillary
celerity of the mesh's shortest wave (s the ring spacing): without it a drop's thin rim, where
d -> 0, counted as supercritical and the upwinding spread the 90-degree cap 3.4 degrees and let
the 90-degree drop on the incline run 0.43 m. Subcritical flow (lakes, drops, Stoker's dam
break, waves) is untouched bit for bit. Over SWASHES' transcritical bump the centred flux left
a steady odd-even ripple in the supercritical reach past the crest and in the accelerating one
before it (+-20 % of the depth from vertex to vertex on a regular strip); upwinding there takes
the depth L1 from 0.0169 to 0.0111 at 100 cells along. The ramp from Fr = 1 to 2 keeps the flux
a continuous function of the state (a switch at Fr = 1 would turn round-off into O(1) flux
changes).

The compression flux max(0, a + b) D_ij acts only where the two ends close on each other
(a + b > 0: a bore, or the odd-even ripples a centred flux leaves behind one) and moves liquid
down the drop D_ij at the closing speed a + b (m^2/s), the jump of the normal velocity across
the dual edge: in smooth flow a + b is O(h) and the flux O(h^2), at a bore it is the velocity
jump. At rest a + b = 0: it moves nothing on a lake or under a drop at rest. D_ij is the smaller
of the head drop L_i - L_j and the depth drop d_i - d_j where the two agree in sign, else 0
(``minmod``): L = H + p_s / (rho |g|), H the free-surface height (kernels/pressure.py), p_s the
pressing terms' surface pressure (``terms/base.py``) plus rho a . (x + h n) on a surface
accelerating at a (``MomentumScheme.head``: an accelerated surface is a tilted one).
The flux runs down the head, so it only removes energy; the depth drop bounds it. Without the
bound, the head alone makes the flux a fourth-order diffusion of the depth through the surface
tension, which the explicit step cannot carry (measured: the 90-degree drop released on the
incline blew apart within 0.25 s), and on a steep film, whose level falls by the slope times
the edge from vertex to vertex, it slowed bunny_pour's films (the 99th percentile speed at 3 s
0.80 -> 0.23 m/s, 35 % more vertices wet). The level H alone, without the surface pressure or
the bound, spread the 10-degree drop on the incline over the strip in 0.25 s; the depth in
place of the level (D = minmod(d_i - d_j, d_i - d_j + (p_i - p_j) / (rho |g|))) let the lakes
at rest drift (4.6e-8 m where 1e-12 is allowed) and moved the 60 and 90 degree sessile drops 5
and 7 degrees off. On a flat bed without a surface pressure D is the depth drop. On Stoker's
strips (benchmarks/validation/anuga_compare.py) the relative L1 error falls from 1.01e-2 /
5.29e-3 / 2.70e-3 / 1.55e-3 to 7.36e-3 / 3.92e-3 / 2.05e-3 / 1.18e-3 at 603 / 2,005 / 7,209 /
27,217 vertices (half the closing speed: 8.1e-3 at 603, twice: 7.0e-3, four times: 7.3e-3).

The compression flux is quadratic in the jumps, as von Neumann and Richtmyer's viscosity is;
like theirs it leaves a ripple behind the bore (measured on Stoker's 603-vertex strip: the depth
swings +-0.2-0.3 mm, 15-20 % of the 1.5 mm jump, over the 6 cells behind it, where the
conservative scheme's HLL flux is monotone). Landshoff's linear term damps it: lambda_ij D_ij
with lambda_ij (m^2/s) the gravity wave's speed c = sqrt(g_n d) (g_n the felt normal gravity,
g_n and d the ends' means) times |N| (|N|^2 the mean of |N_ij|^2 and |N_ji|^2) times C =
``LANDSHOFF`` = 1 and the shock sensor s, the larger of the two ends' (kernels/shocks.py, summed
in the gravity push's walk over the ring), only where the ends close on each other and both are
wet. Unswitched (s = 1), the term is first order wherever smooth flow converges: the gravity
wave's error 3.6e-5 -> 5.5e-3 (its crest 7 % low) and Thacker's 0.046 -> 0.062 at 40 x 40, over
its bar. The sensor keeps it to bores and grid-scale ripples: nu_i, the share of the depth's
ring differences d_j - d_i that the ring's fitted plane does not explain (0 for a linear depth,
O(h / l) in smooth flow of length scale l, 1 at a step), taken as s_i = ((nu_i - nu_0)+ / (1 -
nu_0))^3 with nu_0 = 0.1: the cube leaves smooth flow nearly untouched, nu_0 skips it outright
(on bunny_pour at 1.8 s, whose thin films are rough from vertex to vertex, 3 in 10 wet vertices
read below nu_0 and 3 in 10 above 0.52, s > 0.1). c is the gravity wave's alone: with the
capillary celerity of the grid's shortest wave (the Froude number's K) the term grew stiff at a
sliver's short edge (tests/test_sliver_pace.py: the drop's peak 44 % higher). Measured
(benchmarks/validation/anuga_compare.py's strips, then the quick report), against the
compression flux alone: Stoker 8.00e-3 / 3.92e-3 / 1.81e-3 / 1.01e-3 -> 6.51e-3 / 3.20e-3 /
1.44e-3 / 8.3e-4 at 603 / 2,005 / 7,209 / 27,217 vertices (ANUGA 5.70e-3 / 3.04e-3 / 1.53e-3 /
8.91e-4); the bump 0.0077 -> 0.0071; Thacker 0.0460 -> 0.0462 at 40 x 40; the gravity wave 3.6e-5
-> 9.1e-4 (its crest 0.984 of the exact after 1.008); Ritter, the films, the drops and the dyes
within their bars as before. Tried: s = nu, nu^2, nu^4 with C = 0.5-1 (Stoker 7.0e-3 - 6.3e-3 at
603; Thacker 0.0484 - 0.0512, nu^2 over its bar at C = 1), C = 2 with nu^3 (the gravity wave
blew up: the explicit step's bound on a diffusion), the relative depth jump |d_i - d_j| / d in
place of the sensor (6.6e-3 / 3.5e-3 / 1.7e-3) and twice the closing speed instead (7.4e-3 /
3.8e-3 / 1.7e-3). Tried later, none kept: the term in the momentum too (a viscous exchange
lambda_ij d (M_ij u_j - u_i) at the same edges, von Neumann and Richtmyer's place for it:
Stoker 6.29e-3 / 3.08e-3 / 1.41e-3 / 7.95e-4, but the gravity wave's crest 0.948, Thacker 0.0474
and the bump 0.0075); with it, Jameson's normalisation of the sensor (kappa d_i added to nu's
denominator, kappa 0.01-0.05: the wave untouched, crest 1.01, but Stoker 6.28e-3 - 6.40e-3 /
3.12e-3 - 3.22e-3); the ends' smaller or mean sensor instead of the larger (8.0e-3 / 7.3e-3 at
603); an upwind share s at the shock (7.2e-3); the drop D between MUSCL-reconstructed face
depths (7.8e-3); an HLL mass flux at closing edges (the gravity wave blew up); blended in by
the sensor instead (6.85e-3 / 3.17e-3 at 603 / 2,005; with the momentum exchange, 6.84e-3 /
3.06e-3); the sensor spread over one more ring (6.13e-3 / 3.30e-3, Thacker 0.0491, the wave's
crest 0.925) or only upstream (6.47e-3 / 3.28e-3); a Jameson-Schmidt-Turkel fourth difference
of the depth at closing edges (6.40e-3 - 6.45e-3 / 3.16e-3, Thacker 0.048 - 0.053); the term's
liquid carrying the edge's mean velocity, not the donor's (6.46e-3 / 3.23e-3). Region by region
(benchmarks/validation/anuga_compare.py) the fan is below ANUGA's on every rung and the bore
1.5 - 1.6 times ANUGA's: the coarse rungs lack a sharper bore, not a smoother fan.

Wet/dry faces (d < d_min is dry): a dry vertex sends nothing and has no velocity, so the wet
side's own normal velocity carries its own depth, F = d_wet max(0, u_wet . N) out of the wet
vertex, unless the dry vertex is a wall (F = 0). The walls are the ones the forces see, so mass
and momentum see the same shoreline: without surface tension a dry vertex standing above its wet
neighbour's free surface (H_dry > H_wet, H as in kernels/pressure.py; ``shoreline_walls``); with
it the contact-line rule of kernels/tension.py (``tension.apply_capillary_force``: wetting the dry
vertex would not lower p_s / rho + |g| H).

Open boundaries with outflow let F_b,i = d_i max(0, u_i . Nb_i) leave (Nb zero for walls);
an open segment adds its F_b,i (kernels/riemann.py ``boundary_flux``: an inflow's discharge, a
level's ghost-cell flux, a transmissive outflow), whose inflow (F_b,i < 0) is not limited.
Outflow limiting keeps depth non-negative:

    alpha_i = min(1, A_i d_i / (dt (sum_j max(F_ij, 0) + F_b,i)))

and every flux is scaled by its donor's alpha (the vertex it leaves, the same seen from both
sides). Then

    d_i' = d_i - dt (sum_j alpha_donor F_ij + alpha_i F_b,i) / A_i

(a cell with no net flux keeps its depth bit for bit, so a lake at rest stays exactly at rest).

The momentum A d u rides on the same limited fluxes, each carrying its donor's velocity
reconstructed at the dual edge, u_f,ij for the entry (i, j) of the donor i
(kernels/momentum_faces.py; Stelling & Duinmeijer 2003, on unstructured meshes Kramer &
Stelling 2008): with w_ij = -alpha_j F_ij > 0 the limited inflow from j,

    A_i d_i' u_i' = A_i d_i u_i - dt sum_out alpha_i F_ij u_f,ij - dt alpha_i F_b,i u_i
                    + dt sum_in w_ij M_ij u_f,ji
    u_i' = u_i + dt / (A_i d_i') (sum_in w_ij (M_ij u_f,ji - u_i)
                                  - sum_out alpha_i F_ij (u_f,ij - u_i))

(M_ij the ``edge_transforms`` carrying j's velocity into i's frame). u_f,ij is a function of
the donor and the entry alone (the donor's limited slope), so what leaves i through the edge is
exactly what enters j (in j's frame): summed over a closed flat domain, A d u is conserved to
round-off, so a bore keeps its jump conditions and its speed. u_i' is a convex combination of
what stays in i (within the range of i's ring, by the faces' outflow bound theta) and the
inflowing face velocities (each within its donor's ring range; the weights
dt w_ij / (A_i d_i') sum to at most 1 whenever the outflow limiter holds), bounded for any step
the limiter allows; at rest (u = 0 on the ring) every face is 0 and nothing changes. A dry
vertex (d_i u_i = 0) takes the inflow-weighted velocity of what flows in, so a front keeps the
momentum that reaches it. The face velocity is second order where the donor's ring diverges
(the trace of its velocity gradient >= 0: a rarefaction, a flow accelerating to a crest) and
the flow is subcritical, and it is the donor's velocity (first-order upwind) where the ring
converges (a bore, whose ripple grows otherwise), where the flow is supercritical (a front's
thin tip) or next to a dry vertex. The slope is weighted by 1 - phi_i: where friction slaves
the velocity (dt k >= 1 relaxes it to its balance within the step) the face is the donor's
velocity, as the mass flux is upwind there; on bunny_pour, whose films are mostly so, this took
the faces' cost on one thread from about 0.55 to 0.2 ms a step, and the inviscid rows below are
bit for bit the same. Measured against the donor's velocity everywhere, with the supercritical
share above: SWASHES' transcritical bump's depth L1 0.0247 / 0.0111 / 0.0071 ->
0.0177 / 0.0077 / 0.0055 at 50 / 100 / 200 cells along (the upstream depth 1.4 % -> 0.9 % low);
Stoker's strips 7.35e-3 / 3.92e-3 / 2.05e-3 / 1.18e-3 -> 8.00e-3 / 3.92e-3 / 1.81e-3 / 1.01e-3
at 603 / 2,005 / 7,209 / 27,217 vertices (at 7,209 the rarefaction's error 1.25e-3 -> 8.3e-4,
the bore's 7.5e-4 -> 9.1e-4; at 603 the plateau sits 0.4 % low); Ritter's L1 8.0e-3 / 4.6e-3 ->
7.0e-3 / 4.3e-3 at 250 / 500 cells along. Tried: second order wherever the ring
diverges (Ritter's front ran 0.23 m ahead at 500 cells, its convergence broken), and without
the subcritical switch: everywhere
(Stoker 9.0e-3 / 4.6e-3 at 603 / 2,005, the middle state 1.1 % off; bump 0.0172), the dyes'
compression cap on the velocity (Stoker 8.9e-3 / 4.6e-3, bump 0.0143), no half-step shift
(Stoker 8.4e-3 / 4.1e-3, bump 0.0145), first order wherever the compression flux acts on the
ring (Stoker 7.41e-3 / 3.80e-3 / 1.93e-3, bump 0.0108).
The velocity rides on the same limited fluxes (``update_depth``) with one switch, the sign of
the closing speed a + b that also gates the compression flux: where the two ends close on each
other (the flow contracts from donor to receiver: bores, hydraulic jumps) the inflow carries its
momentum, so sum A d u is conserved and a bore keeps its jump conditions; where they open (the
flow expands: a dry-bed front, the acceleration over a crest or down a slope) it carries the
energy head, u . grad u = grad(|u|^2 / 2) at the face's mean speed, as Stelling and
Duinmeijer's scheme and D-Flow FM do.
Dye volumes A d c ride on the same limited fluxes with the donor's concentration reconstructed
at the dual edge (kernels/tracers.py, after ``update_depth``). Two passes, each gathering only:
``edge_fluxes`` (which also fits each donor's velocity slope once its fluxes and alpha are
known, ``momentum_faces.donor_slopes``: every input is the donor's own) then ``update_depth``.
"""

import math

import numba

from ._jit import parallel_kernel, serial_kernel
from .momentum_faces import donor_slopes, fit_velocity_entry
from .outflow import limit_outflow
from .pressure import free_surface_height
from .reconstruction import offset_dot
from .tuning import FROUDE_RAMP


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
def edge_fluxes(moving, resting, offsets, indices, dual_edge_vectors,
                reverse_dual_edge_vectors, edge_transforms, neighbor_coords, fit_weights,
                boundary_outflow_normals, open_flux, dual_areas, wall, head, wave_stiffness,
                depth, velocity, friction_share, min_depth, dt, edge_flux, boundary_flux,
                outflow_factor, slopes, excess, sensor, normal_gravity):
    """Pass 1: unlimited fluxes F_ij (m^3/s), boundary outflow F_b,i and the limiter alpha_i,
    then each donor's momentum face slope (``momentum_faces.donor_slopes``).

    moving, resting (int64 lists, together every vertex once; schemes/active.py): the vertices
    computed, and those with no wet end on any entry (F = 0, F_b = 0, alpha = 1 written);
    offsets (n + 1,), indices (nnz,); dual_edge_vectors (nnz, 2) N_ij and
    reverse_dual_edge_vectors (nnz, 2) N_ji, both at the entry (i, j); edge_transforms
    (nnz, 2, 2), neighbor_coords and fit_weights (nnz, 2) (``ring_fit.py``): the slopes' fit;
    boundary_outflow_normals
    (n, 2), zero where the boundary is a wall or an open segment; open_flux (n,) the open
    segments' F_b (kernels/riemann.py ``boundary_flux``, < 0 an inflow; zeros without segments);
    dual_areas (n,); wall (nnz,) bool, True where the dry end of a wet/dry entry is a wall
    (``shoreline_walls`` or ``tension.apply_capillary_force``, the same for (i, j) and (j, i));
    head (n,) L = H + p_s / (rho |g|) (m), H the level of kernels/pressure.py and p_s the
    surface pressure (without gravity L = H); wave_stiffness
    (n,) K (m/s^2, the Froude number's: c^2 = K d); depth (n,); velocity (n, 2); friction_share
    (n,) from kernels/friction.py.
    sensor (n,) the Landshoff term's shock sensor (kernels/shocks.py; zeros: no term) and
    normal_gravity (n,) g_n, the felt normal gravity (m/s^2).
    Writes edge_flux (nnz,), boundary_flux (n,) F_b,i (the outflow plus open_flux),
    outflow_factor (n,), and at the moving vertices slopes (n, 2, 2) and excess (n, 2) (zero
    where the faces are the donor's velocity: next to a dry vertex, where i sends nothing, or
    with zero fit weights; a resting vertex sends nothing, so its are never read).
    """
    for k in numba.prange(0, moving.shape[0]):
        i = moving[k]
        wet_i = depth[i] >= min_depth
        sensor_i = sensor[i]
        u0, u1 = velocity[i, 0], velocity[i, 1]
        # the weight of the momentum faces' slope: none on a dry i, nor where friction slaves
        # the velocity or the flow is supercritical (the mass flux is upwind there)
        order = 0.0
        if wet_i and friction_share[i] < 1.0:
            order = ((1.0 - friction_share[i])
                     * (1.0 - supercritical_ramp(u0 * u0 + u1 * u1, wave_stiffness[i] * depth[i])))
        fit0, fit1 = (0.0, 0.0, u0, u0), (0.0, 0.0, u1, u1)  # its velocity's ring fit
        outgoing = 0.0
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
                fit0, fit1 = fit_velocity_entry(fit0, fit1, u0, u1, e, j, edge_transforms,
                                                fit_weights, velocity)
            share = 0.5 * (friction_share[i] + friction_share[j])
            drop = 0.0
            landshoff = 0.0
            if wet_i and wet_j:
                size2 = 0.5 * ((dual_edge_vectors[e, 0] ** 2 + dual_edge_vectors[e, 1] ** 2)
                               + (reverse_dual_edge_vectors[e, 0] ** 2
                                  + reverse_dual_edge_vectors[e, 1] ** 2))  # |N|^2, a mean
                # supercritical flow: upwind, as every Riemann flux is there
                share = max(share, supercritical_share(i, j, size2, wave_stiffness, depth,
                                                       normal_i, normal_j))
                if normal_i + normal_j > 0.0:  # closing: the compression flux
                    drop = compression_drop(i, j, head, depth)
                    sensor_ij = max(sensor_i, sensor[j]) if drop != 0.0 else 0.0
                    if sensor_ij > 0.0:
                        landshoff = landshoff_speed(sensor_ij,
                                                    normal_gravity[i] + normal_gravity[j],
                                                    depth[i] + depth[j], size2)
            flux = face_flux(wet_i, wet_j, depth[i], depth[j], normal_i, normal_j, share, drop,
                             landshoff)
            edge_flux[e] = flux
            if flux > 0.0:
                outgoing += flux
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
        donor_slopes(i, offsets[i], offsets[i + 1], neighbor_coords, dual_areas, depth, velocity,
                     edge_flux, fit0, fit1, order, outgoing, dt * alpha, 0.5 * dt, slopes,
                     excess)
    for k in range(resting.shape[0]):  # a copy: one thread, no wake-up of the others
        i = resting[k]
        for e in range(offsets[i], offsets[i + 1]):
            edge_flux[e] = 0.0
        boundary_flux[i] = 0.0
        outflow_factor[i] = 1.0


@serial_kernel
def donor_face(j, e, reverse_edges, velocity, slopes, neighbor_coords, shift):
    """u_f of the donor j sending through the entry e = (i, j) (j's frame), at its own entry
    (j, i): u_j + S_j (c_ji / 2 - shift u_j) (``momentum_faces.donor_slopes``)."""
    s = slopes[j]
    if s[0, 0] == 0.0 and s[0, 1] == 0.0 and s[1, 0] == 0.0 and s[1, 1] == 0.0:  # first order
        return velocity[j, 0], velocity[j, 1]
    back0, back1 = shift * velocity[j, 0], shift * velocity[j, 1]
    entry = reverse_edges[e]
    return (velocity[j, 0] + offset_dot(s[0, 0], s[0, 1], neighbor_coords, entry, back0, back1),
            velocity[j, 1] + offset_dot(s[1, 0], s[1, 1], neighbor_coords, entry, back0, back1))


@serial_kernel
def carried_weight(e, i, j, velocity, dual_edge_vectors, reverse_dual_edge_vectors, weight,
                   new_depth, outward):
    """The weight (m^3/s) with which the dual edge of the entry e = (i, j) carries a velocity
    difference into the wet vertex i (``update_depth``): its limited mass flux ``weight`` where
    the two ends close on each other (a + b >= 0, a = u_i . N_ij, b = u_j . N_ji: the flow
    decelerates along the edge; momentum conserved), else (a + b < 0: the flow accelerates
    along it; energy head conserved) d_i' s_ij, s_ij the mean normal speed through the dual
    edge in the flux's direction, (a - b) / 2 out of i if ``outward`` else (b - a) / 2 (m^2/s,
    0 if the velocities run against the flux), and d_i' i's new depth, never more than the mass
    flux's weight. velocity (n, 2) the step's starting velocity."""
    a = velocity[i, 0] * dual_edge_vectors[e, 0] + velocity[i, 1] * dual_edge_vectors[e, 1]
    b = (velocity[j, 0] * reverse_dual_edge_vectors[e, 0]
         + velocity[j, 1] * reverse_dual_edge_vectors[e, 1])
    if a + b >= 0.0:
        return weight
    speed = 0.5 * (a - b) if outward else 0.5 * (b - a)
    return min(weight, new_depth * max(speed, 0.0))


@parallel_kernel
def update_depth(moving, resting, offsets, indices, reverse_edges, edge_transforms,
                 dual_edge_vectors, reverse_dual_edge_vectors, neighbor_coords, dual_areas, depth,
                 velocity, start_velocity, slopes, excess, shift, edge_flux, boundary_flux,
                 boundary_momentum, outflow_factor, min_depth, expansion_head, dt, depth_out,
                 velocity_out, outflow_volume):
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
    i and sum_i A_i d_i u_i is conserved; and, with ``expansion_head``, where the flow expands
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
    its small new depth, would tie to the slower liquid behind it). The cap by w_ij keeps u_i' a
    convex combination wherever the outflow limiter holds. A dry i (at rest) never expands.

    moving, resting as in ``edge_fluxes`` (a resting vertex keeps its depth and velocity: no
    flux, d' = d - 0); reverse_edges (nnz,); edge_transforms (nnz, 2, 2); dual_edge_vectors
    (nnz, 2) N_ij and reverse_dual_edge_vectors (nnz, 2) N_ji, both at the entry (i, j);
    neighbor_coords (nnz, 2); depth (n,), velocity (n, 2) read; slopes (n, 2, 2) S and excess
    (n, 2) sum_out F_ij (u_f,ij - u_i) from ``edge_fluxes`` (``momentum_faces.donor_slopes``),
    shift (s) dt / 2: u_f,ij = u_i + S_i (c_ij / 2 - shift u_i);
    boundary_flux (n,) F_b and boundary_momentum (n, 2) G_b, the momentum an inflow carries
    (read where F_b < 0; kernels/riemann.py ``boundary_fluxes`` without the push);
    expansion_head (bool) the energy head where the flow expands, else momentum everywhere;
    depth_out, velocity_out written; outflow_volume (n,) receives the volume that left through
    the boundary (m^3).
    """
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
        expands = expansion_head and depth[i] >= min_depth
        inflow = 0.0
        pull0 = 0.0
        pull1 = 0.0
        excess0, excess1 = excess[i, 0], excess[i, 1]  # what leaves beyond u_i
        s = slopes[i]
        sent = expands and (s[0, 0] != 0.0 or s[0, 1] != 0.0 or s[1, 0] != 0.0 or s[1, 1] != 0.0)
        back0, back1 = shift * u0, shift * u1
        if sent:  # the excess again, edge by edge with the carried weights
            excess0 = excess1 = 0.0
        for e in range(offsets[i], offsets[i + 1]):
            flux = edge_flux[e]
            if flux > 0.0 and sent:
                weight = carried_weight(e, i, indices[e], start_velocity, dual_edge_vectors,
                                        reverse_dual_edge_vectors, alpha_i * flux, new_depth,
                                        True)
                excess0 += weight * offset_dot(s[0, 0], s[0, 1], neighbor_coords, e, back0, back1)
                excess1 += weight * offset_dot(s[1, 0], s[1, 1], neighbor_coords, e, back0, back1)
            elif flux < 0.0:
                j = indices[e]
                weight = -flux * outflow_factor[j]
                if expands:
                    weight = carried_weight(e, i, j, start_velocity, dual_edge_vectors,
                                            reverse_dual_edge_vectors, weight, new_depth, False)
                inflow += weight
                face0, face1 = donor_face(j, e, reverse_edges, velocity, slopes,
                                          neighbor_coords, shift)
                m = edge_transforms[e]  # j's face velocity into i's frame
                pull0 += weight * (m[0, 0] * face0 + m[0, 1] * face1)
                pull1 += weight * (m[1, 0] * face0 + m[1, 1] * face1)
        if flux_b < 0.0:  # an inflow through an open segment, w_b u_b = -G_b
            inflow -= flux_b
            pull0 -= boundary_momentum[i, 0]
            pull1 -= boundary_momentum[i, 1]
        if not sent:
            excess0, excess1 = alpha_i * excess0, alpha_i * excess1
        if new_depth > 0.0 and (inflow > 0.0 or excess0 != 0.0 or excess1 != 0.0):
            share = dt / (dual_areas[i] * new_depth)
            u0 += share * (pull0 - inflow * u0 - excess0)
            u1 += share * (pull1 - inflow * u1 - excess1)
        velocity_out[i, 0] = u0
        velocity_out[i, 1] = u1
    for k in range(resting.shape[0]):  # a copy: one thread, no wake-up of the others
        i = resting[k]
        depth_out[i] = depth[i]
        outflow_volume[i] = 0.0
        velocity_out[i, 0] = velocity[i, 0]
        velocity_out[i, 1] = velocity[i, 1]
