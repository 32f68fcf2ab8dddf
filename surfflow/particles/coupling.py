"""The coupling between the film and the droplets (SPEC §8): a term of the step
(``terms/base.py``) that acts in its ``exchange`` stage, after the film's transport.

Per step of length dt, after the film's depth update:

1. the droplets fly for dt; a particle whose path (the segment of the step) crosses the mesh is
   absorbed at the first crossing, in the triangle (a, b, c) with barycentric weights w_k:
   its volume V joins the film there, d_k += w_k V / A_k, and its tangential momentum mixes
   into the film's, u_k = (d_k u_k + w_k V / A_k T_k (v - V_k)) / (d_k + w_k V / A_k) (T_k the
   vertex's tangent frame, so only the tangential part of v counts, and V_k the surface's
   velocity: the film's velocity is relative to a moving surface); the particle's dyes c_p mix in by
   volume, c_k = (d_k c_k + w_k V / A_k c_p) / (d_k + w_k V / A_k); all the particles landing
   on a vertex in a step are added to it at once;
2. particles below the floor or outside the bounds are removed and booked as ``lost``;
3. where the film cannot stay (``shedding.py``) the liquid leaves as particles: a vertex whose
   film is deeper than the pendant limit h_p,i (infinite where the surface faces towards gravity:
   a pool never sheds) keeps d_i = eps2 (``keep_depth``) and sheds (d_i - eps2) A_i; a vertex of
   a free edge (``Params.boundary = "free"``) gathers the volume the transport let out through
   the edge, W_i (which the scheme booked as outflow; it is taken back from there), into the drop
   forming at the edge, D_i += W_i, and sheds D_i once it makes a parcel, D_i >= P_i (a drop
   grows at an edge until it is heavy enough to fall: shedding each step's sliver would make a
   particle per edge vertex per step). m_i = ceil(V_i / P_i) particles share the shed volume V_i
   equally, P_i = max(V_drop, pi/6 A_i^(3/2)) (a drop, or a parcel as wide as the cell:
   ``budget.py``), placed at the free-surface point x_i + (b_i + d_i) n_i (stacked a particle's
   diameter apart along n_i) with the film's world velocity T_i^T u_i + V_i and dyes. A step emits at most half
   the droplets' budget (the counts are cut in proportion, at least one each) and particles in
   flight merge to make room for it.

Emitters (``emitters.py``: nozzles and rain) release their particles after the droplets' flight
and before the collision query, each at the point of its path it has reached by the end of the
step, so they land in the step they reach the surface.

The absorbed, lost and emitted volumes, and what the emitters poured and rained, go back to the
step, which books them. Absorption goes
first and emission last, so after the stage no vertex is deeper than its
pendant limit. Emission counts are per vertex, their prefix sum gives each vertex its slots, and
each vertex fills its own slots: the particle order does not depend on the thread count.
Absorption scatters onto vertices, so it gathers what lands on each vertex serially in particle
order, then adds it to each vertex once.
"""

from __future__ import annotations

import numba
import numpy as np

from ..errors import ParameterError
from ..kernels._jit import parallel_kernel, serial_kernel, serial_when_small
from ..terms.base import Term, Volumes
from .budget import check_budget_fits_mesh
from .droplets import Droplets
from .dynamics import sphere_radius
from .records import Emissions, Film, ShedSurface
from .release import EmitterSet
from .shedding import pendant_depth
from .triangle_grid import TriangleGrid


