"""The scene's ``[[bodies]]`` tables: floating rigid bodies (``surfflow/bodies``).

    [[bodies]]
    shape = "box"                 # "box" (extents), "sphere" (radius) or "mesh" (mesh, a path)
    extents = [0.08, 0.03, 0.05]  # m
    density = 600.0               # kg/m^3
    position = [0.0, 0.1, 0.0]    # m, the centre of mass
    rotation = [0.0, 30.0, 0.0]   # degrees about x, y, z (or orientation = [w, x, y, z])
    [bodies.keyframes]            # optional: a kinematic body (moved, never pushed)
    times = [0.0, 2.0]
    translations = [[0, 0, 0], [0.2, 0, 0]]
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.spatial.transform import Rotation

from ..bodies import RigidBody
from ..errors import ParameterError
from ..io.mesh import load_mesh
from ..motion.keyframes import Keyframes
from .scene_schema import BadValue, choice, number, text, vector

BODY_SHAPES = ("box", "sphere", "mesh")


def keyframes_table(value):
    """A ``[bodies.keyframes]`` table: times, and translations and/or rotations (degrees)."""
    if not isinstance(value, dict) or "times" not in value or not set(value) <= {
            "times", "translations", "rotations"}:
        raise BadValue("must be a table with 'times' and 'translations' and/or 'rotations' "
                       "(one [x, y, z] per time, m and degrees)")
    try:
        return Keyframes(value["times"], value.get("translations"), value.get("rotations"))
    except (ParameterError, ValueError, TypeError) as exc:
        raise BadValue(str(exc)) from None


BODY_KEYS = {
    "shape": choice(BODY_SHAPES), "extents": vector(3, 0.0), "radius": number(0.0, low_open=True),
    "mesh": text, "density": number(0.0, low_open=True), "position": vector(3),
    "rotation": vector(3), "orientation": vector(4), "velocity": vector(3),
    "angular_velocity": vector(3), "friction": number(0.0), "keyframes": keyframes_table,
}


@dataclass(frozen=True)
class BodySpec:
    """A rigid body (``sf.RigidBody``): its shape and size, density, pose, velocities, friction
    and, for a kinematic body, its keyframes (``sf.motion.Keyframes`` about its position)."""

    shape: str
    extents: tuple | None = None
    radius: float | None = None
    mesh: Path | None = None
    density: float = 500.0
    position: tuple = (0.0, 0.0, 0.0)
    rotation: tuple = (0.0, 0.0, 0.0)
    orientation: tuple | None = None
    velocity: tuple = (0.0, 0.0, 0.0)
    angular_velocity: tuple = (0.0, 0.0, 0.0)
    friction: float = 0.5
    keyframes: Keyframes | None = None

    def build(self) -> RigidBody:
        """The ``RigidBody`` this table describes."""
        orientation = (self.orientation if self.orientation is not None else
                       Rotation.from_euler("xyz", self.rotation, degrees=True).as_matrix())
        if self.keyframes is not None:
            self.keyframes.pivot = np.asarray(self.position, dtype=np.float64)
        pose = {"density": self.density, "position": self.position, "orientation": orientation,
                "velocity": self.velocity, "angular_velocity": self.angular_velocity,
                "friction": self.friction, "kinematic": self.keyframes}
        if self.shape == "box":
            return RigidBody.box(extents=self.extents, **pose)
        if self.shape == "sphere":
            return RigidBody.sphere(radius=self.radius, **pose)
        mesh = load_mesh(self.mesh)
        return RigidBody((mesh.vertices, mesh.faces), **pose)


SIZE_KEYS = {"box": "extents", "sphere": "radius", "mesh": "mesh"}


def body_specs(entries, table, fail, base: Path) -> tuple:
    """The BodySpecs of the ``[[bodies]]`` entries; ``table(key_path, values, checkers)`` checks
    one table, ``fail(key_path, message)`` makes the SceneError; mesh paths relative to ``base``."""
    if not isinstance(entries, list):
        raise fail(("bodies",), "write bodies as [[bodies]] tables")
    specs = []
    for k, entry in enumerate(entries):
        values = table(("bodies", k), entry, BODY_KEYS)
        shape = values.get("shape")
        if shape is None:
            raise fail(("bodies", k), "every body needs 'shape' (box, sphere or mesh) and its size "
                       "('extents' [x, y, z], 'radius' or 'mesh' = a path)")
        size = SIZE_KEYS[shape]
        if size not in values:
            raise fail(("bodies", k), f"a {shape} needs '{size}'")
        extra = set(SIZE_KEYS.values()) - {size}
        if extra & values.keys():
            raise fail(("bodies", k, sorted(extra & values.keys())[0]),
                       f"a {shape} takes '{size}', not this key; remove it")
        if "rotation" in values and "orientation" in values:
            raise fail(("bodies", k, "orientation"), "give 'rotation' (degrees) or "
                       "'orientation' (a quaternion w, x, y, z), not both")
        if size == "extents" and min(values["extents"]) <= 0.0:
            raise fail(("bodies", k, "extents"), "every edge length must be > 0 (m)")
        if size == "mesh":
            values["mesh"] = base / values["mesh"]
            if not values["mesh"].is_file():
                raise fail(("bodies", k, "mesh"), f"no mesh file at {values['mesh']}; give a "
                           "closed mesh's path relative to the scene file")
        specs.append(BodySpec(**values))
    return tuple(specs)
