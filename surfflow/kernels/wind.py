"""Wind drag on the liquid (SPEC §3).

    du/dt = c_w (w_t - u)       on wet vertices,

w_t = P_i w(x_i, t) the tangential part of the wind velocity at vertex i (P_i the rows t1, t2 of
its frame), c_w the ``wind_coefficient`` (1/s). Explicit in time, an acceleration of every
Runge-Kutta stage: with the stage's implicit friction (I + dt gamma) u_new = u + dt c_w (w_t - u)
the steady film velocity is exactly c_w w_t / (c_w + gamma) for any dt; the step is stable for
dt < 2 / c_w and the simulation keeps dt <= 1 / c_w.

The wind is given as a constant vector, a Python callable (positions (n, 3), time) -> (n, 3)
evaluated once per step into a preallocated buffer, or a :class:`WindGrid` (a regular 3D grid of
velocities) sampled trilinearly, clamped to the grid's box.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

import numba
import numpy as np

from ..errors import ParameterError
from ._jit import parallel_kernel, serial_kernel


@parallel_kernel
def wind_acceleration(tangent_frames, wind_velocity, depth, velocity, coefficient, min_depth,
                      acceleration):
    """a_i += c_w (P_i w_i - u_i) on wet vertices, in place.

    tangent_frames (n, 2, 3); wind_velocity (n, 3) world space; depth (n,); velocity and
    acceleration (n, 2) in each vertex's frame.
    """
    for i in numba.prange(0, depth.shape[0]):
        if depth[i] < min_depth:
            continue
        for a in range(2):
            tangential = (tangent_frames[i, a, 0] * wind_velocity[i, 0]
                          + tangent_frames[i, a, 1] * wind_velocity[i, 1]
                          + tangent_frames[i, a, 2] * wind_velocity[i, 2])
            acceleration[i, a] += coefficient * (tangential - velocity[i, a])


@serial_kernel
def grid_cell(x, origin, spacing, size):
    """(lower grid index, fraction towards the next) of coordinate x on one axis of ``size``
    points, clamped to the grid."""
    top = size - 1
    t = min(max((x - origin) / spacing, 0.0), float(top))
    cell = min(int(math.floor(t)), max(top - 1, 0))
    return cell, t - cell


@parallel_kernel
def sample_wind_grid(positions, origin, spacing, values, out):
    """Trilinear interpolation of a grid of vectors at each position, clamped to the grid.

    positions (n, 3); origin, spacing (3,); values (nx, ny, nz, 3) at origin + (i, j, k) spacing;
    out (n, 3) written.
    """
    nx, ny, nz = values.shape[0], values.shape[1], values.shape[2]
    for p in numba.prange(0, positions.shape[0]):
        i, fx = grid_cell(positions[p, 0], origin[0], spacing[0], nx)
        j, fy = grid_cell(positions[p, 1], origin[1], spacing[1], ny)
        k, fz = grid_cell(positions[p, 2], origin[2], spacing[2], nz)
        i1, j1, k1 = min(i + 1, nx - 1), min(j + 1, ny - 1), min(k + 1, nz - 1)
        for c in range(3):
            low = ((1.0 - fx) * ((1.0 - fy) * values[i, j, k, c] + fy * values[i, j1, k, c])
                   + fx * ((1.0 - fy) * values[i1, j, k, c] + fy * values[i1, j1, k, c]))
            high = ((1.0 - fx) * ((1.0 - fy) * values[i, j, k1, c] + fy * values[i, j1, k1, c])
                    + fx * ((1.0 - fy) * values[i1, j, k1, c] + fy * values[i1, j1, k1, c]))
            out[p, c] = (1.0 - fz) * low + fz * high


@dataclass(frozen=True, eq=False)
class WindGrid:
    """Wind velocities (m/s) on a regular grid: values[i, j, k] at origin + (i, j, k) * spacing.

    Sampled trilinearly at the vertices (clamped at the grid's edges); pass it as
    ``Params(wind=grid)``, or give a scene ``[wind] file = "wind.npz"`` holding the three arrays.

    Parameters
    ----------
    origin : (3,) float array, m
        the position of ``values[0, 0, 0]``.
    spacing : (3,) float array, m
        the grid spacing along x, y, z, each > 0.
    values : (nx, ny, nz, 3) float array, m/s
        one wind velocity per grid point, every n >= 1.

    Examples
    --------
    >>> import numpy as np
    >>> import surfflow as sf
    >>> values = np.zeros((2, 2, 2, 3)); values[..., 0] = 3.0       # a 3 m/s breeze along x
    >>> grid = sf.WindGrid(origin=(-1.0, -1.0, -1.0), spacing=(2.0, 2.0, 2.0), values=values)
    >>> params = sf.Params(wind=grid, wind_coefficient=2.0)
    """

    origin: np.ndarray
    spacing: np.ndarray
    values: np.ndarray

    def __post_init__(self):
        origin = np.ascontiguousarray(self.origin, dtype=np.float64)
        spacing = np.ascontiguousarray(self.spacing, dtype=np.float64)
        values = np.ascontiguousarray(self.values, dtype=np.float64)
        if origin.shape != (3,) or spacing.shape != (3,) or not np.all(spacing > 0):
            raise ParameterError(f"WindGrid needs origin (3,) and spacing (3,) > 0; got origin "
                                 f"{origin.shape} and spacing {spacing.tolist()}")
        if values.ndim != 4 or values.shape[3] != 3 or min(values.shape[:3]) < 1:
            raise ParameterError(f"WindGrid values have shape {values.shape}; they must be "
                                 "(nx, ny, nz, 3), one velocity vector per grid point")
        if not (np.isfinite(origin).all() and np.isfinite(values).all()):
            raise ParameterError("WindGrid origin and values must be finite")
        for name, array in (("origin", origin), ("spacing", spacing), ("values", values)):
            array.setflags(write=False)
            object.__setattr__(self, name, array)

    @classmethod
    def load(cls, path: str | os.PathLike) -> WindGrid:
        """Read an ``.npz`` with arrays ``origin``, ``spacing`` and ``values``."""
        path = os.fspath(path)
        try:
            with np.load(path, allow_pickle=False) as data:
                return cls(data["origin"], data["spacing"], data["values"])
        except (OSError, KeyError, ValueError) as exc:
            raise ParameterError(f"wind grid file {path!r} cannot be read ({exc}); it must be an "
                                 ".npz with arrays origin (3,), spacing (3,) and values "
                                 "(nx, ny, nz, 3)") from None

    def sample(self, positions: np.ndarray, out: np.ndarray) -> None:
        """Fill out (n, 3) with the wind at positions (n, 3)."""
        sample_wind_grid(positions, self.origin, self.spacing, self.values, out)


def evaluate_wind(wind, positions: np.ndarray, time: float, out: np.ndarray) -> None:
    """Fill out (n, 3) with the wind at the positions (n, 3) and time: a constant (x, y, z), a
    callable (positions, time) -> (n, 3) or a :class:`WindGrid`."""
    if callable(wind):
        value = np.asarray(wind(positions, time), dtype=np.float64)
        if value.shape != out.shape or not np.isfinite(value).all():
            raise ParameterError(f"the wind function returned shape {value.shape} at "
                                 f"t={time:.6g} s; it must return finite velocities of shape "
                                 f"{out.shape}")
        out[:] = value
    elif hasattr(wind, "sample"):
        wind.sample(positions, out)
    else:
        out[:] = np.asarray(wind, dtype=np.float64)
