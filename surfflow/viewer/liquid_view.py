"""Drawing a run in polyscope: the object and the liquid's free surface as two meshes.

The object is the input surface (``original_vertices``) in the neutral OBJECT_COLOR or, when the
geometry carries an asset with a texture, that texture (``asset_view.py``), darkened where wet
(the larger of the surface's wetness and the drawn film's) and tinted by the dyes of the film
over it (Beer-Lambert: it is seen through the film, :mod:`surfflow.look`). The
liquid is a second mesh on the same triangles whose vertex i sits at the drawn free surface
x_i + (b_i + h_i) n_i, h the drawn film's thickness (:class:`surfflow.look.DisplayedFilm`: the
depth over about a two-ring, followed within a frame), at least ``min_thickness`` over the object
(display only) so it never sinks into it. Its per-vertex opacity and colour come from
:mod:`surfflow.look`: fully clear where the displayed wetness is zero (dry), clear glossy thin
films, darker and denser deep pools in the colour of their dyes. On a moving surface (SPEC §9)
both meshes follow the simulation's current geometry every update, and the droplets are drawn as
streaks along their velocity (``droplet_view.py``), open boundary segments as coloured points
(``boundary_view.py``).

``LiquidView.draw`` takes the state arrays; ``update`` reads them from a Simulation.
"""

from __future__ import annotations

import numpy as np
import polyscope as ps

from ..look import (OBJECT_COLOR, DisplayedFilm, depth_tint, display_opacity, dye_absorbance, dye_mix,
                    transmittance, wet_object_colors)
from ..scene.scene import RenderSpec
from .asset_view import TexturedObject, has_texture
from .boundary_view import draw_boundaries
from .droplet_view import draw_droplets
from .materials import OBJECT_MATERIAL, liquid_material

OBJECT_NAME = "object"
LIQUID_NAME = "liquid"
COLOR_MODES = ("depth", "dye", "liquid")


