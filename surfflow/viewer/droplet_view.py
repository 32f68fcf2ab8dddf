"""Drawing droplets in polyscope: streaks along their velocity, as a camera's shutter sees them.

Each droplet of volume V at x moving at u is a capsule of radius r = (3 V / 4 pi)^(1/3) from
x - u SHUTTER to x (a curve network of one segment per droplet, ``streaks``), and a sphere of
radius r at x (a point cloud): a fast drop draws as a line of water, a resting one as a bead.
Both are registered again every frame (the number of particles changes); with no particles (or
none in the run) they are removed.
"""

from __future__ import annotations

import numpy as np
import polyscope as ps

DROPLETS_NAME = "droplets"
STREAKS_NAME = "droplet streaks"
SHUTTER = 1.0 / 60.0
"""seconds of motion a streak shows (half a frame at 30 fps)."""


def droplet_radii(volumes) -> np.ndarray:
    """(p,) radii (3 V / 4 pi)^(1/3) of spheres of the volumes (p,)."""
    return np.cbrt(0.75 * np.asarray(volumes, dtype=np.float64) / np.pi)


def streaks(positions, velocities, shutter: float = SHUTTER) -> tuple[np.ndarray, np.ndarray]:
    """The streaks of droplets at positions (p, 3) moving at velocities (p, 3): nodes (2 p, 3),
    the tail x - u shutter then the head x of each, and edges (p, 2) joining them."""
    heads = np.asarray(positions, dtype=np.float64).reshape(-1, 3)
    tails = heads - shutter * np.asarray(velocities, dtype=np.float64).reshape(-1, 3)
    nodes = np.stack([tails, heads], axis=1).reshape(-1, 3)
    return nodes, np.arange(len(nodes)).reshape(-1, 2)


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
    nodes, edges = streaks(particles.positions, particles.velocities)
    network = ps.register_curve_network(STREAKS_NAME, nodes, edges, color=tuple(color))
    network.add_scalar_quantity("radius", np.repeat(radius, 2))
    network.set_node_radius_quantity("radius", autoscale=False)
