"""Wetness (``surfflow/terms/wetness.py``): 1 under the film, exp(-(t - t_dry) / T) after it has
gone, 0 where it never was; exact for any time steps, in [0, 1], bit for bit across a restart,
kept by a moving surface and a resumed run, a frame field of every format, and ``[liquid]
drying_time`` in scenes."""

import math

import h5py
import numpy as np
import pytest
from scene_helpers import TINY_SCENE, straight_and_resumed, write_scene

import builders
from runtime_cases import numba_threads
import surfflow as sf
from surfflow.errors import SceneError
from surfflow.io.vtkhdf import FRAMES_NAME, read_step
from surfflow.io.writers import frame_fields, make_writers, read_frame
from surfflow.scene.scene import load_scene, parse_scene

ANGLE = math.radians(30.0)
DRAIN = {"gravity": (0.0, 0.0, -9.81), "boundary": "outflow", "drying_time": 0.1,
         "min_depth": 1e-4}
"""A 30 degree plane whose lower edge lets the liquid out; T = 0.1 s so the drying shows within
the run, and a dry threshold of 0.1 mm so the drained film's tail is dry within it too."""
ROUND_OFF = 1e-12  # relative: w is a product of a few hundred exp(-dt / T), each good to an ulp


@pytest.fixture(scope="module")
def slope():
    V, F = builders.inclined_plane(0.6, 0.1, ANGLE, 60, 4, seed=3)
    return sf.precompute((V, F), smoothing_iterations=0)


def pour_on(slope, **changes):
    """0.1 s of pouring 1e-4 m^3/s near the top of the slope, which then drains off its foot."""
    sim = sf.Simulation(slope, sf.Params(**{**DRAIN, **changes}))
    top = (0.1 * math.cos(ANGLE), 0.05, -0.1 * math.sin(ANGLE))
    sim.add_source(center=top, radius=0.04, rate=1e-4, stop=0.1)
    return sim


@pytest.fixture(scope="module")
def drained(slope):
    """The pour stepped to 0.6 s: the time each vertex was last wet at the end of a step, each
    step's dt and the wetness's range after every step."""
    sim = pour_on(slope)
    last_wet = np.full(slope.n_vertices, -np.inf)
    steps, lowest, highest = [], [], []
    while sim.time < 0.6:
        steps.append(sim.step())
        last_wet[sim.depth >= sim.params.min_depth] = sim.time
        lowest.append(sim.wetness.min())
        highest.append(sim.wetness.max())
    return sim, last_wet, np.array(steps), np.array(lowest), np.array(highest)


def expected_wetness(sim, last_wet):
    """1 where wet now, exp(-(t - t_dry) / T) where the film was and has gone, 0 where never."""
    wet = sim.depth >= sim.params.min_depth
    gone = np.isfinite(last_wet) & ~wet
    return np.where(wet, 1.0, np.where(gone, np.exp(-(sim.time - last_wet) / sim.params.drying_time),
                                       0.0))


def test_a_drained_film_dries_with_the_drying_time_for_any_time_steps(drained):
    sim, last_wet, steps, _, _ = drained
    assert len(np.unique(steps)) > 20 and steps.max() > 2.0 * steps.min()  # adaptive dt
    ever, wet = np.isfinite(last_wet), sim.depth >= sim.params.min_depth
    gone = ever & ~wet
    assert gone.sum() > 100 and len(np.unique(last_wet[gone])) > 10  # dried at many times
    assert np.allclose(sim.wetness, expected_wetness(sim, last_wet), rtol=ROUND_OFF, atol=0.0)
    # the drying time read back off the field: T = -(t - t_dry) / ln w, at every drying vertex
    measured = -(sim.time - last_wet[gone]) / np.log(sim.wetness[gone])
    assert np.max(np.abs(measured / sim.params.drying_time - 1.0)) < 1e-9


