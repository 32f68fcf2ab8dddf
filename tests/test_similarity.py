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
from validation_cases import INVISCID
from validation_harness import make_simulation

DAM, LEFT, END = 5.0, 0.005, 6.0  # m, m, s: validation_cases' dam breaks on a 10 m strip


def scaled_dam_break(scale: float, right: float, scheme: str) -> tuple:
    """The 200 x 2 dam break of validation_cases (seed 2, 0.1 m wide; d = 5 mm left of x = 5 m,
    ``right`` right of it, at rest), every length times ``scale`` and the run sqrt(scale) times
    as long. Returns the depth and velocity (n,), (n, 2) divided back to scale 1."""
    V, F = builders.strip(10.0, 0.1, 200, 2, seed=2)
    sim, geom = make_simulation(scale * V, F, scheme=scheme, max_dt=np.sqrt(scale),
                                min_depth=1e-6 * scale, **INVISCID)
    x = geom.vertices[:, 0] / scale
    sim.set_depth(scale * np.where(x < DAM, LEFT, right))
    sim.advance(END * np.sqrt(scale))
    return np.asarray(sim.depth) / scale, np.asarray(sim.velocity) / np.sqrt(scale)


@pytest.mark.parametrize("scheme", ["momentum", "conservative"])
@pytest.mark.parametrize("right", [0.001, 0.0], ids=["stoker", "ritter"])
def test_a_dam_break_scaled_in_length_and_time_is_the_same_flow(right, scheme):
    """Stoker's (a bore: the default's bore patch takes part) and Ritter's (a dry-bed front)
    dam breaks at s = 0.01, 3.7 and 1e4 against s = 1: the depth to 1e-12 of the dam's depth and
    the velocity to 1e-12 m/s. Measured: 5e-15 and below."""
    depth, velocity = scaled_dam_break(1.0, right, scheme)
    assert depth[depth > 0.0].size > 0 and np.abs(velocity).max() > 0.1  # the dam has broken
    for scale in (0.01, 3.7, 1e4):
        scaled_depth, scaled_velocity = scaled_dam_break(scale, right, scheme)
        assert np.abs(scaled_depth - depth).max() < 1e-12 * LEFT, scale
        assert np.abs(scaled_velocity - velocity).max() < 1e-12, scale


def scaled_walled_dam_break(scale: float, scheme: str) -> np.ndarray:
    """A dam break on a 25 m x 1 m walled strip (100 x 4 cells, seed 6): 0.5 m deep left of
    x = 5 m, 0.33 m right of it, at rest, run 20 s (its bores reflect from both ends), every
    length times ``scale`` and the run sqrt(scale) times as long. Returns the depth (n,) divided
    back to scale 1."""
    V, F = builders.strip(25.0, 1.0, 100, 4, seed=6)
    sim, geom = make_simulation(scale * V, F, scheme=scheme, max_dt=np.sqrt(scale),
                                min_depth=1e-6 * scale, **INVISCID)
    x = geom.vertices[:, 0] / scale
    sim.set_depth(scale * np.where(x < 5.0, 0.5, 0.33))
    sim.advance(20.0 * np.sqrt(scale))
    return np.asarray(sim.depth) / scale


@pytest.mark.parametrize("scheme", ["momentum", "conservative"])
def test_a_dam_break_reflected_from_walls_is_the_same_flow_at_another_scale(scheme):
    """The walled dam break at s = 3.7 against s = 1 after its bores have crossed the strip and
    come back: the depth within 1e-7 of the deep side's. Measured: 1.0e-9 (the conservative
    scheme 2e-14); round-off grows slowly through the reflected bores, so the bar is looser
    than the short runs'. A switch that jumps where its ratio crosses zero parts the runs by
    1e-4 and more."""
    depth = scaled_walled_dam_break(1.0, scheme)
    assert np.ptp(depth) > 0.05  # bores, not a lake at rest
    assert np.abs(scaled_walled_dam_break(3.7, scheme) - depth).max() < 1e-7 * 0.5
