"""The conservative scheme's finite-volume update of depth d and momentum q = d u (SPEC §10).

On the barycentric dual cells, one forward-Euler stage (``conservative_stage``) is

    d_i' = d_i - dt / A_i (sum_j F_ij + F_b,i)
    q_i' = d_i u_i + dt d_i a_i - dt / A_i (sum_j G_ij + G_b,i)

with a_i the well-balanced gravity-pressure acceleration -|g| grad_S H of kernels/pressure.py
(the free-surface height H along gravity; on a flat plane and a flat bottom its centred part is
the conservative pressure flux g d_i d_j / 2 through each dual edge, so bores and shocks move at
the speed of the jump conditions) and F_ij, G_ij the HLL fluxes of d and d u through the dual
edge N_ij between the states reconstructed at the edge midpoint (``reconstruction.py``):

    s_L = min(a_L - c_L, a_R - c_R),  s_R = max(a_L + c_L, a_R + c_R),  c = sqrt(|g| (e . n) d)
    F = L (s_R d_L a_L - s_L d_R a_R + s_L s_R Delta) / (s_R - s_L)      (upwind if s_L >= 0 or
    G = L (s_R q_L a_L - s_L q_R a_R + s_L s_R (q_R - q_L)) / (s_R - s_L)           s_R <= 0)

a the normal velocities from i towards j, L = (|N_ij| + |N_ji|) / 2, q_R carried into i's frame
by M_ij; a dry end gets the dry-bed speeds s = a -+ 2 c of the other (Toro), but with surface
tension an edge with a dry end (d < d_min, a residue too) is a contact line, where capillarity,
not a Riemann problem, rules the front: c = 0 on both sides, the wet side's own flow.
Below the wet/dry threshold d_min no force acts (a_i = 0, no gradient). What liquid lies there,
the residue, is either at rest (``carries_residues`` False: the conservative scheme; a cell
that was dry, when wetted, takes the velocity of the liquid flowing in, the sum of -G over its
inflowing edges over the sum of -F there) or carried (True: the momentum scheme's stages
around fronts, schemes/bores.py): it keeps the velocity of the liquid it came from, sends as a
first-order state, and mixes with what flows in, d_i' u_i' = d_i u_i + dt / A_i sum_in (-G);
counted at rest, the residue at a dry-bed front's tip would hold every vertex the front wets
until it has filled to d_min, a lag that does not shrink with the cell. The mass diffusion
Delta = minmod(d_R - d_L, (H_j - H_i) / (e . n)_ij) is the depth jump limited by the jump of the
free surface: zero for a lake at rest on any bottom (well balanced), the depth jump on a flat one.
On a moving surface (acceleration a_i) c and Delta feel the felt gravity g - a (kernels/inertia.py):
|g| (e . n) becomes |g| (e . n) + a . n and |g| H gains a . p (p = x + h n, a the edge's mean),
so a uniformly accelerated plate is a tilted one; with nothing moving a = 0 and this is bitwise
the gravity-only flux. Boundary segments see gravity alone.
F_ij is computed once per edge in the orientation from the lower vertex index to the higher, so
seen from j it is exactly -F_ij and the volume is conserved to round-off. Outflow limiting
(alpha_i, as in kernels/continuity.py) scales every flux by its donor's factor, so d' >= 0.

Boundary vertices carry the flux of their boundary segment N_b (length x outward normal):
kind 0 none (a wall: no flux, the slip projection removes the wall-normal velocity), 1
transmissive (outflow only, F_b = d max(0, u . N_b)), 2 a water level (a ghost cell at the
free-surface height ``value``, HLL flux and its pressure), 3 a discharge ``value`` m^2/s flowing
in (F_b = -value |N_b| exactly, at the speed value / max(d, critical depth)).
"""

import math

import numba

from ._jit import parallel_kernel, serial_kernel
from .inertia import along
from .outflow import limit_outflow
from .pressure import free_surface_height

NO_BOUNDARY, TRANSMISSIVE, LEVEL, DISCHARGE = 0, 1, 2, 3


