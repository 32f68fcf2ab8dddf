"""The viewer's real-time toggle on a scene, headless: does simulated time keep up with the wall
clock, apart from the drawing itself?

    python benchmarks/viewer_pace.py [--example bunny_pour] [--seconds 5] [--start 0.5]

Builds the live viewer (``surfflow.viewer.app.ViewerApp``) under polyscope's mock backend (no
window: drawing is the view's updates of its meshes, points and buffers), advances the scene
to ``--start`` (compiling, warming up, the pours running), then plays in real time for
``--seconds`` of wall time, one ``polyscope.frame_tick`` per drawn frame as the window does.
Each drawn frame advances by the wall time since the previous one (``viewer/pace.py``), so the
simulation keeps up when stepping is fast enough. Printed: the frames drawn, simulated seconds
per wall second over the whole window and on the panel's meter (its last second), whether the
panel says it keeps up (``KEEPING_UP``), the wall time's split between stepping, drawing and the
rest, and simulated seconds per wall second of the stepping alone (the drawing left out: the
issue's "keeps up apart from the drawing itself" when >= 1). Public API, and the viewer's own
classes; stepping and drawing are timed by wrapping the app's simulation's ``advance`` and its
view's ``update``.
"""

from __future__ import annotations

import argparse
import tempfile
import time

import polyscope as ps

import surfflow as sf
from surfflow.cli import EXAMPLES_DIR
from surfflow.scene.scene_setup import scene_geometry, scene_mesh
from surfflow.viewer.app import ViewerApp
from surfflow.viewer.pace import KEEPING_UP


def timed(function, spent: dict, key: str):
    """``function``, adding its wall time to spent[key]."""
    def run(*args, **kwargs):
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            spent[key] += time.perf_counter() - start
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--example", default="bunny_pour")
    parser.add_argument("--seconds", type=float, default=5.0, help="wall seconds played")
    parser.add_argument("--start", type=float, default=0.5, help="simulated seconds first")
    args = parser.parse_args()
    scene = sf.load_scene(EXAMPLES_DIR / f"{args.example}.toml")
    with tempfile.TemporaryDirectory() as cache:
        geometry = scene_geometry(scene, *scene_mesh(scene.mesh), cache_dir=cache)
    ps.init("openGL_mock")
    ps.set_frame_tick_limit_fps_mode("ignore_limits")
    app = ViewerApp(scene, geometry)
    ps.set_user_callback(app.callback)
    app.advance(args.start)
    spent = {"stepping": 0.0, "drawing": 0.0}
    app.simulation.advance = timed(app.simulation.advance, spent, "stepping")
    app.view.update = timed(app.view.update, spent, "drawing")
    sim = app.simulation
    begin, steps = sim.time, sim.state.step_count
    app.real_time = app.playing = True
    frames = 0
    started = time.perf_counter()
    while time.perf_counter() - started < args.seconds and app.playing:
        ps.frame_tick()
        frames += 1
    wall = time.perf_counter() - started
    _, meter = app.meter.rates()
    covered = sim.time - begin
    print(f"{args.example} in the viewer, real time, {wall:.1f} wall s from t = {begin:.2f} s: "
          f"{frames} frames, {sim.state.step_count - steps} steps")
    print(f"  simulated s per wall s: {covered / wall:.3f} over the window, {meter:.3f} on the "
          f"meter; {'keeping up' if app.keeping_up() else 'behind'} (>= {KEEPING_UP})")
    rest = wall - spent["stepping"] - spent["drawing"]
    print(f"  wall time: stepping {spent['stepping']:.2f} s, drawing {spent['drawing']:.2f} s, "
          f"the rest {rest:.2f} s ({1e3 * spent['drawing'] / max(frames, 1):.1f} ms a frame)")
    print(f"  simulated s per wall s of the stepping alone: {covered / spent['stepping']:.3f} "
          "(>= 1: keeps up apart from the drawing)")


if __name__ == "__main__":
    main()
