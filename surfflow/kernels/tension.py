"""Surface tension with a static contact angle, from the surface energy (SPEC §3).

The energy of the liquid, up to a constant (Young: sigma_sv - sigma_sl = sigma cos theta_c), is

    E = sigma * sum_t area(P_a, P_b, P_c) + sigma (1 - cos theta_c) * sum_v A_v phi(d_v)

The first sum runs over every triangle t = (a, b, c) lifted to the free surface P_v = x_v + h_v n_v
(h = b + d); on dry ground it is the bottom's own area, so it only changes where liquid is. The
second is the wetted area, a vertex's dual cell counting as wet through the ramp

    phi(d) = 1 - (1 - d / eps_v)^2  for d < eps_v,  1 above,

over the contact-line depth eps_v = w sqrt(A_v) min(tan theta_c, 3) (w the ``contact_line_width``
in cells): the transition from dry to the macroscopic contact angle spans about w cells. The
surface pressure is the energy's derivative per volume,

    p_s,v = (dE / dh_v) / A_v = sigma / A_v sum_{t at v} (0.5 N_t x (P_next - P_prev)) . n_v
                               + sigma (1 - cos theta_c) phi'(d_v)  (+ the counter line energy's),

N_t the unit normal of the lifted triangle. Inside the liquid the first term is sigma times the
free surface's curvature; at the edge the second one, a disjoining pressure, balances it so that
the free surface meets the ground at theta_c (the first integral of the 1D Euler-Lagrange
equation gives cos theta = 1 - (1 - cos theta_c) phi = cos theta_c where phi = 1). Its finite
value phi'(0) = 2 / eps at a dry vertex is the price per volume of wetting new ground.

That first integral is exact for a straight contact line only. Where the contact line is curved
(a drop of base radius a, its cap a sphere of radius R) the ramp's foot also carries the
azimuthal curvature sin(psi) / r, psi the foot's slope angle and r its distance from the axis,
and the same integral from d = 0 to eps gives the sphere above the ramp, extended to the ground,
the angle

    cos theta = cos theta_c + int_0^eps (1 / R - sin(psi) / r) dd  ~=  cos theta_c + J eps / R,

J = int_0^1 (1 - sin psi / sin theta_c) ds (0.18 at 60 degrees, 0.13 at 90; cos psi =
1 - (1 - cos theta_c) phi): the foot is a line tension of order sigma eps J sin(theta_c), which
flattens a drop by O(eps / a). The energy cancels it with the opposite line energy

    E_line = sigma J sin(theta_c) sum_t eps_t int_t |grad f(phi)| dA,   f = phi^2 (3 - 2 phi),

the length of the contact line (coarea formula: a full ramp counts its length once, whatever
f) times the ramp's line tension (``ramp_line_tension``; eps_t the mean over triangle t). Its
derivative, sigma J sin(theta_c) eps kappa_g per unit wetted area with kappa_g the contact
line's geodesic curvature, adds to the disjoining pressure on the ramp; f' vanishes at dry and
fully wet vertices, so the dry rim and liquid deeper than eps feel none of it. A film thinner
than eps everywhere (a few-cell wide ramp on a fine mesh) lies wholly on the ramp, where the
term straightens the level lines of its depth as the ramp's own line tension would bend them.
Measured angles: docs/guide/tension.md.

The momentum equation gets du/dt = -grad_S(p_s) / rho on wet vertices, with the Green-Gauss
gradient grad p_i = 1 / A_i sum_j 0.5 (p_j - p_i) N_ij (N the ``dual_edge_vectors``), the
adjoint of the continuity's centred flux (the hydrostatic pressure blends it with a ring fit
where friction dominates, ``kernels/pressure.py``; the capillary force does not). A dry
neighbour counts where the liquid would gain by wetting it; where its total potential
p_s / rho + |g| H is not lower it is a wall, so the liquid comes to rest at the energy's minimum
(see ``apply_capillary_force``). The mass flux respects the same walls:
``capillary_wall`` decides for one wet/dry pair; ``apply_capillary_force`` calls it for each
wet/dry entry and writes its answers, the walls of ``continuity.edge_fluxes``, in the same pass,
so no liquid enters ground that the force treats as a wall (measured: otherwise a drop's rim
creeps and flickers through those edges).

Contact-angle hysteresis (advancing theta_a, receding theta_r) holds a contact line with a
force of up to sigma (cos theta_r - cos theta_a) per unit length against its motion (the energy
sigma (cos theta_r - cos theta_a) per unit area lost when a contact line advances over ground
and recedes again). ``pin_contact_line`` applies it as Coulomb friction to the rim's columns of
liquid, after every other force of the step: a drop on a slope alpha then stays while
rho g sin(alpha) V <= sigma w (cos theta_r - cos theta_a) (Furmidge; V its volume, w its width;
measured to hold within 15 %) and runs otherwise. Without hysteresis (theta_a = theta_r)
nothing holds a drop on a slope.

Capillary waves of wavenumber k on depth d have omega^2 = (sigma / rho) d k^4 (plus the ramp's
stiffness), so the explicit step needs, for the shortest resolved wave k = pi / r (r the ring
spacing), dt <= cfl r / (2 c) with c = sqrt(d (sigma k^2 + |p'|) / rho) its phase speed (the
factor 2 leaves room for gravity waves at their own CFL limit in the same step): ``capillary_speed``,
limited in the step's CFL pass (``timestep.cfl_time_step``).
"""