@serial_kernel
def hll_speeds(d_left, a_left, c_left, d_right, a_right, c_right):
    """(s_L, s_R): the HLL wave speeds, dry-bed ones where an end has no depth."""
    if d_left <= 0.0:
        return a_right - 2.0 * c_right, a_right + c_right
    if d_right <= 0.0:
        return a_left - c_left, a_left + 2.0 * c_left
    return min(a_left - c_left, a_right - c_right), max(a_left + c_left, a_right + c_right)


@serial_kernel
def hll(s_left, s_right, flux_left, flux_right, jump):
    """The HLL flux of one conserved quantity from its two physical fluxes and its jump."""
    if s_left >= 0.0:
        return flux_left
    if s_right <= 0.0:
        return flux_right
    return (s_right * flux_left - s_left * flux_right + s_left * s_right * jump) / (s_right - s_left)


@serial_kernel
def minmod(x, y):
    """The smaller in magnitude of x and y if they share a sign, else 0."""
    if x * y <= 0.0:
        return 0.0
    return x if abs(x) < abs(y) else y


@serial_kernel
def midpoint_state(k, e, coords, depth, velocity, grad_depth, grad_velocity, min_depth,
                   carries_residues):
    """Depth and velocity (k's frame) of vertex k reconstructed at the midpoint of the edge
    whose ring vector from k is coords[e]; below min_depth its own (d_k, u_k), first order,
    where residues are carried, else zero (module docstring)."""
    if depth[k] < min_depth:
        if carries_residues:
            return depth[k], velocity[k, 0], velocity[k, 1]
        return 0.0, 0.0, 0.0
    h0, h1 = 0.5 * coords[e, 0], 0.5 * coords[e, 1]
    d = depth[k] + grad_depth[k, 0] * h0 + grad_depth[k, 1] * h1
    u0 = velocity[k, 0] + grad_velocity[k, 0, 0] * h0 + grad_velocity[k, 0, 1] * h1
    u1 = velocity[k, 1] + grad_velocity[k, 1, 0] * h0 + grad_velocity[k, 1, 1] * h1
    return d, u0, u1


@serial_kernel
def carried(edge_transforms, e, u0, u1):
    """M_ij (u0, u1): a tangent vector of j's frame carried into i's at the CSR entry e = (i, j)
    (edge_transforms (nnz, 2, 2))."""
    return (edge_transforms[e, 0, 0] * u0 + edge_transforms[e, 0, 1] * u1,
            edge_transforms[e, 1, 0] * u0 + edge_transforms[e, 1, 1] * u1)


@serial_kernel
def felt_support(gravity_magnitude, rise, normal_acceleration):
    """The felt normal gravity -(g - a) . n = |g| (e . n) + a . n that presses the film onto a
    surface tilted by e . n = ``rise`` and accelerated by a (``normal_acceleration`` = a . n, 0
    when nothing moves); 0 where gravity overhangs (e . n < 0) or the surface accelerates away
    faster than gravity presses (the rules of kernels/pressure.py and kernels/inertia.py)."""
    if rise < 0.0:
        return 0.0
    support = gravity_magnitude * rise + normal_acceleration
    return support if support > 0.0 else 0.0


@serial_kernel
def celerity(support, capillary, d):
    """sqrt(d (|g| (e . n) + a . n + sigma k^2 / rho)): the speed of the fastest wave of depth d
    under the felt normal gravity ``support`` (``felt_support``), ``capillary`` = sigma k^2 / rho
    at the mesh's shortest resolved wavelength (k = pi / edge length)."""
    return math.sqrt(d * (support + capillary))


@serial_kernel
def inertial_rise(low, high, surface_acceleration, vertices, normals, bottom, depth):
    """(a . n, a . (p_high - p_low)) with a the mean of the two ends' surface accelerations
    (n, 3) and p = x + (b + d) n their free-surface points: the normal and the potential part
    of the inertial force -a of a moving surface along the edge (kernels/inertia.py)."""
    normal = 0.0
    rise = 0.0
    for axis in range(3):
        a = 0.5 * (surface_acceleration[low, axis] + surface_acceleration[high, axis])
        normal += 0.5 * (surface_acceleration[low, axis] * normals[low, axis]
                         + surface_acceleration[high, axis] * normals[high, axis])
        rise += a * (vertices[high, axis] + (bottom[high] + depth[high]) * normals[high, axis]
                     - vertices[low, axis] - (bottom[low] + depth[low]) * normals[low, axis])
    return normal, rise


