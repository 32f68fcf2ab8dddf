"""The troubleshooting page's list: every error class of ``surfflow.errors`` with its docstring
and every ``raise`` of it in the package, found in the source with ``ast``."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import surfflow
from surfflow import errors

PACKAGE = Path(surfflow.__file__).resolve().parent


def _message(call: ast.Call) -> str:
    """The literal text of a raise's first argument, ``{...}`` where a value is formatted in."""
    if not call.args:
        return ""
    parts = call.args[0].values if isinstance(call.args[0], ast.JoinedStr) else [call.args[0]]
    text = "".join(p.value if isinstance(p, ast.Constant) and isinstance(p.value, str) else "{...}"
                   for p in parts)
    return text if len(text) <= 140 else text[:137] + "..."


def raises() -> dict:
    """Error class name -> [(module path, line, message start)], over the package's source."""
    names = {name for name, obj in vars(errors).items() if inspect.isclass(obj)}
    found = {name: [] for name in names}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            call = node.exc if isinstance(node, ast.Raise) else None
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in names:
                found[call.func.id].append((path.relative_to(PACKAGE.parent).as_posix(), node.lineno,
                                            _message(call)))
    return {name: sorted(places) for name, places in found.items()}


def error_reference() -> str:
    found = raises()
    lines = []
    for name, cls in vars(errors).items():
        if not inspect.isclass(cls) or cls.__module__ != errors.__name__:
            continue
        bases = ", ".join(b.__name__ for b in cls.__bases__)
        summary = inspect.getdoc(cls).split("\n\n")[0].replace("\n", " ")
        lines += [f"## {name}", "", f"{{class}}`surfflow.{name}` ({bases}): {summary}", ""]
        if found.get(name):
            lines += ["| raised in | message starts |", "|---|---|"]
            lines += [f"| `{path}:{line}` | {text.replace('|', '/').replace('`', '')} |"
                      for path, line, text in found[name]]
        else:
            lines.append("Raised only through its subclasses or the argument checks above.")
        lines.append("")
    return "\n".join(lines)
