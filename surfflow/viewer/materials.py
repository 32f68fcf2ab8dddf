"""Polyscope's materials and scene settings for the liquid and the object.

The look itself (colours, opacity from depth, the wet/dry fade) is renderer-neutral and lives in
:mod:`surfflow.look`; this module holds what only polyscope needs: the object's material, the
liquid's (surfflow's "water" matcap or a built-in one, ``matcap.py``) and the scene-wide
transparency, ground and shadow settings.
"""

from __future__ import annotations

import polyscope as ps

from .matcap import WATER_MATERIAL, load_water_material

OBJECT_MATERIAL = "clay"


def apply_scene_look(spec) -> None:
    """Polyscope's scene-wide settings for a [render] table ``spec``: depth-peeled ("pretty")
    transparency, the ground plane and its shadow."""
    ps.set_transparency_mode("pretty")
    ps.set_ground_plane_mode(spec.ground)
    ps.set_shadow_darkness(0.35)


def liquid_material(spec) -> str:
    """The polyscope material named by ``spec.material``, loading surfflow's "water" if needed."""
    return load_water_material() if spec.material == WATER_MATERIAL else spec.material
