"""The scene's ``[motion]`` table: which motion moves the mesh, with its parameters (SPEC §9).

    [motion]
    type = "keyframes"              # or "bend", "twist", "pulse", "wave", "sequence"
    times = [0.0, 1.0, 2.0]         # keyframes: s
    rotations = [[0, 0, 0], [15, 0, 0], [0, 0, 0]]   # degrees about x, y, z
    translations = [[0, 0, 0], [0, 0, 0.1], [0, 0, 0]]  # m

``MOTION_KEYS`` checks every key's value; ``MOTION_TYPES`` lists the keys each type takes (the
first ones required) and the class it builds (``surfflow.motion``).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..motion import Bend, Keyframes, MeshSequence, Pulse, Twist, Wave
from .scene_schema import BadValue, boolean, number, text, vector


def numbers(value):
    """A checker for a non-empty list of finite numbers."""
    if (not isinstance(value, list) or not value
            or any(isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v)
                   for v in value)):
        raise BadValue(f"must be a list of finite numbers such as [0.0, 1.0], not {value!r}")
    return tuple(float(v) for v in value)


def vectors(value):
    """A checker for a non-empty list of [x, y, z] lists."""
    if not isinstance(value, list) or not value:
        raise BadValue(f"must be a list of [x, y, z] lists, one per keyframe, not {value!r}")
    return tuple(vector(3)(v) for v in value)


def files(value):
    """A glob pattern string or a non-empty list of file names."""
    if isinstance(value, str) and value:
        return value
    if isinstance(value, list) and value and all(isinstance(v, str) and v for v in value):
        return tuple(value)
    raise BadValue(f"must be a glob such as 'frames/*.obj' or a list of mesh files, not {value!r}")


MOTION_KEYS = {
    "type": text, "times": numbers, "translations": vectors, "rotations": vectors,
    "pivot": vector(3), "curvature": number(), "rate": number(), "amplitude": number(),
    "wavelength": number(0.0, low_open=True), "period": number(0.0, low_open=True),
    "axis": vector(3), "direction": vector(3), "center": vector(3), "pinned": boolean,
    "files": files, "fps": number(0.0, low_open=True), "loop": boolean,
}

MOTION_TYPES = {
    "keyframes": (Keyframes, ("times",), ("translations", "rotations", "pivot")),
    "bend": (Bend, ("curvature", "period"), ("axis", "direction", "center")),
    "twist": (Twist, ("rate", "period"), ("axis", "center")),
    "pulse": (Pulse, ("amplitude", "period"), ("center",)),
    "wave": (Wave, ("amplitude", "wavelength", "period"), ("axis", "direction", "pinned", "center")),
    "sequence": (MeshSequence, ("files", "fps"), ("loop",)),
}
"""type -> (class, required keys, optional keys)."""


@dataclass(frozen=True)
class MotionSpec:
    """A checked [motion] table: ``kind`` (a MOTION_TYPES key) and the class's arguments
    (sequence files already made relative to the scene file)."""

    kind: str
    args: dict = field(default_factory=dict)

    def build(self):
        """The motion object, a callable (rest_vertices, t) -> vertices."""
        return MOTION_TYPES[self.kind][0](**self.args)


def motion_spec(values: dict, base: Path) -> MotionSpec:
    """A MotionSpec from the checked table values; raises :class:`MotionTableError` (key,
    message) when the type is unknown, a key is missing or does not belong to the type."""
    kind = values.get("type")
    if kind not in MOTION_TYPES:
        raise MotionTableError("type", f"{kind!r} is not a motion; use one of "
                                       f"{', '.join(map(repr, MOTION_TYPES))}")
    _, required, optional = MOTION_TYPES[kind]
    for key in values:
        if key != "type" and key not in required + optional:
            raise MotionTableError(key, f"a {kind!r} motion takes {', '.join(required + optional)}")
    missing = [key for key in required if key not in values]
    if missing:
        raise MotionTableError("type", f"a {kind!r} motion needs {', '.join(missing)}")
    args = {k: v for k, v in values.items() if k != "type"}
    if kind == "sequence":
        names = args["files"]
        args["files"] = (os.fspath(base / names) if isinstance(names, str)
                         else [os.fspath(base / name) for name in names])
    return MotionSpec(kind, args)


class MotionTableError(ValueError):
    """A [motion] table problem: args (key, message)."""
