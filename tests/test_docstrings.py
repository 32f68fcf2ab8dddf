"""Every public function and class (``surfflow.__all__``, ``surfflow.motion.__all__``) has a
numpydoc-style docstring: a summary, a ``Parameters`` section naming every argument, a
``Returns`` section for functions that return something, an ``Examples`` section with code, and
units and shapes where they apply (every float argument names its unit, every array argument
its shape); and the examples run and print what they say (``doctest``, from the repository
root, where ``meshes/bunny.obj`` is). The site's API reference is built from these docstrings."""

from __future__ import annotations

import doctest
import inspect
import re

from pathlib import Path

import pytest

import surfflow as sf
import surfflow.motion

SECTION = re.compile(r"^(\w[\w ]*)\n-{3,}\n", re.MULTILINE)
UNITS = re.compile(r"(?<![\w^/])(m|s|1/s|1/m|m/s|m/s\^2|m\^2/s|m\^3|m\^3/s|kg/m\^3|N/m|degrees|cells|"
                   r"fraction[\w ]*|dimensionless|Hz|frames|pixels)(?![\w^/])")
SHAPE = re.compile(r"\((\w+|\d+)(, *(\w+|\d+))*,?\)")
PUBLIC = [(name, getattr(sf, name)) for name in sf.__all__ if not inspect.ismodule(getattr(sf, name))]
PUBLIC += [(f"motion.{name}", getattr(surfflow.motion, name)) for name in surfflow.motion.__all__]


def sections(doc: str) -> dict:
    """Section title -> its text, with the summary under ""."""
    parts = SECTION.split(doc)
    found = {"": parts[0]}
    for k in range(1, len(parts) - 1, 2):
        found[parts[k].strip()] = parts[k + 1]
    return found


def parameter_entries(text: str) -> dict:
    """Parameter name -> [type, description lines...] of a numpydoc Parameters section."""
    entries, current = {}, None
    for line in text.splitlines():
        if line and not line.startswith(" "):
            names, _, kind = line.partition(" : ")
            current = [kind]
            for name in names.split(","):
                entries[name.strip()] = current
        elif current is not None:
            current.append(line.strip())
    return entries


def arguments(obj) -> list[str]:
    """The arguments a user passes: a function's, or a class's constructor's."""
    try:
        signature = inspect.signature(obj)
    except (TypeError, ValueError):
        return []
    return [p.name for p in signature.parameters.values()
            if p.name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


@pytest.mark.parametrize("name,obj", PUBLIC, ids=[name for name, _ in PUBLIC])
def test_public_docstring_is_numpydoc_with_units_shapes_and_an_example(name, obj):
    doc = inspect.getdoc(obj)
    assert doc, f"{name} has no docstring"
    parts = sections(doc)
    assert parts[""].strip(), f"{name}: the docstring starts without a summary line"
    assert ">>>" in parts.get("Examples", ""), f"{name}: no Examples section with >>> code"
    is_error = inspect.isclass(obj) and issubclass(obj, (Exception, Warning))
    wanted = [] if is_error else arguments(obj)
    if wanted:
        assert "Parameters" in parts, f"{name}: no Parameters section for {wanted}"
        entries = parameter_entries(parts["Parameters"])
        missing = [arg for arg in wanted if arg not in entries]
        assert not missing, f"{name}: Parameters does not document {missing}"
        for arg, (kind, *description) in entries.items():
            text = " ".join([kind, *description])
            if kind.startswith("float") and not UNITS.search(text):
                raise AssertionError(f"{name}: parameter {arg} ({kind}) names no unit")
            if "array" in kind and not SHAPE.search(text):
                raise AssertionError(f"{name}: array parameter {arg} ({kind}) gives no shape such as (n, 3)")
    if inspect.isfunction(obj) and inspect.signature(obj).return_annotation not in (None, "None"):
        assert "Returns" in parts, f"{name}: no Returns section"


@pytest.mark.parametrize("name,obj", PUBLIC, ids=[name for name, _ in PUBLIC])
def test_public_examples_run_as_shown(name, obj, monkeypatch, tmp_path):
    root = Path(__file__).resolve().parents[1]
    monkeypatch.chdir(root)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in doctest.DocTestFinder(recurse=False).find(obj, name, globs={}):
        runner.run(test, out=lambda text: pytest.fail(f"{name}: its example fails:\n{text}"))
    assert runner.summarize(verbose=False).failed == 0
