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
from exact_solutions import bump_bottom
from validation_cases import INVISCID, supercritical_slope
from validation_harness import make_simulation

# (length m, width m, n_along, n_across, seed), (dam m, left m, right m), end s
STRIP, DAM, END = (10.0, 0.1, 200, 2, 2), (5.0, 0.005, 0.001), 6.0  # validation_cases' 200 x 2
WALLED, WALLED_DAM, WALLED_END = (25.0, 1.0, 100, 4, 6), (5.0, 0.5, 0.33), 20.0


# open segments of the walled strip: (kind, value at scale 1, x of the end, outward normal's x);
# the SWASHES bump's inflow (m^2/s) and held level (m)
INFLOW, LEVEL = ("inflow", 0.18, 0.0, -1.0), ("level", 0.33, WALLED[0], 1.0)


def scaled_dam_break(scale: float, scheme: str, strip: tuple = STRIP, dam: tuple = DAM,
                     end: float = END, bump: bool = False, openings: tuple = ()) -> tuple:
    """A dam break at rest on a walled strip (``strip``: length, width, cells along and across,
    the irregular cells' seed; ``dam``: its x, the levels left and right of it), over SWASHES'
    bump if ``bump`` (the depths the levels less the bottom), with the ``openings`` open, run
    ``end`` seconds, every length times ``scale`` and the run sqrt(scale) times as long (an
    inflow's discharge times scale^1.5). Returns the depth and velocity (n,), (n, 2) divided back
    to scale 1."""
    length, width, n_along, n_across, seed = strip
    at, left, right = dam
    V, F = builders.strip(length, width, n_along, n_across, seed=seed)
    sim, geom = make_simulation(scale * V, F, scheme=scheme, max_dt=np.sqrt(scale),
                                min_depth=1e-6 * scale, **INVISCID)
    x = geom.vertices[:, 0] / scale
    bottom = bump_bottom(x) if bump else np.zeros_like(x)
    sim.set_bottom(scale * bottom)
    sim.set_depth(scale * np.maximum(np.where(x < at, left, right) - bottom, 0.0))
    for kind, value, end_x, outward in openings:
        values = ({"discharge": value * scale ** 1.5} if kind == "inflow"
                  else {"level": value * scale})
        sim.set_boundary(kind, plane=((end_x * scale, 0.0, 0.0), (outward, 0.0, 0.0)), **values)
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


# the 25 m channel's cases: (over the bump, open segments, the dam: x, levels left and right)
CHANNELS = {"walls": (False, (), WALLED_DAM), "bump": (True, (), WALLED_DAM),
            "level": (False, (LEVEL,), WALLED_DAM),
            "inflow_over_bump": (True, (INFLOW, LEVEL), (WALLED_DAM[0], 0.33, 0.33))}
@pytest.mark.parametrize("case, scheme", [(case, scheme) for scheme in ("momentum", "conservative")
                                          for case in CHANNELS])
def test_a_channel_flow_is_the_same_flow_at_another_scale(case, scheme):
    """A 25 m x 1 m walled strip (100 x 4 cells, seed 6), run 20 s at s = 3.7 against s = 1:
    the dam break (0.5 m deep left of x = 5 m, 0.33 m right of it) whose bores cross the strip
    and come back from its walls, the same over SWASHES' bump or with the level held at
    x = 25 m, and still water at 0.33 m over the bump that SWASHES' inflow sets flowing, the
    level held. The depth within 1e-10 of the deep side's, the velocity within 1e-10 m/s.
    Measured (depth / velocity), the default: 8e-15 / 3e-14 (walls), 1.4e-13 / 5.9e-13 (bump),
    3e-15 / 3e-14 (level) and 2.5e-14 / 8.6e-14 (the inflow over the bump); the conservative
    scheme 1.5e-14 / 3.3e-14, 3e-15 / 5e-15, 2e-15 / 6e-15 and 2e-15 / 4e-15, and at most
    1.7e-14 / 3.7e-14 at s = 3.6 and 3.8 (a held level's vertices reconstruct first order,
    schemes/hll_stage.py). A switch that
    jumps where its ratio crosses zero parts the runs by 1e-4 and more; a shock sensor reading
    a wall vertex's one-sided fit whole would part them by 1e-9 (walls), 4e-5 (bump) and 1e-7
    (level)."""
    bump, openings, dam = CHANNELS[case]

    def flow_at(scale):
        return scaled_dam_break(scale, scheme, WALLED, dam, WALLED_END, bump, openings)

    depth, velocity = flow_at(1.0)
    assert np.abs(velocity).max() > 0.1  # flowing, not a lake at rest
    scaled_depth, scaled_velocity = flow_at(3.7)
    assert np.abs(scaled_depth - depth).max() < 1e-10 * WALLED_DAM[1]
    assert np.abs(scaled_velocity - velocity).max() < 1e-10


