"""A frame's fields split for the ParaView writers (VTKHDF and VTU): the surface's point data,
points and normals, and the droplets' points and point data."""

from __future__ import annotations

import numpy as np

PARTICLE_PREFIX = "particle_"
BODY_PREFIX = "body_"


def mesh_point_data(fields: dict, rest) -> tuple[dict, object, object]:
    """The surface's part of a frame for a ParaView file: ({name: field} but the droplets',
    the bodies' and the moving surface's, points (n, 3), normals (n, 3)); the points and
    normals are ``rest``'s (a geometry, or a dict of them) when the surface does not move."""
    point_data = {name: values for name, values in fields.items()
                  if name not in ("vertices", "normals")
                  and not name.startswith((PARTICLE_PREFIX, BODY_PREFIX))}
    rest = rest if isinstance(rest, dict) else {"vertices": rest.vertices, "normals": rest.normals}
    return point_data, fields.get("vertices", rest["vertices"]), fields.get("normals", rest["normals"])


def particle_point_data(fields: dict) -> tuple[np.ndarray, dict]:
    """The droplets of a frame for a ParaView file: positions (p, 3) and point data
    {"velocity": (p, 3), "volume": (p,), "radius": (p,), "dye": (p, k) with dyes}; none
    (p = 0) in a frame without them."""
    positions = fields.get(PARTICLE_PREFIX + "positions", np.zeros((0, 3)))
    volumes = fields.get(PARTICLE_PREFIX + "volumes", np.zeros(0))
    point_data = {"velocity": fields.get(PARTICLE_PREFIX + "velocities", np.zeros((0, 3))),
                  "volume": volumes, "radius": np.cbrt(0.75 * np.asarray(volumes) / np.pi)}
    if PARTICLE_PREFIX + "dyes" in fields:
        point_data["dye"] = fields[PARTICLE_PREFIX + "dyes"]
    return positions, point_data