import math

import numba
import numpy as np

from ._jit import parallel_kernel, serial_kernel
from .pressure import free_surface_height

MAX_CONTACT_SLOPE = 3.0


def ramp_line_tension(contact_angle_degrees: float) -> float:
    """J sin theta_c = int_0^1 (sin theta_c - sin psi(s)) ds, cos psi = 1 - (1 - cos theta_c)
    phi(s), phi(s) = 1 - (1 - s)^2: the wetting ramp's line tension per sigma eps (its foot's
    missing azimuthal slope, s = d / eps). Gauss-Legendre in u = sqrt(s), where the integrand is
    smooth (sin psi ~ sqrt(s) at the foot)."""
    theta = math.radians(contact_angle_degrees)
    nodes, weights = np.polynomial.legendre.leggauss(64)
    u = 0.5 * (nodes + 1.0)
    cos_psi = 1.0 - (1.0 - math.cos(theta)) * (1.0 - (1.0 - u * u) ** 2)
    sin_psi = np.sqrt(np.clip(1.0 - cos_psi * cos_psi, 0.0, None))
    return float(np.sum(weights * u * (math.sin(theta) - sin_psi)))


def contact_line_depth(dual_areas: np.ndarray, contact_angle_degrees: float,
                       width_cells: float) -> np.ndarray:
    """eps_v = w sqrt(A_v) min(tan theta_c, 3), the depth over which a cell becomes wet. (n,)"""
    theta = math.radians(contact_angle_degrees)
    slope = MAX_CONTACT_SLOPE if theta >= math.atan(MAX_CONTACT_SLOPE) else math.tan(theta)
    return width_cells * np.sqrt(dual_areas) * max(slope, 1e-3)


@serial_kernel
def line_level(d, eps):
    """f(phi(d)) = phi^2 (3 - 2 phi), phi = 1 - (1 - d / eps)^2 below eps (1 above): the level
    of the wetting ramp at depth d, smooth at both ends (f'(0) = f'(1) = 0)."""
    phi = 1.0 - (1.0 - d / eps) ** 2 if d < eps else 1.0
    return phi * phi * (3.0 - 2.0 * phi)


@parallel_kernel
def lift_free_surface(reach, vertices, normals, vertex_height, normal_rise, bottom, depth,
                      wetting_depth, surface):
    """The free surface over the vertices ``reach``, written into the ``records.CapillarySurface``
    surface: lifted (n, 3) = P_i = x_i + (b_i + d_i) n_i, its points, level (n,) = H_i, their
    heights along gravity (``pressure.free_surface_height``), and ramp_level (n,) = f(phi(d_i))
    (``line_level``).

    reach (int64 list; schemes/active.py): the vertices near the liquid and the others their
    rings reach, where ``surface_pressure`` and ``apply_capillary_force`` read the free surface
    (elsewhere it keeps older values); vertices, normals (n, 3); vertex_height, normal_rise,
    bottom, depth, wetting_depth eps (n,). One streaming pass: those kernels then gather one
    point, height or level per ring vertex instead of four arrays (measured 30 % faster).
    """
    lifted, level, ramp_level = surface.lifted, surface.level, surface.ramp_level
    for k in numba.prange(0, reach.shape[0]):
        i = reach[k]
        h = bottom[i] + depth[i]
        lifted[i, 0] = vertices[i, 0] + h * normals[i, 0]
        lifted[i, 1] = vertices[i, 1] + h * normals[i, 1]
        lifted[i, 2] = vertices[i, 2] + h * normals[i, 2]
        level[i] = free_surface_height(i, vertex_height, normal_rise, bottom, depth)
        ramp_level[i] = line_level(depth[i], wetting_depth[i])


