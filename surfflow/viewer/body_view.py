"""Drawing floating rigid bodies in polyscope: one surface mesh per body at its current pose
(``surfflow/bodies``), registered once and moved every frame (registered again where the
name held another mesh); bodies gone are removed."""

from __future__ import annotations

import polyscope as ps

BODY_COLOR = (0.72, 0.52, 0.32)  # light wood
BODY_PREFIX = "body_"


def draw_bodies(bodies) -> None:
    """Show every body of ``bodies`` (``sim.bodies``) as its mesh at its pose."""
    for k, body in enumerate(bodies):
        name = f"{BODY_PREFIX}{k}"
        points = body.world_vertices()
        if ps.has_surface_mesh(name) and ps.get_surface_mesh(name).n_vertices() == len(points):
            ps.get_surface_mesh(name).update_vertex_positions(points)
        else:  # new, or another body's mesh under this name (a new scene in the same process)
            if ps.has_surface_mesh(name):
                ps.remove_surface_mesh(name)
            ps.register_surface_mesh(name, points, body.shape.mesh.faces, color=BODY_COLOR,
                                     smooth_shade=body.kind == "sphere")
    k = len(bodies)
    while ps.has_surface_mesh(f"{BODY_PREFIX}{k}"):
        ps.remove_surface_mesh(f"{BODY_PREFIX}{k}")
        k += 1