class ParticleCoupling(Term):
    """Emission and absorption between a simulation's film (with ``n_dyes`` dyes) and its
    ``droplets``, and the ``emitters`` that pour into them; the droplets' and the emitters'
    state is the term's state, their volume in flight its ``airborne_volume``."""

    name = "droplets"
    stages = ("exchange", "airborne_volume")

    def __init__(self, geom, params, droplets: Droplets, n_dyes: int = 0):
        if not isinstance(droplets, Droplets):
            raise ParameterError(f"particles={droplets!r}: pass sf.Droplets(...) (or another "
                                 "system built on it), True for the defaults, or None")
        self.droplets = droplets
        droplets.max_particles = check_budget_fits_mesh(droplets.max_particles, geom.n_vertices,
                                                        droplets.default_budget)
        self.params = params
        gravity = np.asarray(params.gravity, dtype=np.float64)
        magnitude = float(np.linalg.norm(gravity))
        self.up = -gravity / magnitude if magnitude > 0.0 else np.zeros(3)
        droplets.gravity = gravity
        droplets.use_dyes(n_dyes)
        self.emissions = Emissions(np.zeros(geom.n_vertices, dtype=np.int64),
                                   np.zeros(geom.n_vertices, dtype=np.int64),
                                   np.zeros(geom.n_vertices),
                                   np.zeros(geom.n_vertices + 1, dtype=np.int64))
        self.landing = np.zeros((geom.n_vertices, 3 + n_dyes))
        self.edge_drops = np.zeros(geom.n_vertices)  # D_i, m^3: the drops forming at free edges
        self.still = np.zeros((geom.n_vertices, 3))
        self.surface_velocity = self.still  # V_i (n, 3), m/s: a moving surface's
        self.grid = None
        self.segment_vertices = np.zeros(0, dtype=np.int64)
        self.use_geometry(geom)
        if droplets.bounds is None:
            low, high = self.grid.vertices.min(axis=0), self.grid.vertices.max(axis=0)
            margin = float(np.linalg.norm(high - low))
            droplets.bounds = (low - margin, high + margin)
        self.emitters = EmitterSet(droplets, self.up, n_dyes)

    def use_geometry(self, geom) -> None:
        """Follow a moved mesh: refit the collision grid and the emission thresholds.

        The particles collide with the surface x_i + b_i n_i (the input surface with the detail
        smoothing removed put back along the normals), which moves with a deforming mesh."""
        self.geometry = geom
        surface = geom.vertices + geom.bottom[:, None] * geom.normals
        if self.grid is None:
            self.grid = TriangleGrid(surface, geom.faces)
        else:
            self.grid.refit(surface)
        self.emit_threshold = pendant_depth(geom.normals @ self.up, self.params,
                                            geom.dual_areas)
        self.use_segments(self.segment_vertices)

    def follow_surface(self, velocity) -> None:
        """Take the surface's velocity V (n, 3) (a moving surface's, kept up to date by its
        term; None: the surface stands still): drops leave the film with the film's velocity
        plus V and bring the film their tangential velocity relative to V."""
        self.surface_velocity = self.still if velocity is None else velocity

    def use_segments(self, vertices) -> None:
        """The free edge's vertices: the boundary's (with ``Params.boundary = "free"``) except
        ``vertices`` (k,), those of open boundary segments, which keep their own conditions and
        book their outflow."""
        self.segment_vertices = np.asarray(vertices, dtype=np.int64)
        free = self.geometry.is_boundary.copy() if self.params.boundary == "free" else None
        if free is None:
            self.free_edge = np.zeros(0, dtype=np.int64)
            return
        free[self.segment_vertices] = False
        self.free_edge = np.flatnonzero(free).astype(np.int64)

    def exchange(self, geom, state, dt: float) -> Volumes:
        """One coupling stage on ``state`` (depth, velocity, dye), in the order above; returns
        the volumes absorbed, lost and emitted (m^3)."""
        drops = self.droplets
        drops.step(dt)
        released = self.emitters.release(state.time, dt)
        n = drops.count
        with serial_when_small(n):
            self.grid.first_hits(drops.previous_positions, drops.positions,
                                 drops.hit_triangle[:n], drops.hit_weights[:n])
        absorbed = gather_landings(
            drops.hit_triangle[:n], drops.hit_weights[:n], drops.volumes, drops.velocities,
            drops.dyes, geom.faces, geom.dual_areas, geom.tangent_frames, self.surface_velocity,
            self.landing)
        if absorbed > 0.0:
            hits = drops.hit_triangle[:n]
            add_landings(self.landing, geom.faces[hits[hits >= 0]].ravel(), state.depth,
                         state.velocity, state.dye)
        lost = drops.remove_hits_and_lost(drops.hit_triangle[:n], self.up)
        emitted, runoff = self.emit(state)
        return {"absorbed": absorbed, "lost": lost, "emitted": emitted, "outflow": -runoff,
                **released}

    def airborne_volume(self) -> float:
        """The volume of the droplets in flight, in the emitters' unreleased parcels and in the
        drops forming at free edges (m^3)."""
        return (self.droplets.airborne_volume() + self.emitters.pending_volume()
                + float(self.edge_drops.sum()))

    def add_emitter(self, emitter):
        """Pour from ``emitter`` (a :class:`~surfflow.particles.emitters.Nozzle` or ``Rain``),
        checked against this surface; returns it."""
        return self.emitters.add(emitter, self.grid)

    def state_dict(self) -> dict:
        return {**self.droplets.state_dict(), **self.emitters.state_dict(),
                "edge_drops": self.edge_drops.copy()}

    def load_state_dict(self, data: dict) -> None:
        self.droplets.load_state_dict(data)
        self.emitters.load_state_dict(data, self.grid)
        self.edge_drops[:] = data.get("edge_drops", 0.0)

    def emit(self, state) -> tuple[float, float]:
        """Step 3: move what cannot stay into new particles; returns their volume and the part
        of it that ran over free edges (m^3)."""
        g, p, drops, emissions = self.geometry, self.params, self.droplets, self.emissions
        most = drops.max_particles // 2
        m, runoff = count_emissions(state.depth, g.dual_areas, self.emit_threshold, p.keep_depth,
                                    self.free_edge, state.outflow_volume, self.edge_drops,
                                    drops.max_volume, most, emissions)
        total = int(emissions.offsets[m])
        if total == 0:
            return 0.0, runoff  # the run-off went into the drops forming at the edges
        counts = emissions.counts[:m]
        if total > most:
            thin_emissions(counts, total, int(np.count_nonzero(counts)), most)
            np.cumsum(counts, out=emissions.offsets[1:m + 1])
            total = int(emissions.offsets[m])
        first = drops.reserve(total)
        surface = ShedSurface(g.vertices, g.normals, g.tangent_frames, self.surface_velocity,
                              state.bottom)
        with serial_when_small(m):
            emit_particles(surface, Film(state.depth, state.velocity, state.dye),
                           self.emit_threshold, p.keep_depth, emissions._replace(
                               vertices=emissions.vertices[:m]), first, drops.buffers)
        return float(drops.volumes[first:].sum()), runoff


