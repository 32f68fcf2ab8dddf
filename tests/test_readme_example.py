"""The library-in-a-minute example of README.md and docs/getting_started.md: run as printed
there, on a copy of its mesh, it prints what its comments say it prints (the time, the volume
left on the surface and the ledger's poured and emitted volumes), each to within one unit of the
last digit the comment shows."""

from __future__ import annotations

import contextlib
import io
import math
import pathlib
import re
import shutil

import pytest

import surfflow as sf

ROOT = pathlib.Path(__file__).resolve().parents[1]
PAGES = ("README.md", "docs/getting_started.md")
PRINTED = re.compile(r"print\(sim\.time, sim\.total_volume\(\), sim\.ledger\(\)\)\s*#\s*"
                     r"(?P<time>[-+.\de]+),\s*(?P<volume>[-+.\de]+)")
LEDGER = re.compile(r"'poured':\s*(?P<poured>[-+.\de]+),\s*'emitted':\s*(?P<emitted>[-+.\de]+)")


def example(page: str) -> str:
    """The python block under the page's "## The library in a minute" heading."""
    section = (ROOT / page).read_text().split("## The library in a minute", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def shown(code: str) -> dict:
    """The figures the print line's comments show, as written: {name: text}."""
    return {**PRINTED.search(code).groupdict(), **LEDGER.search(code).groupdict()}


def last_digit(text: str) -> float:
    """One unit of the last digit a figure is written to: '1.62e-05' -> 1e-07, '1.0' -> 0.1."""
    mantissa, _, exponent = text.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 10.0 ** (int(exponent or 0) - decimals)


def test_last_digit_reads_a_figures_precision():
    assert math.isclose(last_digit("1.62e-05"), 1e-7)
    assert math.isclose(last_digit("2e-05"), 1e-5)
    assert math.isclose(last_digit("1.0"), 0.1)


def test_both_pages_show_the_same_figures():
    """docs/getting_started.md spells out the friction model the README's run takes by default."""
    assert shown(example(PAGES[0])) == shown(example(PAGES[1]))
    assert 'friction_model="linear"' in example(PAGES[1])
    assert sf.Params().friction_model == "linear"


@pytest.mark.slow
def test_the_readme_example_prints_what_its_comments_say(tmp_path, monkeypatch):
    """README.md's block, run as a user runs it from the repository (its mesh copied, its cache
    in a scratch folder); docs/getting_started.md shows the same figures (the test above) for
    the same run with the friction model, linear, spelled out."""
    code = example(PAGES[0])
    (tmp_path / "meshes").mkdir()
    shutil.copy(ROOT / "meshes" / "bunny.obj", tmp_path / "meshes" / "bunny.obj")
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(code, "README.md", "exec"), namespace)
    sim = namespace["sim"]
    ledger = sim.ledger()
    measured = {"time": sim.time, "volume": sim.total_volume(), "poured": ledger["poured"],
                "emitted": ledger["emitted"]}
    for name, text in shown(code).items():
        assert abs(measured[name] - float(text)) <= last_digit(text), (name, measured[name], text)
