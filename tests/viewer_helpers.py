"""The live viewer under polyscope's mock backend, shared by the viewer tests."""

import gc

import polyscope as ps

from surfflow.scene.scene import parse_scene
from surfflow.scene.scene_setup import scene_geometry, scene_mesh
from surfflow.viewer.app import ViewerApp


def open_viewer(text, cache, app_class=ViewerApp, name: str = "tiny.toml"):
    """An ``app_class`` (ViewerApp or a subclass) on the scene ``text`` under polyscope's mock
    backend, called each frame tick. The previous viewer is let go first (tests/conftest.py
    says why)."""
    scene = parse_scene(text, cache / name)
    geometry = scene_geometry(scene, *scene_mesh(scene.mesh), cache_dir=cache)
    ps.init("openGL_mock")
    ps.clear_user_callback()
    gc.collect()
    ps.remove_all_structures()
    ps.set_frame_tick_limit_fps_mode("ignore_limits")
    viewer = app_class(scene, geometry)
    ps.set_user_callback(viewer.callback)
    return viewer
