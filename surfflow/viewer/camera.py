"""Where the camera stands when a scene names none: framing the mesh and where the liquid starts.

The camera looks at the centre of the box around the mesh and the scene's pour and rain centres
(and its initial ball of liquid), from the side the surface under those points faces (the mean
normal of their nearest vertices, across gravity: the side the liquid runs down), raised
ELEVATION degrees above the horizon, far enough back that the box's bounding sphere fits the
field of view. A surface facing straight up there, or no sources, gives a three-quarter view from
polyscope's front (+z, or +x when gravity is along z).
"""

from __future__ import annotations

import math

import numpy as np
import polyscope as ps

ELEVATION = 25.0
THREE_QUARTER = 35.0
FIELD_OF_VIEW = 45.0  # polyscope's default vertical field of view, degrees
MARGIN = 1.05
FLAT = 0.2  # a mean normal whose horizontal part is shorter faces up: no side to prefer


def action_points(scene) -> np.ndarray:
    """(m, 3) points where the scene's liquid comes from: pour and rain centres, nozzles, the
    initial ball."""
    points = [s.center for s in scene.sources if s.kind != "sink" and s.center is not None]
    points += [e.position for e in scene.emitters if e.kind == "nozzle"]
    if scene.initial.center is not None and scene.initial.depth > 0.0:
        points.append(scene.initial.center)
    return np.asarray(points, dtype=np.float64).reshape(-1, 3)


def _horizontal(vector, up) -> np.ndarray:
    return vector - np.dot(vector, up) * up


def framing_view(vertices: np.ndarray, normals: np.ndarray, points: np.ndarray, gravity,
                 aspect: float = 4.0 / 3.0):
    """(camera location (3,), target (3,)) framing ``vertices`` (n, 3) with unit ``normals``
    (n, 3) and ``points`` (m, 3) for a window of width / height ``aspect``."""
    up = -np.asarray(gravity, dtype=np.float64) / np.linalg.norm(gravity)
    everything = np.vstack([vertices, points])
    low, high = everything.min(axis=0), everything.max(axis=0)
    target, radius = 0.5 * (low + high), 0.5 * float(np.linalg.norm(high - low))
    side = np.zeros(3)
    if len(points):
        nearest = np.argmin(((points[:, None, :] - vertices[None, :, :]) ** 2).sum(axis=2), axis=1)
        side = _horizontal(normals[nearest].mean(axis=0), up)
    if np.linalg.norm(side) < FLAT:
        front = _horizontal(np.array([0.0, 0.0, 1.0]), up)
        if np.linalg.norm(front) < 0.5:
            front = _horizontal(np.array([1.0, 0.0, 0.0]), up)
        front /= np.linalg.norm(front)
        turn = math.radians(THREE_QUARTER)
        side = math.cos(turn) * front + math.sin(turn) * np.cross(up, front)
    side = side / np.linalg.norm(side)
    elevation = math.radians(ELEVATION)
    direction = math.cos(elevation) * side + math.sin(elevation) * up
    half_view = 0.5 * math.radians(FIELD_OF_VIEW)
    half_view = min(half_view, math.atan(math.tan(half_view) * aspect))
    distance = MARGIN * radius / math.sin(half_view)
    return target + distance * direction, target


def up_direction(gravity) -> str:
    """Polyscope's name of the axis closest to -gravity ("y_up", "neg_z_up", ...)."""
    axis = int(np.argmax(np.abs(gravity)))
    return ("neg_" if gravity[axis] > 0 else "") + "xyz"[axis] + "_up"


def place_camera(scene, geometry) -> None:
    """Point polyscope's camera as the scene's [render] table says, else frame the mesh and the
    sources (:func:`framing_view`), with the axis against gravity up."""
    spec = scene.render
    ps.set_up_dir(up_direction(scene.params.gravity))
    if spec.camera is not None:
        ps.look_at(spec.camera, spec.target or tuple(geometry.vertices.mean(axis=0)))
        return
    width, height = ps.get_window_size()
    eye, target = framing_view(geometry.vertices, geometry.normals, action_points(scene),
                               scene.params.gravity, width / max(height, 1))
    ps.look_at(tuple(eye), tuple(spec.target or target))
