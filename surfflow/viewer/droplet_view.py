"""Drawing droplets in polyscope: streaks along their velocity, as a camera's shutter sees them.

Each droplet of volume V at x moving at u is a capsule of radius r = (3 V / 4 pi)^(1/3) from
x - u SHUTTER to x (a curve network of one segment per droplet, :func:`surfflow.look.streaks`),
and a sphere of radius r at x (a point cloud): a fast drop draws as a line of water, a resting one as a bead.
Both are registered again every frame (the number of particles changes); with no particles (or
none in the run) they are removed.
"""

from __future__ import annotations

import numpy as np
import polyscope as ps

from ..look import droplet_radii, streaks

DROPLETS_NAME = "droplets"
STREAKS_NAME = "droplet streaks"


def draw_droplets(particles, color) -> None:
    """Show ``particles`` (positions (p, 3), velocities (p, 3), volumes (p,)) as streaks and
    spheres of their volume, or remove them when there are none."""
    if particles is None or len(particles.volumes) == 0:
        for name, has, remove in ((DROPLETS_NAME, ps.has_point_cloud, ps.remove_point_cloud),
                                  (STREAKS_NAME, ps.has_curve_network, ps.remove_curve_network)):
            if has(name):
                remove(name)
        return
    radius = droplet_radii(particles.volumes)
    cloud = ps.register_point_cloud(DROPLETS_NAME, np.asarray(particles.positions),
                                    color=tuple(color), point_render_mode="sphere")
    cloud.add_scalar_quantity("radius", radius)
    cloud.set_point_radius_quantity("radius", autoscale=False)
    nodes = streaks(particles.positions, particles.velocities).reshape(-1, 3)
    network = ps.register_curve_network(STREAKS_NAME, nodes, np.arange(len(nodes)).reshape(-1, 2),
                                         color=tuple(color))
    network.add_scalar_quantity("radius", np.repeat(radius, 2))
    network.set_node_radius_quantity("radius", autoscale=False)
