"""Froude similarity of the schemes: on a wet or dry bed, inviscid, without surface tension, the
shallow-water equations have no length or time of their own, so a flow scaled by s in length
(the mesh, the depth, ``min_depth``) and sqrt(s) in time (the clock, ``max_dt``; velocities by
sqrt(s)) is the same flow. A scheme whose switches are ratios of the state and continuous in it
(docs/model.md, "Assumptions and limits") reproduces it to round-off; a dimensional constant, or a
switch that round-off can flip (one that jumps where its ratio crosses zero), does not. These
dam breaks agree to round-off; run on until their bores reflect from the walls, the default's do
not yet (docs/model.md, "Known limitations").
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