@serial_kernel
def lifted_area_gradient(lifted, normals, offsets, indices, is_boundary, i):
    """d/dh_i of the area of the free surface over vertex i's ring triangles (m^2 per m), from
    the lifted points (``lift_free_surface``)."""
    start = offsets[i]
    ring_size = offsets[i + 1] - start
    n_triangles = ring_size - 1 if is_boundary[i] else ring_size
    p0, p1, p2 = lifted[i, 0], lifted[i, 1], lifted[i, 2]
    gradient = 0.0
    q = indices[start]
    a0, a1, a2 = lifted[q, 0] - p0, lifted[q, 1] - p1, lifted[q, 2] - p2
    for k in range(n_triangles):
        m = indices[start + k + 1] if k + 1 < ring_size else indices[start]
        b0, b1, b2 = lifted[m, 0] - p0, lifted[m, 1] - p1, lifted[m, 2] - p2
        c0 = a1 * b2 - a2 * b1
        c1 = a2 * b0 - a0 * b2
        c2 = a0 * b1 - a1 * b0
        norm = math.sqrt(c0 * c0 + c1 * c1 + c2 * c2)
        if norm > 0.0:
            e0, e1, e2 = b0 - a0, b1 - a1, b2 - a2
            g0 = c1 * e2 - c2 * e1
            g1 = c2 * e0 - c0 * e2
            g2 = c0 * e1 - c1 * e0
            gradient += 0.5 * (g0 * normals[i, 0] + g1 * normals[i, 1] + g2 * normals[i, 2]) / norm
        a0, a1, a2 = b0, b1, b2
    return gradient


@serial_kernel
def contact_line_length_gradient(vertices, offsets, indices, is_boundary, ramp_level,
                                 wetting_depth, i):
    """d/df_i of sum_t eps_t L_t over vertex i's ring triangles (m^2), f = ``line_level`` read
    from ramp_level (n,) (``lift_free_surface``):
    L_t = 0.5 |g_t| = int_t |grad f| dA, the length of the contact line in triangle t = (i, q, m)
    averaged over the levels of f (the coarea formula; a full ramp f = 0 -> 1 counts its length
    once), g_t = f_i (x_m - x_q) + f_q (x_i - x_m) + f_m (x_q - x_i) = (f_i - f_m) (x_m - x_q) +
    (f_q - f_m) (x_i - x_m) (exactly 0 on a level triangle, which adds nothing), eps_t the mean
    of its vertices' eps."""
    start = offsets[i]
    ring_size = offsets[i + 1] - start
    n_triangles = ring_size - 1 if is_boundary[i] else ring_size
    f_i, eps_i = ramp_level[i], wetting_depth[i]
    x0, x1, x2 = vertices[i, 0], vertices[i, 1], vertices[i, 2]
    q = indices[start]
    f_q = ramp_level[q]
    gradient = 0.0
    for k in range(n_triangles):
        m = indices[start + k + 1] if k + 1 < ring_size else indices[start]
        f_m = ramp_level[m]
        a, b = f_i - f_m, f_q - f_m
        if a != 0.0 or b != 0.0:
            e0 = vertices[m, 0] - vertices[q, 0]  # x_m - x_q
            e1 = vertices[m, 1] - vertices[q, 1]
            e2 = vertices[m, 2] - vertices[q, 2]
            g0 = a * e0 + b * (x0 - vertices[m, 0])
            g1 = a * e1 + b * (x1 - vertices[m, 1])
            g2 = a * e2 + b * (x2 - vertices[m, 2])
            norm = math.sqrt(g0 * g0 + g1 * g1 + g2 * g2)
            if norm > 0.0:
                mean_eps = (eps_i + wetting_depth[q] + wetting_depth[m]) / 3.0
                gradient += 0.5 * mean_eps * (g0 * e0 + g1 * e1 + g2 * e2) / norm
        q, f_q = m, f_m
    return gradient


