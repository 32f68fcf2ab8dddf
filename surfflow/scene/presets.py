"""Liquid presets for scene files: named sets of material values.

Each preset gives the :class:`~surfflow.config.Params` fields of a liquid (density rho in kg/m^3,
kinematic viscosity nu in m^2/s, surface tension sigma in N/m, static contact angle in degrees,
the friction model and its base coefficient gamma in 1/s) and a display colour (r, g, b in 0..1).
A scene names one with ``[liquid] preset = "honey"`` and may override any value next to it.

The values are textbook figures at room temperature; "paint" is a typical water-borne wall paint
(its shear thinning is not modelled). Thin, slow, viscous films are what the "laminar" model
describes; "linear" friction suits fast, splashy flows of thin liquids.
"""

from __future__ import annotations

from types import MappingProxyType

LIQUID_PRESETS = MappingProxyType({
    "water": MappingProxyType({
        "density": 1000.0, "viscosity": 1.0e-6, "surface_tension": 0.072, "contact_angle": 60.0,
        "friction_model": "linear", "friction": 1.3, "color": (0.25, 0.55, 0.95),
    }),
    "honey": MappingProxyType({
        "density": 1420.0, "viscosity": 7.0e-3, "surface_tension": 0.050, "contact_angle": 40.0,
        "friction_model": "laminar", "friction": 1.3, "color": (0.85, 0.55, 0.08),
    }),
    "paint": MappingProxyType({
        "density": 1300.0, "viscosity": 2.0e-4, "surface_tension": 0.035, "contact_angle": 30.0,
        "friction_model": "laminar", "friction": 1.3, "color": (0.80, 0.12, 0.15),
    }),
    "oil": MappingProxyType({
        "density": 910.0, "viscosity": 6.0e-5, "surface_tension": 0.032, "contact_angle": 20.0,
        "friction_model": "laminar", "friction": 1.3, "color": (0.90, 0.80, 0.30),
    }),
    "syrup": MappingProxyType({
        "density": 1330.0, "viscosity": 2.0e-3, "surface_tension": 0.060, "contact_angle": 50.0,
        "friction_model": "laminar", "friction": 1.3, "color": (0.55, 0.25, 0.05),
    }),
    "milk": MappingProxyType({
        "density": 1030.0, "viscosity": 2.0e-6, "surface_tension": 0.045, "contact_angle": 50.0,
        "friction_model": "linear", "friction": 1.3, "color": (0.95, 0.95, 0.92),
    }),
})
"""name -> read-only mapping of Params fields (and ``color``) for that liquid."""

DEFAULT_LIQUID = "water"
