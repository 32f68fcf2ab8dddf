"""Numba kernels of the embedded droplet system: free flight, neighbour lists, interaction.

Free flight under gravity g and linear air drag k (1/s), integrated exactly over a step:

    dv/dt = g - k v   =>   v' = v e^{-k dt} + g (1 - e^{-k dt}) / k
                           x' = x + v phi + g (dt - phi) / k,   phi = (1 - e^{-k dt}) / k

(k = 0: phi = dt, x' = x + v dt + g dt^2 / 2, the ballistic parabola to round-off).

Interaction, one Jacobi pass per step (every particle gathers from its neighbours and writes only
its own row, so any thread count gives the same numbers). Particle i is a sphere of radius
r_i = (3 V_i / 4 pi)^(1/3). Two kinds of neighbour effect:

* separation: overlapping spheres (|x_ij| < r_i + r_j) push i out by
  s (r_i + r_j - |x_ij|) / 2 along n_ij = x_ij / |x_ij| (s in [0, 1]) (position-based,
  unconditionally stable), and the pair's contact is inelastic: i's velocity gains
  n_ij min(s (r_i + r_j - |x_ij|) / (2 dt), c_ij / 2), c_ij = max(0, -(v_i - v_j) . n_ij) the
  speed at which they close. The push's velocity, shift / dt, is capped by what stops the
  closing: two drops made or merged overlapping are moved apart without being thrown apart
  (shift / dt turns a millimetre's overlap into 100 m/s at dt = 1e-5 s), so separation never
  adds kinetic energy (Macklin et al. 2014's pre-stabilisation does the same for initial
  overlaps);
* velocity smoothing (XSPH): within h_ij = 2 (r_i + r_j), with w = 1 - |x_ij| / h_ij,
  v_i += c sum_j w (v_j - v_i) / (1 + sum_j w), c in [0, 1]: neighbours move together, so a
  stream stays a stream.

Neighbours come from hashed uniform grids, built by a serial counting sort: particles in order
within each bucket, deterministic. The first grid's cell c is 4 r of a particle of twice the
mean volume, so that two such particles interact only within neighbouring cells. A wider
particle sits in the grid of level L, cell c 2^L, the least at least 4 r_j wide (a hierarchy of
grids, as for polydisperse contact detection): particle i searches each level's cells within
2 r_i + c 2^L / 2 of it, and a j of that level interacts within 2 (r_i + r_j) of it, so every
pair is met once from each side, whatever the sizes, and a cell holds only particles of its own
size class. The few wide ones (a stream's parcels beside raindrops, film parcels beside drops)
are met through a list instead, in index order, while there are at most ``Droplets``'
MOST_WIDE of them; past that (Marshall-Palmer rain: a third of the drops are wider than the
mean volume's; a spray of broad sizes) every level is searched through its grid. The levels
change the order of the sums, never which pairs interact.
"""

import math

import numba
import numpy as np

from ..kernels._jit import parallel_kernel, serial_kernel

HASH_PRIMES = (73856093, 19349663, 83492791)
LEVEL_PRIME = 2654435761  # the grid level's share of a bucket's hash (0 for level 0)


@parallel_kernel
def fly(positions, velocities, previous, gravity, drag, dt, volumes, radius, n):
    """Free flight of particles [0, n): previous <- positions, then the exact step above; and
    their radii, radius[p] = (3 V_p / 4 pi)^(1/3) from volumes (n,) (the interaction's)."""
    if drag > 0.0:
        phi = -math.expm1(-drag * dt) / drag
        fall = (dt - phi) / drag
        decay = math.exp(-drag * dt)
    else:
        phi = dt
        fall = 0.5 * dt * dt
        decay = 1.0
    for p in numba.prange(n):
        for a in range(3):
            previous[p, a] = positions[p, a]
            positions[p, a] += velocities[p, a] * phi + gravity[a] * fall
            velocities[p, a] = velocities[p, a] * decay + gravity[a] * phi
        radius[p] = sphere_radius(volumes[p])


@serial_kernel
def sphere_radius(volume):
    """Radius of a sphere of the given volume."""
    return np.cbrt(0.75 * volume / np.pi)


@serial_kernel
def cell_of(position, cell):
    return (int(np.floor(position[0] / cell)), int(np.floor(position[1] / cell)),
            int(np.floor(position[2] / cell)))


@serial_kernel
def bucket_of(x, y, z, table_mask):
    return ((x * HASH_PRIMES[0]) ^ (y * HASH_PRIMES[1]) ^ (z * HASH_PRIMES[2])) & table_mask


@serial_kernel
def build_buckets(positions, n, cell, table_mask, bucket, bucket_start, sorted_particles):
    """Counting sort of particles [0, n) into hash buckets: bucket (n,) of each particle,
    sorted_particles[bucket_start[b]:bucket_start[b + 1]] its particles in index order."""
    for p in range(n):
        x, y, z = cell_of(positions[p], cell)
        bucket[p] = bucket_of(x, y, z, table_mask)
    sort_into_buckets(bucket, n, table_mask, bucket_start, sorted_particles)


