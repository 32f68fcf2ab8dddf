"""The scene of one case of a sweep, written into its folder.

``write_case_scene`` writes ``<case folder>/scene.toml``: the base scene with the case's values
set, every file it reads made absolute, and output, render and cache folders made explicit, so
``surfflow run <case folder>/scene.toml`` repeats the case. ``geometry_identity`` tells which
cases share a precomputed geometry.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

from ..scene.toml_write import dumps

SCENE_NAME = "scene.toml"
FILE_KEYS = (("mesh", "path"), ("initial", "file"), ("soluble_layer", "file"), ("friction", "file"),
             ("wind", "file"), ("precompute", "cache_dir"))
"""Scene keys that name files or folders relative to the scene file."""
_SOURCE_KEY = re.compile(r"sources\[(\d+)\]\.(\w+)")


def set_scene_key(raw: dict, key: str, value) -> None:
    """Set ``duration``, ``table.key`` or ``sources[k].key`` in the raw scene dict ``raw``."""
    if match := _SOURCE_KEY.fullmatch(key):
        raw["sources"][int(match.group(1))][match.group(2)] = value
        return
    table, _, name = key.rpartition(".")
    (raw.setdefault(table, {}) if table else raw)[name] = value


def absolute_files(raw: dict, folder: Path) -> None:
    """Make the FILE_KEYS present in the raw scene ``raw`` absolute, relative to ``folder``."""
    for table, key in FILE_KEYS:
        if key in raw.get(table, {}):
            raw[table][key] = str((folder / raw[table][key]).resolve())


def resolved_scene(sweep, case, case_dir: Path, cache_dir: Path | None = None) -> dict:
    """The raw scene dict of ``case``: base values, then the case's (files in the case's values
    are relative to the sweep file); output and render go to ``case_dir``; the geometry cache
    folder is ``cache_dir`` if given, else the base scene's, absolute."""
    raw = copy.deepcopy(sweep.base)
    absolute_files(raw, sweep.scene_path.parent)
    for key, value in case.values.items():
        if tuple(key.split(".")) in FILE_KEYS:
            value = str((sweep.path.parent / value).resolve())
        set_scene_key(raw, key, value)
    precompute = raw.setdefault("precompute", {})
    if cache_dir is not None:
        precompute["cache_dir"] = str(Path(cache_dir).resolve())
    elif precompute.get("cache", True):
        precompute.setdefault("cache_dir", str(Path(".surfflow_cache").resolve()))
    raw["output"] = {**raw.get("output", {}), "directory": str(case_dir.resolve())}
    raw["render"] = {**raw.get("render", {}), "directory": str((case_dir / "render").resolve())}
    return raw


def write_case_scene(sweep, case, case_dir: Path, cache_dir: Path | None = None) -> Path:
    """Write the case's resolved scene to ``case_dir/scene.toml``; returns its path."""
    case_dir.mkdir(parents=True, exist_ok=True)
    values = ", ".join(f"{key} = {value!r}" for key, value in case.values.items()) or "none"
    header = (f"# Case {case.name} of the sweep {sweep.path.resolve()}\n"
              f"# base scene {sweep.scene_path.resolve()}; values set: {values}\n")
    path = case_dir / SCENE_NAME
    path.write_text(header + dumps(resolved_scene(sweep, case, case_dir, cache_dir)), encoding="utf-8")
    return path


def geometry_identity(scene) -> str | None:
    """What a scene's precomputed geometry depends on (None when it is not cached): cases with
    the same identity share one geometry cache file."""
    if scene.cache_dir is None:
        return None
    return repr((scene.mesh, scene.precompute, scene.friction_tensor, scene.friction_file,
                 Path(scene.cache_dir).resolve()))