@parallel_kernel
def surface_pressure(moving, resting, rings, is_boundary, vertices, normals, depth, capillarity,
                     min_depth, surface):
    """p_s = (dE/dh) / A (Pa) at every vertex that is wet or has a wet neighbour, else 0.

    moving, resting (int64 lists, together every vertex once; schemes/active.py): the vertices
    looked at, and those that are dry with no wet neighbour (p_s = 0, not near, written, on one
    thread: two stores a vertex cost less than starting a second parallel loop);
    rings a ``records.Rings`` (offsets, indices, dual_areas read); is_boundary (n,) bool;
    vertices, normals (n, 3); depth (n,); capillarity a ``records.Capillarity`` (eps_v, sigma,
    cos theta_c, J sin theta_c); surface a ``records.CapillarySurface``: its lifted points and
    ramp levels (``lift_free_surface``) are read, its pressure (n,) and near_liquid (n,) bool
    (whether the vertex or a neighbour is wet, for ``apply_capillary_force``) are written. On the
    ramp (d < eps) the pressure is

        p_s += 2 (1 - d / eps) / eps (sigma (1 - cos theta_c)
                                      + sigma J sin theta_c f'(phi) dL / df / A),

    phi' = 2 (1 - d / eps) / eps, f'(phi) = 6 phi (1 - phi) and dL / df the ring's
    ``contact_line_length_gradient``: the disjoining pressure and the counter line energy's.
    """
    offsets, indices, dual_areas = rings.offsets, rings.indices, rings.dual_areas
    wetting_depth, sigma = capillarity.wetting_depth, capillarity.sigma
    cos_contact_angle = capillarity.cos_contact_angle
    counter_tension = sigma * capillarity.ramp_tension
    lifted, pressure, near_liquid = surface.lifted, surface.pressure, surface.near_liquid
    wetting = sigma * (1.0 - cos_contact_angle)
    for k in numba.prange(0, moving.shape[0]):
        i = moving[k]
        near = depth[i] >= min_depth          # or a neighbour: the scan stops at the first wet one
        for e in range(offsets[i], offsets[i + 1]):
            if near:
                break
            near = depth[indices[e]] >= min_depth
        near_liquid[i] = near
        if not near:
            pressure[i] = 0.0
            continue
        area_gradient = lifted_area_gradient(lifted, normals, offsets, indices, is_boundary, i)
        pressure[i] = sigma * area_gradient / dual_areas[i]
        ramp = 1.0 - depth[i] / wetting_depth[i]
        if ramp > 0.0:
            phi = 1.0 - ramp * ramp
            line = counter_tension * 6.0 * phi * (1.0 - phi) * contact_line_length_gradient(
                vertices, offsets, indices, is_boundary, surface.ramp_level, wetting_depth, i)
            pressure[i] += 2.0 * ramp / wetting_depth[i] * (wetting + line / dual_areas[i])
    for k in range(resting.shape[0]):
        i = resting[k]
        near_liquid[i] = False
        pressure[i] = 0.0


@serial_kernel
def capillary_wall(wet_pressure, dry_pressure, wet_level, dry_level, hydrostatic,
                   gravity_magnitude, inverse_density):
    """Whether a dry vertex is a wall for its wet neighbour: it takes no liquid from it.

    The contact-line rule: the dry vertex is a wall when its total potential
    Phi = p_s / rho + g H is not below the wet one's, g = |g| where the wet vertex's free surface
    faces up (``hydrostatic``: normal_rise >= 0) and 0 where it overhangs (there the hydrostatic
    pressure is absent, kernels/pressure.py); H the free-surface heights (levels) as in
    ``pressure.free_surface_height``. Wetting it would not lower the capillary + hydrostatic
    energy. Scalars in, so the calls in the kernels' inner loops cost nothing (measured: with
    the arrays read inside it and its helpers, ``apply_capillary_force`` took 0.61 ms instead
    of 0.43 ms on bunny_pour, one thread).
    """
    wet_potential = wet_pressure * inverse_density
    dry_potential = dry_pressure * inverse_density
    if hydrostatic:
        wet_potential += gravity_magnitude * wet_level
        dry_potential += gravity_magnitude * dry_level
    return dry_potential >= wet_potential


