"""Write a TOML document from the dict ``tomllib`` reads, so a resolved scene can be saved.

``dumps(data)`` writes the top-level keys first, then every table as ``[a.b]`` and every array
of tables as ``[[a.b]]`` entries; ``tomllib.loads(dumps(data)) == data`` for strings, booleans,
whole and finite or infinite numbers, lists and nested tables (no dates or times).
``dumps(data, comments, header)`` also writes ``# comment`` after the keys and table headers
that ``comments`` names by their path (``("mesh", "path")``; an array of tables' entries share
theirs, ``("sources", "rate")``) and the lines of ``header`` as comments at the top.
"""

from __future__ import annotations

import json
import math
import re

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


COMMENT_COLUMN = 32
"""comments start in this column, or two spaces after a longer line"""


def dumps(data: dict, comments: dict | None = None, header: str = "") -> str:
    """The TOML text of ``data`` (a dict of str keys), with ``comments`` {key path: text} and
    ``header`` (lines) as comments (module docstring); raises TypeError on a value TOML lacks."""
    lines: list[str] = [f"# {line}".rstrip() for line in header.splitlines()]
    _write_table(lines, (), data, header=None, comments=comments or {})
    return "\n".join(lines).lstrip("\n") + "\n"


def _commented(line: str, comment: str | None) -> str:
    if not comment:
        return line
    return f"{line.ljust(COMMENT_COLUMN - 2)}  # {comment}"


def _is_table_array(value) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def _write_table(lines: list, path: tuple, table: dict, header: str | None, comments: dict) -> None:
    """Append ``header`` (if any), the table's plain keys, then its sub-tables and table arrays."""
    plain = {k: v for k, v in table.items() if not isinstance(v, dict) and not _is_table_array(v)}
    if header is not None:
        lines += ["", _commented(header, comments.get(path))]
    lines += [_commented(f"{_key(k)} = {_value(v)}", comments.get(path + (k,))) for k, v in plain.items()]
    for key, value in table.items():
        name = ".".join(_key(k) for k in path + (key,))
        if isinstance(value, dict):
            _write_table(lines, path + (key,), value, f"[{name}]", comments)
        elif _is_table_array(value):
            for entry in value:
                _write_table(lines, path + (key,), entry, f"[[{name}]]", comments)


def _key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else _string(key)


def _string(text: str) -> str:
    return json.dumps(text).replace("\x7f", "\\u007f")


def _value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {type(value).__name__} {value!r} as TOML")
