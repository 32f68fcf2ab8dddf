"""The live viewer of a ripple scene (``mode = "ripples"``): ``surfflow view`` on such a scene.

``RippleViewerApp`` is the film's :class:`~surfflow.viewer.app.ViewerApp` (play, step, reset,
real time, the readouts) on a :class:`surfflow.Ripples`, drawn by
:class:`~surfflow.viewer.ripple_view.RippleView`: a shift-click on the pond drops a drop there
(the click's ``pending_pours`` become :meth:`drop_at`), and the sliders set the drop's radius and
depth and how much the drawing exaggerates the ripples.
"""

from __future__ import annotations

import numpy as np
import polyscope.imgui as psim

from .app import ViewerApp, view_scene


class RippleViewerApp(ViewerApp):
    """The live viewer of a ripple scene (polyscope must be initialised before it is built)."""

    click_action = "drop a drop"

    def __init__(self, scene, geometry):
        super().__init__(scene, geometry)
        size = float(np.linalg.norm(np.ptp(geometry.vertices, axis=0)))
        self.drop_radius = 0.01 * size
        self.drop_depth = 0.002

    def pour_at(self, point) -> None:
        """A shift-click: drop a drop at ``point`` (3,)."""
        self.drop_at(point)

    def drop_at(self, point) -> None:
        """Drop a drop of the current radius and depth at ``point`` (3,), now."""
        center = tuple(float(x) for x in point)
        volume = self.simulation.drop(center, self.drop_radius, self.drop_depth)
        self.view.update(self.simulation)
        print(f"drop of {self.drop_depth:.3g} m at ({center[0]:.4g}, {center[1]:.4g}, {center[2]:.4g}), "
              f"volume {volume:.3g} m^3, at t = {self.simulation.time:.3f} s", flush=True)

    def _sliders(self) -> None:
        _, self.drop_radius = psim.SliderFloat("drop radius (m)", self.drop_radius, 1e-4,
                                               10.0 * self.drop_radius + 1e-4)
        _, self.drop_depth = psim.SliderFloat("drop depth (m)", self.drop_depth, 0.0, 0.02)
        changed, self.view.height_scale = psim.SliderFloat("height scale", self.view.height_scale,
                                                           1.0, 100.0)
        if changed:
            self.view.update(self.simulation)


def view_ripples(scene, cache_dir=None, play: bool = False) -> None:
    """Open the interactive viewer on the ripple ``scene`` (blocks until the window closes)."""
    view_scene(scene, cache_dir, play, app_class=RippleViewerApp)
