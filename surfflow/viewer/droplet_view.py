"""Drawing droplets in polyscope: a point cloud of spheres of radius (3 V / 4 pi)^(1/3).

The cloud is registered again every frame (the number of particles changes); with no particles
(or none in the run) it is removed.
"""

from __future__ import annotations

import numpy as np
import polyscope as ps

DROPLETS_NAME = "droplets"


def draw_droplets(particles, color) -> None:
    """Show ``particles`` (positions (p, 3), volumes (p,)) as spheres of their volume, or
    remove the cloud when there are none."""
    if particles is None or len(particles.volumes) == 0:
        if ps.has_point_cloud(DROPLETS_NAME):
            ps.remove_point_cloud(DROPLETS_NAME)
        return
    cloud = ps.register_point_cloud(DROPLETS_NAME, np.asarray(particles.positions),
                                    color=tuple(color), point_render_mode="sphere")
    radius = np.cbrt(0.75 * np.asarray(particles.volumes) / np.pi)
    cloud.add_scalar_quantity("radius", radius)
    cloud.set_point_radius_quantity("radius", autoscale=False)
