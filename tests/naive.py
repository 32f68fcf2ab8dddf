"""Slow, plainly written reference versions of every runtime kernel.

Each takes a SurfaceGeometry and plain arrays, loops in Python, and returns new arrays (nothing
in place). They follow the equations in the kernel modules' docstrings, written independently:
the continuity reference visits each undirected edge once and scatters, the advection reference
tests every ring triangle with numpy, the friction reference calls np.linalg.solve.
"""

import numpy as np

from surfflow.kernels import tracers
from surfflow.kernels.records import Rings
from surfflow.kernels.tuning import EXPANSION_RAMP
from surfflow.kernels.tuning import SENSOR_SMOOTH as SMOOTH


def donor_velocity_rings(geom) -> Rings:
    """The ``records.Rings`` of ``geom`` with no velocity gradient: zero fit weights and zero ring
    offsets (the upwind-weighted fit's), so the continuity kernels carry each donor's own
    velocity, as ``continuity`` below does."""
    no_fit = np.zeros((len(geom.neighbor_indices), 2))
    return Rings(geom.neighbor_offsets, geom.neighbor_indices, geom.reverse_edges,
                 geom.dual_edge_vectors, geom.dual_edge_vectors[geom.reverse_edges],
                 geom.edge_transforms, no_fit, no_fit, geom.dual_areas)


def ring(geom, i):
    """CSR entries and neighbour indices of vertex i's one-ring."""
    entries = range(geom.neighbor_offsets[i], geom.neighbor_offsets[i + 1])
    return [(e, int(geom.neighbor_indices[e])) for e in entries]


def cell_size(geom, i):
    """4 A_i / P_i, P_i the sum of i's dual edges |N_ij|."""
    perimeter = sum(np.linalg.norm(geom.dual_edge_vectors[e]) for e, _ in ring(geom, i))
    return 4.0 * geom.dual_areas[i] / perimeter


def time_step(geom, depth, velocity, gravity_magnitude, min_depth, cfl, max_dt):
    """dt = min(max_dt, cfl min_wet r_i / (|u_i| + sqrt(g d_i))), r_i the dual cell's size."""
    best = np.inf
    for i in range(geom.n_vertices):
        if depth[i] < min_depth:
            continue
        r = cell_size(geom, i)
        speed = np.linalg.norm(velocity[i]) + np.sqrt(gravity_magnitude * depth[i])
        if speed > 0:
            best = min(best, r / speed)
    return min(max_dt, cfl * best)


def sources(depth, velocity, dye, inflow_rate, sink_rate, dye_inflow_rate, dt):
    """Returns (depth, velocity, dye, removed depth) after inflow at rest (the momentum d u
    kept), dye mixing and limited sinks."""
    depth, velocity, dye = depth.copy(), velocity.copy(), dye.copy()
    removed = np.zeros_like(depth)
    for i in range(len(depth)):
        new = depth[i] + dt * inflow_rate[i]
        if new > 0:
            velocity[i] = velocity[i] * depth[i] / new
            dye[i] = (dye[i] * depth[i] + dt * dye_inflow_rate[i]) / new
        removed[i] = min(new, dt * sink_rate[i])
        depth[i] = new - removed[i]
    return depth, velocity, dye, removed


def barycentric(p, a, b):
    """(l0, l1, l2) with p = l1 a + l2 b in the triangle (0, a, b)."""
    l1, l2 = np.linalg.solve(np.column_stack([a, b]), p)
    return np.array([1.0 - l1 - l2, l1, l2])