@serial_kernel
def mass_jump(depths, levels, rises, pressures, gravity_magnitude, capillary, inverse_density,
              inertial):
    """Delta of the module docstring, oriented from the low index end to the high one: the depth
    jump limited by the jump of the potential Phi = |g| H + a . p + p_s / rho over its stiffness
    |g| (e . n) + a . n + sigma k^2 / rho (the depth jump where neither acts). depths, levels H,
    rises e . n and pressures p_s: (low end's, high end's) pairs; inertial (a . n, a . (p_high -
    p_low)) from ``inertial_rise`` ((0, 0) when nothing moves), so an accelerated surface is a
    tilted one (gravity g - a)."""
    d_low, d_high = depths
    level_low, level_high = levels
    rise_low, rise_high = rises
    pressure_low, pressure_high = pressures
    normal_acceleration, inertial_potential = inertial
    rise = 0.5 * (rise_low + rise_high)
    stiffness = capillary
    potential = (pressure_high - pressure_low) * inverse_density
    support = gravity_magnitude * rise + normal_acceleration
    if rise > 0.0 and support > 0.0:
        stiffness += support
        potential += gravity_magnitude * (level_high - level_low) + inertial_potential
    if stiffness <= 0.0:
        return d_high - d_low
    return minmod(d_high - d_low, potential / stiffness)


@serial_kernel
def side_momentum_flux(length, mass, capillary, own, other):
    """G through one side of an edge, in its own end's frame and orientation: HLL between the
    own end's state ``own`` = (depth, velocity's two components, outward normal speed, celerity)
    and the other's ``other`` (its velocity carried into the own frame, its normal speed towards
    the own end negated); under surface tension
    (``capillary`` > 0) the ``mass`` flux times its donor's velocity (the mass flux's capillary
    speeds would diffuse momentum into thin cells with no mass to carry it; this way a vertex's
    new velocity is a mean of its own and its donors')."""
    d_own, own0, own1, out_own, c_own = own
    d_other, other0, other1, out_other, c_other = other
    if capillary > 0.0:
        up0, up1 = (own0, own1) if mass > 0.0 else (other0, other1)
        return mass * up0, mass * up1
    q0, q1 = d_other * other0, d_other * other1
    s_left, s_right = hll_speeds(d_own, out_own, c_own, d_other, -out_other, c_other)
    return (length * hll(s_left, s_right, d_own * own0 * out_own, -q0 * out_other,
                         q0 - d_own * own0),
            length * hll(s_left, s_right, d_own * own1 * out_own, -q1 * out_other,
                         q1 - d_own * own1))


@serial_kernel
def at_rest_below(k, depth, velocity, min_depth, carries_residues):
    """Whether vertex k has nothing to send: below min_depth, and at rest where residues are
    carried."""
    if depth[k] >= min_depth:
        return False
    return not carries_residues or (velocity[k, 0] == 0.0 and velocity[k, 1] == 0.0)


@serial_kernel
def store_side(k, closed, mass, g0, g1, mass_flux, momentum_flux):
    """Write F and G (g0, g1) at CSR entry k, or zeros where it is ``closed`` (a wall)."""
    mass_flux[k] = 0.0 if closed else mass
    momentum_flux[k, 0] = 0.0 if closed else g0
    momentum_flux[k, 1] = 0.0 if closed else g1