@serial_kernel
def sort_into_buckets(bucket, n, table_mask, bucket_start, sorted_particles):
    """The counting sort of particles [0, n) by their buckets bucket (n,): bucket_start
    (table_mask + 2,) and sorted_particles (n,), each bucket's particles in index order."""
    bucket_start[:] = 0
    for p in range(n):
        bucket_start[bucket[p] + 1] += 1
    for b in range(table_mask + 1):
        bucket_start[b + 1] += bucket_start[b]
    for p in range(n):
        b = bucket[p]
        sorted_particles[bucket_start[b]] = p
        bucket_start[b] += 1
    for b in range(table_mask, 0, -1):
        bucket_start[b] = bucket_start[b - 1]
    bucket_start[0] = 0


@serial_kernel
def bucket_at_level(x, y, z, level, table_mask):
    """The bucket of cell (x, y, z) of grid ``level``; level 0's are ``bucket_of``'s."""
    return bucket_of(x, y, z, table_mask) ^ ((level * LEVEL_PRIME) & table_mask)


@serial_kernel
def build_levelled_buckets(positions, radius, n, cell, table_mask, level, bucket, bucket_start,
                           sorted_particles):
    """``build_buckets`` over a hierarchy of grids: particle p in [0, n) sits in grid level[p],
    the least L >= 0 whose cell, cell 2^L, is at least 4 r_p wide, hashed with its level
    (``bucket_at_level``); returns the number of levels, 1 + the largest level."""
    levels = 1
    for p in range(n):
        width, here = cell, 0
        while 4.0 * radius[p] > width:
            width *= 2.0
            here += 1
        level[p] = here
        levels = max(levels, here + 1)
        x, y, z = cell_of(positions[p], width)
        bucket[p] = bucket_at_level(x, y, z, here, table_mask)
    sort_into_buckets(bucket, n, table_mask, bucket_start, sorted_particles)
    return levels


@serial_kernel
def list_wide(level, n, wide):
    """wide[:m] = the particles of [0, n) past level 0 (``build_levelled_buckets``: wider than
    a quarter of its cell, 4 r > cell), in index order; returns m. They reach past the
    neighbouring cells, so every particle meets them through this list instead of the grid."""
    m = 0
    for p in range(n):
        if level[p] > 0:
            wide[m] = p
            m += 1
    return m


@serial_kernel
def pair_effect(positions, velocities, radius, i, j, separation, dt):
    """What j does to i: (squared distance, then the separation push s (r_i + r_j - |x_ij|) / 2
    n_ij (3) and its velocity, n_ij min(push / dt, c_ij / 2) (3), the smoothing weight w and
    w (v_j - v_i) (3)), the effects zero beyond 2 (r_i + r_j)."""
    dx = positions[i, 0] - positions[j, 0]
    dy = positions[i, 1] - positions[j, 1]
    dz = positions[i, 2] - positions[j, 2]
    squared = dx * dx + dy * dy + dz * dz
    contact = radius[i] + radius[j]
    if squared == 0.0 or squared >= 4.0 * contact * contact:
        return squared, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    distance = math.sqrt(squared)
    ux, uy = velocities[j, 0] - velocities[i, 0], velocities[j, 1] - velocities[i, 1]
    uz = velocities[j, 2] - velocities[i, 2]
    push = bounce = 0.0
    if distance < contact:
        push = separation * 0.5 * (contact - distance) / distance  # times x_ij
        closing = max(0.0, (ux * dx + uy * dy + uz * dz) / distance)  # -(v_i - v_j) . n_ij
        bounce = min(push * distance / dt, 0.5 * closing) / distance  # times x_ij
    w = 1.0 - distance / (2.0 * contact)
    return (squared, push * dx, push * dy, push * dz, bounce * dx, bounce * dy, bounce * dz, w,
            w * ux, w * uy, w * uz)


@serial_kernel
def add_effect(sums, effect):
    """sums (10: the push (3), the bounce (3), the smoothing weight and the weighted velocity
    difference (3)) plus a pair's effect past its squared distance, effect[1:]
    (``pair_effect``)."""
    return (sums[0] + effect[1], sums[1] + effect[2], sums[2] + effect[3], sums[3] + effect[4],
            sums[4] + effect[5], sums[5] + effect[6], sums[6] + effect[7], sums[7] + effect[8],
            sums[8] + effect[9], sums[9] + effect[10])


