"""Procedural deformers: bend, twist, pulse and a travelling wave, each a function of the rest
positions and the time.

Every deformer measures a vertex by s = (x - c) . axis, its coordinate along ``axis`` from the
centre c (default: the centre of the rest positions' bounding box), and oscillates with
``period`` T (s). Bend, twist and pulse follow sin(2 pi t / T), so the surface starts at rest
and moves smoothly; the wave is faded in over its first period (smoothstep).
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import ParameterError


class _Deformer:
    """What the deformers share: the axis, the centre and the period."""

    def __init__(self, period, axis, center):
        if not (math.isfinite(period) and period > 0.0):
            raise ParameterError(f"period={period!r} must be a positive number of seconds")
        self.period = float(period)
        self.axis = unit_vector("axis", axis)
        self.center = None if center is None else np.asarray(center, dtype=np.float64).reshape(3)

    def origin(self, rest: np.ndarray) -> np.ndarray:
        """The centre c: given, or the middle of the rest positions' bounding box."""
        return self.center if self.center is not None else 0.5 * (rest.min(0) + rest.max(0))

    def swing(self, t: float) -> float:
        """sin(2 pi t / T): 0 at rest, +-1 at full deformation."""
        return math.sin(2.0 * math.pi * t / self.period)


class Bend(_Deformer):
    """Bend the surface along ``axis`` towards ``direction`` into a circular arc.

    The curvature is k(t) = curvature sin(2 pi t / T) (1/m); the plane through c normal to
    ``axis`` stays put. A point at (s, y) (y = (x - c) . direction) goes to
    s' = (1/k - y) sin(k s), y' = y cos(k s) + (1 - cos(k s)) / k, written so that k -> 0 is exact.

    Parameters
    ----------
    curvature : float, 1/m
        the largest curvature of the arc.
    period : float > 0, s
        T, the period of the bending.
    axis : (3,) floats, default (1, 0, 0)
        the direction along which the surface bends (normalised).
    direction : (3,) floats, default (0, 0, 1)
        the direction the ends bend towards.
    center : (3,) floats in m, optional
        c (default: the centre of the rest positions' bounding box).

    Examples
    --------
    >>> import numpy as np
    >>> import surfflow as sf
    >>> line = np.array([[-1.0, 0.0, 0.0], [0.0, 0.0, 0.0], [1.0, 0.0, 0.0]])   # (n, 3) m
    >>> np.round(sf.motion.Bend(curvature=1.0, period=1.0)(line, 0.25), 3)    # fully bent
    array([[-0.841,  0.   ,  0.46 ],
           [ 0.   ,  0.   ,  0.   ],
           [ 0.841,  0.   ,  0.46 ]])
    """

    def __init__(self, curvature, period, axis=(1.0, 0.0, 0.0), direction=(0.0, 0.0, 1.0),
                 center=None):
        super().__init__(period, axis, center)
        self.curvature = float(curvature)
        self.direction = unit_vector("direction", direction)
        if abs(float(self.axis @ self.direction)) > 1e-9:
            raise ParameterError("bend direction must be perpendicular to its axis")

    def __call__(self, rest: np.ndarray, t: float) -> np.ndarray:
        c = self.origin(rest)
        k = self.curvature * self.swing(t)
        s = (rest - c) @ self.axis
        y = (rest - c) @ self.direction
        angle = k * s
        along = s * np.sinc(angle / math.pi) - y * np.sin(angle)
        across = y * np.cos(angle) + 0.5 * k * s * s * np.sinc(angle / (2.0 * math.pi)) ** 2
        return rest + np.outer(along - s, self.axis) + np.outer(across - y, self.direction)


class Twist(_Deformer):
    """Turn each cross-section about ``axis`` (through c) by an angle that grows along it.

    The angle of the cross-section at s is rate(t) s, with rate(t) = ``rate`` sin(2 pi t / T).

    Parameters
    ----------
    rate : float, degrees per m
        the largest twist, in degrees per metre along ``axis``.
    period : float > 0, s
        T, the period of the twisting.
    axis : (3,) floats, default (1, 0, 0)
        the axis the cross-sections turn about.
    center : (3,) floats in m, optional
        c, a point of the axis (default: the centre of the rest positions' bounding box).

    Examples
    --------
    >>> import numpy as np
    >>> import surfflow as sf
    >>> ends = np.array([[1.0, 0.0, 1.0], [-1.0, 0.0, 1.0]])        # (n, 3) m, 2 m apart
    >>> np.round(sf.motion.Twist(rate=90.0, period=4.0, center=(0.0, 0.0, 0.0))(ends, 1.0), 3) + 0.0   # +-90 degrees
    array([[ 1., -1.,  0.],
           [-1.,  1.,  0.]])
    """

    def __init__(self, rate, period, axis=(1.0, 0.0, 0.0), center=None):
        super().__init__(period, axis, center)
        self.rate = math.radians(float(rate))

    def __call__(self, rest: np.ndarray, t: float) -> np.ndarray:
        c = self.origin(rest)
        r = rest - c
        angle = self.rate * self.swing(t) * (r @ self.axis)
        cos, sin = np.cos(angle)[:, None], np.sin(angle)[:, None]
        parallel = np.outer(r @ self.axis, self.axis)
        return c + parallel + cos * (r - parallel) + sin * np.cross(self.axis, r)