def advection(geom, depth, velocity, min_depth, dt):
    """Semi-Lagrangian velocity: interpolate at the foot point -dt u_i in the ring triangle that
    holds it (clamped to the best triangle if none does). Returns (n, 2)."""
    out = np.zeros_like(velocity)
    for i in range(geom.n_vertices):
        if depth[i] < min_depth:
            continue
        entries = ring(geom, i)
        n_tri = len(entries) - 1 if geom.is_boundary[i] else len(entries)
        candidates = []
        for k in range(n_tri):
            (e0, j), (e1, m) = entries[k], entries[(k + 1) % len(entries)]
            lam = barycentric(-dt * velocity[i], geom.neighbor_coords[e0], geom.neighbor_coords[e1])
            candidates.append((lam, e0, j, e1, m))
        inside = [c for c in candidates if c[0].min() >= 0]
        lam, e0, j, e1, m = inside[0] if inside else max(candidates, key=lambda c: c[0].min())
        lam = np.maximum(lam, 0.0) / np.maximum(lam, 0.0).sum()
        out[i] = (lam[0] * velocity[i] + lam[1] * geom.edge_transforms[e0] @ velocity[j]
                  + lam[2] * geom.edge_transforms[e1] @ velocity[m])
    return out


def free_surface_height(geom, bottom, depth, gravity):
    """H_i = e . (x_i + (b_i + d_i) n_i), e = -g/|g|. Returns (n,)."""
    up = -np.asarray(gravity) / np.linalg.norm(gravity)
    points = geom.vertices + (bottom + depth)[:, None] * geom.normals
    return points @ up


def ring_fit_gradient(geom, i, values):
    """Gradient at i of the least-squares fit of values_j - values_i over i's one-ring by
    g . c + 0.5 c^T K c (by g . c where fewer than 5 neighbours leave K undetermined)."""
    entries = ring(geom, i)
    c = geom.neighbor_coords[[e for e, _ in entries]]
    rhs = np.array([values[j] - values[i] for _, j in entries])
    design = np.column_stack([c, 0.5 * c[:, 0] ** 2, c[:, 0] * c[:, 1], 0.5 * c[:, 1] ** 2])
    if len(entries) < 5 or np.linalg.matrix_rank(design) < 5:
        design = c
    return np.linalg.lstsq(design, rhs, rcond=None)[0][:2]


def gravity_pressure(geom, bottom, depth, velocity, gravity, min_depth, dt, share):
    """u + dt F with F = -|g| ((1 - share) Green-Gauss + share least-squares fit) grad H (walls at
    dry higher neighbours), or g_t on the underside."""
    gravity = np.asarray(gravity, dtype=float)
    g = np.linalg.norm(gravity)
    height = free_surface_height(geom, bottom, depth, gravity)
    out = velocity.copy()
    for i in range(geom.n_vertices):
        if depth[i] < min_depth:
            continue
        if gravity @ geom.normals[i] > 0:
            out[i] += dt * geom.tangent_frames[i] @ gravity
            continue
        seen = height.copy()
        for _, j in ring(geom, i):
            if depth[j] < min_depth and height[j] > height[i]:
                seen[j] = height[i]
        green_gauss = np.zeros(2)
        for e, j in ring(geom, i):
            green_gauss += 0.5 * (seen[j] - height[i]) * geom.dual_edge_vectors[e]
        green_gauss /= geom.dual_areas[i]
        fit = ring_fit_gradient(geom, i, seen)
        out[i] -= dt * g * ((1.0 - share[i]) * green_gauss + share[i] * fit)
    return out


def friction(geom, depth, velocity, damping, model, gamma, viscosity, laminar_min_depth, dt):
    """Solve (I + dt (c T_i + sigma_i I)) u_new = u per vertex, c = gamma or 3 nu / d^2.
    Returns (velocity, friction share min(1, dt trace(c T_i + sigma_i I) / 2))."""
    out = np.empty_like(velocity)
    share = np.empty(geom.n_vertices)
    for i in range(geom.n_vertices):
        c = gamma if model == "linear" else 3 * viscosity / max(depth[i], laminar_min_depth) ** 2
        rates = c * geom.friction_tensors[i] + damping[i] * np.eye(2)
        out[i] = np.linalg.solve(np.eye(2) + dt * rates, velocity[i])
        share[i] = min(1.0, 0.5 * dt * np.trace(rates))
    return out, share


