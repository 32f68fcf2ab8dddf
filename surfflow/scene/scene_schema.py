"""The keys a scene file may hold, and the checkers that turn their raw TOML values into Python.

``TOP_LEVEL``, ``TABLES`` and ``SOURCE_KEYS`` map each key to a checker: a function of the raw
value that returns the converted value or raises :class:`BadValue` with a message saying what
is allowed. ``surfflow.scene.scene`` walks the file against these tables and adds the file name,
line and key to the message.
"""

from __future__ import annotations

import math

from ..config import (BOUNDARY_CONDITIONS, FRICTION_MODELS, NORMAL_WEIGHTINGS, REMOVED_PARAMS,
                      SCHEMES, check_feature_size)
from ..errors import ParameterError
from ..io.procedural import PROCEDURAL_MESHES
from ..io.units import UNITS, UP_AXES
from .presets import LIQUID_PRESETS

SOURCE_KINDS = ("pour", "rain", "sink")
FRICTION_TENSOR_SOURCES = ("features", "isotropic", "field", "file")
OUTPUT_FORMATS = ("npz", "vtu", "vtkhdf", "usd", "maps")
COLOR_MODES = ("depth", "dye", "liquid")
RENDER_ENGINES = ("polyscope", "blender")
DROPLET_ENGINES = ("embedded", "splishsplash")
LIQUID_MATERIALS = ("water", "wax", "candy", "clay", "flat")
GROUND_MODES = ("shadow_only", "tile", "tile_reflection", "none")
MODES = ("film", "ripples")
"""[mesh] up: the mesh's axis that points up; gravity defaults to 9.81 m/s^2 against it."""
RIPPLE_EDGES = ("fixed", "reflect")


class BadValue(ValueError):
    """A raw value failed its checker; the message says what is allowed."""


def number(low: float = -math.inf, high: float = math.inf, low_open: bool = False):
    """A checker for a finite number in [low, high] (or (low, high] when low_open)."""
    def check(value):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise BadValue(f"must be a finite number, not {value!r}")
        if value < low or value > high or (low_open and value == low):
            left = "(" if low_open else "["
            raise BadValue(f"{value!r} is out of range; it must lie in {left}{low}, {high}]")
        return float(value)
    return check


def whole(low: int = 0):
    """A checker for a whole number >= low."""
    def check(value):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise BadValue(f"must be a whole number >= {low}, not {value!r}")
        return int(value)
    return check


def choice(allowed):
    """A checker for one of the names in ``allowed``."""
    allowed = tuple(allowed)

    def check(value):
        if value not in allowed:
            raise BadValue(f"{value!r} is not allowed; use one of {', '.join(map(repr, allowed))}")
        return value
    return check


def choices(allowed):
    """A checker for a list of distinct names from ``allowed``."""
    one = choice(allowed)

    def check(value):
        if not isinstance(value, list):
            raise BadValue(f"must be a list such as {list(allowed)!r}, not {value!r}")
        return tuple(dict.fromkeys(one(v) for v in value))
    return check


def vector(length: int, low: float = -math.inf):
    """A checker for a list of ``length`` finite numbers, each >= low."""
    def check(value):
        if (not isinstance(value, list) or len(value) != length
                or any(isinstance(c, bool) or not isinstance(c, (int, float)) for c in value)
                or not all(math.isfinite(c) and c >= low for c in value)):
            bound = "" if low == -math.inf else f", each >= {low}"
            raise BadValue(f"must be a list of {length} finite numbers{bound}, not {value!r}")
        return tuple(float(c) for c in value)
    return check


def scale_factor(value):
    """One positive number or three (per-axis scale)."""
    if isinstance(value, list):
        factors = vector(3)(value)
    else:
        factors = (number()(value),) * 3
    if min(factors) <= 0.0:
        raise BadValue(f"must be positive (one number or three), not {value!r}")
    return factors


def color(value):
    """A colour: [r, g, b] in 0..1 or a "#rrggbb" string."""
    if isinstance(value, str):
        text = value.lstrip("#")
        if value.startswith("#") and len(text) == 6:
            try:
                return tuple(int(text[k:k + 2], 16) / 255.0 for k in (0, 2, 4))
            except ValueError:
                pass
        raise BadValue(f"must be [r, g, b] in 0..1 or a '#rrggbb' string, not {value!r}")
    rgb = vector(3, 0.0)(value)
    if max(rgb) > 1.0:
        raise BadValue(f"must be [r, g, b] with each channel in 0..1, not {value!r}")
    return rgb


