"""Drawing a run in polyscope: the object and the liquid's free surface as two meshes.

The object is the input surface (``original_vertices``). The liquid is a second mesh on the same
triangles whose vertex i sits at the free surface x_i + (b_i + d_i) n_i where the vertex is wet
(d_i >= min_depth) and just under the object's surface where it is dry, so only the wet part
shows and the shoreline tapers into the object. Films much thinner than the mesh are drawn at
least ``min_thickness`` thick (display only) so they do not flicker into the object. On a
moving surface (SPEC §9) both meshes follow the simulation's current geometry every update.
"""

from __future__ import annotations

import numpy as np
import polyscope as ps

from .droplet_view import draw_droplets

OBJECT_NAME = "object"
LIQUID_NAME = "liquid"
OBJECT_COLOR = (0.78, 0.76, 0.72)
COLOR_MODES = ("depth", "dye", "liquid")


def dye_mix(dye: np.ndarray, dye_colors, liquid_color) -> np.ndarray:
    """(n, 3) colours: sum_k c_k colour_k + (1 - sum_k c_k) liquid colour, c the (n, k) dyes."""
    dye = np.clip(np.asarray(dye, dtype=np.float64), 0.0, 1.0)
    rgb = np.tile(np.asarray(liquid_color, dtype=np.float64), (len(dye), 1))
    if dye.shape[1]:
        total = np.minimum(dye.sum(axis=1), 1.0)
        rgb = rgb * (1.0 - total)[:, None] + dye @ np.asarray(dye_colors, dtype=np.float64)
    return np.clip(rgb, 0.0, 1.0)


class LiquidView:
    """Registers and updates the "object" and "liquid" polyscope meshes of one geometry.

    color_by: "depth" (a colour map), "dye" (the dyes mixed over the liquid's colour) or
    "liquid" (the liquid's colour).
    """

    def __init__(self, geometry, liquid_color, dye_colors=(), color_by: str = "dye"):
        self.geometry = geometry
        self.liquid_color = tuple(liquid_color)
        self.dye_colors = tuple(dye_colors)
        self.color_by = color_by
        self.show_velocity = False
        size = np.linalg.norm(np.ptp(geometry.vertices, axis=0))
        self.min_thickness = 5e-4 * size
        self.object_mesh = ps.register_surface_mesh(OBJECT_NAME, geometry.original_vertices,
                                                    geometry.faces, color=OBJECT_COLOR, smooth_shade=True)
        self.liquid_mesh = ps.register_surface_mesh(LIQUID_NAME, geometry.vertices, geometry.faces,
                                                    color=self.liquid_color, smooth_shade=True)

    def liquid_positions(self, depth: np.ndarray, bottom: np.ndarray, min_depth: float) -> np.ndarray:
        """(n, 3) liquid vertex positions: free surface where wet, under the object where dry."""
        geom = self.geometry
        wet = depth >= min_depth
        offset = np.where(wet, bottom + np.maximum(depth, self.min_thickness), bottom - self.min_thickness)
        return geom.vertices + offset[:, None] * geom.normals

    def follow_surface(self, geometry) -> None:
        """Draw a moved surface: the object at x_i + b_i n_i (the input surface, carried along)."""
        self.geometry = geometry
        self.object_mesh.update_vertex_positions(
            geometry.vertices + geometry.bottom[:, None] * geometry.normals)

    def update(self, sim) -> None:
        """Move the liquid mesh to ``sim``'s state and refresh its colours and arrows."""
        if sim.geometry is not self.geometry:
            self.follow_surface(sim.geometry)
        depth = sim.depth
        self.liquid_mesh.update_vertex_positions(
            self.liquid_positions(depth, sim.bottom, sim.params.min_depth))
        if self.color_by == "depth":
            self.liquid_mesh.add_scalar_quantity("depth", depth, enabled=True, cmap="viridis",
                                                 vminmax=(0.0, max(float(depth.max()), 1e-9)))
        elif self.color_by == "dye":
            colors = dye_mix(sim.dye, self.dye_colors, self.liquid_color)
            self.liquid_mesh.add_color_quantity("dye", colors, enabled=True)
        else:
            self.liquid_mesh.remove_all_quantities()
            self.liquid_mesh.set_color(self.liquid_color)
        if self.show_velocity:
            self.liquid_mesh.add_vector_quantity("velocity", sim.velocity, enabled=True,
                                                 vectortype="ambient", color=(0.1, 0.1, 0.1))
        else:
            self.liquid_mesh.remove_quantity("velocity")
        draw_droplets(sim.particles, self.liquid_color)
