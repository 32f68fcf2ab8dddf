"""``surfflow export-usd RUN_DIR -o run.usdc``: a USD stage from a finished run's npz frames.

The run directory holds ``mesh.npz`` and ``frame_NNNNN.npz`` (``[output] formats`` with "npz").
The stage's frame rate, gravity and colours come from the scene that made the run: the one given,
else the one its ``checkpoint.npz`` names, else the frame rate read off the frames' times with
the defaults of :class:`~surfflow.io.usd.UsdSettings` for the rest.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import CacheError
from ..io.asset import Asset
from ..io.usd import UsdSettings, UsdWriter
from ..io.writers import read_frame


@dataclass(frozen=True)
class RunMesh:
    """The surface a run's frames live on, as ``mesh.npz`` holds it (shapes as SurfaceGeometry),
    with the asset when the mesh had one (the stage then textures the object)."""

    vertices: np.ndarray
    normals: np.ndarray
    original_vertices: np.ndarray
    faces: np.ndarray
    asset: Asset | None = None


def frame_files(run_dir: Path) -> list[Path]:
    """The run's ``frame_NNNNN.npz`` files in frame order; CacheError when there are none."""
    files = sorted(run_dir.glob("frame_*.npz"))
    if not (run_dir / "mesh.npz").is_file() or not files:
        raise CacheError(f"{str(run_dir)!r} holds no npz frames (mesh.npz and frame_NNNNN.npz); "
                         "export a run written with [output] formats including \"npz\"")
    return files


def run_settings(run_dir: Path, files: list[Path], scene=None) -> UsdSettings:
    """The stage settings of the run: from ``scene``, its checkpoint's scene, or its frame times."""
    if scene is None:
        scene = _checkpoint_scene(run_dir / "checkpoint.npz")
    if scene is not None:
        return UsdSettings.from_scene(scene)
    with np.load(files[-1]) as last:
        frame, time = int(last["frame"]), float(last["time"])
    return UsdSettings(fps=frame / time) if frame > 0 and time > 0 else UsdSettings()


def _checkpoint_scene(path: Path):
    """The scene named in a checkpoint's metadata, when both files are there."""
    if not path.is_file():
        return None
    from ..io.checkpoint import load_checkpoint
    from .scene import load_scene
    scene_path = load_checkpoint(path).meta.get("scene")
    return load_scene(scene_path) if scene_path and Path(scene_path).is_file() else None


def export_run(run_dir: str | os.PathLike, output: str | os.PathLike, scene=None,
               progress=None) -> Path:
    """Write the stage of the run in ``run_dir`` to ``output`` (.usdc or .usda); returns its path.

    progress: wraps the list of frame files (tqdm) when given.
    """
    run_dir, output = Path(run_dir), Path(output)
    files = frame_files(run_dir)
    with np.load(run_dir / "mesh.npz") as mesh:
        geometry = RunMesh(mesh["vertices"], mesh["normals"], mesh["original_vertices"], mesh["faces"],
                           Asset.from_arrays(mesh))
    writer = UsdWriter(output.parent, geometry, run_settings(run_dir, files, scene),
                       file_name=output.name)
    for path in progress(files) if progress else files:
        writer.write(*read_frame(path))
    return writer.path