def test_wetness_stays_in_zero_to_one_and_reads_one_where_wet_zero_where_never(drained):
    sim, last_wet, _, lowest, highest = drained
    assert lowest.min() == 0.0 and highest.max() == 1.0
    assert np.all(lowest >= 0.0) and np.all(highest <= 1.0)
    never = ~np.isfinite(last_wet)
    assert never.sum() > 10 and np.all(sim.wetness[never] == 0.0)


def test_a_film_removed_at_once_dries_as_exp_of_minus_t_over_T(slope):
    """set_depth(0) at t0 takes a still film (no gravity) away between two steps:
    w = exp(-(t - t0) / T) from there, read at several times with clipped last steps of
    different lengths."""
    sim = sf.Simulation(slope, sf.Params(**{**DRAIN, "gravity": (0.0, 0.0, 0.0)}))
    sim.set_depth(np.full(slope.n_vertices, 2e-3))
    assert np.all(sim.wetness == 1.0)  # wet as soon as the film is set
    sim.advance(0.05)
    t0 = sim.time
    sim.set_depth(np.zeros(slope.n_vertices))
    assert np.all(sim.wetness == 1.0)  # the surface keeps its wetness; drying starts now
    for duration in (0.013, 0.0371, 0.1, 0.25):
        sim.advance(duration)
        expected = math.exp(-(sim.time - t0) / sim.params.drying_time)
        assert np.allclose(sim.wetness, expected, rtol=ROUND_OFF, atol=0.0), duration


def test_one_and_two_threads_give_the_same_wetness(slope):
    """The wetness is numpy; the film it follows is promised the same on any thread count."""
    runs = []
    for threads in (1, 2):
        with numba_threads(threads):
            sim = pour_on(slope)
            sim.advance(0.4)
            runs.append(sim.wetness)
    assert np.any((runs[0] > 0.0) & (runs[0] < 1.0))
    assert np.array_equal(runs[0], runs[1])


def test_wetness_does_not_touch_the_film(slope):
    quick, slow = pour_on(slope, drying_time=0.01), pour_on(slope, drying_time=1e4)
    quick.advance(0.3)
    slow.advance(0.3)
    assert np.array_equal(quick.depth, slow.depth) and np.array_equal(quick.velocity, slow.velocity)
    assert not np.array_equal(quick.wetness, slow.wetness)


def test_a_restart_mid_drying_continues_bit_for_bit(slope):
    sim = pour_on(slope)
    sim.advance(0.3)
    data = sim.state_dict()
    assert np.array_equal(data["wetness"], sim.wetness)
    assert np.any((data["wetness"] > 0.0) & (data["wetness"] < 1.0))  # mid-drying
    again = pour_on(slope)
    again.load_state_dict(data)
    sim.advance(0.2)
    again.advance(0.2)
    assert np.array_equal(again.wetness, sim.wetness) and np.array_equal(again.depth, sim.depth)


def test_a_state_without_wetness_starts_wet_where_its_film_is(slope):
    sim = pour_on(slope)
    sim.advance(0.1)
    data = {k: v for k, v in sim.state_dict().items() if k != "wetness"}
    again = pour_on(slope)
    again.load_state_dict(data)
    assert np.array_equal(again.wetness, (sim.depth >= sim.params.min_depth).astype(float))


def test_a_moving_surface_keeps_its_wetness_per_vertex(slope):
    sim = pour_on(slope)
    sim.advance(0.3)
    before = sim.wetness
    assert np.any((before > 0.0) & (before < 1.0))
    sim.move_to(slope.vertices + [0.0, 0.0, 0.01])
    assert np.array_equal(sim.wetness, before)


def test_wetness_is_a_frame_field_of_npz_and_vtkhdf(slope, tmp_path):
    sim = pour_on(slope)
    sim.advance(0.3)
    fields = frame_fields(sim)
    assert np.array_equal(fields["wetness"], sim.wetness)
    for writer in make_writers(tmp_path, ["npz", "vtkhdf"], sim.geometry):
        writer.write(0, sim.time, fields)
        if hasattr(writer, "close"):
            writer.close()
    _, _, npz = read_frame(tmp_path / "frame_00000.npz")
    _, _, vtkhdf = read_step(tmp_path / FRAMES_NAME, 0)
    for written in (npz["wetness"], vtkhdf["wetness"]):
        assert written.dtype == np.float32
        assert np.array_equal(written, sim.wetness.astype(np.float32))
    with h5py.File(tmp_path / FRAMES_NAME) as file:
        assert "wetness" in file["VTKHDF/PointData"]


