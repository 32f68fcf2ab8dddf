"""Drawing where the time step is set (``Simulation.step_limit_vertex``) in polyscope.

The vertex whose CFL limit set the last step is shown as one red sphere on the input surface,
while the panel's "where the step is set" box is ticked; no sphere when no vertex set it
(``max_dt`` or a term's limit) or the box is clear. A few vertices with small dual cells (a
pole's fan of thin triangles) that pace a whole run show up as a sphere that keeps coming back
to them (``surfflow.step_limits``).
"""

from __future__ import annotations

import numpy as np
import polyscope as ps

STEP_LIMIT_NAME = "step limit"
STEP_LIMIT_COLOR = (0.9, 0.1, 0.1)


def step_limit_point(sim) -> np.ndarray:
    """(k, 3): the position on the input surface of the vertex that set ``sim``'s last step,
    or no row when none did."""
    vertex = sim.step_limit_vertex
    if vertex is None:
        return np.zeros((0, 3))
    return np.asarray(sim.geometry.original_vertices)[[vertex]]


def draw_step_limit(sim, radius: float, show: bool) -> None:
    """Show a sphere of ``radius`` (m) at the vertex that set ``sim``'s last step where ``show``
    and one did, else nothing."""
    point = step_limit_point(sim) if show else np.zeros((0, 3))
    if len(point) == 0:
        if ps.has_point_cloud(STEP_LIMIT_NAME):
            ps.remove_point_cloud(STEP_LIMIT_NAME)
        return
    cloud = ps.register_point_cloud(STEP_LIMIT_NAME, point, point_render_mode="sphere",
                                    color=STEP_LIMIT_COLOR)
    cloud.set_radius(radius, relative=False)
