"""Line numbers of the keys in a TOML text, for error messages (tomllib does not keep them).

``key_lines(text)`` maps every key path to the 1-based line where it is written:
``("mesh",)`` for the ``[mesh]`` header, ``("mesh", "path")`` for ``path = ...`` under it,
``("sources", 0, "rate")`` for a key in the first ``[[sources]]`` entry. Keys inside inline
tables and multi-line arrays are not listed; :func:`line_of` falls back to the nearest listed
parent. ``read_text`` and ``parse_toml`` read a scene or sweep file with clear errors.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from ..errors import SceneError

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

_ARRAY_HEADER = re.compile(r"^\s*\[\[\s*([^\[\]]+?)\s*\]\]")
_TABLE_HEADER = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]")
_NAME = r"""(?:[A-Za-z0-9_\-]+|"[^"]*"|'[^']*')"""
_KEY = re.compile(rf"^\s*({_NAME}(?:\s*\.\s*{_NAME})*)\s*=")


def _split_key(dotted: str) -> tuple[str, ...]:
    parts = re.findall(_NAME, dotted)
    return tuple(p[1:-1] if p[0] in "\"'" else p for p in parts)


def _bracket_balance(line: str) -> int:
    """Opened minus closed brackets and braces outside strings and comments."""
    balance, quote = 0, None
    for ch in line:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            break
        elif ch in "[{":
            balance += 1
        elif ch in "]}":
            balance -= 1
    return balance


def _with_array_indices(parts: tuple[str, ...], array_counts: dict) -> tuple:
    """Insert the current index after every prefix that names an array of tables."""
    path: tuple = ()
    for part in parts:
        path = path + (part,)
        if path in array_counts:
            path = path + (array_counts[path] - 1,)
    return path


def key_lines(text: str) -> dict[tuple, int]:
    """Map key paths to the 1-based lines that write them (see the module docstring)."""
    lines: dict[tuple, int] = {}
    array_counts: dict[tuple, int] = {}
    prefix: tuple = ()
    depth = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if depth > 0:
            depth += _bracket_balance(line)
            continue
        if match := _ARRAY_HEADER.match(line):
            parts = _split_key(match.group(1))
            base = _with_array_indices(parts[:-1], array_counts) + (parts[-1],)
            array_counts[base] = array_counts.get(base, 0) + 1
            prefix = base + (array_counts[base] - 1,)
            lines[prefix] = number
        elif match := _TABLE_HEADER.match(line):
            prefix = _with_array_indices(_split_key(match.group(1)), array_counts)
            lines[prefix] = number
        elif match := _KEY.match(line):
            lines[prefix + _split_key(match.group(1))] = number
            depth = _bracket_balance(line[match.end():])
    return lines


def line_of(lines: dict[tuple, int], path: tuple) -> int | None:
    """The line of ``path`` or of its nearest listed parent; None if nothing matches."""
    for end in range(len(path), 0, -1):
        if path[:end] in lines:
            return lines[path[:end]]
    return None


def read_text(path: Path, what: str) -> str:
    """The text of the ``what`` file (``scene``, ``sweep``) at ``path``, or a SceneError."""
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SceneError(f"cannot read {what} file {str(path)!r}: {exc.strerror or exc}; "
                         "check the path") from None


def parse_toml(text: str, path: Path) -> dict:
    """The dict of the TOML ``text`` read from ``path``, or a SceneError pointing at the syntax."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SceneError(f"{path}: not valid TOML: {exc}; fix the syntax there") from None
