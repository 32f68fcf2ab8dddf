"""Blender renders, beside the polyscope ones (``viewer/``), neither importing the other.

``render_scene_blender(scene)`` (``surfflow render --engine blender``) runs a scene through a
``BlenderShot`` (``shot.py``) frame by frame. Blender itself (``bpy``, the optional extra
``blender``) is imported only when a shot is built (``engine.py``), so importing this package is
cheap and needs no extra.
"""

from .engine import import_bpy
from .render import render_scene_blender
from .shot import BlenderShot

__all__ = ["BlenderShot", "import_bpy", "render_scene_blender"]
