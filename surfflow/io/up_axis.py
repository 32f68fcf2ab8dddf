"""Which axis is up: the coordinate axis closest to -gravity, and the turn that makes it another.

USD stages declare their up axis as Y or Z, Blender's world is Z-up. A scene whose gravity runs
along -y (or -z) keeps its coordinates and says so; any other scene (gravity along x, or along
+y / +z) is turned by a quarter or half turn that carries its up axis onto the target axis.
"""

from __future__ import annotations

import numpy as np

AXES = "XYZ"


def up_axis(gravity) -> tuple[int, float]:
    """(index, sign) of the axis closest to -gravity: (1, 1.0) is +y. Zero gravity: +y."""
    g = np.asarray(gravity, dtype=np.float64)
    if not np.any(g):
        return 1, 1.0
    index = int(np.argmax(np.abs(g)))
    return index, -float(np.sign(g[index]))


def rotation_onto(gravity, target: int) -> np.ndarray:
    """(3, 3) rotation R (column vectors, x' = R x) carrying the scene's up axis onto +e_target."""
    index, sign = up_axis(gravity)
    up = sign * np.eye(3)[index]
    to = np.eye(3)[target]
    if np.array_equal(up, to):
        return np.eye(3)
    if np.array_equal(up, -to):
        axis = np.eye(3)[(target + 1) % 3]
        return 2.0 * np.outer(axis, axis) - np.eye(3)
    axis = np.cross(up, to)
    cross = np.array([[0.0, -axis[2], axis[1]], [axis[2], 0.0, -axis[0]], [-axis[1], axis[0], 0.0]])
    return np.eye(3) + cross + cross @ cross
