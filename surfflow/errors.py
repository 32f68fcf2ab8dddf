"""The exception types users catch.

Every error surfflow raises on bad input is a :class:`SurfflowError`, and its message says three
things: what is wrong, where (file, vertex, face, key, line) and what to do about it.
"""


class SurfflowError(Exception):
    """Base class of every error surfflow raises on purpose.

    Catch it to handle any of them; the message says what is wrong, where and what to do.

    Examples
    --------
    >>> import surfflow as sf
    >>> try:
    ...     sf.Params(cfl=2.0)
    ... except sf.SurfflowError as error:
    ...     print(type(error).__name__)
    ParameterError
    """


class MeshError(SurfflowError, ValueError):
    """The mesh cannot be used: empty, non-finite, degenerate, non-manifold, ...

    The message names the faces or vertices at fault and how to repair them.

    Examples
    --------
    >>> import numpy as np
    >>> import surfflow as sf
    >>> V = np.array([[0.0, 0, 0], [1, 0, 0], [np.nan, 1, 0]])
    >>> try:
    ...     sf.validate_mesh(V, np.array([[0, 1, 2]]))
    ... except sf.MeshError as error:
    ...     print("NaN" in str(error))
    True
    """


class MeshFileError(MeshError, OSError):
    """A mesh file is missing or cannot be read.

    Examples
    --------
    >>> import surfflow as sf
    >>> try:
    ...     sf.load_mesh("no_such_mesh.obj")
    ... except sf.MeshFileError as error:
    ...     print("no_such_mesh.obj" in str(error))
    True
    """


class MeshWarning(UserWarning):
    """A mesh was repaired on loading (duplicates merged, faces flipped, ...); the message says how.

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> import surfflow as sf
    >>> V = np.array([[0.0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0], [1, 0, 0]])  # 4 repeats 1
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     V2, F2 = sf.validate_mesh(V, np.array([[0, 1, 2], [4, 3, 2]]))
    >>> caught[0].category.__name__, V2.shape
    ('MeshWarning', (4, 3))
    """


class ParameterError(SurfflowError, ValueError):
    """A parameter is out of range or not one of the allowed names.

    Examples
    --------
    >>> import surfflow as sf
    >>> try:
    ...     sf.Params(friction_model="turbulent")
    ... except sf.ParameterError as error:
    ...     print("linear" in str(error))
    True
    """


class SceneError(SurfflowError, ValueError):
    """A scene file has an unknown key, a bad value or a syntax error.

    The message names the file, the line, the key and what is allowed there.

    Examples
    --------
    >>> import surfflow as sf
    >>> try:
    ...     sf.load_scene("no_such_scene.toml")
    ... except sf.SceneError as error:
    ...     print("no_such_scene.toml" in str(error))
    True
    """


class CacheError(SurfflowError, OSError):
    """A geometry cache or checkpoint file is missing, corrupt or from another version.

    Examples
    --------
    >>> import surfflow as sf
    >>> try:
    ...     sf.SurfaceGeometry.load("no_such_geometry.geom.npz")
    ... except sf.CacheError as error:
    ...     print("no_such_geometry" in str(error))
    True
    """


class OutputError(SurfflowError, OSError):
    """Writing a frame failed (a full disk, a folder that cannot be written).

    Frames are written on a thread beside the step; the error is raised in the step's thread at
    the next frame or at the end of the run, naming the frame, the writer and the cause.

    Examples
    --------
    >>> import surfflow as sf
    >>> issubclass(sf.OutputError, OSError)
    True
    """


class SimulationError(SurfflowError, RuntimeError):
    """The simulation went non-finite or otherwise cannot continue.

    The message says when (time, step) and where (vertex); a scene run writes its last good
    frame as the checkpoint first, so ``surfflow run --resume`` can continue from it after the
    cause is fixed (often a smaller ``[solver] cfl`` or ``max_dt``).

    Examples
    --------
    >>> import surfflow as sf
    >>> issubclass(sf.SimulationError, RuntimeError)
    True
    """
