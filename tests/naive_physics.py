"""Slow, plainly written reference versions of the tension, wind and dissolution kernels.

Each takes a SurfaceGeometry and plain arrays, loops in Python and returns new arrays. They are
written independently of the kernels: the surface pressure differentiates the lifted ring area
by central finite differences, the wind grid is sampled with scipy's RegularGridInterpolator,
the drag integrates its ODE with many small explicit steps.
"""

import numpy as np
from scipy.interpolate import RegularGridInterpolator

from naive import cell_size, free_surface_height, ring


def ring_triangles(geom, i):
    """The (j, k) pairs of vertex i's ring triangles (i, j, k), counter-clockwise."""
    entries = [j for _, j in ring(geom, i)]
    count = len(entries) - 1 if geom.is_boundary[i] else len(entries)
    return [(entries[k], entries[(k + 1) % len(entries)]) for k in range(count)]


def lifted_ring_area(geom, height, i):
    """Area of the free surface x + h n over vertex i's ring triangles."""
    P = geom.vertices + height[:, None] * geom.normals
    return sum(0.5 * np.linalg.norm(np.cross(P[j] - P[i], P[k] - P[i]))
               for j, k in ring_triangles(geom, i))


def ring_line_length(geom, depth, wetting_depth, i):
    """sum over vertex i's ring triangles t of eps_t int_t |grad f| dA, f = phi^2 (3 - 2 phi) the
    ramp's level (phi = 1 - (1 - d/eps)^2 below eps), grad f the in-plane gradient of its linear
    interpolant (pseudo-inverse of the two edge vectors), eps_t the mean of the corners' eps."""
    phi = np.where(depth < wetting_depth, 1 - (1 - depth / wetting_depth) ** 2, 1.0)
    level = phi ** 2 * (3 - 2 * phi)
    total = 0.0
    for j, k in ring_triangles(geom, i):
        edges = np.array([geom.vertices[j] - geom.vertices[i], geom.vertices[k] - geom.vertices[i]])
        grad = np.linalg.pinv(edges) @ np.array([level[j] - level[i], level[k] - level[i]])
        area = 0.5 * np.linalg.norm(np.cross(edges[0], edges[1]))
        total += area * np.linalg.norm(grad) * wetting_depth[[i, j, k]].mean()
    return total


def surface_pressure(geom, bottom, depth, wetting_depth, sigma, cos_contact_angle, min_depth,
                     ramp_tension=0.0):
    """p_s = (dE/dh)/A by finite differences of the lifted area and of the counter line energy
    sigma ramp_tension sum_t eps_t L_t (``ring_line_length``), plus the wetting ramp's
    derivative; zero where the vertex and its ring are dry. Returns (n,)."""
    pressure = np.zeros(geom.n_vertices)
    for i in range(geom.n_vertices):
        if all(depth[v] < min_depth for v in [i] + [j for _, j in ring(geom, i)]):
            continue
        step = 1e-6 * max(1.0, abs(bottom[i] + depth[i]))
        up, down = bottom + depth, bottom + depth
        up[i] += step
        down[i] -= step
        rise = lifted_ring_area(geom, up, i) - lifted_ring_area(geom, down, i)
        area_gradient = rise / (2 * step)
        eps = wetting_depth[i]
        ramp_slope = 2.0 * (1.0 - depth[i] / eps) / eps if depth[i] < eps else 0.0
        line_gradient = 0.0
        if depth[i] < eps:
            step = 1e-7 * eps
            deeper, shallower = depth.copy(), depth.copy()
            deeper[i] += step
            shallower[i] -= step
            line_gradient = (ring_line_length(geom, deeper, wetting_depth, i)
                             - ring_line_length(geom, shallower, wetting_depth, i)) / (2 * step)
        pressure[i] = (sigma * (area_gradient + ramp_tension * line_gradient) / geom.dual_areas[i]
                       + sigma * (1.0 - cos_contact_angle) * ramp_slope)
    return pressure


def capillary_wall(geom, bottom, depth, pressure, gravity, density):
    """The contact-line rule as a predicate wall(wet, dry): the dry vertex's potential
    p / rho + g H is not below the wet one's (g = |g| where the wet vertex faces up, else 0)."""
    magnitude = np.linalg.norm(gravity)
    H = free_surface_height(geom, bottom, depth, gravity)
    faces_up = geom.normals @ (-np.asarray(gravity) / magnitude) >= 0

    def wall(wet, dry):
        g = magnitude if faces_up[wet] else 0.0
        return pressure[dry] / density + g * H[dry] >= pressure[wet] / density + g * H[wet]
    return wall


def capillary_force(geom, bottom, depth, pressure, gravity, density, min_depth, velocity, dt):
    """u - dt grad(p_s)/rho on wet vertices; a dry neighbour whose potential p/rho + |g| H is
    not lower is a wall for the sum of this force and the hydrostatic one (which is absent
    where the surface faces away from gravity). Returns (n, 2)."""
    magnitude = np.linalg.norm(gravity)
    H = np.zeros(geom.n_vertices)
    faces_up = np.ones(geom.n_vertices, bool)
    if magnitude > 0:
        H = free_surface_height(geom, bottom, depth, gravity)
        faces_up = geom.normals @ (-np.asarray(gravity) / magnitude) >= 0
    out = velocity.copy()
    for i in range(geom.n_vertices):
        if depth[i] < min_depth:
            continue
        g = magnitude if faces_up[i] else 0.0
        gradient = np.zeros(2)
        for e, j in ring(geom, i):
            difference = (pressure[j] - pressure[i]) / density
            if depth[j] < min_depth:
                hydrostatic_seen = g * min(H[j] - H[i], 0.0)
                if pressure[j] / density + g * H[j] >= pressure[i] / density + g * H[i]:
                    difference = -hydrostatic_seen
                else:
                    difference += g * (H[j] - H[i]) - hydrostatic_seen
            gradient += 0.5 * difference * geom.dual_edge_vectors[e]
        out[i] -= dt * gradient / geom.dual_areas[i]
    return out