@parallel_kernel
def hll_edge_fluxes(reached, rings, wall, levels, motion, state, pressing, min_depth,
                    carries_residues, fluxes):
    """F_ij (nnz,) and G_ij (nnz, 2, in i's frame) of the CSR entries whose lower-index end is
    among ``reached`` (m,) int64 (every vertex, or those a bore's stages reach); zero through a
    wall and between two vertices with nothing to send (``at_rest_below``; residues below
    min_depth carried or not, module docstring). Listing a set's vertices and their
    ring computes every entry of the set.

    Each edge is computed once, by its lower-index end i, which writes both its entries: e = (i,
    j) and reverse_edges[e] = (j, i), F_ji = -F_ij exactly (the volume is conserved to
    round-off) and G_ji in j's frame; no other iteration writes them, so any thread count agrees.
    rings a ``records.HllRings``; wall (nnz,) bool; levels a ``records.Levels``; motion a
    ``records.SurfaceMotion``; state a ``records.Reconstruction``; pressing a
    ``records.Pressing``. Writes mass_flux and momentum_flux of the ``records.StageFluxes``
    fluxes.
    """
    offsets, indices, reverse_edges = rings.offsets, rings.indices, rings.reverse_edges
    neighbor_coords, reverse_coords = rings.neighbor_coords, rings.reverse_coords
    dual_edge_vectors, reverse_dual_edge_vectors = (rings.dual_edge_vectors,
                                                    rings.reverse_dual_edge_vectors)
    dual_edge_lengths, reverse_dual_edge_lengths = (rings.dual_edge_lengths,
                                                    rings.reverse_dual_edge_lengths)
    edge_transforms = rings.edge_transforms
    vertex_height, normal_rise, bottom = levels.vertex_height, levels.normal_rise, levels.bottom
    gravity_magnitude = levels.gravity_magnitude
    surface_acceleration, moving = motion.acceleration, motion.moving
    vertices, normals = motion.vertices, motion.normals
    depth, velocity = state.depth, state.velocity
    grad_depth, grad_velocity = state.grad_depth, state.grad_velocity
    pressure, sigma_over_density = pressing.pressure, pressing.sigma_over_density
    inverse_density = pressing.inverse_density
    mass_flux, momentum_flux = fluxes.mass_flux, fluxes.momentum_flux
    for k in numba.prange(0, reached.shape[0]):
        i = reached[k]
        level_i = free_surface_height(i, vertex_height, normal_rise, bottom, depth)
        for e in range(offsets[i], offsets[i + 1]):
            j = indices[e]
            if j < i:  # written by j's iteration
                continue
            r = reverse_edges[e]
            length_i = dual_edge_lengths[e]
            length_j = reverse_dual_edge_lengths[e]
            dry = (at_rest_below(i, depth, velocity, min_depth, carries_residues)
                   and at_rest_below(j, depth, velocity, min_depth, carries_residues))
            if dry or (wall[e] and wall[r]) or length_i == 0.0 or length_j == 0.0:
                store_side(e, True, 0.0, 0.0, 0.0, mass_flux, momentum_flux)
                store_side(r, True, 0.0, 0.0, 0.0, mass_flux, momentum_flux)
                continue
            d_i, ui0, ui1 = midpoint_state(i, e, neighbor_coords, depth, velocity, grad_depth,
                                           grad_velocity, min_depth, carries_residues)
            d_j, uj0, uj1 = midpoint_state(j, e, reverse_coords, depth, velocity, grad_depth,
                                           grad_velocity, min_depth, carries_residues)
            out_i = (ui0 * dual_edge_vectors[e, 0] + ui1 * dual_edge_vectors[e, 1]) / length_i
            out_j = (uj0 * reverse_dual_edge_vectors[e, 0]
                     + uj1 * reverse_dual_edge_vectors[e, 1]) / length_j
            wavenumber = 2.0 * math.pi / (math.hypot(neighbor_coords[e, 0], neighbor_coords[e, 1])
                                          + math.hypot(reverse_coords[e, 0], reverse_coords[e, 1]))
            capillary = sigma_over_density * wavenumber * wavenumber
            a_i = along(surface_acceleration, i, normals, i) if moving else 0.0
            a_j = along(surface_acceleration, j, normals, j) if moving else 0.0
            c_i = celerity(felt_support(gravity_magnitude, normal_rise[i], a_i), capillary, d_i)
            c_j = celerity(felt_support(gravity_magnitude, normal_rise[j], a_j), capillary, d_j)
            if capillary > 0.0 and (depth[i] < min_depth or depth[j] < min_depth):
                c_i, c_j = 0.0, 0.0  # a contact line: the wet side's own flow
            level_j = free_surface_height(j, vertex_height, normal_rise, bottom, depth)
            normal_a, rise_a = (inertial_rise(i, j, surface_acceleration, vertices, normals,
                                              bottom, depth) if moving else (0.0, 0.0))
            jump = mass_jump((d_i, d_j), (level_i, level_j), (normal_rise[i], normal_rise[j]),
                             (pressure[i], pressure[j]), gravity_magnitude, capillary,
                             inverse_density, (normal_a, rise_a))
            length = 0.5 * (length_i + length_j)
            s_i, s_j = hll_speeds(d_i, out_i, c_i, d_j, -out_j, c_j)
            mass = length * hll(s_i, s_j, d_i * out_i, d_j * -out_j, jump)
            tj0, tj1 = carried(edge_transforms, e, uj0, uj1)
            ti0, ti1 = carried(edge_transforms, r, ui0, ui1)
            g0, g1 = side_momentum_flux(length, mass, capillary, (d_i, ui0, ui1, out_i, c_i),
                                        (d_j, tj0, tj1, out_j, c_j))
            store_side(e, wall[e], mass, g0, g1, mass_flux, momentum_flux)
            g0, g1 = side_momentum_flux(length, -mass, capillary, (d_j, uj0, uj1, out_j, c_j),
                                        (d_i, ti0, ti1, out_i, c_i))
            store_side(r, wall[r], -mass, g0, g1, mass_flux, momentum_flux)


