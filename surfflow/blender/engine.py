"""Blender as a Python module (``bpy``): imported only when a Blender render runs.

Needs the optional extra ``blender`` (``pip install "surfflow[blender]"``: Blender 5.0.1 as the
Python module ``bpy``, a wheel for Python 3.11 only).
"""

from __future__ import annotations

import contextlib
import os
import sys

from ..errors import SurfflowError


def import_bpy():
    """The bpy module, or a clear error naming the extra and the Python version it needs."""
    try:
        import bpy
    except Exception as exc:  # a wheel for another Python fails with more than ImportError
        raise SurfflowError(
            "Blender renders need the optional extra 'blender' (pip install 'surfflow[blender]', "
            "which installs bpy 5.0.1, Blender as a Python module, built for Python 3.11 only; "
            f"this is Python {sys.version_info.major}.{sys.version_info.minor}); importing bpy "
            f"failed: {exc}") from None
    return bpy


def denoiser_available() -> bool:
    """Whether this bpy's Cycles was built with OpenImageDenoise."""
    import _cycles
    return bool(getattr(_cycles, "with_openimagedenoise", False))


@contextlib.contextmanager
def quiet_stdout():
    """Silence what Blender prints on the C level (render progress, 'Saved: ...')."""
    sys.stdout.flush()
    saved = os.dup(1)
    with open(os.devnull, "w") as devnull:
        os.dup2(devnull.fileno(), 1)
        try:
            yield
        finally:
            os.dup2(saved, 1)
            os.close(saved)