def scaled_slope(scale: float, scheme: str, end: float = 5.0) -> tuple:
    """validation_cases' frictionless slope (``supercritical_slope``: 10 m at 0.15, 100 x 4
    cells, seed 4): a 5 mm film at rest that the inflow of 0.01 m^2/s at the top edge (the side
    walls meet it square) sets running down to the transmissive bottom edge, ``end`` s, scaled
    by ``scale``. Returns the depth and velocity (n,), (n, 3) divided back to scale 1."""
    sim, _, _ = supercritical_slope(scheme=scheme, scale=scale)
    sim.advance(end * np.sqrt(scale))
    return np.asarray(sim.depth) / scale, np.asarray(sim.velocity) / np.sqrt(scale)


@pytest.mark.parametrize("scheme", ["momentum", "conservative"])
def test_a_slope_fed_by_an_inflow_is_the_same_flow_at_another_scale(scheme):
    """The supercritical slope (``scaled_slope``), 5 s at s = 3.7 against s = 1: the depth
    within 1e-10 of the film's 5 mm, the velocity within 1e-10 m/s. Measured, the default: 6e-13 of
    the film and 2e-14 m/s; the conservative scheme 7e-13 and 2e-14. Where the inflow edge
    meets a side wall square, the corner vertex is its ring's deepest and the entry along the
    inflow edge lies across the depth's gradient (along the wall): a limiter giving that entry
    its whole say, its change Delta = g . c / 2 +-1e-19 by round-off, sets the corner's slope
    to 0 or leaves it whole as the sign falls (kernels/reconstruction.py, the bore patch's
    stages and the conservative scheme), and parts the runs by 4e-2 of the film (2e-2 with the
    conservative scheme)."""
    depth, velocity = scaled_slope(1.0, scheme)
    assert np.abs(velocity).max() > 1.0  # running down the slope
    scaled_depth, scaled_velocity = scaled_slope(3.7, scheme)
    assert np.abs(scaled_depth - depth).max() < 1e-10 * 5e-3
    assert np.abs(scaled_velocity - velocity).max() < 1e-10


@pytest.mark.parametrize("scheme", ["momentum", "conservative"])
def test_dyes_carried_at_another_scale_are_the_same(scheme):
    """The dye rows' bell and stripe (tests/dye_cases.py: a uniform current carries them 49
    cells) at s = 3.7 and 1e3 against s = 1: every concentration to 1e-9. The dyes have no unit,
    so nothing should part them. Measured: 2e-11 and below. A face that round-off makes just
    sending must not switch its donor's limiter: with the bound taken over the sent faces
    outright, a face across the current would, and the runs would part by 2.5e-2."""
    dyes = carry_patterns(scheme=scheme)[1]
    assert dyes[:, 1].max() > 0.99 and dyes[:, 0].max() > 0.8  # carried, not smeared out
    for scale in (3.7, 1e3):
        assert np.abs(carry_patterns(scheme=scheme, scale=scale)[1] - dyes).max() < 1e-9, scale