@serial_kernel
def count_emissions(depth, dual_areas, threshold, keep_depth, free_edge, outflow_volume,
                    edge_drops, drop_volume, most, out):
    """The m vertices that shed, ascending, in out.vertices[:m] (out a ``records.Emissions``):
    deeper than their pendant limit (d_i > h_p,i: (d_i - eps2) A_i) or on a free edge
    (``free_edge``, ascending) whose forming drop, grown by what ran out through the edge
    (D_i += W_i, W_i = outflow_volume[i]), makes a parcel (D_i >= P_i, then shed and D_i = 0);
    their volume V_i in out.volumes[:m], how many particles each emits in out.counts[:m],
    ceil(V_i / P_i) with P_i = max(V_drop, pi/6 A_i^(3/2)) and at most ``most``, and their
    prefix sum in out.offsets[:m + 1] (each one's first slot, then the total); returns m and
    the sum of the W_i. One serial pass: a vertex is one comparison unless it sheds, cheaper
    than waking the threads."""
    emitting, emit_count = out.vertices, out.counts
    emit_volume, emit_offset = out.volumes, out.offsets
    m = 0
    runoff = 0.0
    edge = 0
    for i in range(depth.shape[0]):
        volume = 0.0
        if depth[i] > threshold[i]:
            volume = (depth[i] - keep_depth) * dual_areas[i]
        on_edge = edge < free_edge.shape[0] and free_edge[edge] == i
        if volume <= 0.0 and not on_edge:
            continue  # the common case: one comparison, no parcel to size
        parcel = max(drop_volume, np.pi / 6.0 * dual_areas[i] ** 1.5)
        if on_edge:
            edge += 1
            if outflow_volume[i] > 0.0:
                edge_drops[i] += outflow_volume[i]
                runoff += outflow_volume[i]
            if edge_drops[i] >= parcel:
                volume += edge_drops[i]
                edge_drops[i] = 0.0
        if volume > 0.0:
            emitting[m] = i
            emit_volume[m] = volume
            emit_count[m] = int(min(np.ceil(volume / parcel), most))
            emit_offset[m + 1] = emit_offset[m] + emit_count[m]
            m += 1
    return m, runoff


