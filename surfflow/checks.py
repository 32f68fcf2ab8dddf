"""Argument checks shared by the configuration and the runtime: a bad value fails with a
:class:`~surfflow.errors.ParameterError` that names it and says what is allowed."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .errors import ParameterError


def check_choice(name: str, value: str, allowed: tuple[str, ...]) -> None:
    """Raise ParameterError unless ``value`` is one of ``allowed``."""
    if value not in allowed:
        raise ParameterError(
            f"{name}={value!r} is not allowed; use one of {', '.join(map(repr, allowed))}"
        )


def check_range(name: str, value: float, low: float = -math.inf, high: float = math.inf,
                low_open: bool = False, high_open: bool = False) -> None:
    """Raise ParameterError unless ``value`` is a finite number inside the given interval."""
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise ParameterError(f"{name}={value!r} is not a number") from None
    if not math.isfinite(value):
        raise ParameterError(f"{name}={value!r} must be finite")
    too_low = value <= low if low_open else value < low
    too_high = value >= high if high_open else value > high
    if too_low or too_high:
        left = "(" if low_open else "["
        right = ")" if high_open else "]"
        raise ParameterError(f"{name}={value!r} is out of range; it must lie in {left}{low}, {high}{right}")


def check_vector3(name: str, value: Any) -> tuple[float, float, float]:
    """Return ``value`` as a tuple of three finite floats or raise ParameterError."""
    try:
        vec = tuple(float(c) for c in value)
    except (TypeError, ValueError):
        raise ParameterError(f"{name}={value!r} must be three numbers (x, y, z)") from None
    if len(vec) != 3 or not all(math.isfinite(c) for c in vec):
        raise ParameterError(f"{name}={value!r} must be three finite numbers (x, y, z)")
    return vec



def check_vertex_array(name: str, values, n_vertices: int, columns: int | None = None,
                       minimum: float | None = None) -> np.ndarray:
    """``values`` as a float64 array of shape (n,) or (n, columns), finite and >= minimum.

    Raises ParameterError naming the array, the problem and the first bad vertex.
    """
    array = np.asarray(values, dtype=np.float64)
    shape = (n_vertices,) if columns is None else (n_vertices, columns)
    if array.shape != shape:
        raise ParameterError(f"{name} has shape {array.shape}; it must be {shape}, one row per vertex")
    rows = array.reshape(n_vertices, -1)
    bad = np.flatnonzero(~np.isfinite(rows).all(axis=1))
    if bad.size:
        raise ParameterError(f"{name} is not finite at vertex {bad[0]} ({bad.size} vertices); "
                             "give finite numbers")
    if minimum is not None and rows.size and rows.min() < minimum:
        first = np.flatnonzero((rows < minimum).any(axis=1))[0]
        raise ParameterError(f"{name} is below {minimum} at vertex {first}; it must be >= {minimum}")
    return array