def contact_line_friction(geom, depth, line_force, min_depth, velocity, dt):
    """Coulomb friction of the contact line: a wet vertex with dry neighbours loses up to
    dt f l / (d A) of its speed (l the summed lengths of the dual edges towards its dry
    neighbours, f the force per length over rho), stopping rather than reversing. (n, 2)"""
    out = velocity.copy()
    for i in range(geom.n_vertices):
        if depth[i] < min_depth:
            continue
        rim = sum(np.linalg.norm(geom.dual_edge_vectors[e]) for e, j in ring(geom, i)
                  if depth[j] < min_depth)
        speed = np.linalg.norm(velocity[i])
        if rim == 0 or speed == 0:
            continue
        slowing = dt * line_force * rim / (depth[i] * geom.dual_areas[i])
        out[i] = velocity[i] * max(0.0, 1.0 - slowing / speed)
    return out


def capillary_time_steps(geom, depth, wetting_depth, sigma, cos_contact_angle, density,
                         min_depth, cfl):
    """(n,): cfl r / (2 sqrt(d (sigma (pi/r)^2 + ramp stiffness) / rho)) at each wet vertex,
    inf at the dry ones."""
    limits = np.full(geom.n_vertices, np.inf)
    for i in range(geom.n_vertices):
        if depth[i] < min_depth:
            continue
        r = cell_size(geom, i)
        stiffness = sigma * (np.pi / r) ** 2
        if depth[i] < wetting_depth[i]:
            stiffness += 2 * sigma * (1 - cos_contact_angle) / wetting_depth[i] ** 2
        limits[i] = cfl * r / (2 * np.sqrt(depth[i] * stiffness / density))
    return limits


def capillary_time_step(geom, depth, wetting_depth, sigma, cos_contact_angle, density,
                        min_depth, cfl):
    """min over wet i of :func:`capillary_time_steps`."""
    return float(capillary_time_steps(geom, depth, wetting_depth, sigma, cos_contact_angle,
                                      density, min_depth, cfl).min())


def wind_drag(geom, wind, depth, coefficient, min_depth, dt, velocity):
    """u + dt c_w (w_t - u) on wet vertices, w_t the wind projected on the frame. (n, 2)"""
    out = velocity.copy()
    for i in range(geom.n_vertices):
        if depth[i] >= min_depth:
            out[i] += dt * coefficient * (geom.tangent_frames[i] @ wind[i] - velocity[i])
    return out


def wind_grid_sample(origin, spacing, values, positions):
    """Trilinear interpolation with scipy, positions clamped to the grid box. (n, 3)"""
    axes = [origin[a] + spacing[a] * np.arange(values.shape[a]) for a in range(3)]
    clamped = np.clip(positions, [ax[0] for ax in axes], [ax[-1] for ax in axes])
    return RegularGridInterpolator(axes, values)(clamped)


def soluble_exchange(depth, velocity, layer, dissolved, solute_velocity, rate, solubility,
                     min_depth, dt):
    """Dissolution limited by the layer and the solubility, or precipitation of the excess.
    Returns new (layer, dissolved, solute_velocity)."""
    layer, dissolved, solute_velocity = layer.copy(), dissolved.copy(), solute_velocity.copy()
    for i in range(len(depth)):
        d = depth[i] if depth[i] >= min_depth else 0.0
        room = solubility * d - dissolved[i]
        if room < 0:
            layer[i] += -room
            dissolved[i] = solubility * d
        else:
            wanted = dt * rate * (d + dissolved[i]) * np.linalg.norm(velocity[i])
            taken = min(wanted, layer[i], room)
            if taken > 0:
                solute_velocity[i] *= dissolved[i] / (dissolved[i] + taken)
                layer[i] -= taken
                dissolved[i] += taken
        if dissolved[i] <= 0:
            solute_velocity[i] = 0.0
    return layer, dissolved, solute_velocity


def drag_exchange(depth, velocity, dissolved, solute_velocity, density_ratio, drag, min_depth,
                  dt, substeps=20000):
    """Integrate d du/dt = -r s c_d |w| w, du_s/dt = c_d |w| w (w = u - u_s) with many explicit
    Euler substeps. Returns new (velocity, solute_velocity)."""
    u, us = velocity.copy(), solute_velocity.copy()
    h = dt / substeps
    for i in range(len(depth)):
        mass = density_ratio * dissolved[i]
        if depth[i] < min_depth or mass <= 0:
            continue
        for _ in range(substeps):
            w = u[i] - us[i]
            force = drag * np.linalg.norm(w) * w
            us[i] = us[i] + h * force
            u[i] = u[i] - h * mass / depth[i] * force
    return u, us
