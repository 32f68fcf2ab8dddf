"""Regression guard: every shipped example, stepped a fixed number of times, ends where
``tests/regression/<example>.npz`` says (made by ``tests/regression/make_references.py``,
regenerated only when a change is meant to alter results).

On a machine whose arithmetic matches the one that made a reference (the same fingerprint,
``tests/regression/machine.py``) the whole state must come back bit for bit. On another machine the
bits differ (numpy's SIMD kernels of exp, log and cbrt differ in the last bit between processors,
and OpenBLAS's kernels, under the mesh smoothing's sparse LU and numpy's matrix products, sum in
another order), so the summaries a user reads off the run (``tests/regression/summaries.py``: the
clock, the ledger, the wet area, the mean and largest depth, the liquid's centroid and energy, the
dyes, the bodies) are compared within ``TOLERANCE`` times their scales.

``TOLERANCE`` is derived from ``tests/regression/spread.json``, the largest spread of those
summaries over the arithmetics this processor can be switched to (numpy's dispatch narrowed to
AVX2 and to its baseline, numba compiling for a generic processor, OpenBLAS on its oldest
kernels; ``measure_spread.py``),
times ``SAFETY``: a processor of another family (ARM's libm) may round transcendental functions
a few ulps differently, not a few thousand times more.
"""

import json
import math
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent / "regression"))
from make_references import (  # noqa: E402
    HERE,
    MACHINE,
    SUMMARY,
    example_names,
    example_simulation,
    reference_arrays,
    reference_dir,
)

SAFETY = 1000.0
TOLERANCE = 1e-3
"""|a - b| <= TOLERANCE * scale for every summary across machines: SAFETY times the largest
measured spread, rounded up to a power of ten."""


def test_every_example_has_a_reference():
    assert sorted(p.stem for p in HERE.glob("*.npz")) == example_names()


def test_tolerance_is_derived_from_the_measured_spread():
    largest = json.loads((HERE / "spread.json").read_text())["largest"]
    assert TOLERANCE == 10.0 ** math.ceil(math.log10(SAFETY * max(largest, 1e-300)))


def summary_misses(reference, arrays) -> list[str]:
    """The summaries of ``arrays`` farther than TOLERANCE x scale from the reference's."""
    misses = []
    for key in (k for k in reference.files if k.startswith(SUMMARY)):
        (expected, scale), (value, _) = reference[key], arrays[key]
        if not abs(value - expected) <= TOLERANCE * scale:
            misses.append(f"{key[len(SUMMARY):]} = {value!r}, reference {expected!r} "
                          f"(|difference| / scale = {abs(value - expected) / scale:.3g})")
    return misses


def bit_misses(reference, arrays) -> list[str]:
    """The arrays of ``arrays`` that differ from the reference's in any bit (NaN equals NaN);
    the fingerprint is not compared."""
    misses = []
    for key in (k for k in reference.files if k != MACHINE):
        same_nan = reference[key].dtype.kind == "f"  # unset source fields are NaN
        if (arrays[key].dtype != reference[key].dtype
                or not np.array_equal(arrays[key], reference[key], equal_nan=same_nan)):
            misses.append(key)
    return misses


@pytest.mark.parametrize("name", example_names())
def test_example_matches_its_reference(name, tmp_path):
    reference = np.load(reference_dir() / f"{name}.npz")
    arrays = reference_arrays(example_simulation(name, tmp_path))
    assert sorted(arrays) == sorted(reference.files)
    assert not summary_misses(reference, arrays), f"{name}: {summary_misses(reference, arrays)}"
    if str(reference[MACHINE]) == str(arrays[MACHINE]):
        assert not bit_misses(reference, arrays), f"{name}: differs in {bit_misses(reference, arrays)}"


def test_a_one_percent_change_of_friction_is_caught_across_machines(tmp_path):
    """The cross-machine comparison still guards the physics: the cheapest example's friction
    made 1 % larger moves its summaries far outside the tolerance."""
    import surfflow as sf

    reference = np.load(reference_dir() / "tilting_tray.npz")
    scene = sf.load_scene(HERE.parents[1] / "surfflow" / "examples" / "tilting_tray.toml")
    sim = example_simulation("tilting_tray", tmp_path, friction=1.01 * scene.params.friction)
    assert summary_misses(reference, reference_arrays(sim))
