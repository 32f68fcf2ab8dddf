"""The interactive viewer: ``surfflow view SCENE`` or ``view_scene(scene)``.

``ViewerApp`` owns nothing but UI settings: it builds the scene's Simulation and reads it each
frame. Its ``callback`` (polyscope's user callback) draws the panel (play/pause, step, reset,
real time, colouring, velocity arrows, sliders for the pour rate and radius, friction, surface
tension, contact angle and the gravity direction, readouts of time, volume, steps per second,
simulated seconds per wall second and what set the step, with a sphere where it was set),
pours where the user shift-clicks the object (from a spout
a little above the point, ``pour_at``; the scene's nozzles and rain are drawn), and while
playing advances the simulation per drawn frame by one frame (1 / fps of simulated time) or, in
real time, by the wall time since the last frame (``pace``), and stops at the scene's duration,
its last frame there. Tests drive it through ``pending_pours``, ``clock`` and
``ps.frame_tick()`` under the mock backend.
"""

from __future__ import annotations

import math
import time

import numpy as np
import polyscope as ps
import polyscope.imgui as psim

from ..errors import ParameterError
from ..particles import Nozzle
from ..scene.compile_ahead import compile_ahead
from ..scene.scene_setup import scene_asset_mesh, scene_droplets, scene_geometry, scene_simulation
from ..simulation import Simulation
from ..step_limits import last_step_limit
from .body_view import draw_bodies
from .camera import place_camera
from .emitter_view import draw_emitters
from .liquid_view import COLOR_MODES, OBJECT_NAME
from .materials import apply_scene_look
from .pace import KEEPING_UP, RateMeter, RealTimePacer
from .step_limit_view import draw_step_limit
from .ripple_view import run_view


def gravity_from_angles(magnitude: float, azimuth: float, elevation: float) -> tuple:
    """The gravity vector of the given magnitude pointing along (azimuth, elevation) in degrees;
    elevation -90 is straight down (-y), azimuth turns about y from +x towards -z."""
    az, el = math.radians(azimuth), math.radians(elevation)
    return (magnitude * math.cos(el) * math.cos(az), magnitude * math.sin(el),
            -magnitude * math.cos(el) * math.sin(az))


STEP_LIMIT_RADIUS = 0.01
"""the sphere at the vertex that set the last step has this share of the object's size as radius"""
SPOUT_HEIGHT = 0.06
"""the click pour's spout stands this share of the object's size above the clicked point"""
POUR_RATE_SCALE = 2e-5
"""m^3/s per m^3 of the object's size cubed: the click pour's rate where the scene has no pour
(a 1 m object gets bunny_pour's 20 mL/s)"""


def scene_pour(scene, size: float) -> tuple[float, float]:
    """The click pour's (rate m^3/s, radius m): the scene's first nozzle's, else its first
    surface pour's, else scaled to the object's ``size`` (m)."""
    for spec in (*[e for e in scene.emitters if e.kind == "nozzle"],
                 *[s for s in scene.sources if s.kind == "pour"]):
        return spec.rate, spec.radius or 0.01 * size
    return POUR_RATE_SCALE * size ** 3, 0.01 * size


def angles_from_gravity(gravity) -> tuple[float, float]:
    """Inverse of :func:`gravity_from_angles`: (azimuth, elevation) in degrees."""
    gx, gy, gz = gravity
    horizontal = math.hypot(gx, gz)
    return math.degrees(math.atan2(-gz, gx)), math.degrees(math.atan2(gy, horizontal))


