"""Sweep files: a base scene and the cases to run it with (SPEC §12).

    scene = "paint_grooves"            # an example name, or a scene file relative to this file
    [axes]                             # scene keys, each with a list of values: all combinations
    "liquid.viscosity" = [0.5, 1.0]
    "sources[0].rate" = [1.0e-5, 2.0e-5]
    [[cases]]                          # optional variants, each combined with every axes point
    name = "thin"                      # optional: names the case's folder
    "liquid.preset" = "water"

A key names a scene key: ``duration`` (top level), ``friction.coefficient`` (a key of a table)
or ``sources[0].rate`` (a key of the first ``[[sources]]`` entry). The cases are every
``[[cases]]`` entry (one empty entry when there are none) combined with every point of the grid
of ``[axes]`` (the last axis varying fastest). Keys and values are checked here against the
scene schema, with the sweep file's name, line and key in the message; the whole scene is
checked again when a case is built. The scene model has no random sources, so a sweep has no
seeds.
"""

from __future__ import annotations

import difflib
import itertools
import os
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import SceneError
from ..scene import scene_schema as schema
from ..scene.scene import load_scene
from ..scene.toml_lines import key_lines, line_of, parse_toml, read_text

EXAMPLES_DIR = Path(__file__).resolve().parents[1] / "examples"
SWEEP_KEYS = ("scene", "axes", "cases")
_SOURCE_KEY = re.compile(r"sources\[(\d+)\]\.(\w+)")
_CASE_NAME = re.compile(r"[A-Za-z0-9_.-]+")


@dataclass(frozen=True)
class Case:
    """One run of a sweep: ``name`` (its folder) and {scene key: raw TOML value}."""

    name: str
    values: dict


@dataclass(frozen=True)
class Sweep:
    """A checked sweep: the base scene's file and raw TOML, the keys it varies and its cases."""

    path: Path
    scene_path: Path
    base: dict
    keys: tuple
    cases: tuple


def load_sweep(path: str | os.PathLike) -> Sweep:
    """Read and check a sweep file.

    Parameters
    ----------
    path : str or PathLike
        the sweep file (.toml): the base ``scene``, ``[axes]`` of scene keys with lists of values
        and optional ``[[cases]]``.

    Returns
    -------
    Sweep
        the checked sweep; :func:`sweep` runs it.

    Raises
    ------
    SceneError
        naming the file, line and key of a mistake.

    Examples
    --------
    >>> import surfflow as sf
    >>> spec = sf.load_sweep("surfflow/examples/sweeps/paint_runniness.toml")
    >>> len(spec.cases), spec.keys[:1]
    (6, ('liquid.viscosity',))
    """
    path = Path(path)
    text = read_text(path, "sweep")
    return _SweepReader(parse_toml(text, path), path, key_lines(text)).sweep()


def scene_keys() -> list[str]:
    """Every key a sweep may vary, as written in a sweep file."""
    tables = [f"{table}.{key}" for table, keys in schema.TABLES.items() for key in keys]
    return [*schema.TOP_LEVEL, *tables, *(f"sources[0].{key}" for key in schema.SOURCE_KEYS)]


def flatten(table: dict, prefix: tuple = ()) -> list[tuple[str, tuple, object]]:
    """(dotted key, key path as written, value) of every non-table value under ``table``:
    ``friction.coefficient = 1`` under [axes] and ``"friction.coefficient" = 1`` give the same
    dotted key."""
    items = []
    for key, value in table.items():
        if isinstance(value, dict):
            items += flatten(value, prefix + (key,))
        else:
            items.append((".".join(prefix + (key,)), prefix + (key,), value))
    return items


