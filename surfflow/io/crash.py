"""The crash file: the last good state of a simulation that went non-finite."""

from __future__ import annotations

import os

import numpy as np


def write_crash_state(directory: str, data: dict) -> str:
    """Write a state dict to ``directory``/surfflow_crash_t<time>.npz; returns the path."""
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"surfflow_crash_t{float(data['time']):.6f}.npz")
    np.savez(path, **data)
    return path