@parallel_kernel
def apply_capillary_force(moving, resting, rings, levels, depth, surface, min_depth,
                          inverse_density, dt, velocity, wall):
    """u_i -= dt grad_S(p_s)_i / rho on every wet vertex, in place, with the contact-line rule;
    and its walls for the mass flux.

    A dry neighbour j is a wall (it takes no liquid) when ``capillary_wall(i, j)``: its total
    potential Phi_j = p_s,j / rho + |g| H_j is not below Phi_i. Then this kernel cancels the
    hydrostatic kernel's term for the edge, so the two together apply -grad Phi with
    Phi_j := Phi_i, and a drop rests where p_s + rho |g| H is level over its wet vertices and no
    dry neighbour is lower (the energy minimum). Otherwise the edge carries both differences in
    full. Where i's surface overhangs (no hydrostatic term) the wall's pressure difference is
    dropped.

    The same answers go to ``continuity.edge_fluxes``: wall[e] = ``capillary_wall(wet, dry)``
    for every CSR entry e = (i, j) with exactly one wet end, False elsewhere, so no liquid enters
    ground the force treats as a wall; (i, j) and (j, i) get the same answer, so the flux stays
    antisymmetric. The ring of a dry vertex away from the liquid (not ``near_liquid``) is not
    read.

    moving, resting as in ``surface_pressure`` (a resting vertex is not near the liquid: no
    wall on its ring, written on one thread); rings a ``records.Rings`` (offsets, indices,
    dual_edge_vectors, dual_areas read); levels a ``records.Levels`` (normal_rise and |g| read,
    as in ``pressure.apply_gravity_pressure``); depth (n,); surface a
    ``records.CapillarySurface``: level H (``lift_free_surface``), pressure and near_liquid
    (``surface_pressure``) read; inverse_density 1 / rho; velocity (n, 2) in each vertex's
    frame; wall (nnz,) bool is written.
    """
    offsets, indices, dual_areas = rings.offsets, rings.indices, rings.dual_areas
    dual_edge_vectors = rings.dual_edge_vectors
    normal_rise, gravity_magnitude = levels.normal_rise, levels.gravity_magnitude
    level, pressure, near_liquid = surface.level, surface.pressure, surface.near_liquid
    clear_rows(resting, offsets, wall)
    for k in numba.prange(0, moving.shape[0]):
        i = moving[k]
        if not near_liquid[i]:
            wall[offsets[i]:offsets[i + 1]] = False
            continue
        if depth[i] < min_depth:                  # dry at the rim: the walls its wet neighbours see
            for e in range(offsets[i], offsets[i + 1]):
                j = indices[e]
                wall[e] = depth[j] >= min_depth and capillary_wall(
                    pressure[j], pressure[i], level[j], level[i], normal_rise[j] >= 0.0,
                    gravity_magnitude, inverse_density)
            continue
        hydrostatic = normal_rise[i] >= 0.0
        grad0 = 0.0
        grad1 = 0.0
        for e in range(offsets[i], offsets[i + 1]):
            j = indices[e]
            weight = (pressure[j] - pressure[i]) * inverse_density
            blocked = False
            if depth[j] < min_depth:
                blocked = capillary_wall(pressure[i], pressure[j], level[i], level[j],
                                         hydrostatic, gravity_magnitude, inverse_density)
                if hydrostatic:
                    seen_rise = min(level[j] - level[i], 0.0)  # as ``pressure.seen_level``
                    if blocked:
                        weight = -gravity_magnitude * seen_rise
                    else:
                        weight += gravity_magnitude * (level[j] - level[i] - seen_rise)
                elif blocked:
                    weight = 0.0
            wall[e] = blocked
            grad0 += 0.5 * weight * dual_edge_vectors[e, 0]
            grad1 += 0.5 * weight * dual_edge_vectors[e, 1]
        scale = dt / dual_areas[i]
        velocity[i, 0] -= scale * grad0
        velocity[i, 1] -= scale * grad1


