"""Rigid keyframed motion: translation interpolated linearly, rotation by slerp."""

from __future__ import annotations

import numpy as np
from scipy.spatial.transform import Rotation, Slerp

from ..errors import ParameterError


class Keyframes:
    """Rigid keyframed motion: x(t) = R(t) (x_rest - pivot) + pivot + T(t).

    Translations are interpolated linearly and rotations by slerp; before the first and after
    the last keyframe the surface holds that keyframe's pose.

    Parameters
    ----------
    times : (k,) float array, s
        strictly increasing keyframe times.
    translations : (k, 3) float array in m, optional
        one translation per keyframe (zeros if None).
    rotations : (k, 3) float array in degrees, optional
        angles about x, y, z in that order (like the scene's ``[mesh] rotation``; zeros if None).
    pivot : (3,) floats in m, default (0, 0, 0)
        the point the rotations turn about.

    Examples
    --------
    >>> import numpy as np
    >>> import surfflow as sf
    >>> tilt = sf.motion.Keyframes(times=[0.0, 1.0], rotations=[[0, 0, 0], [0, 0, 90]])
    >>> np.round(tilt(np.array([[1.0, 0.0, 0.0]]), 1.0), 6)     # (n, 3) positions at t = 1 s
    array([[0., 1., 0.]])
    """

    def __init__(self, times, translations=None, rotations=None, pivot=(0.0, 0.0, 0.0)):
        self.times = np.asarray(times, dtype=np.float64).reshape(-1)
        k = len(self.times)
        if k == 0 or not np.isfinite(self.times).all() or np.any(np.diff(self.times) <= 0.0):
            raise ParameterError(f"keyframe times {self.times.tolist()} must be finite, at least "
                                 "one, and strictly increasing")
        self.translations = _keyframe_rows("translations", translations, k)
        self.pivot = _keyframe_rows("pivot", pivot, 1)[0]
        angles = _keyframe_rows("rotations", rotations, k)
        self.rotations = Rotation.from_euler("xyz", angles, degrees=True)
        self._slerp = Slerp(self.times, self.rotations) if k > 1 else None

    def pose(self, t: float) -> tuple[Rotation, np.ndarray]:
        """The rotation and translation (3,) at time t."""
        t = min(max(float(t), self.times[0]), self.times[-1])
        rotation = self._slerp([t])[0] if self._slerp is not None else self.rotations[0]
        translation = np.array([np.interp(t, self.times, self.translations[:, c]) for c in range(3)])
        return rotation, translation

    def __call__(self, rest: np.ndarray, t: float) -> np.ndarray:
        rotation, translation = self.pose(t)
        return rotation.apply(rest - self.pivot) + self.pivot + translation


def _keyframe_rows(name: str, values, k: int) -> np.ndarray:
    """(k, 3) finite rows (zeros when None), or a ParameterError naming the argument."""
    if values is None:
        return np.zeros((k, 3))
    rows = np.asarray(values, dtype=np.float64).reshape(-1, 3) if np.size(values) % 3 == 0 else None
    if rows is None or len(rows) != k or not np.isfinite(rows).all():
        raise ParameterError(f"keyframe {name} must be {k} finite [x, y, z] rows (one per keyframe "
                             f"time), not {np.asarray(values).tolist()!r}")
    return rows
