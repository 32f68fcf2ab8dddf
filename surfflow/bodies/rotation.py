"""Orientations as unit quaternions q = (w, x, y, z), scalar first, and as 3x3 rotations."""

from __future__ import annotations

import numpy as np

from ..errors import ParameterError


def as_quaternion(orientation, name: str = "orientation") -> np.ndarray:
    """(4,) unit quaternion (w, x, y, z) from a 3x3 rotation matrix or a quaternion (w, x, y, z)
    (normalised); None is the identity."""
    if orientation is None:
        return np.array([1.0, 0.0, 0.0, 0.0])
    value = np.asarray(orientation, dtype=np.float64)
    if value.shape == (3, 3):
        if not np.allclose(value @ value.T, np.eye(3), atol=1e-6) or np.linalg.det(value) < 0.0:
            raise ParameterError(f"{name} is a 3x3 matrix that is no rotation (R R^T != I or "
                                 "det R < 0); pass a rotation matrix or a quaternion (w, x, y, z)")
        return matrix_to_quaternion(value)
    if value.shape != (4,) or not np.isfinite(value).all() or not np.linalg.norm(value) > 0.0:
        raise ParameterError(f"{name}={orientation!r} must be a 3x3 rotation matrix or a nonzero "
                             "quaternion (w, x, y, z)")
    return value / np.linalg.norm(value)


def matrix_to_quaternion(rotation: np.ndarray) -> np.ndarray:
    """(4,) (w, x, y, z) of a 3x3 rotation (Shepperd's method, w >= 0)."""
    r = rotation
    trace = np.trace(r)
    if trace > 0.0:
        s = 2.0 * np.sqrt(trace + 1.0)
        q = [0.25 * s, (r[2, 1] - r[1, 2]) / s, (r[0, 2] - r[2, 0]) / s, (r[1, 0] - r[0, 1]) / s]
    else:
        k = int(np.argmax(np.diag(r)))
        a, b = (k + 1) % 3, (k + 2) % 3
        s = 2.0 * np.sqrt(1.0 + r[k, k] - r[a, a] - r[b, b])
        q = [0.0, 0.0, 0.0, 0.0]
        q[0] = (r[b, a] - r[a, b]) / s
        q[1 + k] = 0.25 * s
        q[1 + a] = (r[a, k] + r[k, a]) / s
        q[1 + b] = (r[b, k] + r[k, b]) / s
    q = np.array(q)
    return q if q[0] >= 0.0 else -q


def quaternion_to_matrix(q: np.ndarray) -> np.ndarray:
    """3x3 rotation of the unit quaternion q = (w, x, y, z)."""
    w, x, y, z = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def turn(q: np.ndarray, angular_velocity: np.ndarray, dt: float) -> np.ndarray:
    """q advanced by the world-space angular velocity (3,) rad/s over dt: the exact rotation
    exp(dt omega) applied on the left, renormalised."""
    angle = float(np.linalg.norm(angular_velocity)) * dt
    if angle == 0.0:
        return q.copy()
    axis = angular_velocity / np.linalg.norm(angular_velocity)
    half = 0.5 * angle
    w1, (x1, y1, z1) = np.cos(half), np.sin(half) * axis
    w2, x2, y2, z2 = q
    out = np.array([w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2, w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
                    w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2, w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2])
    return out / np.linalg.norm(out)
