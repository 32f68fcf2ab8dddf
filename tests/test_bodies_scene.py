"""Floating bodies through the scene door: [[bodies]] tables, their errors, frames and restarts."""

from __future__ import annotations

import numpy as np
import pytest
from scene_helpers import TINY_SCENE, write_scene

import surfflow as sf
from surfflow.io.writers import read_pvd

BODIES = """
[initial]
depth = 0.01

[[bodies]]
shape = "box"
extents = [0.05, 0.02, 0.04]
density = 500.0
position = [0.0, 0.02, 0.0]
rotation = [0.0, 30.0, 0.0]

[[bodies]]
shape = "sphere"
radius = 0.015
density = 300.0
position = [0.05, 0.03, 0.05]

[[bodies]]
shape = "box"
extents = [0.02, 0.02, 0.02]
position = [-0.06, 0.02, -0.06]
[bodies.keyframes]
times = [0.0, 1.0]
translations = [[0.0, 0.0, 0.0], [0.1, 0.0, 0.0]]
"""


def test_bodies_table_builds_the_bodies_and_frames_record_their_poses(tmp_path):
    scene = sf.load_scene(write_scene(tmp_path, TINY_SCENE + BODIES))
    runner = sf.SceneRunner(scene, output_dir=tmp_path / "out")
    assert [b.kind for b in runner.simulation.bodies] == ["box", "sphere", "box"]
    runner.run()
    frame = np.load(tmp_path / "out" / "frame_00002.npz")
    assert frame["body_position"].shape == (3, 3) and frame["body_orientation"].shape == (3, 4)
    assert np.allclose(np.linalg.norm(frame["body_orientation"], axis=1), 1.0)
    assert np.allclose(frame["body_position"][2], [-0.06 + 0.1 * 0.2, 0.02, -0.06])  # keyframed
    assert [name for _, name in read_pvd(tmp_path / "out" / "bodies.pvd")] == [
        f"bodies_{k:05d}.vtu" for k in range(3)]
    checkpoint = np.load(runner.checkpoint_path)
    assert np.array_equal(checkpoint["state/body_state"][:, :3], frame["body_position"])


@pytest.mark.parametrize("table, message", [
    ('shape = "box"\nradius = 0.1', "bodies\\[0\\]: a box needs 'extents'"),
    ('shape = "cone"\nradius = 0.1', "bodies\\[0\\].shape"),
    ('shape = "sphere"\nradius = 0.1\nextents = [1, 1, 1]', "bodies\\[0\\].extents: a sphere takes"),
    ('shape = "sphere"\nradius = 0.1\ndensity = -1.0', "bodies\\[0\\].density"),
    ('shape = "sphere"\nradius = 0.1\nrotation = [0, 0, 0]\norientation = [1, 0, 0, 0]',
     "bodies\\[0\\].orientation: give 'rotation'"),
    ('shape = "mesh"\nmesh = "missing.obj"', "bodies\\[0\\].mesh: no mesh file"),
    ('radius = 0.1', "every body needs 'shape'"),
    ('shape = "sphere"\nradius = 0.1\nspin = 1.0', "bodies\\[0\\].spin: unknown key"),
])
def test_bad_bodies_tables_name_the_table_key_and_fix(tmp_path, table, message):
    with pytest.raises(sf.SceneError, match=message):
        sf.load_scene(write_scene(tmp_path, TINY_SCENE + "\n[[bodies]]\n" + table + "\n"))


def test_the_viewer_draws_the_bodies_where_they_are(tmp_path):
    import polyscope as ps

    from surfflow.scene.scene import parse_scene
    from surfflow.scene.scene_setup import scene_geometry, scene_mesh
    from surfflow.viewer.app import ViewerApp

    scene = parse_scene(TINY_SCENE + BODIES, tmp_path / "tiny.toml")
    ps.init("openGL_mock")
    viewer = ViewerApp(scene, scene_geometry(scene, *scene_mesh(scene.mesh), cache_dir=tmp_path))
    viewer.step_frame()
    bodies = viewer.simulation.bodies
    assert [ps.get_surface_mesh(f"body_{k}").n_vertices() for k in range(len(bodies))] == [
        len(b.shape.mesh.vertices) for b in bodies]
    viewer.simulation.term("bodies").bodies.pop()        # a body gone is no longer drawn
    viewer.step_frame()
    assert ps.has_surface_mesh("body_1") and not ps.has_surface_mesh("body_2")