class ViewerApp:
    """The live viewer of one scene (polyscope must be initialised before it is built)."""

    click_action = "pour"  # what a shift-click on the object does, for the panel's hint

    def __init__(self, scene, geometry):
        self.scene, self.geometry = scene, geometry
        self.params = scene.params
        self.simulation = scene_simulation(scene, geometry)
        self.view = run_view(scene, geometry)
        self.playing = False
        self.real_time = False
        self.show_step_limit = False
        self.clock = time.perf_counter
        self.meter, self.pacer = RateMeter(), RealTimePacer()
        self.pending_pours: list[np.ndarray] = []
        self.size = float(np.linalg.norm(np.ptp(geometry.vertices, axis=0)))
        self.pour_rate, self.pour_radius = scene_pour(scene, self.size)
        self.pour_seconds = 1.0
        self.azimuth, self.elevation = angles_from_gravity(self.params.gravity)
        self.update_view()

    # ---- actions (what the buttons do; tests call them directly) -----------------------------

    def step_frame(self) -> None:
        """Advance the simulation by one frame, 1 / fps of simulated time (less for the last
        frame, which ends at the scene's duration)."""
        self.advance(self._until_the_end(1.0 / self.scene.fps))

    def play_frame(self) -> None:
        """Advance for one drawn frame while playing: one frame, or in real time the wall time
        since the previous drawn frame (``RealTimePacer``). Playing stops at the scene's
        duration with a last frame there; Play again goes on past it."""
        if self.real_time:
            seconds = self.pacer.advance_for(self.clock())
        else:
            self.pacer.stop()
            seconds = 1.0 / self.scene.fps
        left = self.scene.duration - self.simulation.time
        if 0.0 < left <= seconds:
            seconds, self.playing = left, False
        self.advance(seconds)

    def _until_the_end(self, seconds: float) -> float:
        """``seconds``, or less where the scene's duration comes first (before it is reached)."""
        left = self.scene.duration - self.simulation.time
        return min(seconds, left) if left > 0.0 else seconds

    def advance(self, duration: float) -> None:
        """Advance the simulation by ``duration`` seconds, redraw and record the rates."""
        self.simulation.advance(duration)
        self.update_view()
        self.meter.record(self.clock(), self.simulation.time, self.simulation.state.step_count)

    def keeping_up(self) -> bool:
        """Whether simulated time kept up with the wall clock over the meter's window."""
        return self.meter.rates()[1] >= KEEPING_UP

    def reset(self) -> None:
        """Back to the scene's initial condition, keeping the current slider values."""
        self.simulation = scene_simulation(self.scene, self.geometry, params=self.params)
        self.meter.reset()
        self.update_view()

    def update_view(self) -> None:
        """Draw the simulation's state, droplets, emitters and floating bodies."""
        self.view.update(self.simulation)
        draw_emitters(getattr(self.simulation, "emitters", ()), self.size)
        draw_bodies(self.simulation.bodies)
        draw_step_limit(self.simulation, STEP_LIMIT_RADIUS * self.size, self.show_step_limit)

    def pour_at(self, point) -> None:
        """Pour onto ``point`` (3,) for ``pour_seconds`` from now, with the current rate and
        radius, from a spout ``SPOUT_HEIGHT`` of the object's size above it (against gravity),
        pointing down at the speed of a fall from that height."""
        now, p = self.simulation.time, self.params
        up = -np.asarray(p.gravity, dtype=np.float64) / p.gravity_magnitude
        height = SPOUT_HEIGHT * self.size
        spout = np.asarray(point, dtype=np.float64) + height * up
        try:
            self.simulation.add_emitter(Nozzle(spout, -up, np.sqrt(2.0 * p.gravity_magnitude * height),
                                               self.pour_radius, self.pour_rate, start=now,
                                               stop=now + self.pour_seconds))
        except ParameterError as exc:
            print(f"cannot pour there: {exc}", flush=True)
            return
        self.update_view()
        x, y, z = spout
        print(f"pouring {self.pour_rate:.3g} m^3/s from a spout at ({x:.4g}, {y:.4g}, {z:.4g}), "
              f"{height:.3g} m above the click, from t = {now:.3f} s for {self.pour_seconds:g} s",
              flush=True)

    def set_params(self, **changes) -> None:
        """Change Params fields mid-run: the state (sources included) moves to a new Simulation."""
        self.params = self.params.replace(**changes)
        old = self.simulation
        particles = scene_droplets(self.scene) or old.particles is not None
        self.simulation = Simulation(self.geometry, self.params, n_dyes=old.n_dyes,
                                     crash_dir=old.crash_dir, particles=particles)
        self.simulation.load_state_dict(old.state_dict())

    # ---- the polyscope callback -------------------------------------------------------------

    def callback(self) -> None:
        """Draw the panel, take clicks and advance while playing (called by polyscope each frame)."""
        self._controls()
        self._sliders()
        self._take_click()
        while self.pending_pours:
            self.pour_at(self.pending_pours.pop(0))
        if self.playing:
            self.play_frame()
        else:
            self.pacer.stop()
            self.meter.reset()

    def _controls(self) -> None:
        sim = self.simulation
        if psim.Button("Pause" if self.playing else "Play"):
            self.playing = not self.playing
        psim.SameLine()
        if psim.Button("Step"):
            self.step_frame()
        psim.SameLine()
        if psim.Button("Reset"):
            self.reset()
        psim.SameLine()
        _, self.real_time = psim.Checkbox("real time", self.real_time)
        changed, index = psim.Combo("colour by", COLOR_MODES.index(self.view.color_by), list(COLOR_MODES))
        changed_arrows, self.view.show_velocity = psim.Checkbox("velocity arrows", self.view.show_velocity)
        if changed or changed_arrows:
            self.view.color_by = COLOR_MODES[index]
            self.update_view()
        steps_per_second, sim_per_wall = self.meter.rates()
        psim.Text(f"time {sim.time:.3f} s   volume {sim.total_volume():.4g} m^3")
        psim.Text(f"{steps_per_second:.0f} steps/s   {sim_per_wall:.2f} simulated s per wall s")
        psim.Text(f"step set by {last_step_limit(sim)}")
        changed, self.show_step_limit = psim.Checkbox("where the step is set", self.show_step_limit)
        if changed:
            self.update_view()
        if self.real_time and self.playing and len(self.meter.samples) > 1:
            psim.Text("real time: keeping up" if self.keeping_up() else
                      f"real time: behind, the machine manages {sim_per_wall:.2f}x")
        psim.Text(f"shift-click the object to {self.click_action}")

    def _sliders(self) -> None:
        _, self.pour_rate = psim.InputFloat("pour rate (m^3/s)", self.pour_rate, format="%.3e")
        _, self.pour_radius = psim.SliderFloat("pour radius (m)", self.pour_radius, 1e-4,
                                               10.0 * self.pour_radius + 1e-4)
        p = self.params
        changes = {}
        for name, low, high in (("friction", 0.0, 20.0), ("surface_tension", 0.0, 0.1),
                                ("contact_angle", 0.0, 180.0)):
            changed, value = psim.SliderFloat(name.replace("_", " "), getattr(p, name), low, high)
            if changed:
                changes[name] = value
        changed_az, self.azimuth = psim.SliderFloat("gravity azimuth", self.azimuth, -180.0, 180.0)
        changed_el, self.elevation = psim.SliderFloat("gravity elevation", self.elevation, -90.0, 90.0)
        if changed_az or changed_el:
            changes["gravity"] = gravity_from_angles(p.gravity_magnitude, self.azimuth, self.elevation)
        if changes:
            self.set_params(**changes)

    def _take_click(self) -> None:
        io = psim.GetIO()
        if not (io.KeyShift and psim.IsMouseClicked(0)) or io.WantCaptureMouse:
            return
        liquid = self.view.liquid_mesh
        shown = liquid.is_enabled()
        liquid.set_enabled(False)  # with a transparency quantity it hides the object from picks
        hit = ps.pick(screen_coords=io.MousePos)
        liquid.set_enabled(shown)
        if hit.is_hit and hit.structure_name == OBJECT_NAME:
            self.pending_pours.append(hit.position)


def viewer_geometry(scene, cache_dir=None):
    """The scene's precomputed geometry with its mesh file's asset (UVs, texture), which the
    viewer draws the object with."""
    V, F, asset = scene_asset_mesh(scene.mesh)
    return scene_geometry(scene, V, F, cache_dir, asset=asset)


def view_scene(scene, cache_dir=None, play: bool = False, app_class=ViewerApp) -> None:
    """Open the interactive viewer on ``scene`` (blocks until the window closes); ``play``
    starts it playing; ``app_class`` is ViewerApp or a subclass (``ripple_app``)."""
    ahead = compile_ahead(scene)  # a cold start: the step's kernels compile beside this
    geometry = viewer_geometry(scene, cache_dir)
    ps.set_program_name(f"surfflow: {scene.name}")
    ps.init()
    apply_scene_look(scene.render)
    app = app_class(scene, geometry)
    if ahead is not None:
        ahead.wait()
    app.playing = play
    place_camera(scene, geometry)
    ps.set_user_callback(app.callback)
    ps.show()
