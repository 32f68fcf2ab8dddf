"""A mesh file's units and up axis, turned into surfflow's: metres, +y up.

surfflow's convention is SI units and +y up: the default gravity is (0, -9.81, 0), the shipped
scenes pour along -y, and a scene with a bare mesh pours from above its highest point along +y.
``load_mesh(units=..., up=...)`` says what the file uses and returns the mesh in that convention:

    x_m = s x_file                      s = UNITS[units]: 1 (m), 0.01 (cm), 0.001 (mm), 0.0254 (in)
    x_m = R (s x_file)                  for up = "z": R (x, y, z) = (x, z, -y), a quarter turn
                                        about +x that carries the file's +z onto +y (and its +y
                                        onto -z), as Blender's Y-up exporters do

``up = "y"`` and ``units = "m"`` leave the coordinates untouched, bit for bit. A mesh whose size
(the diagonal of its bounding box, after units) lies outside 1 mm to 100 m gets a MeshWarning
that gives the size and names the ``units`` option: that is what a file in the wrong units looks
like (an OBJ in millimetres read as metres is a thousand times too large).
"""

from __future__ import annotations

import warnings

import numpy as np

from ..errors import MeshError, MeshWarning

UNITS = {"m": 1.0, "cm": 0.01, "mm": 0.001, "in": 0.0254}
UP_AXES = ("y", "z")
SIZE_RANGE = (1e-3, 100.0)  # m: the bounding-box diagonals that pass without a warning
Z_UP_TO_Y_UP = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, -1.0, 0.0]])


def check_units(units: str, up: str, where: str = "load_mesh") -> None:
    """MeshError listing the allowed values if ``units`` or ``up`` is not one of them."""
    if units not in UNITS:
        raise MeshError(f"{where}: unknown units {units!r}; use one of "
                        f"{', '.join(repr(u) for u in UNITS)} (the unit the file's coordinates are in)")
    if up not in UP_AXES:
        raise MeshError(f"{where}: unknown up axis {up!r}; use one of "
                        f"{', '.join(repr(u) for u in UP_AXES)} (the file's axis that points up)")


def to_metres_y_up(V: np.ndarray, units: str = "m", up: str = "y") -> np.ndarray:
    """V (n, 3) in the file's units and up axis -> (n, 3) in metres with +y up (module
    docstring); V itself when units is "m" and up is "y"."""
    check_units(units, up)
    if units != "m":
        V = np.asarray(V, dtype=np.float64) * UNITS[units]
    if up == "z":
        V = np.asarray(V, dtype=np.float64) @ Z_UP_TO_Y_UP.T
    return V


def bounding_diagonal(V: np.ndarray) -> float:
    """Length (m) of the diagonal of the axis-aligned bounding box of V (n, 3)."""
    return float(np.linalg.norm(V.max(axis=0) - V.min(axis=0))) if len(V) else 0.0


def warn_if_odd_size(V: np.ndarray, where: str, stacklevel: int = 3) -> None:
    """A MeshWarning naming the ``units`` option if the bounding-box diagonal of V (n, 3) lies
    outside SIZE_RANGE."""
    size = bounding_diagonal(V)
    low, high = SIZE_RANGE
    if low <= size <= high:
        return
    warnings.warn(
        f"{where}: the mesh is {size:.4g} m across (bounding-box diagonal), outside the "
        f"{low * 1000:g} mm to {high:g} m of the objects surfflow is meant for; if the file is "
        f"not in metres, say so with units= ({', '.join(UNITS)}) in load_mesh or the units key "
        "of the scene's [mesh] table", MeshWarning, stacklevel=stacklevel)
