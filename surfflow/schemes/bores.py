"""Bores and dry-bed fronts in the momentum scheme: Heun's HLL fluxes on the edges around them.

The continuity (kernels/continuity.py) spreads a gravity bore over about two columns, and where
liquid runs onto a dry bed its upwinded first-order flux holds the thin front back. Both are
Riemann problems the solution does not pass through smoothly: a jump, and a wet state against
a dry one, whose front runs at u + 2 c. Two HLL stages on a limited reconstruction
(schemes/hll_stage.py, kernels/riemann.py), averaged as Heun's step, solve them: they keep a
bore to one column and carry a dry-bed front at its Riemann speed. Where the step finds either,
the edges around it take those fluxes:

1. Seeds (``find``, ``kernels/bore_seeds.py``): a wet vertex ruled by gravity (g_n >=
   ``GRAVITY_SHARE`` K, K the wave stiffness of the continuity's Froude number; where
   capillarity rules the mesh's shortest wave there is no bore to keep and the contact line,
   not a Riemann problem, rules the front) and inertial (friction_share < ``INERTIAL_SHARE``),
   at a bore (its shock sensor fires and a neighbour closes on it, the flow subcritical at one
   end of their edge at least, as a hydraulic jump leaves it) or at
   a dry-bed front (its flow runs into a dry neighbour with inertia; a film creeping or at rest
   at its edge, within round-off of no flow, is no Riemann problem: seeded there, the region
   would hang on round-off). Each seed has a strength sigma_i in [0, 1], 1 where its rule
   holds and ramped to 0 at half its threshold: continuous in the state.
2. The region R (``region`` (n,) bool): the seeds and the ``BORE_RINGS`` rings around them;
   the weight w_i (``weight`` (n,)) the largest sigma within ``BORE_RINGS`` rings of i.
3. Two HLL stages from the step's starting depth and velocity (before the push; ``remember``),
   with the momentum scheme's terms, walls and open segments, computed only as far as R's
   fluxes and velocity need (``reaches``; R+k is R and the k rings around it): the second stage
   updates R, its outflow factors and fluxes on R+1, its gradients on R+2; the first stage's
   state is needed on R+3, its outflow factors and fluxes on R+4, its gradients on R+5. Each
   kernel computes at a vertex what it computes on the whole mesh, so these are bit for bit
   whole-mesh stages.
4. Each entry with an end in R (and both ends in the step's active set, schemes/active.py)
   takes F_ij = (1 - w_ij) F_ij + w_ij H_ij, H_ij Heun's limited mass flux
   (alpha^1 F^1_ij + alpha^2 F^2_ij) / 2 and w_ij = max(w_i, w_j), so that where w = 1
   d_i - dt sum_j F_ij / A_i is Heun's depth; F_ji = -F_ij. The outflow limiter
   (kernels/outflow.py) is then computed again at the vertices those entries touch. The depth,
   momentum and dyes ride on the blended fluxes: the volume stays exact and the depth
   non-negative.
5. The vertices of R take (1 - w_i) u_i + w_i u_i^Heun, u^Heun Heun's velocity (d u) / d
   (``take_velocity``).
6. The continuity velocity's increment delta_i (kernels/continuity_velocity.py), the last
   step's advective increment, predicts this step's only where the transport alone makes the
   velocity; at the ends of R's entries it fades to (1 - r_i) delta_i, r_i the largest w_ij of
   i's entries (``fade_increment``): kept in full outside, cleared where w = 1.

The weights keep the patch continuous in the state (4 to 6): a seed that hovers at its threshold (the
shock sensor at the foot of a standing hydraulic jump) fades the Heun fluxes in and out instead
of switching them, which pumped a standing oscillation into the subcritical flow behind it.

Smooth flow, lakes at rest, drops and films ruled by friction or capillarity have no seed, and
nothing here runs; where capillarity rules every vertex (bunny_pour's 4.5 mm rings) nothing is
even copied. With more than one moving surface (which the HLL stage cannot feel) the patch is
off (``usable``).
Arrays: n vertices, nnz CSR entries.
"""
from __future__ import annotations

import numpy as np

from ..geometry.topology import entry_rows, ring_entries
from ..kernels.bore_seeds import mark_seeds
from ..kernels.outflow import outflow_factors_at
from ..kernels.records import rings_of
from ..kernels.riemann import average_stages
from ..kernels.tuning import BORE_RINGS, GRAVITY_SHARE
from .hll_stage import HllStage, StageReach