def test_wetness_is_a_primvar_of_the_usd_object(slope, tmp_path):
    pytest.importorskip("pxr")
    from pxr import Usd, UsdGeom

    from surfflow.io.usd import UsdWriter

    sim = pour_on(slope)
    writer = UsdWriter(tmp_path, sim.geometry)
    written = []
    for frame in range(3):
        writer.write(frame, sim.time, frame_fields(sim))
        written.append(sim.wetness.astype(np.float32))
        sim.advance(0.15)
    stage = Usd.Stage.Open(str(writer.path))
    primvar = UsdGeom.PrimvarsAPI(stage.GetPrimAtPath("/surfflow/object")).GetPrimvar("wetness")
    assert primvar.GetInterpolation() == UsdGeom.Tokens.vertex
    for frame, values in enumerate(written):
        assert np.array_equal(np.array(primvar.Get(Usd.TimeCode(frame))), values)
    assert np.any((written[-1] > 0.0) & (written[-1] < 1.0))


def liquid_table(line):
    return TINY_SCENE.replace('preset = "water"', f'preset = "water"\n{line}')


def test_drying_time_is_a_scene_key_of_the_liquid():
    assert parse_scene(TINY_SCENE, "tiny.toml").params.drying_time == sf.Params().drying_time == 60.0
    assert parse_scene(liquid_table("drying_time = 300"), "tiny.toml").params.drying_time == 300.0


@pytest.mark.parametrize("value, says", [("0", "(0.0, inf]"), ("-5.0", "(0.0, inf]"),
                                         ('"slow"', "finite number")])
def test_a_bad_drying_time_names_the_key_and_what_is_allowed(value, says):
    with pytest.raises(SceneError) as info:
        parse_scene(liquid_table(f"drying_time = {value}"), "bad.toml")
    message = str(info.value)
    assert "liquid.drying_time" in message and "line 16" in message and says in message


@pytest.mark.parametrize("value", [0.0, -1.0, math.inf, "slow"])
def test_params_refuse_a_drying_time_that_is_not_a_positive_number(value):
    with pytest.raises(sf.ParameterError, match="drying_time"):
        sf.Params(drying_time=value)


DRYING_SCENE = liquid_table("drying_time = 0.1").replace("duration = 0.2", "duration = 0.4").replace(
    "rate = 1.0e-6\n", "rate = 1.0e-6\nstop = 0.1\n") + """
[[sources]]
type = "sink"
center = [0.0, 0.0, 0.0]
radius = 0.5
rate = 1.0e-3
start = 0.15
"""
"""The tiny pour for 0.1 s, taken away by a sink over the whole plane from 0.15 s: 4 frames,
the last two drying with T = 0.1 s."""


def test_a_resumed_scene_run_dries_on_bit_for_bit(tmp_path):
    scene = load_scene(write_scene(tmp_path, DRYING_SCENE))
    straight, resumed = straight_and_resumed(scene, tmp_path)
    assert np.array_equal(straight.simulation.wetness, resumed.simulation.wetness)
    for frame in (3, 4):
        _, _, a = read_frame(tmp_path / "straight" / f"frame_{frame:05d}.npz")
        _, _, b = read_frame(tmp_path / "split" / f"frame_{frame:05d}.npz")
        assert np.array_equal(a["wetness"], b["wetness"])
    _, _, first = read_frame(tmp_path / "straight" / "frame_00001.npz")
    drying = (a["wetness"] > 0.0) & (a["wetness"] < 1.0)
    assert drying.sum() >= 5 and np.all(first["wetness"][drying] == 1.0)  # wet at 0.1 s, drying
    assert np.all(a["depth"] == 0.0)