@serial_kernel
def thin_emissions(emit_count, total, emitters, most):
    """Cut the counts (``total`` of them, over ``emitters`` vertices) in proportion so that
    they add up to at most ``most`` >= emitters, leaving every emitting vertex at least one."""
    for k in range(emit_count.shape[0]):
        if emit_count[k] > 0:
            emit_count[k] = max(1, emit_count[k] * (most - emitters) // total)


@parallel_kernel
def emit_particles(surface, film, threshold, keep_depth, emissions, first, particles):
    """Fill the ``records.ParticleBuffers`` particles' slots first + offsets[k] + j,
    j < counts[k], of each shedding vertex i = vertices[k] of the ``records.Emissions``
    emissions (k < the length of its vertices) with volumes[k] shared equally, placed on the
    ``records.ShedSurface`` surface at x_i + (b_i + d_i) n_i, moving at the film's world
    velocity T_i^T u_i + V_i and carrying the film's dyes there, and set d_i = eps2
    (``keep_depth``) where d_i > threshold_i (the ``records.Film`` film's depth, written)."""
    vertices, normals, tangent_frames = surface.vertices, surface.normals, surface.tangent_frames
    surface_velocity, bottom = surface.velocity, surface.bottom
    depth, velocity, dye = film.depth, film.velocity, film.dye
    emitting, emit_count = emissions.vertices, emissions.counts
    emit_volume, emit_offset = emissions.volumes, emissions.offsets
    positions, previous, velocities = particles.positions, particles.previous, particles.velocities
    volumes, dyes = particles.volumes, particles.dyes
    for k in numba.prange(emitting.shape[0]):
        i = emitting[k]
        m = emit_count[k]
        if m == 0:
            continue
        volume = emit_volume[k] / m
        spacing = 2.0 * sphere_radius(volume)
        for j in range(m):
            slot = first + emit_offset[k] + j
            lift = bottom[i] + depth[i] + j * spacing
            for a in range(3):
                positions[slot, a] = vertices[i, a] + lift * normals[i, a]
                previous[slot, a] = positions[slot, a]
                velocities[slot, a] = (velocity[i, 0] * tangent_frames[i, 0, a]
                                       + velocity[i, 1] * tangent_frames[i, 1, a]
                                       + surface_velocity[i, a])
            volumes[slot] = volume
            for c in range(dye.shape[1]):
                dyes[slot, c] = dye[i, c]
        if depth[i] > threshold[i]:
            depth[i] = keep_depth


@serial_kernel
def gather_landings(hit_triangle, hit_weights, volumes, velocities, dyes, faces, dual_areas,
                    tangent_frames, surface_velocity, landing):
    """Step 1's deposit, gathered: for every particle with hit_triangle >= 0 (in particle
    order: it scatters onto vertices), add to each vertex k of the triangle its added depth
    w_pk V_p / A_k, tangential momentum relative to the surface, T_k (v_p - V_k)
    (surface_velocity (n, 3) V), and dye depths (dyes (p, n_dyes)) into ``landing``
    (n, 3 + n_dyes); returns the volume absorbed."""
    absorbed = 0.0
    for p in range(hit_triangle.shape[0]):
        f = hit_triangle[p]
        if f < 0:
            continue
        for k in range(3):
            i = faces[f, k]
            added = hit_weights[p, k] * volumes[p] / dual_areas[i]
            if added <= 0.0:
                continue
            landing[i, 0] += added
            for a in range(2):
                landing[i, 1 + a] += added * (
                    tangent_frames[i, a, 0] * (velocities[p, 0] - surface_velocity[i, 0])
                    + tangent_frames[i, a, 1] * (velocities[p, 1] - surface_velocity[i, 1])
                    + tangent_frames[i, a, 2] * (velocities[p, 2] - surface_velocity[i, 2]))
            for c in range(dyes.shape[1]):
                landing[i, 3 + c] += added * dyes[p, c]
        absorbed += volumes[p]
    return absorbed


@serial_kernel
def add_landings(landing, landed, depth, velocity, dye):
    """Add what landed on each vertex of ``landed`` (the corners of the triangles hit, repeats
    allowed) from ``landing`` (n, 3 + n_dyes), zeroed after, to the film at once: one addition
    per vertex and step, so the depth's round-off does not grow with the number of particles
    landing there; velocity mixed by momentum, dyes by volume."""
    for k in range(landed.shape[0]):
        i = landed[k]
        if landing[i, 0] == 0.0:
            continue  # nothing landed on it, or added already
        old = depth[i]
        new = old + landing[i, 0]
        for a in range(2):
            velocity[i, a] = (old * velocity[i, a] + landing[i, 1 + a]) / new
        for c in range(dye.shape[1]):
            dye[i, c] = dye[i, c] * (old / new) + landing[i, 3 + c] / new
        depth[i] = new
        landing[i, :] = 0.0
