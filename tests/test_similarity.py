"""Froude similarity of the schemes: on a wet or dry bed, inviscid, without surface tension, the
shallow-water equations have no length or time of their own, so a flow scaled by s in length
(the mesh, the depth, ``min_depth``) and sqrt(s) in time (the clock, ``max_dt``; velocities by
sqrt(s)) is the same flow. A scheme whose switches are ratios of the state and continuous in it
(docs/model.md, "Assumptions and limits") reproduces it to round-off; a dimensional constant, or a
switch that round-off can flip (one that jumps where its ratio crosses zero), does not.
"""

import numpy as np
import pytest

import builders
from dye_cases import carry_patterns
from validation_cases import INVISCID
from validation_harness import make_simulation

# (length m, width m, n_along, n_across, seed), (dam m, left m, right m), end s
STRIP, DAM, END = (10.0, 0.1, 200, 2, 2), (5.0, 0.005, 0.001), 6.0  # validation_cases' 200 x 2
WALLED, WALLED_DAM, WALLED_END = (25.0, 1.0, 100, 4, 6), (5.0, 0.5, 0.33), 20.0


def scaled_dam_break(scale: float, scheme: str, strip: tuple = STRIP, dam: tuple = DAM,
                     end: float = END) -> tuple:
    """A dam break at rest on a walled strip (``strip``: length, width, cells along and across,
    the irregular cells' seed; ``dam``: its x, the depths left and right of it), run ``end``
    seconds, every length times ``scale`` and the run sqrt(scale) times as long. Returns the
    depth and velocity (n,), (n, 2) divided back to scale 1."""
    length, width, n_along, n_across, seed = strip
    at, left, right = dam
    V, F = builders.strip(length, width, n_along, n_across, seed=seed)
    sim, geom = make_simulation(scale * V, F, scheme=scheme, max_dt=np.sqrt(scale),
                                min_depth=1e-6 * scale, **INVISCID)
    x = geom.vertices[:, 0] / scale
    sim.set_depth(scale * np.where(x < at, left, right))
    sim.advance(end * np.sqrt(scale))
    return np.asarray(sim.depth) / scale, np.asarray(sim.velocity) / np.sqrt(scale)


@pytest.mark.parametrize("scheme", ["momentum", "conservative"])
@pytest.mark.parametrize("right", [0.001, 0.0], ids=["stoker", "ritter"])
def test_a_dam_break_scaled_in_length_and_time_is_the_same_flow(right, scheme):
    """Stoker's (a bore: the default's bore patch takes part) and Ritter's (a dry-bed front)
    dam breaks on the 200 x 2 strip (d = 5 mm left of x = 5 m, ``right`` right of it) at
    s = 0.01, 3.7 and 1e4 against s = 1: the depth to 1e-12 of the dam's depth and the velocity
    to 1e-12 m/s. Measured: 5e-15 and below."""
    dam = (DAM[0], DAM[1], right)
    depth, velocity = scaled_dam_break(1.0, scheme, dam=dam)
    assert depth[depth > 0.0].size > 0 and np.abs(velocity).max() > 0.1  # the dam has broken
    for scale in (0.01, 3.7, 1e4):
        scaled_depth, scaled_velocity = scaled_dam_break(scale, scheme, dam=dam)
        assert np.abs(scaled_depth - depth).max() < 1e-12 * DAM[1], scale
        assert np.abs(scaled_velocity - velocity).max() < 1e-12, scale


@pytest.mark.parametrize("scheme", ["momentum", "conservative"])
def test_a_dam_break_reflected_from_walls_is_the_same_flow_at_another_scale(scheme):
    """A dam break on a 25 m x 1 m walled strip (100 x 4 cells, seed 6; 0.5 m deep left of
    x = 5 m, 0.33 m right of it), run 20 s, after its bores have crossed the strip and come
    back, at s = 3.7 against s = 1: the depth within 1e-7 of the deep side's. Measured: 1.0e-9
    (the conservative scheme 2e-14); round-off grows slowly through the reflected bores, so the
    bar is looser than the short runs'. A switch that jumps where its ratio crosses zero parts
    the runs by 1e-4 and more."""
    def depth_at(scale):
        return scaled_dam_break(scale, scheme, WALLED, WALLED_DAM, WALLED_END)[0]

    depth = depth_at(1.0)
    assert np.ptp(depth) > 0.05  # bores, not a lake at rest
    assert np.abs(depth_at(3.7) - depth).max() < 1e-7 * WALLED_DAM[1]


@pytest.mark.parametrize("scheme", ["momentum", "conservative"])
def test_dyes_carried_at_another_scale_are_the_same(scheme):
    """The dye rows' bell and stripe (tests/dye_cases.py: a uniform current carries them 49
    cells) at s = 3.7 and 1e3 against s = 1: every concentration to 1e-9. The dyes have no unit,
    so nothing should part them. Measured: 2e-11 and below. A face that round-off makes just
    sending must not switch its donor's limiter: with the bound taken over the sent faces
    outright, a face across the current did, and the runs parted by 2.5e-2."""
    dyes = carry_patterns(scheme=scheme)[1]
    assert dyes[:, 1].max() > 0.99 and dyes[:, 0].max() > 0.8  # carried, not smeared out
    for scale in (3.7, 1e3):
        assert np.abs(carry_patterns(scheme=scheme, scale=scale)[1] - dyes).max() < 1e-9, scale