@serial_kernel
def boundary_flux(i, kind, value, segment_0, segment_1, vertex_height, normal_rise,
                  gravity_magnitude, bottom, depth, velocity, min_depth):
    """(F_b, G_b0, G_b1, P_b): the mass flux and the momentum flux carried out through i's
    boundary segment (N_b = (segment_0, segment_1) in i's frame) for boundary ``kind`` with its
    ``value``, and the ghost's hydrostatic push P_b (m^3/s^2): the pressure kernel's missing
    boundary term, whose momentum flux is P_b N_b."""
    if kind == NO_BOUNDARY:
        return 0.0, 0.0, 0.0, 0.0
    length = math.hypot(segment_0, segment_1)
    if length == 0.0:
        return 0.0, 0.0, 0.0, 0.0
    n0, n1 = segment_0 / length, segment_1 / length
    wet = depth[i] >= min_depth
    d = depth[i] if wet else 0.0
    u0 = velocity[i, 0] if wet else 0.0
    u1 = velocity[i, 1] if wet else 0.0
    normal = u0 * n0 + u1 * n1
    if kind == TRANSMISSIVE:
        flux = length * d * max(0.0, normal)
        return flux, flux * u0, flux * u1, 0.0
    rise = normal_rise[i]
    if kind == DISCHARGE:
        g_n = gravity_magnitude * max(rise, 0.0)
        critical = (value * value / g_n) ** (1.0 / 3.0) if g_n > 0.0 else min_depth
        speed = value / max(d, critical, min_depth)
        flux = -length * value
        return flux, -flux * speed * n0, -flux * speed * n1, 0.0
    # LEVEL: a ghost cell at the free-surface height ``value``, moving with i's velocity
    d_ghost = max(0.0, (value - vertex_height[i]) / rise - bottom[i]) if rise > 0.0 else d
    c = celerity(gravity_magnitude * max(rise, 0.0), 0.0, d)
    c_ghost = celerity(gravity_magnitude * max(rise, 0.0), 0.0, d_ghost)
    s_left, s_right = hll_speeds(d, normal, c, d_ghost, normal, c_ghost)
    push = 0.5 * gravity_magnitude * d * (d_ghost - d) * rise
    if s_right - s_left <= 0.0:
        return 0.0, 0.0, 0.0, push
    flux = length * hll(s_left, s_right, d * normal, d_ghost * normal, d_ghost - d)
    q0 = length * hll(s_left, s_right, d * u0 * normal, d_ghost * u0 * normal, (d_ghost - d) * u0)
    q1 = length * hll(s_left, s_right, d * u1 * normal, d_ghost * u1 * normal, (d_ghost - d) * u1)
    return flux, q0, q1, push


