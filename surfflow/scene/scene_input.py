"""What a command was given, a scene or a mesh, and the scene it runs for either.

:func:`input_kind` tells the two apart: a ``.toml`` file is a scene, a file whose extension
trimesh reads (OBJ, PLY, STL, OFF, GLB, ...) is a mesh, a file with another extension is a scene
if it parses as TOML. A missing file, a folder or an empty file is an error that says so.
:func:`require_mesh` and :func:`require_scene` refuse the other kind with an error that says which
is which and what to pass. :func:`mesh_scene` is the default scene a bare mesh runs
(:mod:`surfflow.scene.default_scene`), optionally written into the run's folder as ``scene.toml``.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import trimesh

from ..errors import SceneError
from . import default_scene as default
from .scene import Scene, parse_scene
from .toml_lines import parse_toml

SCENE_SUFFIX = ".toml"
MESH_FORMATS = "OBJ, PLY, STL, OFF, GLB, ..."
SCENE_FILE_NAME = "scene.toml"
"""the name of the default scene a bare mesh's run writes into its output or render folder"""


def _is_mesh_name(name: str) -> bool:
    name = name.lower()
    return any(name.endswith("." + suffix) for suffix in trimesh.available_formats())


def input_kind(path: str | os.PathLike) -> str:
    """"scene" or "mesh" (module docstring); SceneError for a missing, folder or empty file, or a
    file that is neither."""
    path = Path(path)
    if not path.exists():
        raise SceneError(f"{path}: no such file; check the path (a relative path starts at "
                         f"{os.getcwd()})")
    if path.is_dir():
        raise SceneError(f"{path}: is a folder; give a scene file (.toml) or a mesh file "
                         f"({MESH_FORMATS}) inside it")
    if path.stat().st_size == 0:
        what = ("a scene needs at least a [mesh] table (write one with `surfflow new MESH -o "
                f"{path.name}`)" if path.suffix.lower() == SCENE_SUFFIX else
                "export the mesh again, or give a scene file (.toml)")
        raise SceneError(f"{path}: the file is empty; {what}")
    if path.suffix.lower() == SCENE_SUFFIX:
        return "scene"
    if _is_mesh_name(path.name):
        return "mesh"
    try:
        parse_toml(path.read_text(encoding="utf-8"), path)
    except (SceneError, UnicodeDecodeError):
        raise SceneError(f"{path}: neither a scene (.toml) nor a mesh file by its extension "
                         f"{path.suffix or '(none)'!r}; give a scene file (.toml) or a mesh file "
                         f"({MESH_FORMATS})") from None
    return "scene"


def require_mesh(path: str | os.PathLike, command: str) -> None:
    """SceneError unless ``path`` is a mesh file: ``surfflow command`` takes a mesh."""
    if input_kind(path) == "scene":
        hint = {"new": f"that scene exists already: edit it, or run it with `surfflow run {path}`",
                "precompute": "give the mesh file its [mesh] path names"}.get(command, "")
        raise SceneError(f"{path} is a scene file, not a mesh; `surfflow {command}` takes a mesh "
                         f"file ({MESH_FORMATS})" + (f"; {hint}" if hint else ""))


def require_scene(path: str | os.PathLike, command: str, what: str = "a scene file (.toml)") -> None:
    """SceneError unless ``path`` is a scene (or other TOML) file: ``surfflow command`` takes
    ``what``."""
    if input_kind(path) == "mesh":
        raise SceneError(f"{path} is a mesh file, not {what}; `surfflow {command}` takes {what}. "
                         f"To run the default scene on the mesh: `surfflow run {path}`; to write "
                         f"it as a scene to edit: `surfflow new {path} -o scene.toml`")


def mesh_scene(mesh_path: str | os.PathLike, units: str = "m", up: str = "y",
               duration: float | None = None, write_into: str | None = None,
               folder: str | os.PathLike | None = None) -> tuple[Scene, list[str]]:
    """The default scene of a bare mesh and the lines describing it.

    duration: replaces the default 3 s. write_into: "output" or "render": the scene is written
    as ``scene.toml`` into that table's directory, or into ``folder`` when given (the command's
    ``-o``), with its mesh path relative to it, and read back from there, so that a run's
    checkpoint names a file ``surfflow run`` takes; None reads it from memory (messages name
    the mesh's path with .toml). The lines end with where it was written.
    """
    size = default.measure_mesh(mesh_path, units, up)
    tables = default.default_scene(mesh_path, units, up, size)
    if duration is not None:
        tables["duration"] = float(duration)
    lines = default.summary(tables, size)
    if write_into is None:
        return parse_scene(default.scene_text(tables, size), size.path.with_suffix(".toml")), lines
    path = Path(folder or tables[write_into]["directory"]) / SCENE_FILE_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(default.scene_text(tables, size, path), encoding="utf-8")
    lines.append(f"scene     written to {path} (edit a copy and run it: `surfflow run FILE`)")
    return parse_scene(path.read_text(encoding="utf-8"), path), lines


def with_duration(scene: Scene, duration: float | None) -> Scene:
    """``scene`` with its duration replaced (None: unchanged)."""
    return scene if duration is None else dataclasses.replace(scene, duration=float(duration))