def text(value):
    if not isinstance(value, str) or not value:
        raise BadValue(f"must be a non-empty string, not {value!r}")
    return value


def boolean(value):
    if not isinstance(value, bool):
        raise BadValue(f"must be true or false, not {value!r}")
    return value


def feature_size(value):
    """A length in metres (a number >= 0) or a percentage of the mesh's diameter ("2%")."""
    try:
        check_feature_size(value)
    except ParameterError as exc:
        raise BadValue(str(exc)) from None
    return float(value) if isinstance(value, int) else value


def positive_pair(value):
    pair = vector(2)(value)
    if min(pair) <= 0.0:
        raise BadValue(f"must be two positive numbers, not {value!r}")
    return pair


def box(value):
    """A box [[x0, y0, z0], [x1, y1, z1]] with each low coordinate below the high one."""
    if not isinstance(value, list) or len(value) != 2:
        raise BadValue(f"must be two corners [[x0, y0, z0], [x1, y1, z1]], not {value!r}")
    low, high = vector(3)(value[0]), vector(3)(value[1])
    if not all(a < b for a, b in zip(low, high)):
        raise BadValue(f"each coordinate of the first corner must be below the second's, not {value!r}")
    return low, high


def drop_tables(value):
    """A list of drop tables ``{center = [x, y, z], radius, depth, time}`` (time optional)."""
    keys = {"center": vector(3), "radius": number(0.0, low_open=True), "depth": number(),
            "time": number(0.0)}
    if not isinstance(value, list):
        raise BadValue(f"must be [[ripples.drops]] tables (center, radius, depth, time), not {value!r}")
    drops = []
    for k, entry in enumerate(value):
        if not isinstance(entry, dict) or not {"center", "radius", "depth"} <= entry.keys():
            raise BadValue(f"drop {k} needs center [x, y, z], radius and depth (and may give time)")
        unknown = sorted(entry.keys() - keys.keys())
        if unknown:
            raise BadValue(f"drop {k}: unknown key {unknown[0]!r}; a drop takes {', '.join(keys)}")
        try:
            drops.append({key: keys[key](entry[key]) for key in entry})
        except BadValue as exc:
            raise BadValue(f"drop {k}: {exc}") from None
    return tuple(drops)


def _procedural_argument_checkers():
    """Checkers for every argument a procedural mesh builder takes (any builder)."""
    kinds = {"subdivisions": whole(0), "resolution": vector(2, 1.0), "size": positive_pair}
    names = {name for _, defaults in PROCEDURAL_MESHES.values() for name in defaults}
    return {name: kinds.get(name, number()) for name in sorted(names)}


TOP_LEVEL = {
    "name": text,
    "duration": number(0.0, low_open=True),
    "fps": number(0.0, low_open=True),
    "gravity": vector(3),
    "mode": choice(MODES),
}

