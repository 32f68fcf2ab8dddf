"""Droplets that land on a pond: :meth:`Ripples.add_droplets` couples a droplet system (for
example :class:`surfflow.Droplets`) to the ripples, one way.

Every step, before the wave update, the droplets fly dt (``droplets.step``); each that crosses
the water at rest (the mesh raised by the rest depth H along its normals) adds its volume V
where it hit, over the hit triangle's vertices with its barycentric weights w_k, as the film's
coupling does (``particles/coupling.py``): z_k += w_k V / A_k. So a pond with a reflecting edge
gains exactly the volume that lands (sum_i A_i z_i, to round-off), as a small mound that spreads
as rings; the droplets' momentum is not passed on (a real drop's crater and jet are finer than
the mesh). What lands on a held vertex (a fixed edge, a shore of 0) is held at 0 with it. The
droplets' state joins the ripples' (restarts are bit-identical); ``landed`` and ``lost`` (past
the droplets' floor or bounds) count the volumes (m^3).
"""

from __future__ import annotations

import numpy as np

from ..particles.coupling import gather_landings
from ..particles.triangle_grid import TriangleGrid


class DropletLanding:
    """The coupled term of ``droplets`` landing on ``ripples`` (see the module docstring)."""

    name = "droplets"

    def __init__(self, ripples, droplets):
        geom = ripples.geometry
        self.droplets = droplets
        self.grid = TriangleGrid(geom.vertices + ripples.depth * geom.normals, geom.faces)
        gravity = np.asarray(droplets.gravity, dtype=np.float64)
        self.up = -gravity / max(float(np.linalg.norm(gravity)), 1e-300)
        if droplets.bounds is None:
            low, high = self.grid.vertices.min(axis=0), self.grid.vertices.max(axis=0)
            margin = float(np.linalg.norm(high - low))
            droplets.bounds = (low - margin, high + margin)
        self.landing = np.zeros((geom.n_vertices, 3))
        self.still = np.zeros((geom.n_vertices, 3))  # the water's surface does not move along
        self.volumes = np.zeros(2)  # landed, lost (m^3)

    @property
    def landed(self) -> float:
        return float(self.volumes[0])

    @property
    def lost(self) -> float:
        return float(self.volumes[1])

    def press(self, ripples, dt: float) -> None:
        """Fly the droplets dt and add those that hit the water to its height."""
        drops, geom = self.droplets, ripples.geometry
        drops.step(dt)
        n = drops.count
        self.grid.first_hits(drops.previous_positions, drops.positions, drops.hit_triangle[:n],
                             drops.hit_weights[:n])
        self.volumes[0] += gather_landings(
            drops.hit_triangle[:n], drops.hit_weights[:n], drops.volumes, drops.velocities,
            drops.dyes, geom.faces, geom.dual_areas, geom.tangent_frames, self.still,
            self.landing)
        ripples.state.height += np.where(ripples.held, 0.0, self.landing[:, 0])
        self.landing[:] = 0.0
        self.volumes[1] += drops.remove_hits_and_lost(drops.hit_triangle[:n], self.up)

    def state_dict(self) -> dict:
        return {**self.droplets.state_dict(), "ripple_droplet_volumes": self.volumes.copy()}

    def load_state_dict(self, data: dict) -> None:
        self.droplets.load_state_dict(data)
        self.volumes[:] = data["ripple_droplet_volumes"]
