"""The live viewer under polyscope's mock backend, shared by the viewer tests."""

import polyscope as ps
from polyscope_state import release_polyscope

from surfflow.scene.scene import parse_scene
from surfflow.scene.scene_setup import scene_geometry, scene_mesh
from surfflow.viewer.app import ViewerApp


def open_viewer(text, cache, app_class=ViewerApp, name: str = "tiny.toml"):
    """An ``app_class`` (ViewerApp or a subclass) on the scene ``text`` under polyscope's mock
    backend, called each frame tick. The previous viewer is let go first
    (``polyscope_state.release_polyscope``)."""
    scene = parse_scene(text, cache / name)
    geometry = scene_geometry(scene, *scene_mesh(scene.mesh), cache_dir=cache)
    ps.init("openGL_mock")
    release_polyscope()
    ps.set_frame_tick_limit_fps_mode("ignore_limits")
    viewer = app_class(scene, geometry)
    ps.set_user_callback(viewer.callback)
    return viewer