class BoreFluxes:
    """Heun's HLL fluxes on the edges around bores and dry-bed fronts (module docstring)."""

    def __init__(self, geom, params):
        self.params = params
        n = geom.n_vertices
        self.heun = HllStage(geom, params, carries_residues=True)
        self.start_depth, self.start_velocity = np.zeros(n), np.zeros((n, 2))
        self.first_depth, self.first_velocity = np.zeros(n), np.zeros((n, 2))
        self.second_depth, self.second_velocity = np.zeros(n), np.zeros((n, 2))
        self.depth = np.zeros(n)  # Heun's, with its velocity (read in the region)
        self.no_dye = np.zeros((n, 0))  # average_stages' dyes: none
        self.region = np.zeros(n, dtype=bool)
        self.strength = np.zeros(n)  # the seeds' sigma (kernels/bore_seeds.py)
        self.weight = np.zeros(n)  # w: the largest sigma within BORE_RINGS rings
        self.velocity = np.zeros((n, 2))
        self.touched = np.zeros(n, dtype=bool)  # the ends of the blended entries (blend_fluxes)
        self.reach = np.zeros(n)  # r_i: the largest w_ij of i's blended entries (blend_fluxes)
        self.usable = True  # False while the terms hold more than one moving surface
        self.ruled = np.zeros(n, dtype=bool)
        self.any_ruled = False
        self.pending_geometry = None  # (geom, fields) Heun's stages have not taken yet

    def bind(self, accelerations, find_walls, holds, pressures) -> None:
        """The momentum scheme's terms, for Heun's stages (``HllStage.bind``); with more than
        one moving surface, which the HLL stage cannot feel, the momentum scheme keeps its own
        fluxes at bores and fronts."""
        moving = sum(accelerate.__self__.like_gravity for accelerate in accelerations)
        self.usable = moving <= 1
        if self.usable:
            self.heun.bind(accelerations, find_walls, holds, pressures)

    def use_geometry(self, geom, fields, normal_gravity, wave_stiffness) -> None:
        """The CSR rows (nnz,) and the vertices ruled by gravity, g_n >= K / 2 (n,) bool (K the
        wave stiffness g_n + (sigma / rho) (pi / s)^2, ``MomentumScheme.use_geometry``); Heun's
        stages take the geometry when a bore next needs them (a moving surface's changes at
        every step)."""
        self.pending_geometry = (geom, fields)
        self.rows = entry_rows(geom.neighbor_offsets)
        self.ruled = (normal_gravity > 0.0) & (normal_gravity >= GRAVITY_SHARE * wave_stiffness)
        self.any_ruled = bool(self.ruled.any())

    @property
    def watching(self) -> bool:
        """Whether a bore can be found: some vertex ruled by gravity, and the terms usable."""
        return self.any_ruled and self.usable

    def set_boundary(self, segment, geom, fields) -> None:
        """Open ``segment`` for Heun's stages too."""
        self.heun.set_boundary(segment, geom, fields)

    def remember(self, state) -> None:
        """Keep the step's starting depth and velocity (before the push) for Heun's stages."""
        if self.watching:
            np.copyto(self.start_depth, state.depth)
            np.copyto(self.start_velocity, state.velocity)

    def find(self, geom, fields, state, sensor, wave_stiffness) -> bool:
        """Whether the step has a bore or a dry-bed front; then ``region`` (n,) holds R (module
        docstring, 1-2) from the starting state, the push's sensor (n,) and the felt wave
        stiffness K (n,)."""
        if not self.watching:
            return False
        self.strength.fill(0.0)
        mark_seeds(state.active.moving, rings_of(geom, fields), self.start_depth,
                   self.start_velocity, self.ruled, state.friction_share, sensor, wave_stiffness,
                   state.shoreline_wall, self.params.min_depth, self.strength)
        if not self.strength.any():
            return False
        np.copyto(self.weight, self.strength)
        for _ in range(BORE_RINGS):  # each ring takes the largest weight of its inner neighbours
            entries = ring_entries(geom.neighbor_offsets, np.flatnonzero(self.weight))
            np.maximum.at(self.weight, geom.neighbor_indices[entries],
                          self.weight[self.rows[entries]])
        np.greater(self.weight, 0.0, out=self.region)
        return True

    def reaches(self, geom) -> tuple[StageReach, StageReach]:
        """The vertices Heun's first and second stages compute (module docstring, 3), from the
        region R."""
        reached = rings_around(geom, self.region.copy(), 5)  # R+5: two stages of 3 rings, less 1
        none = reached[0][:0]
        return (StageReach(reached[5], reached[5], reached[4], reached[3], none),
                StageReach(reached[2], reached[2], reached[1], reached[0], none))

    def blend_fluxes(self, geom, fields, state, bottom, dt, edge_flux, boundary_flux,
                     outflow_factor) -> None:
        """Heun's stages (3), then its fluxes into edge_flux (nnz,) on the entries with an end
        in the region and alpha into outflow_factor (n,) at the vertices they touch (4), given
        the boundary fluxes F_b (n,); Heun's velocity into ``velocity`` (5)."""
        h, indices = self.heun, geom.neighbor_indices
        if self.pending_geometry is not None:
            h.use_geometry(*self.pending_geometry)
            self.pending_geometry = None
        h.boundary.update(state.time)
        moving = np.zeros(len(outflow_factor), dtype=bool)
        moving[state.active.moving] = True  # Heun's second stage may reach past them: not there
        near = ring_entries(geom.neighbor_offsets, np.flatnonzero(self.region))
        near = near[moving[self.rows[near]] & moving[indices[near]]]
        rows, columns = self.rows[near], indices[near]
        stages = ((self.start_depth, self.start_velocity, self.first_depth, self.first_velocity),
                  (self.first_depth, self.first_velocity, self.second_depth,
                   self.second_velocity))
        heun_flux = np.zeros(len(near))
        for (depth, velocity, depth_out, velocity_out), reach in zip(stages, self.reaches(geom)):
            h.stage(geom, fields, state, bottom, depth, velocity, dt, depth_out, velocity_out,
                    reach)
            flux = h.mass_flux[near]
            heun_flux += 0.5 * h.outflow_factor[np.where(flux > 0.0, rows, columns)] * flux
        average_stages(self.start_depth, self.start_velocity, self.no_dye, self.second_depth,
                       self.second_velocity, self.no_dye, self.params.min_depth,
                       self.heun.carries_residues, self.depth,
                       self.velocity, self.no_dye)
        share = np.maximum(self.weight[rows], self.weight[columns])  # w_ij, the same both ways
        blended = (1.0 - share) * edge_flux[near] + share * heun_flux
        near = np.concatenate([near, geom.reverse_edges[near]])  # R's entries, both ways
        edge_flux[near] = np.concatenate([blended, -blended])
        self.reach.fill(0.0)
        np.maximum.at(self.reach, np.concatenate([rows, columns]), np.concatenate([share, share]))
        touched = np.greater(self.reach, 0.0, out=self.touched)  # w_ij > 0: an end lies in R
        outflow_factors_at(np.flatnonzero(touched), geom.neighbor_offsets, geom.dual_areas,
                           state.depth, edge_flux, boundary_flux, dt, outflow_factor)

    def fade_increment(self, increment) -> None:
        """The continuity velocity's increment (n, 2) at the ends of the blended entries,
        delta_i <- (1 - r_i) delta_i with r_i the largest w_ij of i's entries (6): Heun's
        stages make that share of the fluxes its velocity moves."""
        touched = self.touched
        increment[touched] *= (1.0 - self.reach[touched])[:, None]

    def take_velocity(self, velocity_out) -> None:
        """Heun's velocity blended into velocity_out (n, 2) at the region's vertices, by their
        weight: u_i <- (1 - w_i) u_i + w_i u_i^Heun."""
        share = self.weight[self.region, None]
        velocity_out[self.region] = ((1.0 - share) * velocity_out[self.region]
                                     + share * self.velocity[self.region])


def rings_around(geom, marked: np.ndarray, count: int) -> list[np.ndarray]:
    """The vertices within 0, 1, ..., ``count`` rings of those ``marked`` (n,) bool, which grows
    in place to the last: count + 1 int64 lists in increasing order."""
    reached = [np.flatnonzero(marked)]
    for _ in range(count):
        marked[geom.neighbor_indices[ring_entries(geom.neighbor_offsets, reached[-1])]] = True
        reached.append(np.flatnonzero(marked))
    return reached
