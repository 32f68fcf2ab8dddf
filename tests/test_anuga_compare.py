"""``benchmarks/validation/anuga_compare.py`` splits Stoker's error into its fan and bore parts;
these check the split against errors placed by hand, whose parts are known exactly."""

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks" / "validation"))

import anuga_compare as ac  # noqa: E402
import exact_solutions as exact  # noqa: E402


@pytest.fixture
def line():
    x = np.linspace(0.0, ac.LENGTH, 2001)
    return x, np.full_like(x, ac.LENGTH / 2000), exact.stoker_depth(x, ac.END, ac.DAM, ac.LEFT,
                                                                  ac.RIGHT)


def test_the_exact_depth_has_no_error_anywhere(line):
    x, weights, reference = line
    assert ac.error_by_region(x, reference, weights) == (0.0, 0.0)
    assert ac.stoker_error(x, reference, weights, 0.05)[0] == 0.0


@pytest.mark.parametrize("where, part", [(ac.DAM - 0.5, 0), (ac.DAM - 1.6, 0),
                                         (exact.stoker_shock(ac.END, ac.DAM, ac.LEFT, ac.RIGHT)
                                          + 0.2, 1), (ac.DAM + 0.5 * (ac.LENGTH - ac.DAM), None)])
def test_an_error_counts_in_the_region_it_lies_in(line, where, part):
    """A 1e-4 m error at one point near x = where: in the fan (within 0.3 m of it, whose head
    is at x0 - sqrt(g d_l) t = 3.67 m), in the bore, or in neither (the still water ahead)."""
    x, weights, reference = line
    k = int(np.argmin(np.abs(x - where)))
    depth = reference.copy()
    depth[k] += 1e-4
    total = ac.stoker_error(x, depth, weights, 0.05)[0]
    expected = 1e-4 * weights[k] / np.sum(weights * reference)
    assert total == pytest.approx(expected, rel=1e-12)
    parts = ac.error_by_region(x, depth, weights)
    for region in (0, 1):
        assert parts[region] == (pytest.approx(expected, rel=1e-12) if region == part else 0.0)
