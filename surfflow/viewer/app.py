"""The interactive viewer: ``surfflow view SCENE`` or ``view_scene(scene)``.

``ViewerApp`` owns nothing but UI settings: it builds the scene's Simulation and reads it each
frame. Its ``callback`` (polyscope's user callback) draws the panel (play/pause, step, reset,
colouring, velocity arrows, sliders for the pour rate and radius, friction, surface tension,
contact angle and the gravity direction, readouts of time, volume and steps per second), pours
where the user shift-clicks the object, and advances the simulation by one frame (1 / fps of
simulated time) per drawn frame while playing. Tests drive it through ``pending_pours`` and
``ps.frame_tick()`` under the mock backend.
"""

from __future__ import annotations

import math
import time

import numpy as np
import polyscope as ps
import polyscope.imgui as psim

from ..io.scene_setup import scene_geometry, scene_mesh, scene_simulation
from ..simulation import Simulation
from .liquid_view import COLOR_MODES, OBJECT_NAME, LiquidView


def gravity_from_angles(magnitude: float, azimuth: float, elevation: float) -> tuple:
    """The gravity vector of the given magnitude pointing along (azimuth, elevation) in degrees;
    elevation -90 is straight down (-y), azimuth turns about y from +x towards -z."""
    az, el = math.radians(azimuth), math.radians(elevation)
    return (magnitude * math.cos(el) * math.cos(az), magnitude * math.sin(el),
            -magnitude * math.cos(el) * math.sin(az))


def angles_from_gravity(gravity) -> tuple[float, float]:
    """Inverse of :func:`gravity_from_angles`: (azimuth, elevation) in degrees."""
    gx, gy, gz = gravity
    horizontal = math.hypot(gx, gz)
    return math.degrees(math.atan2(-gz, gx)), math.degrees(math.atan2(gy, horizontal))


class ViewerApp:
    """The live viewer of one scene (polyscope must be initialised before it is built)."""

    def __init__(self, scene, geometry):
        self.scene, self.geometry = scene, geometry
        self.params = scene.params
        self.simulation = scene_simulation(scene, geometry)
        self.view = LiquidView(geometry, scene.liquid_color, scene.dye_colors, scene.render.color_by)
        self.playing = False
        self.pending_pours: list[np.ndarray] = []
        size = float(np.linalg.norm(np.ptp(geometry.vertices, axis=0)))
        self.pour_radius = 0.03 * size
        self.pour_rate = 1e-3 * size ** 3
        self.pour_seconds = 1.0
        self.azimuth, self.elevation = angles_from_gravity(self.params.gravity)
        self._steps_per_second = 0.0
        self.view.update(self.simulation)

    # ---- actions (what the buttons do; tests call them directly) -----------------------------

    def step_frame(self) -> None:
        """Advance the simulation by one frame, 1 / fps of simulated time."""
        start, steps = time.perf_counter(), self.simulation.state.step_count
        self.simulation.advance(1.0 / self.scene.fps)
        elapsed = max(time.perf_counter() - start, 1e-9)
        self._steps_per_second = (self.simulation.state.step_count - steps) / elapsed
        self.view.update(self.simulation)

    def reset(self) -> None:
        """Back to the scene's initial condition, keeping the current slider values."""
        self.simulation = scene_simulation(self.scene, self.geometry, params=self.params)
        self.view.update(self.simulation)

    def pour_at(self, point) -> None:
        """Pour at ``point`` (3,) for ``pour_seconds`` from now, with the current rate and radius."""
        now = self.simulation.time
        self.simulation.add_source(tuple(np.asarray(point, dtype=np.float64)), self.pour_radius,
                                   self.pour_rate, start=now, stop=now + self.pour_seconds)

    def set_params(self, **changes) -> None:
        """Change Params fields mid-run: the state (sources included) moves to a new Simulation."""
        self.params = self.params.replace(**changes)
        old = self.simulation
        self.simulation = Simulation(self.geometry, self.params, n_dyes=old.n_dyes,
                                     crash_dir=old.crash_dir)
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
            self.step_frame()

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
        changed, index = psim.Combo("colour by", COLOR_MODES.index(self.view.color_by), list(COLOR_MODES))
        changed_arrows, self.view.show_velocity = psim.Checkbox("velocity arrows", self.view.show_velocity)
        if changed or changed_arrows:
            self.view.color_by = COLOR_MODES[index]
            self.view.update(sim)
        psim.Text(f"time {sim.time:.3f} s   volume {sim.total_volume():.4g} m^3")
        psim.Text(f"{self._steps_per_second:.0f} steps/s   shift-click the object to pour")

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
        hit = ps.pick(screen_coords=io.MousePos)
        if hit.is_hit and hit.structure_name == OBJECT_NAME:
            self.pending_pours.append(hit.position)


def view_scene(scene, cache_dir=None) -> None:
    """Open the interactive viewer on ``scene`` (blocks until the window closes)."""
    geometry = scene_geometry(scene, *scene_mesh(scene.mesh), cache_dir)
    ps.init()
    ps.set_up_dir(up_direction(scene.params.gravity))
    app = ViewerApp(scene, geometry)
    ps.set_user_callback(app.callback)
    ps.show()


def up_direction(gravity) -> str:
    """Polyscope's name of the axis closest to -gravity ("y_up", "neg_z_up", ...)."""
    axis = int(np.argmax(np.abs(gravity)))
    return ("neg_" if gravity[axis] > 0 else "") + "xyz"[axis] + "_up"