class Pulse(_Deformer):
    """Breathe about c: x = c + (1 + amplitude sin(2 pi t / T)) (x_rest - c).

    Parameters
    ----------
    amplitude : float, fraction of the size
        how far the surface grows and shrinks (0.1 = +-10 %).
    period : float > 0, s
        T, the period of a breath.
    center : (3,) floats in m, optional
        c, the point the surface breathes about (default: the middle of its bounding box).

    Examples
    --------
    >>> import numpy as np
    >>> import surfflow as sf
    >>> points = np.array([[-1.0, 0.0, 0.0], [1.0, 0.0, 0.0]])      # (n, 3) m
    >>> sf.motion.Pulse(amplitude=0.1, period=1.0)(points, 0.25)  # a quarter period: +10 %
    array([[-1.1,  0. ,  0. ],
           [ 1.1,  0. ,  0. ]])
    """

    def __init__(self, amplitude, period, center=None):
        super().__init__(period, (1.0, 0.0, 0.0), center)
        if not -1.0 < amplitude < 1.0:
            raise ParameterError(f"pulse amplitude={amplitude!r} must lie in (-1, 1)")
        self.amplitude = float(amplitude)

    def __call__(self, rest: np.ndarray, t: float) -> np.ndarray:
        c = self.origin(rest)
        return c + (1.0 + self.amplitude * self.swing(t)) * (rest - c)


class Wave(_Deformer):
    """A wave travelling along ``axis``.

    x = x_rest + A(s) sin(2 pi (s / wavelength - t / T)) f(t) ``direction``, with f the
    smoothstep from 0 to 1 over the first period.

    Parameters
    ----------
    amplitude : float, m
        A, the wave's amplitude, or with ``pinned`` its amplitude at the largest s.
    wavelength : float > 0, m
        the wavelength along ``axis``.
    period : float > 0, s
        T, the period.
    axis : (3,) floats, default (1, 0, 0)
        the direction the wave travels.
    direction : (3,) floats, default (0, 0, 1)
        the direction of the displacement.
    pinned : bool, default False
        grow the amplitude linearly from 0 at the smallest s (a flag on its pole).
    center : (3,) floats in m, optional
        c, where s = 0 (default: the centre of the rest positions' bounding box).

    Examples
    --------
    >>> import numpy as np
    >>> import surfflow as sf
    >>> flag = np.array([[-1.0, 0.0, 0.0], [0.0, 0.0, 0.0], [1.0, 0.0, 0.0]])   # (n, 3) m
    >>> wave = sf.motion.Wave(amplitude=0.05, wavelength=2.0, period=1.0)
    >>> np.round(wave(flag, 1.25)[:, 2], 3)           # displacement along z (m), faded in
    array([ 0.05, -0.05,  0.05])
    """

    def __init__(self, amplitude, wavelength, period, axis=(1.0, 0.0, 0.0),
                 direction=(0.0, 0.0, 1.0), pinned=False, center=None):
        super().__init__(period, axis, center)
        if not (math.isfinite(wavelength) and wavelength > 0.0):
            raise ParameterError(f"wave wavelength={wavelength!r} must be a positive length (m)")
        self.amplitude = float(amplitude)
        self.wavelength = float(wavelength)
        self.direction = unit_vector("direction", direction)
        self.pinned = bool(pinned)

    def __call__(self, rest: np.ndarray, t: float) -> np.ndarray:
        s = (rest - self.origin(rest)) @ self.axis
        height = self.amplitude * np.sin(2.0 * math.pi * (s / self.wavelength - t / self.period))
        if self.pinned:
            height *= (s - s.min()) / max(s.max() - s.min(), np.finfo(float).tiny)
        fade = min(max(t / self.period, 0.0), 1.0)
        return rest + np.outer(height * fade * fade * (3.0 - 2.0 * fade), self.direction)


def unit_vector(name: str, value) -> np.ndarray:
    """``value`` (3,) scaled to unit length, or a ParameterError naming it."""
    vector = np.asarray(value, dtype=np.float64).reshape(-1)
    norm = float(np.linalg.norm(vector)) if vector.shape == (3,) else 0.0
    if not (math.isfinite(norm) and norm > 0.0):
        raise ParameterError(f"{name}={np.asarray(value).tolist()!r} must be a non-zero [x, y, z]")
    return vector / norm
