"""A deformation read from a sequence of mesh files (one per frame, same connectivity)."""

from __future__ import annotations

import glob
import math
import os

import numpy as np

from ..errors import MeshError, ParameterError
from ..io.mesh import load_mesh


class MeshSequence:
    """A mesh sequence: x(t) = x_rest + (X(t) - X_0), one mesh file per frame.

    The displacement of the frames from the first one is added to the rest (smoothed) positions,
    so the bottom heights keep lying along the normals. X(t) is interpolated linearly between
    frames; before the first and after the last frame it holds, or with ``loop`` the sequence
    repeats.

    Parameters
    ----------
    files : str or list of str
        a glob pattern (``"frames/flag_*.obj"``, sorted by name) or a list of mesh files, every
        one the same mesh (same vertex count and faces) with moved vertices.
    fps : float > 0, 1/s
        frames per second of the files: frame k is at time k / fps.
    loop : bool, default False
        start again after the last frame.

    Examples
    --------
    >>> import surfflow as sf
    >>> motion = sf.motion.MeshSequence("frames/flag_*.obj", fps=25.0)     # doctest: +SKIP
    >>> sim = sf.Simulation(geom, motion=motion)                         # doctest: +SKIP
    """

    def __init__(self, files, fps: float, loop: bool = False):
        paths = sorted(glob.glob(os.fspath(files))) if isinstance(files, (str, os.PathLike)) else list(files)
        if not paths:
            raise ParameterError(f"motion sequence {os.fspath(files)!r} matches no file; give a glob "
                                 "such as 'frames/*.obj' or a list of mesh files")
        if not (math.isfinite(fps) and fps > 0.0):
            raise ParameterError(f"motion sequence fps={fps!r} must be a positive number")
        self.fps, self.loop = float(fps), bool(loop)
        first = load_mesh(paths[0])
        faces = np.asarray(first.faces)
        frames = [np.asarray(first.vertices, dtype=np.float64)]
        for path in paths[1:]:
            mesh = load_mesh(path)
            if len(mesh.vertices) != len(frames[0]) or not np.array_equal(mesh.faces, faces):
                raise MeshError(f"motion sequence frame {os.fspath(path)!r} has {len(mesh.vertices)} "
                                f"vertices and {len(mesh.faces)} faces, the first frame "
                                f"{os.fspath(paths[0])!r} {len(frames[0])} and {len(faces)}; every "
                                "frame must be the same mesh with moved vertices")
            frames.append(np.asarray(mesh.vertices, dtype=np.float64))
        self.paths = paths
        self.displacements = np.stack(frames) - frames[0]

    def __call__(self, rest: np.ndarray, t: float) -> np.ndarray:
        if len(rest) != self.displacements.shape[1]:
            raise MeshError(f"motion sequence frames have {self.displacements.shape[1]} vertices, "
                            f"the simulated mesh {len(rest)}; use the sequence's first frame "
                            f"({self.paths[0]!r}) as the scene's mesh")
        last = len(self.displacements) - 1
        position = float(t) * self.fps
        position = position % (last + 1) if self.loop and last > 0 else min(max(position, 0.0), last)
        k = min(int(position), last)
        w = position - k
        after = self.displacements[(k + 1) % (last + 1) if self.loop else min(k + 1, last)]
        return rest + (1.0 - w) * self.displacements[k] + w * after