@parallel_kernel
def boundary_fluxes(openings, levels, depth, velocity, min_depth, push_in_flux, boundary_mass,
                    boundary_momentum, boundary_push):
    """F_b (n,), G_b (n, 2) and P_b (n,) (``boundary_flux``), written at the vertices with a
    kind (``openings.vertices``; the others' stay zero: the caller clears them when the
    segments change); openings a ``records.Openings``, levels a ``records.Levels``, depth (n,),
    velocity (n, 2). ``push_in_flux``: G_b includes the push's momentum flux P_b N_b (the
    conservative scheme), else G_b is the carried momentum alone and P_b acts as an
    acceleration (the momentum scheme's push)."""
    boundary_kind, boundary_value, boundary_segments = (openings.kind, openings.value,
                                                        openings.normals)
    vertex_height, normal_rise, bottom = levels.vertex_height, levels.normal_rise, levels.bottom
    gravity_magnitude = levels.gravity_magnitude
    vertices = openings.vertices
    for k in numba.prange(0, vertices.shape[0]):
        i = vertices[k]
        flux, q0, q1, push = boundary_flux(i, boundary_kind[i], boundary_value[i],
                                           boundary_segments[i, 0], boundary_segments[i, 1],
                                           vertex_height, normal_rise, gravity_magnitude, bottom,
                                           depth, velocity, min_depth)
        boundary_mass[i] = flux
        boundary_push[i] = push
        if push_in_flux:
            q0 += push * boundary_segments[i, 0]
            q1 += push * boundary_segments[i, 1]
        boundary_momentum[i, 0] = q0
        boundary_momentum[i, 1] = q1


@parallel_kernel
def outflow_factors(reached, offsets, dual_areas, depth, mass_flux, boundary_mass, dt,
                    outflow_factor):
    """alpha_i = min(1, A_i d_i / (dt (sum of i's outgoing fluxes))) (n,) at the vertices ``reached``
    (m,) int64."""
    for k in numba.prange(0, reached.shape[0]):
        i = reached[k]
        outgoing = max(boundary_mass[i], 0.0)
        for e in range(offsets[i], offsets[i + 1]):
            outgoing += max(mass_flux[e], 0.0)
        outflow_factor[i] = limit_outflow(dual_areas[i] * depth[i], dt, outgoing)


