"""``benchmarks/validation/anuga_compare.py`` splits Stoker's error into its fan and bore parts,
and the transcritical bump's into five regions; these check the splits against errors placed by
hand, whose parts are known exactly, and the bump's meshes and ANUGA's boundary tags."""

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks" / "validation"))

import anuga_compare as ac  # noqa: E402
import builders  # noqa: E402
import exact_solutions as exact  # noqa: E402
import validation_cases as cases  # noqa: E402
from validation_harness import relative_l1  # noqa: E402


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


# The bump's comparison (--case bump): its error split, its jump, its meshes and ANUGA's tags.

@pytest.fixture
def bump_line():
    x = np.linspace(0.0, cases.BUMP_LENGTH, 5001)
    return x, np.full_like(x, cases.BUMP_LENGTH / 5000), exact.transcritical_bump(x)[0]


def test_the_bumps_exact_depth_has_no_error_and_its_jump_where_it_is(bump_line):
    x, weights, reference = bump_line
    assert set(cases.bump_error_by_region(x, reference, weights).values()) == {0.0}
    exact_jump = exact.transcritical_bump(x)[1]
    assert exact_jump <= cases.bump_jump(x, reference) < exact_jump + x[1]


@pytest.mark.parametrize("where, region", [(5.0, "upstream"), (9.0, "approach"), (10.7, "lee"),
                                           (11.7, "jump"), (20.0, "downstream")])
def test_a_bump_error_counts_in_the_region_it_lies_in(bump_line, where, region):
    x, weights, reference = bump_line
    k = int(np.argmin(np.abs(x - where)))
    depth = reference.copy()
    depth[k] -= 1e-4
    shares = cases.bump_error_by_region(x, depth, weights)
    expected = 1e-4 * weights[k] / np.sum(weights * reference)
    assert shares[region] == pytest.approx(expected, rel=1e-12)
    assert sum(shares.values()) == pytest.approx(relative_l1(depth, reference, weights),
                                                 rel=1e-12)
    assert all(share == 0.0 for name, share in shares.items() if name != region)


def test_the_cross_mesh_cuts_each_square_in_four_about_its_centre():
    V, F = builders.rectangle_cross(0.0, 2.0, 0.0, 0.5, 8, 2)
    assert V.shape == (9 * 3 + 16, 3) and F.shape == (64, 3)
    e1, e2 = V[F[:, 1]] - V[F[:, 0]], V[F[:, 2]] - V[F[:, 0]]
    areas = 0.5 * np.cross(e1, e2)[:, 2]
    assert np.all(areas > 0.0) and areas == pytest.approx(np.full(64, 1.0 / 64))
    assert np.all(F[:, 2] >= 27)  # every triangle has its square's centre


def test_anugas_boundary_tags_name_each_boundary_edge_by_its_side():
    V, F = builders.rectangle_cross(0.0, 2.0, 0.0, 0.5, 8, 2)
    tags = list(ac.boundary_tags(V[:, :2], F).values())
    assert (tags.count("left"), tags.count("right"), tags.count("wall")) == (2, 2, 16)