TABLES = {
    "mesh": {"path": text, "procedural": choice(PROCEDURAL_MESHES), "units": choice(UNITS),
             "up": choice(UP_AXES), "scale": scale_factor,
             "rotation": vector(3), "translation": vector(3), "uv_atlas": boolean,
             **_procedural_argument_checkers()},
    "precompute": {"feature_size": feature_size, "smoothing_iterations": whole(0),
                   "normal_line_iterations": whole(0), "normal_weighting": choice(NORMAL_WEIGHTINGS),
                   "roughness_gains": vector(2, 0.0), "cache": boolean, "cache_dir": text},
    "liquid": {"preset": choice(LIQUID_PRESETS), "density": number(), "viscosity": number(),
               "surface_tension": number(), "contact_angle": number(),
               "contact_angle_hysteresis": number(), "contact_line_width": number(),
               "drying_time": number(0.0, low_open=True), "color": color},
    "friction": {"model": choice(FRICTION_MODELS), "coefficient": number(),
                 "tensor": choice(FRICTION_TENSOR_SOURCES), "file": text},
    "solver": {"cfl": number(), "max_dt": number(), "min_depth": number(),
               "laminar_min_depth": number(), "boundary": choice(BOUNDARY_CONDITIONS),
               "scheme": choice(SCHEMES)},
    "wind": {"velocity": vector(3), "file": text, "coefficient": number()},
    "dissolution": {"rate": number(), "solubility": number(), "density_ratio": number(),
                    "drag": number(), "friction": number()},
    "initial": {"depth": number(0.0), "center": vector(3), "radius": number(0.0, low_open=True),
                "file": text, "velocity": vector(3)},
    "soluble_layer": {"thickness": number(0.0), "center": vector(3),
                      "radius": number(0.0, low_open=True), "file": text},
    "output": {"directory": text, "formats": choices(OUTPUT_FORMATS),
               "checkpoint_every": whole(0), "map_resolution": whole(1),
               "map_thickness_range": number(0.0, low_open=True)},
    "droplets": {"enabled": boolean, "engine": choice(DROPLET_ENGINES), "keep_depth": number(),
                 "floor": number(), "bounds": box, "drag": number(0.0),
                 "separation": number(0.0, 1.0), "smoothing": number(0.0, 1.0),
                 "max_volume": number(0.0, low_open=True), "max_particles": whole(2)},
    "render": {"directory": text, "width": whole(16), "height": whole(16),
               "color_by": choice(COLOR_MODES), "video": boolean, "camera": vector(3),
               "target": vector(3), "engine": choice(RENDER_ENGINES),
               "material": choice(LIQUID_MATERIALS), "opacity": number(0.0, 1.0),
               "tint_depth": number(0.0, low_open=True), "dry_time": number(0.0),
               "ground": choice(GROUND_MODES)},
    "ripples": {"wave_speed": number(0.0, low_open=True), "depth": number(0.0, low_open=True),
                "damping": number(0.0), "edge": choice(RIPPLE_EDGES),
                "shore_width": number(0.0, low_open=True), "shore_file": text,
                "shore_damping": number(0.0), "cfl": number(0.0, 1.0, low_open=True),
                "rain_rate": number(0.0), "rain_radius": number(0.0, low_open=True),
                "rain_depth": number(), "rain_seed": whole(0), "drops": drop_tables},
}

SOURCE_KEYS = {
    "type": choice(SOURCE_KINDS), "center": vector(3), "radius": number(0.0, low_open=True),
    "rate": number(0.0), "start": number(0.0), "stop": number(0.0), "color": color,
}

EMITTER_KEYS = {
    "type": choice(("nozzle", "rain")), "position": vector(3), "direction": vector(3),
    "speed": number(0.0), "radius": number(0.0), "rate": number(0.0, low_open=True),
    "region": box, "intensity": number(0.0, low_open=True), "start": number(0.0),
    "stop": number(0.0), "color": color,
}
"""An ``[[emitters]]`` entry: a nozzle (position, direction, speed, radius, rate) or rain (region,
intensity in mm/h), as ``sf.Nozzle`` / ``sf.Rain`` take them (``particles/emitters.py``)."""

BOUNDARY_KEYS = {
    "type": choice(("inflow", "level", "transmissive")), "discharge": number(0.0),
    "level": number(), "point": vector(3), "normal": vector(3),
}
"""A ``[[boundaries]]`` segment: the boundary vertices on the plane (point, normal)."""

REMOVED_KEYS = {("droplets", name): f"{name} was removed: {reason}; delete the key"
                for name, reason in REMOVED_PARAMS.items()}
"""Keys of older scenes that are no longer read, with what replaced them."""

PARAMS_FIELDS = {
    ("gravity",): "gravity",
    ("liquid", "density"): "density", ("liquid", "viscosity"): "viscosity",
    ("liquid", "surface_tension"): "surface_tension", ("liquid", "contact_angle"): "contact_angle",
    ("liquid", "contact_angle_hysteresis"): "contact_angle_hysteresis",
    ("liquid", "contact_line_width"): "contact_line_width",
    ("liquid", "drying_time"): "drying_time",
    ("friction", "model"): "friction_model", ("friction", "coefficient"): "friction",
    ("solver", "cfl"): "cfl", ("solver", "max_dt"): "max_dt", ("solver", "min_depth"): "min_depth",
    ("solver", "laminar_min_depth"): "laminar_min_depth", ("solver", "boundary"): "boundary",
    ("solver", "scheme"): "scheme",
    ("wind", "velocity"): "wind", ("wind", "coefficient"): "wind_coefficient",
    ("dissolution", "rate"): "dissolution_rate", ("dissolution", "solubility"): "solubility",
    ("dissolution", "density_ratio"): "solute_density_ratio",
    ("dissolution", "drag"): "solute_drag", ("dissolution", "friction"): "solute_friction",
    ("droplets", "keep_depth"): "keep_depth",
}
"""Scene key path -> the :class:`~surfflow.config.Params` field it sets."""