@parallel_kernel
def conservative_stage(reached, rings, wall_projections, depth, velocity, acceleration,
                       term_acceleration, fluxes, min_depth, carries_residues, dt, out):
    """One forward-Euler stage of d and d u with the limited fluxes (module docstring) at the
    vertices ``reached`` (m,) int64; the dyes ride on the same mass fluxes (kernels/tracers.py).
    Below min_depth, before or after, a carried residue's velocity is the mean of its own and
    the inflow's by volume (``carries_residues``; else a cell wetted takes the inflow's).

    rings a ``records.Rings`` (offsets, indices, edge_transforms, dual_areas read);
    wall_projections (n, 2, 2) (state.wall_projections); depth (n,), velocity (n, 2);
    acceleration (n, 2) = a_i, gravity's, on the old depth (the pressure flux's conservation
    form); term_acceleration (n, 2), the terms' (tension, wind, inertia), on the updated
    velocity, u' += dt a_t (a force per unit mass acts on all the liquid there, so a steady
    film's speed does not depend on the inflow); fluxes the ``records.StageFluxes`` of
    ``hll_edge_fluxes``, ``boundary_fluxes`` and ``outflow_factors``. Writes the
    ``records.StageUpdate`` out.
    """
    offsets, indices, edge_transforms = rings.offsets, rings.indices, rings.edge_transforms
    dual_areas = rings.dual_areas
    mass_flux, momentum_flux = fluxes.mass_flux, fluxes.momentum_flux
    boundary_mass, boundary_momentum = fluxes.boundary_mass, fluxes.boundary_momentum
    outflow_factor = fluxes.outflow_factor
    depth_out, velocity_out = out.depth, out.velocity
    outflow_volume, inflow_volume = out.outflow_volume, out.inflow_volume
    for k in numba.prange(0, reached.shape[0]):
        i = reached[k]
        alpha_i = outflow_factor[i]
        net = 0.0
        q0 = 0.0
        q1 = 0.0
        inflow = 0.0  # what flows in through the edges: volume rate, and times its donor's u
        in0 = 0.0
        in1 = 0.0
        for e in range(offsets[i], offsets[i + 1]):
            factor = alpha_i if mass_flux[e] > 0.0 else outflow_factor[indices[e]]
            net += factor * mass_flux[e]
            q0 += factor * momentum_flux[e, 0]
            q1 += factor * momentum_flux[e, 1]
            if mass_flux[e] < 0.0:
                j = indices[e]
                volume = -factor * mass_flux[e]
                inflow += volume
                uj0, uj1 = carried(edge_transforms, e, velocity[j, 0], velocity[j, 1])
                in0 += volume * uj0
                in1 += volume * uj1
        leaving = boundary_mass[i]
        factor = alpha_i if leaving > 0.0 else 1.0
        net += factor * leaving
        q0 += factor * boundary_momentum[i, 0]
        q1 += factor * boundary_momentum[i, 1]
        outflow_volume[i] = dt * factor * leaving if leaving > 0.0 else 0.0
        inflow_volume[i] = -dt * leaving if leaving < 0.0 else 0.0
        scale = dt / dual_areas[i]
        new_depth = depth[i] - scale * net
        if new_depth < 0.0:  # round-off of a fully drained cell; NaN passes through to the check
            new_depth = 0.0
        depth_out[i] = new_depth
        u0, u1 = 0.0, 0.0
        if new_depth >= min_depth or (carries_residues and new_depth > 0.0):
            if depth[i] >= min_depth and new_depth >= min_depth:
                m0 = (depth[i] * (velocity[i, 0] + dt * acceleration[i, 0]) - scale * q0) / new_depth
                m1 = (depth[i] * (velocity[i, 1] + dt * acceleration[i, 1]) - scale * q1) / new_depth
            elif carries_residues:  # a residue, before or after: its own velocity and the inflow's
                held = depth[i] + scale * inflow
                m0 = (depth[i] * velocity[i, 0] + scale * in0) / held
                m1 = (depth[i] * velocity[i, 1] + scale * in1) / held
            elif inflow > 0.0:  # a dry cell wetted: the velocity of the liquid flowing in
                m0, m1 = in0 / inflow, in1 / inflow
            else:
                m0, m1 = 0.0, 0.0
            m0 += dt * term_acceleration[i, 0]
            m1 += dt * term_acceleration[i, 1]
            u0 = wall_projections[i, 0, 0] * m0 + wall_projections[i, 0, 1] * m1
            u1 = wall_projections[i, 1, 0] * m0 + wall_projections[i, 1, 1] * m1
        velocity_out[i, 0] = u0
        velocity_out[i, 1] = u1


@parallel_kernel
def average_stages(depth, velocity, dye, depth_2, velocity_2, dye_2, min_depth,
                   carries_residues, depth_out, velocity_out, dye_out):
    """Heun's (SSP-RK2) last step: U = (U^n + U^(2)) / 2 for d, d u and the dye volumes d c, so
    sum A d u is Heun's exactly; the velocity u = q / d where d >= d_min, or d > 0 where
    residues are carried (module docstring), else 0. All arrays (n,), (n, 2), (n, n_dyes)."""
    for i in numba.prange(0, depth.shape[0]):
        d = 0.5 * (depth[i] + depth_2[i])
        depth_out[i] = d
        moves = d >= min_depth or (carries_residues and d > 0.0)
        for a in range(2):
            q = 0.5 * (depth[i] * velocity[i, a] + depth_2[i] * velocity_2[i, a])
            velocity_out[i, a] = q / d if moves else 0.0
        for n in range(dye.shape[1]):
            volume = 0.5 * (depth[i] * dye[i, n] + depth_2[i] * dye_2[i, n])
            dye_out[i, n] = min(1.0, max(0.0, volume / d)) if d > 0.0 else 0.0