@parallel_kernel
def interact(positions, velocities, radius, n, grid, separation, smoothing, dt, shift,
             velocity_change):
    """The Jacobi pass of the module docstring over a step dt: shift (n, 3) and velocity_change
    (n, 3) (the separation's and the smoothing's) of each particle [0, n) (radii (n,)) from its
    neighbours' current positions and velocities.
    Neighbours come from the ``records.NeighbourGrid`` grids of levels [0, n_levels)
    (``build_levelled_buckets``), at each level the cells within reach of i (the next ones, or
    as many as a wide i reaches); the wide ones past those levels (``wide[:n_wide]``) from
    their list."""
    cell, table_mask, wide, n_wide = grid.cell, grid.table_mask, grid.wide, grid.n_wide
    bucket_start, sorted_particles = grid.bucket_start, grid.sorted_particles
    level, n_levels = grid.level, grid.n_levels
    for i in numba.prange(0, n):
        sums = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        width = cell
        for here in range(n_levels):
            reach = max(1, int(math.ceil((2.0 * radius[i] + 0.5 * width) / width)))
            cx, cy, cz = cell_of(positions[i], width)
            for ox in range(-reach, reach + 1):
                for oy in range(-reach, reach + 1):
                    for oz in range(-reach, reach + 1):
                        b = bucket_at_level(cx + ox, cy + oy, cz + oz, here, table_mask)
                        for entry in range(bucket_start[b], bucket_start[b + 1]):
                            j = sorted_particles[entry]
                            if j == i or level[j] != here:
                                continue  # itself, or another level's in this bucket
                            effect = pair_effect(positions, velocities, radius, i, j,
                                                 separation, dt)
                            if effect[7] == 0.0 or (cell_of(positions[j], width)
                                                    != (cx + ox, cy + oy, cz + oz)):
                                continue  # out of reach, or another cell in this bucket
                            sums = add_effect(sums, effect)
            width *= 2.0
        for k in range(n_wide):
            j = wide[k]
            if j != i:
                sums = add_effect(sums, pair_effect(positions, velocities, radius, i, j,
                                                    separation, dt))
        shift[i, 0], shift[i, 1], shift[i, 2] = sums[0], sums[1], sums[2]
        scale = smoothing / (1.0 + sums[6])
        velocity_change[i, 0], velocity_change[i, 1], velocity_change[i, 2] = (
            sums[3] + scale * sums[7], sums[4] + scale * sums[8], sums[5] + scale * sums[9])


@parallel_kernel
def apply_interaction(positions, velocities, shift, velocity_change, n):
    """x += shift, v += velocity_change for particles [0, n)."""
    for p in numba.prange(n):
        for a in range(3):
            positions[p, a] += shift[p, a]
            velocities[p, a] += velocity_change[p, a]


@serial_kernel
def mark_removed(positions, volumes, n, hit_triangle, up, floor, low, high, remove):
    """remove[p] = p hit the mesh (hit_triangle[p] >= 0), lies below ``floor`` along ``up`` or
    outside the box [low, high]; returns the volume of the particles removed for the bounds
    alone (booked as lost), summed in order."""
    lost = 0.0
    for p in range(n):
        x = positions[p]
        height = x[0] * up[0] + x[1] * up[1] + x[2] * up[2]
        outside = (height < floor or x[0] < low[0] or x[1] < low[1] or x[2] < low[2]
                   or x[0] > high[0] or x[1] > high[1] or x[2] > high[2])
        remove[p] = outside or hit_triangle[p] >= 0
        if outside and hit_triangle[p] < 0:
            lost += volumes[p]
    return lost


@serial_kernel
def compact(remove, n, positions, velocities, volumes, dyes):
    """Drop the particles [0, n) with remove set, keeping the order; returns the new count."""
    kept = 0
    for p in range(n):
        if remove[p]:
            continue
        for a in range(3):
            positions[kept, a] = positions[p, a]
            velocities[kept, a] = velocities[p, a]
        for c in range(dyes.shape[1]):
            dyes[kept, c] = dyes[p, c]
        volumes[kept] = volumes[p]
        kept += 1
    return kept


@serial_kernel
def merge_pairs(positions, velocities, volumes, dyes, n, cell, sorted_particles, excess, remove):
    """Merge particles [0, n) in pairs until ``excess`` of them are gone (or no pair is left):
    two particles that follow each other in ``sorted_particles`` (``build_buckets``' order)
    and lie in the same grid cell become the first of them, with the summed volume and the
    volume-weighted position, velocity and dyes (volume, momentum and dye kept); the second
    is marked in
    ``remove`` (n,). Returns how many were merged away."""
    remove[:n] = False
    merged = 0
    k = 0
    while k + 1 < n and merged < excess:
        a, b = sorted_particles[k], sorted_particles[k + 1]
        if cell_of(positions[a], cell) != cell_of(positions[b], cell):
            k += 1
            continue
        total = volumes[a] + volumes[b]
        wa, wb = volumes[a] / total, volumes[b] / total
        for c in range(3):
            positions[a, c] = wa * positions[a, c] + wb * positions[b, c]
            velocities[a, c] = wa * velocities[a, c] + wb * velocities[b, c]
        for c in range(dyes.shape[1]):
            dyes[a, c] = wa * dyes[a, c] + wb * dyes[b, c]
        volumes[a] = total
        remove[b] = True
        merged += 1
        k += 2
    return merged