def tracer_faces(geom, values, wet, volume, edges, alpha, boundary, dt, back):
    """(nnz, k) concentrations of each entry's vertex i at the edge midpoint moved back by
    back_i (n, 2), c_i + p theta phi g . (c_ij / 2 - back_i) on the entries i sends through
    (p = min(1, F / (EXPANSION_RAMP F_max)) the face's share, F_max i's largest outflow): g the
    ring fit's gradient (zero unless i and its ring are wet), phi the largest factor, at most the
    compression cap (1 where the linear fit explains the ring, up to COMPRESSION where the misfit
    share sum |c_j - c_i - g . c_ij| / sum |c_j - c_i| is large), keeping every such point within
    the ring's range [low, high], theta the largest <= 1 with (V - O) c - theta E within
    (V - O) [low, high], O the carrier volume leaving i (``edges`` (donor, receiver, flux,
    receiver's entry) and the boundary flux, scaled by dt alpha_i), E the same fluxes times the
    excesses p phi g . (c_ij / 2 - back_i)."""
    faces = np.repeat(values, np.diff(geom.neighbor_offsets), axis=0)
    for i in range(geom.n_vertices):
        entries, ring_vertices = zip(*ring(geom, i))
        entries = list(entries)
        if not (wet[i] and wet[list(ring_vertices)].all()):
            continue
        out = [(geom.reverse_edges[entry], flux) for donor, _, flux, entry in edges if donor == i]
        largest = max((flux for _, flux in out), default=0.0)
        shares = np.zeros(len(entries))  # each face's share p, 0 where i sends nothing
        for e, flux in out:
            shares[entries.index(e)] = min(1.0, flux / (EXPANSION_RAMP * largest)) if flux else 0.0
        leaving = dt * alpha[i] * (boundary[i] + sum(flux for _, flux in out))
        for k in range(values.shape[1]):
            c = values[:, k]
            low, high = c[[i, *ring_vertices]].min(), c[[i, *ring_vertices]].max()
            gradient = ring_fit_gradient(geom, i, c)
            diffs = c[list(ring_vertices)] - c[i]
            misfit = np.abs(diffs - geom.neighbor_coords[entries] @ gradient).sum()
            share = misfit / np.abs(diffs).sum() if np.abs(diffs).sum() > 0 else 0.0
            rise = np.clip((share - tracers.SMOOTH_MISFIT)
                           / (tracers.JUMP_MISFIT - tracers.SMOOTH_MISFIT), 0.0, 1.0)
            cap = 1.0 + (tracers.COMPRESSION - 1.0) * rise
            excess = (0.5 * geom.neighbor_coords[entries] - back[i]) @ gradient * shares
            bounds = [(high - c[i]) / x if x > 0 else (low - c[i]) / x for x in excess if x != 0]
            phi = max(0.0, min([cap, *bounds]))
            pushed = dt * alpha[i] * phi * sum(flux * excess[entries.index(e)] for e, flux in out)
            room = max(0.0, volume[i] - leaving) * ((c[i] - low) if pushed > 0 else (high - c[i]))
            theta = 1.0 if pushed == 0 or room >= abs(pushed) else max(room, 0.0) / abs(pushed)
            faces[entries, k] = c[i] + theta * phi * excess
    return faces


def froude_share(jump, depth_sum, stiffness_sum, normal, reverse_normal):
    """clamp(Fr - 1, 0, 1) of a dual edge: Fr = |jump / 2| / (|N| sqrt(K d)), the mean normal
    velocity over the wave speed, K = stiffness_sum / 2, d = depth_sum / 2, |N|^2 the mean of the
    two dual edge vectors' squares; 1 where nothing supports a wave."""
    speed2 = (0.5 * jump) ** 2
    support = (0.25 * stiffness_sum * depth_sum
               * 0.5 * (normal @ normal + reverse_normal @ reverse_normal))
    if speed2 <= support:
        return 0.0
    return 1.0 if support <= 0.0 else min(1.0, np.sqrt(speed2 / support) - 1.0)


