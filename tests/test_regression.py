"""Regression guard: every shipped example, stepped a fixed number of times, ends bit for bit
where ``tests/regression/<example>.npz`` says (made by ``tests/regression/make_references.py``,
regenerated only when a change is meant to alter results)."""

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent / "regression"))
from make_references import HERE, example_names, example_state  # noqa: E402


def test_every_example_has_a_reference():
    assert sorted(p.stem for p in HERE.glob("*.npz")) == example_names()


@pytest.mark.parametrize("name", example_names())
def test_example_state_is_bit_identical(name, tmp_path):
    reference = np.load(HERE / f"{name}.npz")
    state = example_state(name, tmp_path)
    assert sorted(state) == sorted(reference.files)
    for key in reference.files:
        assert state[key].dtype == reference[key].dtype, key
        same_nan = reference[key].dtype.kind == "f"  # unset source fields are NaN
        assert np.array_equal(state[key], reference[key], equal_nan=same_nan), \
            f"{name}: {key} differs"
