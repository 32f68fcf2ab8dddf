"""The exception types users catch.

Every error surfflow raises on bad input is a :class:`SurfflowError`, and its message says three
things: what is wrong, where (file, vertex, face, key, line) and what to do about it.
"""


class SurfflowError(Exception):
    """Base class of every error surfflow raises on purpose."""


class MeshError(SurfflowError, ValueError):
    """The mesh cannot be used: empty, non-finite, degenerate, non-manifold, ..."""


class MeshFileError(MeshError, OSError):
    """A mesh file is missing or cannot be read."""


class MeshWarning(UserWarning):
    """A mesh was repaired on loading (duplicates merged, faces flipped, ...); the message says how."""


class ParameterError(SurfflowError, ValueError):
    """A parameter is out of range or not one of the allowed names."""


class SceneError(SurfflowError, ValueError):
    """A scene file has an unknown key, a bad value or a syntax error."""


class CacheError(SurfflowError, OSError):
    """A geometry cache or checkpoint file is missing, corrupt or from another version."""


class SimulationError(SurfflowError, RuntimeError):
    """The simulation went non-finite or otherwise cannot continue."""