class LiquidView:
    """Registers and updates the "object" and "liquid" polyscope meshes of one geometry.

    color_by: "depth" (a colour map), "dye" (the dyes mixed over the liquid's colour) or
    "liquid" (the liquid's colour). look: the [render] settings of the material, opacity,
    tint depth and drying time (``apply_scene_look`` sets the scene-wide ones).
    """

    def __init__(self, geometry, liquid_color, dye_colors=(), color_by: str = "dye",
                 look: RenderSpec | None = None):
        look = look or RenderSpec()
        self.geometry = geometry
        self.liquid_color = tuple(liquid_color)
        self.dye_colors = tuple(dye_colors)
        self.color_by = color_by
        self.look = look
        self.show_velocity = False
        self._added: set[tuple[str, str]] = set()
        self._drawn_color_by: str | None = None
        self.film = DisplayedFilm(geometry.faces, geometry.n_vertices, look.dry_time)
        self.absorbance = dye_absorbance(self.dye_colors)
        size = np.linalg.norm(np.ptp(geometry.vertices, axis=0))
        self.min_thickness = 5e-4 * size
        self._boundaries_shown = None  # (scheme, geometry, segment count) last drawn
        self.object_mesh = ps.register_surface_mesh(
            OBJECT_NAME, geometry.original_vertices, geometry.faces, color=OBJECT_COLOR,
            smooth_shade=True, material=OBJECT_MATERIAL)
        self.textured = TexturedObject(self.object_mesh, geometry) if has_texture(geometry) else None
        self.liquid_mesh = ps.register_surface_mesh(
            LIQUID_NAME, geometry.vertices, geometry.faces, color=self.liquid_color,
            smooth_shade=True, material=liquid_material(look))

    def liquid_positions(self, depth: np.ndarray, bottom: np.ndarray) -> np.ndarray:
        """(n, 3) liquid vertex positions x + (b + max(d, min_thickness)) n: on the free surface,
        and just over the object where it is dry (clear there). The liquid never cuts through
        the object, where depth peeling would leave a seam."""
        offset = bottom + np.maximum(depth, self.min_thickness)
        return self.geometry.vertices + offset[:, None] * self.geometry.normals

    def follow_surface(self, geometry) -> None:
        """Draw a moved surface: the object at x_i + b_i n_i (the input surface, carried along)."""
        self.geometry = geometry
        self.object_mesh.update_vertex_positions(
            geometry.vertices + geometry.bottom[:, None] * geometry.normals)

    def update(self, sim) -> None:
        """Draw ``sim``'s state (see :meth:`draw`) on its current surface, with its droplets."""
        if sim.geometry is not self.geometry:
            self.follow_surface(sim.geometry)
        self.draw(sim.depth, sim.bottom, sim.dye, sim.params.min_depth, sim.time,
                  sim.velocity if self.show_velocity else None, wetness=sim.wetness)
        draw_droplets(sim.particles, self.liquid_color)
        self._draw_boundaries(sim)

    def _draw_boundaries(self, sim) -> None:
        """Draw ``sim``'s boundary segments when its scheme, surface or segments changed."""
        count = len(sim.boundary_segments)
        last = self._boundaries_shown
        if last is None or last[0] is not sim.scheme or last[1] is not sim.geometry or last[2] != count:
            draw_boundaries(sim, radius=8.0 * self.min_thickness)
            self._boundaries_shown = (sim.scheme, sim.geometry, count)

    def draw(self, depth, bottom, dye, min_depth: float, time: float, velocity=None,
             wetness=None) -> None:
        """Move the liquid mesh to depth (n,) over bottom (n,) at simulated ``time`` and refresh
        its opacity, its colours (dye (n, k)), the wet object and the velocity arrows (n, 3),
        drawn where the film is (d >= min_depth).
        The object is darkened by the larger of the drawn film's wetness and ``wetness`` (n,),
        the surface's own (``sim.wetness``: it stays dark after the film has gone, drying over
        ``drying_time``); None: the drawn film's alone."""
        look, liquid, film = self.look, self.liquid_mesh, self.film
        recolored = self.color_by != self._drawn_color_by
        self._drawn_color_by = self.color_by
        film.update(depth, dye, min_depth, time)
        liquid.update_vertex_positions(self.liquid_positions(film.thickness, bottom))
        if self._show(liquid, "scalar", "opacity",
                      display_opacity(film.wetness, film.thickness, look.tint_depth, look.opacity)):
            liquid.set_transparency_quantity("opacity")
        dyed = self.color_by == "dye" and film.dye_amount.shape[1] > 0
        passed = (transmittance(film.dye_amount, self.absorbance[:film.dye_amount.shape[1]]) if dyed
                  else np.ones((len(depth), 3)))
        wet = film.wetness if wetness is None else np.maximum(film.wetness, wetness)
        if self.textured is not None:
            self.textured.draw(wet_object_colors((1.0, 1.0, 1.0), wet, passed))
        else:
            self._show(self.object_mesh, "color", "wet", wet_object_colors(OBJECT_COLOR, wet, passed),
                       enabled=True)
        if self.color_by == "depth":  # re-added each time: its colour map range follows the depth
            liquid.add_scalar_quantity("depth", depth, enabled=True, cmap="viridis",
                                       vminmax=(0.0, max(float(depth.max()), 1e-9)))
        else:
            base = (dye_mix(film.concentration(), self.dye_colors, self.liquid_color) if dyed
                    else np.tile(self.liquid_color, (len(depth), 1)))
            self._show(liquid, "color", "color", depth_tint(base, film.thickness, look.tint_depth),
                       fresh=recolored, enabled=True)
        if velocity is not None:  # the film's: none on the residue below min_depth
            arrows = np.where((depth >= min_depth)[:, None], velocity, 0.0)
            self._show(liquid, "vector", "velocity", arrows, enabled=True, vectortype="ambient",
                       color=(0.1, 0.1, 0.1))
        elif (LIQUID_NAME, "velocity") in self._added:
            liquid.remove_quantity("velocity")
            self._added.discard((LIQUID_NAME, "velocity"))

    def _show(self, mesh, kind: str, name: str, values, fresh: bool = False, **options) -> bool:
        """Add the ``kind`` ("scalar", "color" or "vector") quantity ``name`` to ``mesh`` with
        ``values``, or update its values in place when it is there and not ``fresh`` (adding
        anew compiles its shaders again, slow on a software renderer); True when added."""
        key = (mesh.get_name(), name)
        if key in self._added and not fresh:
            buffer = "colors" if kind == "color" else "values"
            mesh.get_quantity_buffer(name, buffer).update_data(np.asarray(values, dtype=np.float64))
            return False
        getattr(mesh, f"add_{kind}_quantity")(name, values, **options)
        self._added.add(key)
        return True
