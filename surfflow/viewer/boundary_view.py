"""Drawing the open boundary segments (SPEC §10) in polyscope.

Each segment's vertices (``sim.set_boundary`` or a scene's ``[[boundaries]]``) are shown as a
point cloud coloured by kind: inflow blue, level green, transmissive orange. The cloud follows
a moving surface; a simulation without segments shows none.
"""

from __future__ import annotations

import numpy as np
import polyscope as ps

BOUNDARIES_NAME = "boundaries"
KIND_COLORS = {"inflow": (0.15, 0.45, 1.0), "level": (0.15, 0.75, 0.3),
               "transmissive": (1.0, 0.55, 0.1)}


def boundary_points(sim) -> tuple[np.ndarray, np.ndarray]:
    """The (k, 3) positions of the vertices of ``sim``'s boundary segments on the input surface
    and their (k, 3) colours; empty arrays when it has none."""
    segments = sim.boundary_segments
    if not segments:
        return np.zeros((0, 3)), np.zeros((0, 3))
    vertices = np.concatenate([segment.vertices for segment in segments])
    colors = np.concatenate([np.tile(KIND_COLORS[segment.kind], (len(segment.vertices), 1))
                             for segment in segments])
    return np.asarray(sim.geometry.original_vertices)[vertices], colors


def draw_boundaries(sim, radius: float) -> None:
    """Show ``sim``'s boundary segments as spheres of ``radius`` (m), or nothing."""
    positions, colors = boundary_points(sim)
    if len(positions) == 0:
        if ps.has_point_cloud(BOUNDARIES_NAME):
            ps.remove_point_cloud(BOUNDARIES_NAME)
        return
    cloud = ps.register_point_cloud(BOUNDARIES_NAME, positions, point_render_mode="sphere")
    cloud.set_radius(radius, relative=False)
    cloud.add_color_quantity("kind", colors, enabled=True)
