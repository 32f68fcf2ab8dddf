"""``Ripples``: small waves on a calm water surface, the damped wave equation on any mesh.

    z_tt = c^2 Lap(z + p / (rho g)) - mu_i z_t

z (n,) the height of the water surface above its rest level along the normal (m), c the wave
speed (m/s), Lap the cotangent Laplacian (``laplacian.py``), p (n,) a pressure on the surface (Pa,
``surface_pressure``: a floating body presses the surface down by its draft), mu_i the damping
rate (1/s). The step (``kernels/ripples.py``) is leapfrog with centred damping on two buffers,
the height and its rate.

Stability. A mode of -Lap with eigenvalue lambda evolves by (1 + a) r^2 - (2 - s) r + (1 - a) = 0
with s = c^2 dt^2 lambda and a = mu dt / 2; both roots lie in the unit circle if and only if
0 < s < 4, for every mu >= 0. So the step is stable for

    c dt sqrt(lambda_max) < 2,        dt < dt_max = 2 / (c sqrt(lambda_max)).

On a grid of spacing h (lambda_max -> 8 / h^2) this is c < (h / 2 dt) sqrt(2), the bound
0 < c < (h / 2 dt) sqrt(mu dt + 2) at mu = 0; its mu dt term belongs to the first-order damping
(z^(n+1) - z^n) / dt, and the centred damping used here (second order) does not widen it.

Edges and shores. ``edge="fixed"`` holds the vertices of an open mesh's boundary at z = 0 (a
clamped membrane: waves reflect with the opposite sign); ``edge="reflect"`` leaves them free
(the Laplacian's natural boundary, no flux through the edge: waves reflect with the same sign,
and the volume sum_i A_i z_i is kept). ``shore`` (n,) in [0, 1] is the water's freedom at each
vertex: 1 free water, 0 held at z = 0 like a fixed edge, and in between the vertex's damping
rate grows to mu_i = mu + shore_damping (1 - shore_i). A shore coefficient falling gradually to
0 over a band of vertices (a sloping beach) absorbs the waves that run into it; a sudden step to
0 (a steep bank) reflects them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..bodies.on_ripples import RippleBodies
from ..checks import check_choice, check_range, check_vertex_array
from ..errors import ParameterError, SimulationError
from ..geometry.surface import SurfaceGeometry
from ..geometry.topology import entry_rows
from ..io.writers import body_fields
from ..kernels.ripples import wave_step
from .disturbances import Dents, Rain
from .landing import DropletLanding
from .laplacian import cotangent_weights, largest_eigenvalue, stiffness_matrix

EDGES = ("fixed", "reflect")


@dataclass
class RippleState:
    """The prognostic arrays and the clock: ``height`` z^n (n,) in m, ``rate``
    v^(n-1/2) = (z^n - z^(n-1)) / dt (n,) in m/s, ``time`` (s), ``step_count`` and ``last_dt``
    (s, the last step's length)."""

    height: np.ndarray
    rate: np.ndarray
    time: float = 0.0
    step_count: int = 0
    last_dt: float = 0.0


class Ripples:
    """Small waves on a water surface: the damped wave equation on ``geom``, shaped like
    :class:`Simulation` (``step``, ``advance``, ``time``, ``state_dict``).

    Parameters
    ----------
    geom : SurfaceGeometry
        the water surface at rest, from :func:`precompute` (the same geometry the full model
        uses; a flat pond or a curved puddle).
    wave_speed : float
        c > 0 (m/s); shallow water of depth H has c = sqrt(g H).
    damping : float, default 0
        mu >= 0 (1/s): the wave energy decays as exp(-mu t).
    edge : {"fixed", "reflect"}
        an open mesh's edge held at z = 0 (default) or reflecting.
    shore : (n,) array in [0, 1], optional
        per vertex: 1 free water, 0 held at z = 0, between: extra damping (module docstring).
    shore_damping : float, optional
        the extra damping rate (1/s) at shore 0; default c sqrt(lambda_max) / 2, half the
        highest angular frequency the mesh carries.
    density, gravity : float
        rho (kg/m^3) and g (m/s^2), turning ``surface_pressure`` (Pa) into a head p / (rho g).
    depth : float, optional
        H (m), the water's depth at rest over the mesh, for outputs and renders (the mesh is the
        bottom and the water surface lies H + z above it); default c^2 / g, the shallow-water
        depth whose waves run at c.
    cfl : float in (0, 1), default 0.9
        a fraction: :meth:`advance` takes steps of at most cfl * dt_max.

    Examples
    --------
    >>> import surfflow as sf
    >>> from surfflow.io.procedural import plane
    >>> geom = sf.precompute(plane((1.0, 1.0), (20, 20)), feature_size=0)
    >>> pond = sf.Ripples(geom, wave_speed=0.3, damping=0.5)
    >>> volume = pond.drop(center=(0.0, 0.0, 0.0), radius=0.05, depth=0.002)  # m^3, a dent
    >>> round(volume * 1e6, 2)         # cm^3 on this 5 cm grid; -pi r^2 D = -15.71 exactly
    -15.86
    >>> pond.advance(0.5)
    >>> pond.time, pond.height.shape
    (0.5, (441,))
    """

    step_limit = "waves"
    """what sets the step's length, as ``Simulation.step_limit`` names it: the waves' stability
    limit, cfl * :attr:`max_time_step`, the same every step"""
    step_limit_vertex = None
    """no vertex sets a ripple step (``Simulation.step_limit_vertex``)"""

    def __init__(self, geom: SurfaceGeometry, wave_speed: float, damping: float = 0.0,
                 edge: str = "fixed", shore=None, shore_damping: float | None = None,
                 density: float = 1000.0, gravity: float = 9.81, cfl: float = 0.9,
                 depth: float | None = None):
        if not isinstance(geom, SurfaceGeometry):
            raise ParameterError(f"geom is a {type(geom).__name__}; pass the SurfaceGeometry that "
                                 "sf.precompute(mesh) returns")
        check_range("wave_speed", wave_speed, 0.0, low_open=True)
        check_range("damping", damping, 0.0)
        check_choice("edge", edge, EDGES)
        check_range("density", density, 0.0, low_open=True)
        check_range("gravity", gravity, 0.0, low_open=True)
        check_range("cfl", cfl, 0.0, 1.0, low_open=True, high_open=True)
        depth = wave_speed ** 2 / gravity if depth is None else depth
        check_range("depth", depth, 0.0, low_open=True)
        n = geom.n_vertices
        shore = np.ones(n) if shore is None else check_vertex_array("shore", shore, n, minimum=0.0)
        if shore.max() > 1.0:
            raise ParameterError(f"shore is above 1 at vertex {int(np.argmax(shore > 1.0))}; "
                                 "shore coefficients lie in [0, 1] (1 free water, 0 fixed)")
        self.geometry = geom
        self.wave_speed, self.damping, self.edge = float(wave_speed), float(damping), edge
        self.density, self.gravity, self.cfl = float(density), float(gravity), float(cfl)
        self.depth = float(depth)
        self.shore = shore.copy()
        self.weights = cotangent_weights(geom)
        self.held = (shore == 0.0) | (geom.is_boundary if edge == "fixed" else False)
        self.lambda_max = largest_eigenvalue(geom, self.weights, self.held)
        if shore_damping is None:
            shore_damping = 0.5 * self.wave_speed * math.sqrt(self.lambda_max)
        check_range("shore_damping", shore_damping, 0.0)
        self.shore_damping = float(shore_damping)
        self.vertex_damping = self.damping + self.shore_damping * (1.0 - shore)
        self.state = RippleState(np.zeros(n), np.zeros(n))
        self._pressure = np.zeros(n)
        self._head, self._level = np.zeros(n), np.zeros(n)
        rows = entry_rows(geom.neighbor_offsets)
        self._stencil = self.wave_speed ** 2 * self.weights / geom.dual_areas[rows]
        index = np.int32 if len(geom.neighbor_indices) < 2 ** 31 else np.int64  # less to read
        self._rings = (geom.neighbor_offsets.astype(index), geom.neighbor_indices.astype(index))
        self._stiffness = stiffness_matrix(geom, self.weights)
        self._face_areas = 0.5 * np.linalg.norm(np.cross(
            geom.vertices[geom.faces[:, 1]] - geom.vertices[geom.faces[:, 0]],
            geom.vertices[geom.faces[:, 2]] - geom.vertices[geom.faces[:, 0]]), axis=1)
        self._dents = Dents(geom.vertices, self.held)
        self.rain: tuple[Rain, ...] = ()
        self._pending_drops = np.zeros((0, 6))  # rows: time (s), center (3), radius, depth (m)
        self.terms: tuple = ()

    # ---- state in and out ---------------------------------------------------------------------

    @property
    def time(self) -> float:
        return self.state.time

    @property
    def height(self) -> np.ndarray:
        """(n,) z, the height of the surface above its rest level along the normal (m), a copy."""
        return self.state.height.copy()

    @property
    def height_rate(self) -> np.ndarray:
        """(n,) the rate of z over the last step, (z^n - z^(n-1)) / dt (m/s, at time - dt / 2),
        a copy."""
        return self.state.rate.copy()

    @property
    def surface_pressure(self) -> np.ndarray:
        """(n,) p, the pressure on the surface (Pa), the live array: write into it (a body
        pressing the surface down by its draft d has p = rho g d); read at every step."""
        return self._pressure

    @surface_pressure.setter
    def surface_pressure(self, pressure) -> None:
        self._pressure[:] = check_vertex_array("surface_pressure", pressure, self.geometry.n_vertices)

    @property
    def max_time_step(self) -> float:
        """dt_max = 2 / (c sqrt(lambda_max)) (s): :meth:`step` needs dt below it."""
        return math.inf if self.lambda_max == 0.0 else 2.0 / (self.wave_speed * math.sqrt(self.lambda_max))

    def set_height(self, height) -> None:
        """Set z (n,) in m, the water at rest (rate 0); held vertices stay at 0."""
        z = check_vertex_array("height", height, self.geometry.n_vertices)
        self.state.height[:] = np.where(self.held, 0.0, z)
        self.state.rate[:] = 0.0

    def total_volume(self) -> float:
        """sum_i A_i z_i (m^3): the water raised above the rest level (kept by edge="reflect")."""
        return float(np.dot(self.geometry.dual_areas, self.state.height))

    def energy(self) -> float:
        """The wave energy per unit density (m^5/s^2) that the leapfrog step keeps exactly
        without damping: 1/2 sum_i A_i v_i^2 + 1/2 c^2 z^n K z^(n-1) (K the stiffness,
        ``laplacian.py``; z^(n-1) = z^n - dt v); with damping mu it decays as exp(-mu t)."""
        s = self.state
        previous = s.height - s.last_dt * s.rate
        kinetic = np.dot(self.geometry.dual_areas, s.rate ** 2)
        return 0.5 * kinetic + 0.5 * self.wave_speed ** 2 * float(s.height @ (self._stiffness @ previous))

    def frame_fields(self) -> dict:
        """The per-vertex fields of a frame, shaped like a film's so every writer and renderer
        draws the water (``surfflow.io.writers``): ``height`` z (n,) m and ``height_rate`` (n,)
        m/s; ``depth`` H + z (n,) m, ``bottom`` 0 (n,), ``free_surface`` (H + z) n (n, 3) m
        (the water surface over the mesh) and ``velocity`` the rate along the normal (n, 3) m/s."""
        z, normals = self.height, self.geometry.normals
        fields = {"height": z, "height_rate": self.height_rate, "depth": self.depth + z,
                  "bottom": np.zeros_like(z), "free_surface": (self.depth + z)[:, None] * normals,
                  "velocity": self.state.rate[:, None] * normals}
        if self.bodies:
            fields.update(body_fields(self.bodies))
        return fields

    def state_dict(self) -> dict:
        """Every array and scalar needed to continue bit-identically (numpy values)."""
        s = self.state
        data = {"time": np.float64(s.time), "step_count": np.int64(s.step_count),
                "ripple_height": s.height.copy(), "ripple_rate": s.rate.copy(),
                "ripple_last_dt": np.float64(s.last_dt), "surface_pressure": self._pressure.copy(),
                "ripple_rain": np.array([[r.rate, r.radius, r.depth, r.seed] for r in self.rain],
                                        dtype=np.float64).reshape(-1, 4),
                "ripple_drops": self._pending_drops.copy()}
        for term in self.terms:
            data.update(term.state_dict())
        return data

    def load_state_dict(self, data: dict) -> None:
        """Continue from what :meth:`state_dict` returned, on the same geometry and settings."""
        s = self.state
        s.height[:], s.rate[:] = data["ripple_height"], data["ripple_rate"]
        s.time, s.step_count = float(data["time"]), int(data["step_count"])
        s.last_dt = float(data["ripple_last_dt"])
        self._pressure[:] = data["surface_pressure"]
        self.rain = tuple(Rain(rate, radius, depth, int(seed))
                          for rate, radius, depth, seed in np.asarray(data["ripple_rain"]))
        self._pending_drops = np.array(data["ripple_drops"], dtype=np.float64).reshape(-1, 6)
        for term in self.terms:
            term.load_state_dict(data)

    # ---- disturbances -------------------------------------------------------------------------

    def drop(self, center, radius: float, depth: float, time: float | None = None) -> float:
        """Drop a drop: a Gaussian dent ``depth exp(-|x - center|^2 / radius^2)`` (m, within 5
        radii of the centre) pressed into the surface now, or at the start of the step in which
        ``time`` (s) falls (held vertices stay at 0). Returns its volume sum_i A_i dz_i (m^3,
        negative: about -pi radius^2 depth on a plane larger than the drop)."""
        near, dent = self._dents.dent(center, radius, depth)
        if time is not None and time > self.state.time:
            check_range("time", time)
            self._pending_drops = np.vstack([self._pending_drops, [time, *center, radius, depth]])
        else:
            self.state.height[near] += dent
        return float(np.dot(self.geometry.dual_areas[near], dent))

    def add_rain(self, rate: float, radius: float, depth: float, seed: int = 0) -> Rain:
        """Rain: ``rate`` drops per second per m^2, each a :meth:`drop` of ``radius`` and
        ``depth`` at a random point of the surface (reproducible from ``seed``)."""
        rain = Rain(float(rate), float(radius), float(depth), int(seed))
        self.rain = (*self.rain, rain)
        return rain

    def add_term(self, term):
        """Add a coupled term (a floating body, ...): ``term.press(ripples, dt)`` runs at the start
        of every step (before the rain and the wave update; it may write ``surface_pressure``
        and read ``height``), and its ``state_dict`` / ``load_state_dict`` join the ripples'."""
        self.terms = (*self.terms, term)
        return term

    def add_droplets(self, droplets):
        """Let ``droplets`` (a :class:`Droplets`, with its gravity) fly and land on the water,
        each adding its volume where it hits (``landing.py``); returns the coupling term
        (``landed``, ``lost`` in m^3)."""
        return self.add_term(DropletLanding(self, droplets))
    def add_body(self, body):
        """Float a rigid body (``sf.RigidBody``) on the waves: buoyancy and drag from the water
        H + z, its pressure on the surface (``surface_pressure``) making rings
        (``surfflow/bodies/on_ripples.py``); returns it."""
        coupling = next((t for t in self.terms if isinstance(t, RippleBodies)), None)
        if coupling is None:
            coupling = self.add_term(RippleBodies(self))
        coupling.add(body)
        return body

    @property
    def bodies(self) -> list:
        """The bodies floating on the waves, in the order added."""
        return [b for t in self.terms if isinstance(t, RippleBodies) for b in t.bodies]

    # ---- time stepping ------------------------------------------------------------------------

    def step(self, dt: float | None = None) -> float:
        """One step of ``dt`` s (0 < dt < :attr:`max_time_step`; default cfl *
        :attr:`max_time_step`, like ``Simulation.step``); returns dt."""
        dt = self.cfl * self.max_time_step if dt is None else dt
        check_range("dt", dt, 0.0, low_open=True)
        if dt >= self.max_time_step:
            limit = self.max_time_step
            raise ParameterError(
                f"step(dt={dt!r}) is unstable for wave_speed={self.wave_speed!r} m/s on this mesh: "
                f"c dt sqrt(lambda_max) must stay below 2 (lambda_max = {self.lambda_max:.6g} 1/m^2); "
                f"use dt < {limit:.6g} s, or wave_speed < {2.0 / (dt * math.sqrt(self.lambda_max)):.6g} "
                "m/s for this dt (advance() picks a stable dt itself)")
        s, g = self.state, self.geometry
        for term in self.terms:
            term.press(self, dt)
        self._drop_pending(s.time + dt)
        for rain in self.rain:
            for point in rain.drops(g.vertices, g.faces, self._face_areas, s.step_count, dt):
                self.drop(point, rain.radius, rain.depth)
        np.multiply(self._pressure, 1.0 / (self.density * self.gravity), out=self._head)
        wave_step(*self._rings, self._stencil, self.held, self.vertex_damping, dt, self._head,
                  self._level, s.height, s.rate)
        s.time += dt
        s.step_count += 1
        s.last_dt = dt
        return dt

    def _drop_pending(self, until: float) -> None:
        """Drop the scheduled drops whose time comes before ``until`` (s), in order."""
        due = self._pending_drops[:, 0] < until
        for _, x, y, z, radius, depth in self._pending_drops[due]:
            self.drop((x, y, z), radius, depth)
        self._pending_drops = self._pending_drops[~due]

    def advance(self, duration: float) -> None:
        """Step until ``time`` has grown by exactly ``duration`` s, in equal steps of at most
        cfl * :attr:`max_time_step`."""
        if not (duration >= 0.0 and math.isfinite(duration)):
            raise ParameterError(f"advance(duration={duration!r}): duration must be finite and >= 0")
        if duration == 0.0:
            return
        target = self.state.time + duration
        steps = max(1, math.ceil(duration / (self.cfl * self.max_time_step)))
        for _ in range(steps):
            self.step(duration / steps)
        self.state.time = target
        if not np.isfinite(self.state.height).all():
            bad = int(np.flatnonzero(~np.isfinite(self.state.height))[0])
            raise SimulationError(f"the ripples went non-finite at t={target:.9g} s, first at vertex "
                                  f"{bad}; check surface_pressure and the drops' sizes")
