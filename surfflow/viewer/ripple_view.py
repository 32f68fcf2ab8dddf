"""Drawing a ripple run (``mode = "ripples"``, :class:`surfflow.Ripples`) in polyscope.

The mesh is the pond's bottom ("object"); the water ("liquid") is a second mesh on the same
triangles at x_i + (H + s z_i) n_i, H the water's depth at rest (``Ripples.depth``), z the ripple
height and s ``height_scale`` (1: true to life; larger exaggerates the ripples). Coloured by
"depth" it shows z on a diverging colour map, else in the liquid's colour; ``show_velocity``
draws the surface's rate along the normal. :func:`run_view` picks this view or the film's
:class:`~surfflow.viewer.liquid_view.LiquidView` for a scene.
"""

from __future__ import annotations

import numpy as np

from ..scene.scene import RenderSpec
from .liquid_view import LiquidView


class RippleView(LiquidView):
    """The film's "object" (here the bottom) and "liquid" (here the rippled water) polyscope
    meshes of one geometry (:class:`LiquidView`'s), drawn from a Ripples' state by
    :meth:`update`."""

    def __init__(self, geometry, liquid_color, color_by: str = "liquid", look: RenderSpec | None = None):
        super().__init__(geometry, liquid_color, (), color_by, look)
        self.height_scale = 1.0
        self.liquid_mesh.set_transparency((look or RenderSpec()).opacity)

    def update(self, ripples) -> None:
        """Move the water to ``ripples``' height and refresh its colours and arrows."""
        z, normals, liquid = ripples.height, self.geometry.normals, self.liquid_mesh
        offset = ripples.depth + self.height_scale * z
        liquid.update_vertex_positions(self.geometry.vertices + offset[:, None] * normals)
        if self.color_by == "depth":
            reach = max(float(np.quantile(np.abs(z), 0.99)), 1e-9)  # a fresh dent may saturate
            liquid.add_scalar_quantity("height", z, enabled=True, cmap="coolwarm", vminmax=(-reach, reach))
        else:
            liquid.add_color_quantity("color", np.tile(self.liquid_color, (len(z), 1)), enabled=True)
        if self.show_velocity:
            liquid.add_vector_quantity("velocity", ripples.height_rate[:, None] * normals,
                                       enabled=True, vectortype="ambient", color=(0.1, 0.1, 0.1))
        else:
            liquid.remove_quantity("velocity")


def run_view(scene, geometry):
    """The view that draws ``scene``'s run on ``geometry``: a :class:`RippleView` for a ripples
    scene, else the film's :class:`LiquidView`."""
    spec = scene.render
    if scene.mode == "ripples":
        return RippleView(geometry, scene.liquid_color, spec.color_by, spec)
    return LiquidView(geometry, scene.liquid_color, scene.dye_colors, spec.color_by, spec)
