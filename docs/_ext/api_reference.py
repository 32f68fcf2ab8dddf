"""The API reference page: one autosummary entry per name of ``surfflow.__all__`` (and of
``surfflow.motion.__all__``), grouped into functions, classes and errors, so a name added to
``__all__`` gets its page without editing the docs."""

from __future__ import annotations

import inspect

import surfflow
import surfflow.motion

INTRO = """API reference
=============

Every public name of ``surfflow`` (``surfflow.__all__``), one page each, from its numpydoc
docstring: what it does, its parameters with array shapes and units, what it returns, and an
example. ``import surfflow as sf`` is assumed throughout. This page is written from ``__all__``
when the site is built.
"""


def _block(title: str, module: str, names: list[str]) -> list[str]:
    return [title, "-" * len(title), "", f".. currentmodule:: {module}", "",
            ".. autosummary::", "   :toctree: api", "", *(f"   {n}" for n in names), ""]


def api_reference() -> str:
    public = [getattr(surfflow, n) for n in surfflow.__all__]
    names = [n for n, obj in zip(surfflow.__all__, public) if not inspect.ismodule(obj)]
    errors = [n for n in names if inspect.isclass(getattr(surfflow, n))
              and issubclass(getattr(surfflow, n), (Exception, Warning))]
    classes = [n for n in names if inspect.isclass(getattr(surfflow, n)) and n not in errors]
    functions = [n for n in names if n not in classes and n not in errors]
    lines = [INTRO, *_block("Functions", "surfflow", functions),
             *_block("Classes", "surfflow", classes),
             *_block("Errors and warnings", "surfflow", errors),
             "Moving surfaces", "---------------", "", ".. automodule:: surfflow.motion",
             "   :no-members:", "", *_block("Motions", "surfflow.motion", surfflow.motion.__all__)[3:]]
    return "\n".join(lines)