def shock_sensor(geom, depth, min_depth, share, gravity, wall_projections):
    """((nu - nu_0)+ / (1 - nu_0))^3 (n,), nu_0 = ``SMOOTH``: nu_i = |sum_j (r_ij - G_i . c_ij)| /
    (sum_j |r_ij| + |G_i . sum_j c_ij| + 1e-12 d_i), r_ij = d_j - d_i, G_i the ring fit's gradient
    of the depth projected along a wall (``wall_projections`` (n, 2, 2)), at the wet vertices
    whose whole ring is wet, whose friction share is below 1 and that do not face away from
    gravity; 0 elsewhere."""
    sensor = np.zeros(geom.n_vertices)
    for i in range(geom.n_vertices):
        entries = ring(geom, i)
        if (depth[i] < min_depth or share[i] >= 1.0 or np.asarray(gravity) @ geom.normals[i] > 0
                or any(depth[j] < min_depth for _, j in entries)):
            continue
        rises = np.array([depth[j] - depth[i] for _, j in entries])
        explained = (wall_projections[i] @ ring_fit_gradient(geom, i, depth)) @ geom.neighbor_coords[
            [e for e, _ in entries]].sum(axis=0)
        spread = np.abs(rises).sum() + abs(explained) + 1e-12 * depth[i]
        nu = abs(rises.sum() - explained) / spread
        sensor[i] = (max(0.0, nu - SMOOTH) / (1.0 - SMOOTH)) ** 3
    return sensor


def landshoff_speed(geom, e, r, i, j, depth, normal_gravity, sensor):
    """C max(s_i, s_j) sqrt(g_n d) |N| (m^2/s) of the dual edge e = (i, j), r = (j, i), s the
    ``shock_sensor``:
    g_n and d the ends' means, |N| the root mean square of the two dual edge vectors' lengths
    (kernels/continuity.py); 0 where g_n <= 0."""
    support = 0.25 * (normal_gravity[i] + normal_gravity[j]) * (depth[i] + depth[j])
    size = np.sqrt(0.5 * (geom.dual_edge_vectors[e] @ geom.dual_edge_vectors[e]
                          + geom.dual_edge_vectors[r] @ geom.dual_edge_vectors[r]))
    return max(sensor[i], sensor[j]) * np.sqrt(max(support, 0.0)) * size


def ramp_share(geom, e, i, j, depth, velocity, stiffness, opening):
    """min(1, opening / (EXPANSION_RAMP v)) of the dual edge e = (i, j), opening > 0 (m^2/s):
    v^2 = |N|^2 (c^2 + (|u_i|^2 + |u_j|^2) / 2), |N|^2 the mean of the two dual edge vectors'
    squares, c^2 = K d with K = ``stiffness`` and d the two ends' means (kernels/continuity.py's
    ``expansion_share``)."""
    r = geom.reverse_edges[e]
    size2 = 0.5 * (geom.dual_edge_vectors[e] @ geom.dual_edge_vectors[e]
                   + geom.dual_edge_vectors[r] @ geom.dual_edge_vectors[r])
    wave2 = max(0.25 * (stiffness[i] + stiffness[j]) * (depth[i] + depth[j]), 0.0)
    flow2 = 0.5 * (velocity[i] @ velocity[i] + velocity[j] @ velocity[j])
    return min(1.0, opening / (EXPANSION_RAMP * np.sqrt(size2 * (wave2 + flow2))))