class _SweepReader:
    """Checks the raw sweep dict, remembering lines for error messages."""

    def __init__(self, raw: dict, path: Path, lines: dict):
        self.raw, self.path, self.lines = raw, path, lines

    def fail(self, key_path: tuple, message: str) -> SceneError:
        line = line_of(self.lines, key_path)
        where = f"{self.path}, line {line}" if line else str(self.path)
        name = "".join(f"[{k}]" if isinstance(k, int) else "." + (f'"{k}"' if "." in k or "[" in k else k)
                       for k in key_path)
        return SceneError(f"{where}: {name.lstrip('.')}: {message}")

    def sweep(self) -> Sweep:
        for key in self.raw:
            if key not in SWEEP_KEYS:
                raise self.fail((key,), f"unknown key; a sweep file holds {', '.join(SWEEP_KEYS)}")
        scene_path = self.scene_path()
        base = parse_toml(read_text(scene_path, "scene"), scene_path)
        axes = self.axes(base)
        variants = self.variants(base, {key for key, _ in axes})
        grid = list(itertools.product(*(values for _, values in axes)))
        cases = []
        for k, ((name, variant), (j, point)) in enumerate(itertools.product(variants, enumerate(grid))):
            if name is not None and len(grid) > 1:
                name = f"{name}-{j:03d}"
            values = {**variant, **dict(zip((key for key, _ in axes), point))}
            cases.append(Case(name or f"case-{k:03d}", values))
        names = [case.name for case in cases]
        for name in names:
            if names.count(name) > 1:
                raise self.fail(("cases",), f"two cases are named {name!r}; give each its own name")
        keys = tuple(dict.fromkeys(key for case in cases for key in case.values))
        return Sweep(self.path, scene_path, base, keys, tuple(cases))

    def scene_path(self) -> Path:
        """The base scene: a .toml file relative to the sweep file, or an example's name."""
        value = self.raw.get("scene")
        if not isinstance(value, str) or not value:
            raise self.fail(("scene",), "give the base scene: scene = \"EXAMPLE\" or scene = \"FILE.toml\"")
        if value.endswith(".toml"):
            path = self.path.parent / value
            if not path.is_file():
                raise self.fail(("scene",), f"no scene file {str(path)!r}; the path is relative to the sweep file")
        else:
            path = EXAMPLES_DIR / f"{value}.toml"
            if not path.is_file():
                examples = ", ".join(sorted(p.stem for p in EXAMPLES_DIR.glob("*.toml")))
                raise self.fail(("scene",), f"no example {value!r}; the examples are {examples} "
                                            "(or name a scene file ending in .toml)")
        load_scene(path)
        return path

    def axes(self, base: dict) -> list[tuple[str, list]]:
        """[(scene key, values)] in the order written; each value checked."""
        table = self.raw.get("axes", {})
        if not isinstance(table, dict):
            raise self.fail(("axes",), "must be a table of scene keys, each with a list of values")
        axes = []
        for key, written, values in flatten(table):
            where = ("axes",) + written
            if not isinstance(values, list) or not values:
                raise self.fail(where, f"must be a non-empty list of values, not {values!r}")
            check = self.checker(where, key, base)
            for k, value in enumerate(values):
                self.check(where + (k,), check, value)
            axes.append((key, values))
        return axes

    def variants(self, base: dict, axis_keys: set) -> list[tuple[str | None, dict]]:
        """The [[cases]] entries as (name or None, {scene key: value}); one empty entry if none."""
        entries = self.raw.get("cases", [{}])
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            raise self.fail(("cases",), "write the cases as [[cases]] tables of scene keys")
        variants = []
        for k, entry in enumerate(entries):
            name, variant = None, {}
            for key, written, value in flatten(entry):
                where = ("cases", k) + written
                if key == "name":
                    if not isinstance(value, str) or not _CASE_NAME.fullmatch(value):
                        raise self.fail(where, "must be a folder name of letters, digits, '.', '_' and '-'")
                    name = value
                    continue
                if key in axis_keys:
                    raise self.fail(where, "is also an axis; vary a key in [axes] or in the cases, not both")
                self.check(where, self.checker(where, key, base), value)
                variant[key] = value
            variants.append((name, variant))
        return variants

    def checker(self, where: tuple, key: str, base: dict):
        """The scene schema's checker of ``key``, or a SceneError saying which keys exist."""
        if match := _SOURCE_KEY.fullmatch(key):
            index, name = int(match.group(1)), match.group(2)
            count = len(base.get("sources", []))
            if index >= count:
                raise self.fail(where, f"the base scene has {count} [[sources]] entries; "
                                       f"index them from 0 to {count - 1}")
            checkers = schema.SOURCE_KEYS
        else:
            table, _, name = key.rpartition(".")
            checkers = schema.TABLES.get(table, {}) if table else schema.TOP_LEVEL
        if name not in checkers:
            close = difflib.get_close_matches(key, scene_keys(), n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise self.fail(where, f"not a scene key; {hint}write a top-level key (duration), "
                                   "TABLE.KEY (friction.coefficient) or sources[K].KEY (sources[0].rate)")
        return checkers[name]

    def check(self, where: tuple, check, value) -> None:
        try:
            check(value)
        except schema.BadValue as exc:
            raise self.fail(where, str(exc)) from None
