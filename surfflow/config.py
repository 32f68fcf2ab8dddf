"""Typed, frozen configuration: precompute parameters, runtime parameters, tolerances.

Every choice is a name checked against a list; every number is checked against its range when
the object is built, and a bad value fails with a :class:`~surfflow.errors.ParameterError` that
says what is allowed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any

from .checks import check_choice, check_range, check_vector3
from .errors import ParameterError

NORMAL_WEIGHTINGS = ("area", "angle")
FRICTION_MODELS = ("linear", "laminar")
BOUNDARY_CONDITIONS = ("free", "wall", "outflow")
OPEN_BOUNDARIES = ("free", "outflow")  # the kinds liquid leaves through (a free edge sheds it)
WATER_SURFACE_TENSION = 0.072  # N/m: sigma of the pendant rule where surface_tension is 0
REMOVED_PARAMS = {
    "emit_depth": "a pool on a face turned towards gravity never sheds, whatever its depth",
    "overhang_emit_depth": "a pendant film sheds beyond h_p = sqrt(2 sigma / (rho g_n)), g_n "
                           "the pull of gravity off the face (docs/guide/droplets.md)",
}
DEFAULT_FEATURE_SIZE = "2%"
SCHEMES = ("momentum", "conservative")
EXPANSIONS = ("energy_head", "momentum")


def check_feature_size(value: Any) -> None:
    """Raise ParameterError unless ``value`` is a length >= 0 in metres or a string "P%", 0 <= P <= 100."""
    usage = ('give metres as a number (feature_size = 0.005) or a fraction of the mesh\'s diameter '
             'as a string ending in % (feature_size = "2%"); 0 turns smoothing off')
    if isinstance(value, str):
        text = value.strip()
        if not text.endswith("%"):
            raise ParameterError(f"feature_size={value!r} is not a length; {usage}")
        try:
            percent = float(text[:-1])
        except ValueError:
            percent = math.nan
        if not 0.0 <= percent <= 100.0:
            raise ParameterError(f"feature_size={value!r} is not a percentage from 0% to 100%; {usage}")
    elif isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ParameterError(f"feature_size={value!r} is not a length; {usage}")
    elif not math.isfinite(value) or value < 0.0:
        raise ParameterError(f"feature_size={value!r} must be a finite length >= 0; {usage}")


@dataclass(frozen=True)
class Tolerances:
    """Geometric tolerances, in one place.

    Parameters
    ----------
    degenerate_area : float, fraction of the mean face area, default 1e-12
        a face whose area is below this fraction of the mean face area is degenerate.
    merge_distance : float, fraction of the mesh's diameter, default 1e-10
        vertices closer than this fraction of the mesh's diameter (``io/extent.py``) are merged.
    max_coordinate : float, m, default 1e75
        the largest coordinate magnitude a mesh may have, so that products of four coordinates
        (squared areas) stay below float64's overflow at 1.8e308.

    Examples
    --------
    >>> import surfflow as sf
    >>> sf.Tolerances().merge_distance
    1e-10
    """

    degenerate_area: float = 1e-12
    merge_distance: float = 1e-10
    max_coordinate: float = 1e75


TOLERANCES = Tolerances()


@dataclass(frozen=True)
class PrecomputeParams:
    """Parameters of the precompute stage (SPEC §2).

    Parameters
    ----------
    feature_size : float (m) >= 0 or str "P%", default "2%"
        the width of the narrowest shape the smoothed surface keeps: bumps and grooves narrower than
        this go into the bottom heights b (and so into the friction tensors), wider shapes stay in
        the smoothed surface. Metres (a number), or a fraction of the mesh's diameter as a string
        such as "2%": of the sphere about the surface's area centroid that holds it
        (``io/extent.py``), which turns and moves with the mesh. A sinusoidal relief whose bumps
        are feature_size wide (wavelength 2 feature_size) is split half and half; with the default
        4 smoothing_iterations bumps half as wide go to b to 90 %, bumps twice as wide stay in the
        surface to 83 %. 0 keeps the input mesh and gives b = 0. The split does not depend on the mesh resolution.
    smoothing_iterations : int >= 0, default 4
        backward-Euler steps the heat flow is split into (an expert option: more steps give a
        sharper cut-off, closer to a Gaussian filter; 1 the softest). 0 keeps the input mesh and
        gives b = 0.
    normal_line_iterations : int >= 0, default 5
        passes that move each smoothed vertex so the original vertex lies on the line through it
        along its normal.
    normal_weighting : {"area", "angle"}, default "area"
        "area" or "angle" weighted vertex normals.
    roughness_gains : (2,) float >= 0, default (1, 1)
        (eta1, eta2), the gains of the roughness along and across the features in the friction
        tensor T = gamma ((1 + eta1 r1) x1 x1^T + (1 + eta2 r2) x2 x2^T).

    Examples
    --------
    >>> import surfflow as sf
    >>> sf.PrecomputeParams(feature_size=0.005).feature_length(diameter=1.0)
    0.005
    >>> sf.PrecomputeParams(feature_size="2%").feature_length(diameter=1.5)
    0.03
    """

    feature_size: float | str = DEFAULT_FEATURE_SIZE
    smoothing_iterations: int = 4
    normal_line_iterations: int = 5
    normal_weighting: str = "area"
    roughness_gains: tuple[float, float] = (1.0, 1.0)

    def __post_init__(self):
        check_feature_size(self.feature_size)
        check_range("smoothing_iterations", self.smoothing_iterations, 0)
        if int(self.smoothing_iterations) != self.smoothing_iterations:
            raise ParameterError(f"smoothing_iterations={self.smoothing_iterations!r} must be a whole number")
        check_range("normal_line_iterations", self.normal_line_iterations, 0)
        check_choice("normal_weighting", self.normal_weighting, NORMAL_WEIGHTINGS)
        if len(self.roughness_gains) != 2:
            raise ParameterError(f"roughness_gains={self.roughness_gains!r} must be two numbers (eta1, eta2)")
        for k, eta in enumerate(self.roughness_gains):
            check_range(f"roughness_gains[{k}]", eta, 0.0)

    def feature_length(self, diameter: float) -> float:
        """feature_size in metres for a mesh whose diameter (``io/extent.py``) is ``diameter`` m."""
        if isinstance(self.feature_size, str):
            return float(self.feature_size.strip()[:-1]) / 100.0 * diameter
        return float(self.feature_size)

    def key(self) -> str:
        """A stable text of every field, for the geometry cache's content hash."""
        return ";".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self))