@serial_kernel
def clear_rows(rows, offsets, flags):
    """flags (nnz,) bool = False on the CSR rows ``rows`` (int64, increasing), one fill per run
    of consecutive rows (measured on bunny_pour's 19k resting vertices: 3 times faster than a
    fill per row)."""
    k = 0
    while k < rows.shape[0]:
        first = rows[k]
        while k + 1 < rows.shape[0] and rows[k + 1] == rows[k] + 1:
            k += 1
        flags[offsets[first]:offsets[rows[k] + 1]] = False
        k += 1


def hysteresis_line_force(surface_tension: float, contact_angle_degrees: float,
                          hysteresis_degrees: float) -> float:
    """sigma (cos theta_r - cos theta_a) (N/m), theta_a,r = theta_c +- hysteresis / 2 clipped
    to [0, 180] degrees: the most force per length that contact-angle hysteresis holds a contact
    line with (Furmidge)."""
    half = 0.5 * hysteresis_degrees
    advancing = math.radians(min(contact_angle_degrees + half, 180.0))
    receding = math.radians(max(contact_angle_degrees - half, 0.0))
    return surface_tension * (math.cos(receding) - math.cos(advancing))


@parallel_kernel
def pin_contact_line(offsets, indices, dual_edge_vectors, dual_areas, depth, line_force,
                     min_depth, dt, velocity):
    """Static friction of the contact line, implicit, in place on every wet vertex with a dry
    neighbour.

    Hysteresis holds the contact line with a force of up to f = sigma (cos theta_r -
    cos theta_a) per unit length, against its motion. The contact line crosses vertex i's cell
    along the dual edges towards its dry neighbours, of length l_i = sum_{j dry} |N_ij|, so the
    column of liquid on i (mass rho d_i A_i) is slowed by at most

        a_i = f l_i / (rho d_i A_i),   u_i <- u_i max(0, 1 - dt a_i / |u_i|):

    Coulomb friction, which stops the vertex rather than reversing it, so it only ever takes
    energy out. The rest of the drop is held through the pressure on its rim's columns; on a
    30 degree incline the measured threshold is Furmidge's rho g sin(alpha) V = f w (w the drop's
    width) within 15 % (tests/test_tension.py).

    offsets (n + 1,), indices (nnz,); dual_edge_vectors (nnz, 2); dual_areas, depth (n,);
    line_force f / rho (m^3/s^2); velocity (n, 2) in each vertex's frame.
    """
    for i in numba.prange(0, depth.shape[0]):
        if depth[i] < min_depth:
            continue
        length = 0.0
        for e in range(offsets[i], offsets[i + 1]):
            if depth[indices[e]] < min_depth:
                length += math.sqrt(dual_edge_vectors[e, 0] ** 2 + dual_edge_vectors[e, 1] ** 2)
        speed = math.sqrt(velocity[i, 0] ** 2 + velocity[i, 1] ** 2)
        if length == 0.0 or speed == 0.0:
            continue
        slowing = dt * line_force * length / (dual_areas[i] * depth[i])
        keep = 1.0 - slowing / speed if slowing < speed else 0.0
        velocity[i, 0] *= keep
        velocity[i, 1] *= keep


@serial_kernel
def capillary_speed(d, ring_spacing, wetting_depth, sigma, cos_contact_angle, density):
    """c = sqrt(d (sigma k^2 + |p'|) / rho) (m/s), the phase speed of the shortest resolved
    capillary wave k = pi / r on depth d, p' = 2 sigma (1 - cos theta_c) / eps^2 the ramp's
    stiffness where d < eps: what ``timestep.cfl_time_step`` limits dt <= cfl r / (2 c) by."""
    k = math.pi / ring_spacing
    stiffness = sigma * k * k
    if d < wetting_depth:
        stiffness += 2.0 * sigma * (1.0 - cos_contact_angle) / wetting_depth ** 2
    return math.sqrt(d * stiffness / density)
