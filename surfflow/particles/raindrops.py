"""Raindrops: their sizes (Marshall-Palmer), their fall speed (Atlas) and where they start.

Sizes. Marshall and Palmer (1948) give the number of drops per volume of air and per diameter
as N(D) = N0 exp(-Lambda D), N0 = 8000 m^-3 mm^-1, Lambda = 4.1 R^-0.21 mm^-1 for a rain rate
R in mm/h. The drops that cross a horizontal plane in a time (what a cloud releases, what the
ground receives) are that population weighted by its fall speed: N(D) v(D). Diameters are drawn
from N(D) v(D) truncated to [``SMALLEST_DROP``, ``LARGEST_DROP``] = [0.5, 6] mm (smaller drops
are drizzle, larger ones break up), by inverting its cumulative distribution, tabulated once on
``TABLE_SIZE`` diameters (linear interpolation between them).

Fall speed. Atlas, Srivastava and Sekhon (1973), a fit to Gunn and Kinzer's (1949)
measurements: v(D) = 9.65 - 10.3 exp(-0.6 D) m/s, D in mm (2.0 m/s at 0.5 mm, 9.4 m/s at 6 mm).
Drops leave the top of the rain's region at this speed; the droplets' own linear drag then
carries them towards |g| / drag (6.5 m/s by default).

Pattern. Where and how large the k-th candidate drop is comes from the R3 low-discrepancy
sequence (Roberts 2018): u_j(k) = frac(1/2 + k alpha_j), alpha_j = phi^-j, phi the real root of
x^4 = x + 1. It covers the footprint evenly and needs no random state, so runs and restarts are
the same. ``disc_pattern`` does the same on a disc for the nozzles (R2, x^3 = x + 1).
"""

from __future__ import annotations

import functools
import math

import numpy as np

SMALLEST_DROP = 0.5e-3  # m: below, drizzle
LARGEST_DROP = 6e-3     # m: above, drops break up
TABLE_SIZE = 2048
MARSHALL_PALMER_SLOPE = 4.1e3  # 1/m at 1 mm/h: Lambda = 4.1 R^-0.21 mm^-1


@functools.cache
def sequence_steps(dimensions: int) -> np.ndarray:
    """The R_d sequence's steps alpha_j = phi^-j, j = 1 .. d (d,), computed once per d."""
    phi = 2.0
    for _ in range(64):  # fixed point of phi = (1 + phi)^(1 / (d + 1))
        phi = (1.0 + phi) ** (1.0 / (dimensions + 1))
    return phi ** -np.arange(1, dimensions + 1)


def low_discrepancy(index: np.ndarray, dimensions: int) -> np.ndarray:
    """The R_d sequence at the (k,) int64 ``index``: (k, dimensions) in [0, 1)."""
    return np.mod(0.5 + np.multiply.outer(index.astype(np.float64), sequence_steps(dimensions)),
                  1.0)


def disc_pattern(index: np.ndarray) -> np.ndarray:
    """(k, 2) points of the unit disc, evenly spread (R2 sequence, area-preserving map)."""
    u = low_discrepancy(index, 2)
    radius, angle = np.sqrt(u[:, 0]), 2.0 * np.pi * u[:, 1]
    return np.column_stack([radius * np.cos(angle), radius * np.sin(angle)])


def fall_speed(diameter: np.ndarray) -> np.ndarray:
    """Terminal fall speed (m/s) of raindrops of the given diameters (m): Atlas et al. (1973)."""
    return 9.65 - 10.3 * np.exp(-600.0 * diameter)


class DropSizes:
    """Diameters (m) of raindrops crossing a horizontal plane in rain of ``intensity`` mm/h."""

    def __init__(self, intensity: float):
        slope = MARSHALL_PALMER_SLOPE * intensity ** -0.21
        self.diameters = np.linspace(SMALLEST_DROP, LARGEST_DROP, TABLE_SIZE)
        flux = np.exp(-slope * self.diameters) * fall_speed(self.diameters)
        cumulative = np.concatenate([[0.0], np.cumsum(0.5 * (flux[1:] + flux[:-1])
                                                      * np.diff(self.diameters))])
        self.cumulative = cumulative / cumulative[-1]
        volume = np.pi / 6.0 * self.diameters ** 3
        self.mean_volume = float(np.sum(volume * flux) / np.sum(flux))
        self.mean_speed = float(np.sum(fall_speed(self.diameters) * flux) / np.sum(flux))

    def __call__(self, u: np.ndarray) -> np.ndarray:
        """The diameters (m) at quantiles ``u`` (k,) in [0, 1)."""
        return np.interp(u, self.cumulative, self.diameters)


def horizontal_basis(up: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Two unit vectors (3,) perpendicular to ``up`` and to each other: h1, h2 = up x h1."""
    axis = np.eye(3)[int(np.argmin(np.abs(up)))]
    first = axis - (axis @ up) * up
    first /= np.linalg.norm(first)
    return first, np.cross(up, first)


def footprint(low: np.ndarray, high: np.ndarray, up: np.ndarray):
    """The box [low, high]'s shadow on the plane perpendicular to ``up``: the basis (h1, h2),
    its corners' (8, 2) coordinates, its convex hull's inequalities (f, 3: a x + b y + c <= 0
    inside), its area (m^2) and the box's top height along ``up``."""
    h1, h2 = horizontal_basis(up)
    corners = np.array([[x, y, z] for x in (low[0], high[0]) for y in (low[1], high[1])
                        for z in (low[2], high[2])])
    flat = np.column_stack([corners @ h1, corners @ h2])
    hull = convex_hull(flat)
    edges = np.roll(hull, -1, axis=0) - hull
    inequalities = np.column_stack([edges[:, 1], -edges[:, 0],
                                    edges[:, 0] * hull[:, 1] - edges[:, 1] * hull[:, 0]])
    area = 0.5 * float(np.sum(hull[:, 0] * np.roll(hull[:, 1], -1)
                              - np.roll(hull[:, 0], -1) * hull[:, 1]))
    return (h1, h2), flat, inequalities, area, float(np.max(corners @ up))


def convex_hull(points: np.ndarray) -> np.ndarray:
    """The convex hull (h, 2) of 2D points (k, 2), counter-clockwise (Andrew's monotone chain)."""
    ordered = sorted(map(tuple, points))

    def half(sequence):
        chain = []
        for p in sequence:
            while len(chain) >= 2 and _turn(chain[-2], chain[-1], p) <= 0.0:
                chain.pop()
            chain.append(p)
        return chain[:-1]

    return np.array(half(ordered) + half(reversed(ordered)))


def _turn(a, b, c) -> float:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def fall_time(height: float, speed_down: float, gravity: float, drag: float) -> float:
    """An upper bound (s) on the time to fall ``height`` m starting at ``speed_down`` m/s:
    the ballistic time, or the time at the terminal speed |g| / drag if that is longer."""
    height = max(height, 0.0)
    speed_down = max(speed_down, 0.0)
    ballistic = (math.sqrt(speed_down ** 2 + 2.0 * gravity * height) - speed_down) / gravity
    terminal = height * drag / gravity if drag > 0.0 else 0.0
    return max(ballistic, terminal)