@dataclass(frozen=True)
class Params:
    """Runtime parameters of a simulation (SPEC §3), SI units.

    Parameters
    ----------
    gravity : (3,) float, m/s^2, default (0, -9.81, 0)
        gravity vector (m/s^2), world space.
    friction : float >= 0, 1/s, default 1.3
        base friction coefficient gamma (1/s) of the "linear" model; multiplies the geometry's
        dimensionless friction anisotropy tensors.
    friction_model : {"linear", "laminar"}, default "linear"
        "linear" (gamma T) or "laminar" (3 nu / d^2 T, a Poiseuille film).
    viscosity : float >= 0, m^2/s, default 1e-6
        kinematic viscosity nu (m^2/s), used by the laminar model.
    density : float > 0, kg/m^3, default 1000
        liquid density rho (kg/m^3).
    surface_tension : float >= 0, N/m, default 0
        sigma (N/m); 0 turns surface tension off.
    contact_angle : float in [0, 180], degrees, default 60
        static contact angle theta_c in degrees, 0 to 180.
    contact_angle_hysteresis : float in [0, 180], degrees, default 0
        theta_a - theta_r in degrees, 0 to 180: the advancing and receding angles are theta_c +-
        half of it (clipped to [0, 180]). The contact line is held by a static friction of up to
        sigma (cos theta_r - cos theta_a) per unit length, so a drop of volume V and width w stays
        on a slope alpha while rho g sin(alpha) V <= sigma w (cos theta_r - cos theta_a) (Furmidge).
        0 (the default) is Young's ideal surface, where nothing holds a contact line and any drop
        runs down a slope; real surfaces show a few degrees (very smooth, clean) to 20 or more.
    contact_line_width : float > 0, cells, default 1
        width (in cells) of the contact line's wetting ramp, over which a dry cell becomes wet (see
        ``surfflow.kernels.tension``).
    boundary : {"free", "wall", "outflow"}, default "free"
        what an open mesh's edges do (docs/guide/boundaries.md). "free": liquid that reaches an
        edge runs off it, with the flux of "outflow", and falls as droplets from the edge vertex
        with the film's velocity (taken back from the ledger's outflow into its emitted and
        airborne volume); without droplets it leaves the scene, booked as outflow. "wall": no
        flux through the edge (a tray's or a channel's side). "outflow": removed and booked.
    cfl : float in (0, 1], dimensionless, default 0.5
        Courant number of the adaptive time step, 0 < cfl <= 1: ``dt = cfl r / (|u| + sqrt(g d))``
        (r the one-ring size). The momentum scheme's update is a convex combination for any step
        the outflow limiter allows, but its accuracy is not: 0.5 is the largest default at which
        the whole validation table passes. Measured at 0.6: the Nusselt film's error 1.14e-3
        (target 1e-3); at 0.7: a dye stripe's edge 4.6 cells (target 4) and Ritter's error no
        longer falls with refinement; at 1.0 the Nusselt film does not settle. Stoker's error
        grows with it (7,209 vertices: 2.7e-3 at 0.5, 3.6e-3 at 0.8, 5.1e-3 at 1.0).
    max_dt : float > 0, s, default 0.01
        the largest time step (s).
    min_depth : float > 0, m, default 1e-6
        d_min (m); shallower vertices are dry.
    laminar_min_depth : float > 0, m, default 1e-5
        the depth floor (m) under 3 nu / d^2 of the laminar model.
    wind : None, (3,) float m/s, callable or WindGrid, default None
        None, a constant (x, y, z) velocity (m/s), a callable (positions (n, 3), time) -> (n, 3), or
        a :class:`surfflow.kernels.wind.WindGrid`.
    wind_coefficient : float >= 0, 1/s, default 0
        c_w (1/s) of the wind drag c_w (w_t - u).
    dissolution_rate : float >= 0, 1/m, default 0.005
        e_p of the dissolution rate ``q_s = e_p (d + s) |u|`` (m/s of layer dissolved).
    solubility : float >= 0, dimensionless, default 0.5
        c_max, the most dissolved depth per liquid depth (s <= c_max d).
    solute_density_ratio : float > 0, dimensionless, default 2
        rho_s / rho_l of the dissolved material.
    solute_drag : float >= 0, 1/m, default 10
        c_d of the drag ``c_d |u - u_s| (u - u_s)`` between liquid and dissolved material.
    solute_friction : float >= 0, dimensionless, default 2
        kappa, the dissolved material's bottom friction relative to the liquid's.
    emit_depth : removed
        the old emission threshold; setting it raises ParameterError. Liquid leaves the
        film only where it cannot stay (SPEC §8, ``surfflow/particles/shedding.py``): a pendant
        film deeper than ``h_p = sqrt(2 sigma / (rho max(g_n, |g| / 4)))``, ``g_n = -(e . n) |g|``
        > 0 the pull of gravity off the face (sigma the surface_tension, water's 0.072 N/m where it is
        0: 3.8 mm of water under a horizontal plate), and liquid that runs over a free edge; a
        pool on a face turned towards gravity never sheds. Without droplets the pendant excess
        drips out of the scene, booked as ``dripped``.
    overhang_emit_depth : removed
        the old threshold under overhangs (see emit_depth); setting it raises ParameterError.
    keep_depth : float >= 0, m, default 0.0005
        eps2 (m), the depth a shedding vertex keeps; below the pendant limit under a horizontal
        plate (:meth:`pendant_limit`), checked at construction.
    scheme : {"momentum", "conservative"}, default "momentum"
        the momentum scheme (``surfflow/schemes/``): "momentum" (velocity form with the momentum
        d u carried on the continuity's mass fluxes: the default, fastest per step and right on
        every row of the validation table) or "conservative" (finite volumes on d and d u with
        HLL fluxes, second order: about half Stoker's error of "momentum" at 2.3 times the cost
        per step; boundary segments). "semi_lagrangian", the former default, is now "momentum".
    drying_time : float > 0, s, default 60
        T, the e-folding time of the surface's wetness w once the film has gone (``sim.wetness``,
        ``terms/wetness.py``): w = 1 under the film (d >= min_depth), then dw/dt = -w / T, so a
        spot reads exp(-1) = 0.37 wet T after the liquid left and 0.05 after 3 T. 60 s: the few
        micrometres a draining film leaves on a smooth surface evaporate in about a minute in
        room air, and a trail fades over a shot of a minute; porous surfaces, still or humid
        air dry slower (raise it), a warm draught faster.
    expansion : {"energy_head", "momentum"}, default "energy_head"
        what the "momentum" scheme's velocity update conserves on a dual edge along which the flow
        expands (accelerates): "energy_head" (Stelling and Duinmeijer's switch: momentum where the
        flow contracts, as at a bore, the energy head ``z + d + |u|^2 / (2 g)`` where it expands,
        as down a slope, over a crest or in a dam break's fan; kernels/continuity.py
        ``update_depth``) or "momentum" (momentum on every edge: an expanding edge then loses the
        Borda-Carnot head (u_i - u_j)^2 / (2 g)).

    Examples
    --------
    >>> import surfflow as sf
    >>> params = sf.Params(gravity=(0, 0, -9.81), friction_model="laminar", viscosity=2e-4)
    >>> params.viscosity
    0.0002
    """

    gravity: tuple[float, float, float] = (0.0, -9.81, 0.0)
    friction: float = 1.3
    friction_model: str = "linear"
    viscosity: float = 1e-6
    density: float = 1000.0
    surface_tension: float = 0.0
    contact_angle: float = 60.0
    contact_angle_hysteresis: float = 0.0
    contact_line_width: float = 1.0
    boundary: str = "free"
    cfl: float = 0.5
    max_dt: float = 0.01
    min_depth: float = 1e-6
    laminar_min_depth: float = 1e-5
    wind: Any = None
    wind_coefficient: float = 0.0
    dissolution_rate: float = 0.005
    solubility: float = 0.5
    solute_density_ratio: float = 2.0
    solute_drag: float = 10.0
    solute_friction: float = 2.0
    emit_depth: Any = None
    overhang_emit_depth: Any = None
    keep_depth: float = 0.0005
    scheme: str = "momentum"
    drying_time: float = 60.0
    expansion: str = "energy_head"

    def __post_init__(self):
        object.__setattr__(self, "gravity", check_vector3("gravity", self.gravity))
        check_range("friction", self.friction, 0.0)
        check_choice("friction_model", self.friction_model, FRICTION_MODELS)
        check_range("viscosity", self.viscosity, 0.0)
        check_range("density", self.density, 0.0, low_open=True)
        check_range("surface_tension", self.surface_tension, 0.0)
        check_range("contact_angle", self.contact_angle, 0.0, 180.0)
        check_range("contact_angle_hysteresis", self.contact_angle_hysteresis, 0.0, 180.0)
        check_range("contact_line_width", self.contact_line_width, 0.0, low_open=True)
        check_choice("boundary", self.boundary, BOUNDARY_CONDITIONS)
        check_choice("scheme", self.scheme, SCHEMES)
        check_choice("expansion", self.expansion, EXPANSIONS)
        check_range("cfl", self.cfl, 0.0, 1.0, low_open=True)
        check_range("max_dt", self.max_dt, 0.0, low_open=True)
        check_range("min_depth", self.min_depth, 0.0, low_open=True)
        check_range("laminar_min_depth", self.laminar_min_depth, 0.0, low_open=True)
        check_range("wind_coefficient", self.wind_coefficient, 0.0)
        check_range("dissolution_rate", self.dissolution_rate, 0.0)
        check_range("solubility", self.solubility, 0.0)
        check_range("solute_density_ratio", self.solute_density_ratio, 0.0, low_open=True)
        check_range("solute_drag", self.solute_drag, 0.0)
        check_range("solute_friction", self.solute_friction, 0.0)
        check_range("keep_depth", self.keep_depth, 0.0)
        check_range("drying_time", self.drying_time, 0.0, low_open=True)
        for name, reason in REMOVED_PARAMS.items():
            if getattr(self, name) is not None:
                raise ParameterError(f"{name}={getattr(self, name)!r}: this parameter was removed; "
                                     f"{reason}; delete it (keep_depth stays)")
        shallowest = self.pendant_limit()
        if not self.keep_depth < shallowest:
            raise ParameterError(f"keep_depth={self.keep_depth!r} must be below the shallowest "
                                 f"pendant film the liquid holds, {shallowest:.6g} m "
                                 "(sqrt(2 sigma / (rho |g|))); lower keep_depth")
        if self.wind is not None and not callable(self.wind) and not hasattr(self.wind, "sample"):
            object.__setattr__(self, "wind", check_vector3("wind", self.wind))

    def pendant_limit(self) -> float:
        """h_p (m) under a horizontal plate, ``sqrt(2 sigma / (rho |g|))``: the deepest pendant
        film surface tension holds (inf without gravity); sigma is water's where it is 0."""
        sigma = self.surface_tension if self.surface_tension > 0.0 else WATER_SURFACE_TENSION
        g = self.gravity_magnitude
        return math.sqrt(2.0 * sigma / (self.density * g)) if g > 0.0 else math.inf

    @property
    def gravity_magnitude(self) -> float:
        return math.sqrt(sum(c * c for c in self.gravity))

    def replace(self, **changes) -> Params:
        """A copy with some fields changed (validated again)."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        unknown = set(changes) - set(values)
        if unknown:
            raise ParameterError(
                f"unknown parameter(s) {sorted(unknown)}; the parameters are {sorted(values)}"
            )
        values.update(changes)
        return Params(**values)

