"""What disturbs a calm surface: a drop's Gaussian dent, and rain (drops at random places).

A drop at ``center`` with ``radius`` r and ``depth`` D lowers each vertex by

    D exp(-|x_i - center|^2 / r^2)

(3D distance, so it works on a curved surface), i.e. a dent of volume -pi r^2 D on a plane
larger than it (sum_i A_i dz_i on the mesh: what :func:`gaussian_dent` returns).

Rain drops fall at ``rate`` drops per second per square metre of surface, each a dent of the
rain's radius and depth at a point drawn uniformly over the surface's area. The drops of step k
come from the generator seeded with (seed, k), so a run and a restarted run see the same drops.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..checks import check_range, check_vector3
from ..errors import ParameterError


def gaussian_dent(vertices, center, radius: float, depth: float) -> np.ndarray:
    """(n,) the height change (m) of a drop: -depth exp(-|x_i - center|^2 / radius^2).

    vertices (n, 3) in m; center (3,) in m; radius > 0 and depth in m (a negative depth
    raises a bump).

    Examples
    --------
    >>> import numpy as np
    >>> gaussian_dent(np.array([[0.0, 0, 0], [0.1, 0, 0]]), (0, 0, 0), 0.1, 0.002).round(6)
    array([-0.002   , -0.000736])
    """
    check_vector3("center", center)
    check_range("radius", radius, 0.0, low_open=True)
    check_range("depth", depth)
    squared = np.sum((np.asarray(vertices) - np.asarray(center, dtype=np.float64)) ** 2, axis=1)
    return -depth * np.exp(-squared / radius ** 2)


@dataclass(frozen=True)
class Rain:
    """Drops falling at ``rate`` (1/(m^2 s)) over the surface, each a dent of ``radius`` and
    ``depth`` (m); ``seed`` makes the drops reproducible."""

    rate: float
    radius: float
    depth: float
    seed: int = 0

    def __post_init__(self):
        check_range("rain rate", self.rate, 0.0)
        check_range("rain radius", self.radius, 0.0, low_open=True)
        check_range("rain depth", self.depth)
        if int(self.seed) != self.seed or self.seed < 0:
            raise ParameterError(f"rain seed={self.seed!r} must be a whole number >= 0")

    def drops(self, vertices, faces, face_areas, step: int, dt: float) -> np.ndarray:
        """(k, 3) the points (m) where drops land during step ``step`` of length ``dt`` (s):
        a Poisson number with mean rate * area * dt, uniform over the triangles' area."""
        rng = np.random.default_rng([int(self.seed), int(step)])
        count = rng.poisson(self.rate * face_areas.sum() * dt)
        cumulative = np.cumsum(face_areas)
        chosen = np.minimum(np.searchsorted(cumulative, rng.random(count) * cumulative[-1]),
                            len(faces) - 1)
        s, t = rng.random(count), rng.random(count)
        flip = s + t > 1.0
        s[flip], t[flip] = 1.0 - s[flip], 1.0 - t[flip]
        a, b, c = (vertices[faces[chosen, k]] for k in range(3))
        return a + s[:, None] * (b - a) + t[:, None] * (c - a)