def continuity(geom, bottom, depth, velocity, dye, friction_share, gravity, outflow_normals,
               min_depth, dt, is_wall=None, level_shift=0.0, sensor=None, expansion_head=False):
    """Outflow-limited finite volumes: between wet vertices the blend (1 - phi) C + phi U of the
    centred flux C = 0.5 (d_i a - d_j b) and the upwind flux U = d_up 0.5 (a - b), a = u_i . N_ij,
    b = u_j . N_ji, phi the larger of the mean friction share and ``froude_share``, C plus
    max(0, a + b) + ``landshoff_speed`` (of ``sensor`` (n,), zeros if None; turned on as
    min(1, (a + b) / (EXPANSION_RAMP |N| (c^2 + |u|^2)^(1/2)))) times the smaller of
    L_i - L_j and d_i - d_j where they agree in sign and the flow converges (L = H +
    ``level_shift``, H the free-surface height, the shift the surface pressure's head
    p / (rho |g|)); d_wet max(0, u_wet . N) out of a wet vertex into a dry one
    that is no wall: ``is_wall(wet, dry)`` if given, else the dry one stands above the
    wet one's free surface. Each undirected edge is visited once and its flux scattered to both
    ends; the momentum A d u rides on the same limited fluxes with the donor's velocity (carried
    into the receiver's frame), so a vertex with inflow takes the new momentum over the new
    volume; with ``expansion_head``, a wet receiver
    whose edge opens (a + b < 0 seen from it) takes instead dt / A c / d' (v - u) from
    that inflow w, v = M u_donor, c = (1 - theta) w + theta min(w, d' max(0, (b - a) / 2)) (d' its
    new depth, theta = min(1, -(a + b) / (EXPANSION_RAMP |N| (c^2 + |u|^2)^(1/2))), the means of
    the two ends), raised, to at most w, until w (|u|^2 - |v|^2) / 2 - c u . (u - v)
    + (w - w_c) |g| (L_receiver - L_donor) <= 0, w_c = 0.5 (d_donor b - d_receiver a) alpha_donor
    (where even w leaves energy made, the whole raise while it removes at least EXPANSION_RAMP
    of that energy, tapering beyond);
    dyes ride on the limited fluxes with the donor's ``tracer_faces``.
    Returns (depth, velocity, dye, outflow volume per vertex)."""
    n = geom.n_vertices
    wet = depth >= min_depth
    height = geom.vertices @ (-gravity / np.linalg.norm(gravity)) + (bottom + depth) * (
        geom.normals @ (-gravity / np.linalg.norm(gravity)))
    if is_wall is None:
        def is_wall(wet_end, dry_end):
            return height[dry_end] > height[wet_end]
    level = height + level_shift
    stiffness = -(geom.normals @ gravity)  # |g| (e . n), the normal gravity
    gravity_size = np.linalg.norm(gravity)
    sensor = np.zeros(n) if sensor is None else sensor
    edges = []
    for i in range(n):
        for e, j in ring(geom, i):
            if i < j:
                r = geom.reverse_edges[e]
                normal_i = velocity[i] @ geom.dual_edge_vectors[e]
                normal_j = velocity[j] @ geom.dual_edge_vectors[r]
                if wet[i] and wet[j]:
                    phi = max(0.5 * (friction_share[i] + friction_share[j]),
                              froude_share(normal_i - normal_j, depth[i] + depth[j],
                                           stiffness[i] + stiffness[j],
                                           geom.dual_edge_vectors[e], geom.dual_edge_vectors[r]))
                    upwind = 0.5 * (normal_i - normal_j) * (depth[i] if normal_i > normal_j else depth[j])
                    centred = 0.5 * (depth[i] * normal_i - depth[j] * normal_j)
                    drops = np.array([level[i] - level[j], depth[i] - depth[j]])
                    agree = np.all(drops > 0) or np.all(drops < 0)
                    shared = np.min(np.abs(drops)) * np.sign(drops[0]) if agree else 0.0
                    closing = normal_i + normal_j
                    if closing > 0.0:  # Landshoff's term, turned on over EXPANSION_RAMP
                        onset = ramp_share(geom, e, i, j, depth, velocity, stiffness, closing)
                        closing += onset * landshoff_speed(geom, e, r, i, j, depth, stiffness,
                                                           sensor)
                    compression = max(0.0, closing) * shared
                    flux = (1 - phi) * (centred + compression) + phi * upwind
                elif wet[i] and not is_wall(i, j):
                    flux = depth[i] * max(normal_i, 0.0)
                elif wet[j] and not is_wall(j, i):
                    flux = -depth[j] * max(normal_j, 0.0)
                else:
                    flux = 0.0
                donor, receiver = (i, j) if flux > 0 else (j, i)
                edges.append((donor, receiver, abs(flux), e if donor == j else r))
    boundary = np.where(wet, depth * np.maximum(0.0, np.einsum("ia,ia->i", velocity, outflow_normals)), 0.0)
    outgoing = boundary.copy()
    for donor, _, flux, _ in edges:
        outgoing[donor] += flux
    volume = geom.dual_areas * depth
    alpha = np.ones(n)
    limited = dt * outgoing > volume
    alpha[limited] = volume[limited] / (dt * outgoing[limited])
    new_volume = volume - dt * alpha * boundary
    dye_volume = volume[:, None] * dye - dt * (alpha * boundary)[:, None] * dye
    faces = tracer_faces(geom, dye, depth >= min_depth, volume, edges, alpha, boundary, dt,
                         0.5 * dt * velocity)
    inflow = np.zeros(n)
    momentum = (geom.dual_areas * depth)[:, None] * velocity - (dt * alpha * boundary)[:, None] * velocity
    for donor, receiver, flux, entry in edges:
        moved = dt * alpha[donor] * flux
        new_volume[donor] -= moved
        new_volume[receiver] += moved
        carried = moved * faces[geom.reverse_edges[entry]]
        dye_volume[donor] -= carried
        dye_volume[receiver] += carried
        inflow[receiver] += alpha[donor] * flux
        momentum[donor] -= moved * velocity[donor]
        momentum[receiver] += moved * geom.edge_transforms[entry] @ velocity[donor]
    new_volume = np.maximum(new_volume, 0.0)
    safe = np.where(new_volume > 0, new_volume, 1.0)[:, None]
    new_dye = np.where(new_volume[:, None] > 0, np.clip(dye_volume / safe, 0.0, 1.0), 0.0)
    new_velocity = velocity.copy()
    fed = inflow > 0
    new_velocity[fed] = momentum[fed] / new_volume[fed, None]
    if expansion_head:
        new_depth = new_volume / geom.dual_areas
        pulls = {}
        for donor, receiver, flux, entry in edges:
            if not (wet[receiver] and flux > 0.0 and new_volume[receiver] > 0.0):
                continue
            carried = geom.edge_transforms[entry] @ velocity[donor]
            a = velocity[receiver] @ geom.dual_edge_vectors[entry]
            b = velocity[donor] @ geom.dual_edge_vectors[geom.reverse_edges[entry]]
            weight = alpha[donor] * flux
            if a + b < 0.0:
                theta = ramp_share(geom, entry, receiver, donor, depth, velocity, stiffness,
                                   -(a + b))
                energy = min(weight, new_depth[receiver] * max(0.5 * (b - a), 0.0))
                energy = (1.0 - theta) * weight + theta * energy
                centred = 0.5 * (depth[donor] * b - depth[receiver] * a) * alpha[donor]
                released = (weight - centred) * gravity_size * (level[receiver] - level[donor])
                u = velocity[receiver]
                slope = u @ (u - carried)
                made = 0.5 * weight * (u @ u - carried @ carried) - energy * slope + released
                if made > 0.0 and slope > 0.0:
                    if weight <= energy:
                        energy = weight
                    else:  # the share r of the raise that makes no energy, tapered past 1 / eps
                        share = made / ((weight - energy) * slope)
                        energy += (weight - energy) * (share if share <= 1.0 else
                                                       min(1.0, 1.0 / (EXPANSION_RAMP * share)))
                weight = energy
            pulls.setdefault(receiver, []).append(weight * (carried - velocity[receiver]))
        for receiver, pull in pulls.items():
            new_velocity[receiver] = velocity[receiver] + dt * np.sum(pull, axis=0) / new_volume[receiver]
    return new_volume / geom.dual_areas, new_velocity, new_dye, dt * alpha * boundary
