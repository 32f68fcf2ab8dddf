"""The coupling between the film and the droplets (SPEC §8): a term of the step
(``terms/base.py``) that acts in its ``exchange`` stage, after the film's transport.

Per step of length dt, after the film's depth update:

1. the droplets fly for dt; a particle whose path (the segment of the step) crosses the mesh is
   absorbed at the first crossing, in the triangle (a, b, c) with barycentric weights w_k:
   its volume V joins the film there, d_k += w_k V / A_k, and its tangential momentum mixes
   into the film's, u_k = (d_k u_k + w_k V / A_k T_k v) / (d_k + w_k V / A_k) (T_k the vertex's
   tangent frame, so only the tangential part of v counts); dyes are diluted by volume;
2. particles below the floor or outside the bounds are removed and booked as ``lost``;
3. where the film is deeper than its emission threshold, d_i > eps1_i, the excess leaves:
   d_i = eps2 (``keep_depth``) and ceil((d_i - eps2) A_i / V_max) particles share the volume
   (d_i - eps2) A_i equally, placed at the free-surface point x_i + (b_i + d_i) n_i (stacked a
   drop's diameter apart along n_i) with the film's world velocity. eps1_i is ``emit_depth``
   and ``overhang_emit_depth`` where the surface faces away from gravity (g . n_i > 0).

The absorbed, lost and emitted volumes go back to the step, which books them. Absorption goes
first and emission last, so after the stage no vertex is deeper than its
threshold. Emission counts are per vertex, their prefix sum gives each vertex its slots, and
each vertex fills its own slots: the particle order does not depend on the thread count.
Absorption scatters onto vertices, so it runs serially in particle order.
"""

from __future__ import annotations

import numba
import numpy as np

from ..errors import ParameterError
from ..kernels._jit import parallel_kernel, serial_kernel
from ..terms.base import Term, Volumes
from .droplets import Droplets
from .dynamics import sphere_radius
from .triangle_grid import TriangleGrid


class ParticleCoupling(Term):
    """Emission and absorption between a simulation's film and its ``droplets``; the droplets'
    state is the term's state, their volume in flight its ``airborne_volume``."""

    name = "droplets"
    stages = ("exchange", "airborne_volume")

    def __init__(self, geom, params, droplets: Droplets):
        if not isinstance(droplets, Droplets):
            raise ParameterError(f"particles={droplets!r}: pass sf.Droplets(...) (or another "
                                 "system built on it), True for the defaults, or None")
        self.droplets = droplets
        self.params = params
        gravity = np.asarray(params.gravity, dtype=np.float64)
        magnitude = float(np.linalg.norm(gravity))
        self.up = -gravity / magnitude if magnitude > 0.0 else np.zeros(3)
        droplets.gravity = gravity
        self.emit_count = np.zeros(geom.n_vertices, dtype=np.int64)
        self.emit_offset = np.zeros(geom.n_vertices + 1, dtype=np.int64)
        self.grid = None
        self.use_geometry(geom)
        if droplets.bounds is None:
            low, high = self.grid.vertices.min(axis=0), self.grid.vertices.max(axis=0)
            margin = float(np.linalg.norm(high - low))
            droplets.bounds = (low - margin, high + margin)

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
        p = self.params
        facing_down = geom.normals @ self.up < 0.0
        self.emit_threshold = np.where(facing_down, p.overhang_emit_depth, p.emit_depth)

    def exchange(self, geom, state, dt: float) -> Volumes:
        """One coupling stage on ``state`` (depth, velocity, dye), in the order above; returns
        the volumes absorbed, lost and emitted (m^3)."""
        drops = self.droplets
        drops.step(dt)
        n = drops.count
        self.grid.first_hits(drops.previous_positions, drops.positions, drops.hit_triangle[:n],
                             drops.hit_weights[:n])
        absorbed = absorb_particles(
            drops.hit_triangle[:n], drops.hit_weights[:n], drops.volumes, drops.velocities,
            geom.faces, geom.dual_areas, geom.tangent_frames, state.depth, state.velocity,
            state.dye)
        lost = drops.remove_hits_and_lost(drops.hit_triangle[:n], self.up)
        return {"absorbed": absorbed, "lost": lost, "emitted": self.emit(state)}

    def airborne_volume(self) -> float:
        """The volume of the droplets in flight (m^3)."""
        return self.droplets.airborne_volume()

    def state_dict(self) -> dict:
        return self.droplets.state_dict()

    def load_state_dict(self, data: dict) -> None:
        self.droplets.load_state_dict(data)

    def emit(self, state) -> float:
        """Step 3: move the film's excess into new particles; returns their volume."""
        g, p, drops = self.geometry, self.params, self.droplets
        count_emissions(state.depth, g.dual_areas, self.emit_threshold, p.keep_depth,
                        drops.max_volume, self.emit_count)
        np.cumsum(self.emit_count, out=self.emit_offset[1:])
        total = int(self.emit_offset[-1])
        if total == 0:
            return 0.0
        first = drops.reserve(total)
        emit_particles(g.vertices, g.normals, g.tangent_frames, state.bottom, g.dual_areas,
                       p.keep_depth, self.emit_count, self.emit_offset, first, state.depth,
                       state.velocity, *drops.buffers)
        return float(drops.volumes[first:].sum())


@parallel_kernel
def count_emissions(depth, dual_areas, emit_threshold, keep_depth, max_volume, emit_count):
    """emit_count[i]: how many particles vertex i emits (0 unless d_i > its threshold)."""
    for i in numba.prange(depth.shape[0]):
        emit_count[i] = 0
        if depth[i] > emit_threshold[i]:
            emit_count[i] = int(np.ceil((depth[i] - keep_depth) * dual_areas[i] / max_volume))


@parallel_kernel
def emit_particles(vertices, normals, tangent_frames, bottom, dual_areas, keep_depth, emit_count,
                   emit_offset, first, depth, velocity, positions, previous, velocities, volumes):
    """Fill vertex i's slots first + emit_offset[i] + k, k < emit_count[i], and set d_i = eps2."""
    for i in numba.prange(depth.shape[0]):
        m = emit_count[i]
        if m == 0:
            continue
        volume = (depth[i] - keep_depth) * dual_areas[i] / m
        spacing = 2.0 * sphere_radius(volume)
        for k in range(m):
            slot = first + emit_offset[i] + k
            lift = bottom[i] + depth[i] + k * spacing
            for a in range(3):
                positions[slot, a] = vertices[i, a] + lift * normals[i, a]
                previous[slot, a] = positions[slot, a]
                velocities[slot, a] = (velocity[i, 0] * tangent_frames[i, 0, a]
                                       + velocity[i, 1] * tangent_frames[i, 1, a])
            volumes[slot] = volume
        depth[i] = keep_depth


@serial_kernel
def absorb_particles(hit_triangle, hit_weights, volumes, velocities, faces, dual_areas,
                     tangent_frames, depth, velocity, dye):
    """Step 1's deposit for every particle with hit_triangle >= 0, in particle order (it
    scatters onto vertices); returns the volume absorbed."""
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
            old = depth[i]
            new = old + added
            for a in range(2):
                tangential = (tangent_frames[i, a, 0] * velocities[p, 0]
                              + tangent_frames[i, a, 1] * velocities[p, 1]
                              + tangent_frames[i, a, 2] * velocities[p, 2])
                velocity[i, a] = (old * velocity[i, a] + added * tangential) / new
            for c in range(dye.shape[1]):
                dye[i, c] *= old / new
            depth[i] = new
        absorbed += volumes[p]
    return absorbed
