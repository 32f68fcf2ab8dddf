"""Blender renders (run where bpy is installed): a short Cycles render of a dyed pour whose liquid
shows on the pixels, and a .blend that opens again."""

import sys

import numpy as np
import pytest
from PIL import Image
from scene_helpers import TINY_SCENE, write_scene

from surfflow.cli import main
from surfflow.errors import SurfflowError
from surfflow import blender

bpy = pytest.importorskip("bpy")

BLENDER_SCENE = (TINY_SCENE.replace("size = [0.2, 0.2]", "size = [0.4, 0.4]")
                 .replace("resolution = [6, 6]", "resolution = [20, 20]")
                 .replace("duration = 0.2", "duration = 1.0").replace("radius = 0.05", "radius = 0.04")
                 .replace("rate = 1.0e-6", "rate = 1.0e-5")
                 + '\n[render]\nwidth = 128\nheight = 96\ncamera = [0.0, 0.35, 0.3]\n'
                   'target = [0.0, 0.0, 0.0]\nengine = "blender"\n')
"""A 0.4 m square under a red pour of 1e-5 m^3/s seen from above at an angle: 10 frames of
0.1 s, rendered at 64 x 48 pixels (the draft preset halves the scene's size)."""


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    directory = tmp_path_factory.mktemp("blender")
    scene = write_scene(directory, BLENDER_SCENE)
    out = directory / "render"
    assert main(["render", str(scene), "-o", str(out), "--cache-dir", str(directory / "cache")]) == 0
    return out


def pixels_of(points: np.ndarray, camera, scene) -> np.ndarray:
    """(m, 2) integer (row, column) of world points in the rendered image."""
    from bpy_extras.object_utils import world_to_camera_view
    from mathutils import Vector
    width, height = scene.render.resolution_x, scene.render.resolution_y
    ndc = np.array([tuple(world_to_camera_view(scene, camera, Vector(p))) for p in points])
    rows = np.clip(((1.0 - ndc[:, 1]) * height).astype(int), 0, height - 1)
    return np.column_stack([rows, np.clip((ndc[:, 0] * width).astype(int), 0, width - 1)])


def test_render_writes_frames_video_and_a_blend_that_opens(rendered):
    frames = sorted(rendered.glob("frame_*.png"))
    assert len(frames) == 11
    assert (rendered / "tiny.mp4").stat().st_size > 0
    assert Image.open(frames[-1]).size == (64, 48)
    bpy.ops.wm.open_mainfile(filepath=str(rendered / "tiny.blend"))
    assert {"object", "liquid", "floor", "camera"} <= set(bpy.data.objects.keys())
    liquid = bpy.data.objects["liquid"]
    bsdf = liquid.data.materials[0].node_tree.nodes["Principled BSDF"]
    assert bsdf.inputs["IOR"].default_value == pytest.approx(1.33)
    assert bsdf.inputs["Transmission Weight"].default_value == 1.0
    assert bsdf.inputs["Base Color"].is_linked and bsdf.inputs["Alpha"].is_linked
    assert bpy.context.scene.render.engine == "CYCLES"


def test_liquid_region_differs_from_the_dry_object_on_the_pixels(rendered):
    """Project the liquid's wet vertices and the object's vertices far from them into the last
    frame: the red-dyed liquid is redder than the dry clay by a wide margin."""
    bpy.ops.wm.open_mainfile(filepath=str(rendered / "tiny.blend"))
    scene, camera = bpy.context.scene, bpy.data.objects["camera"]
    liquid, obj = bpy.data.objects["liquid"].data, bpy.data.objects["object"].data
    opacity = np.zeros(len(liquid.vertices))
    liquid.attributes["opacity"].data.foreach_get("value", opacity)
    wet = np.array([v.co[:] for v in liquid.vertices])[opacity > 0.1]
    ground = np.array([v.co[:] for v in obj.vertices])
    far = np.linalg.norm(ground[:, None, :] - wet[None, :, :], axis=2).min(axis=1) > 0.03
    assert len(wet) >= 5 and far.sum() >= 5
    image = np.asarray(Image.open(rendered / "frame_00010.png"), dtype=np.float64)
    redness = image[:, :, 0] - image[:, :, 1:].mean(axis=2)
    wet_rows, wet_cols = pixels_of(wet, camera, scene).T
    dry_rows, dry_cols = pixels_of(ground[far], camera, scene).T
    liquid_red, dry_red = np.median(redness[wet_rows, wet_cols]), np.median(redness[dry_rows, dry_cols])
    assert abs(dry_red) < 15.0
    assert liquid_red > dry_red + 40.0


def test_missing_bpy_names_the_extra_and_python(monkeypatch):
    monkeypatch.setitem(sys.modules, "bpy", None)
    with pytest.raises(SurfflowError, match=r"extra 'blender'.*Python 3\.11"):
        blender.import_bpy()


def test_droplets_become_a_water_surface_around_their_streaks_and_the_camera_frames_the_object():
    """Two resting drops far apart: the droplets' mesh lies on spheres of their volumes' radii
    (within a voxel of the distance grid); a falling drop's mesh reaches back along its streak."""
    from bpy_extras.object_utils import world_to_camera_view
    from mathutils import Vector

    from surfflow.io.usd import UsdSettings
    from surfflow.look import SHUTTER
    from surfflow.scene.scene import RenderSpec
    from surfflow.scene.usd_export import RunMesh

    x = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [1.0, 0.0, -1.0]])
    mesh = RunMesh(vertices=x, normals=np.tile([0.0, 1.0, 0.0], (4, 1)), original_vertices=x,
                   faces=np.array([[0, 1, 2], [1, 3, 2]]))
    shot = blender.BlenderShot(mesh, UsdSettings(), RenderSpec(width=64, height=48))
    radii = np.array([0.05, 0.1])
    centres = np.array([[0.5, 0.3, -0.5], [0.2, 0.2, -0.2]])
    frame = {"depth": np.full(4, 1e-3), "velocity": np.zeros((4, 3)), "bottom": np.zeros(4),
             "free_surface": np.tile([0.0, 1e-3, 0.0], (4, 1)), "particle_positions": centres,
             "particle_volumes": 4.0 / 3.0 * np.pi * radii ** 3}

    def droplet_points(velocities):
        shot.show({**frame, "particle_velocities": velocities})
        depsgraph = bpy.context.evaluated_depsgraph_get()
        meshes = [i.object.data for i in depsgraph.object_instances if i.object.name == "droplets"]
        assert len(meshes) == 1 and meshes[0].bl_rna.identifier == "Mesh"
        return np.array([v.co[:] for v in meshes[0].vertices]) @ shot.turn  # back to the scene's axes

    points = droplet_points(np.zeros((2, 3)))
    distance = np.linalg.norm(points[:, None, :] - centres[None], axis=2)
    nearest = distance.argmin(axis=1)
    voxel = np.median(radii) / 3.0
    assert set(nearest) == {0, 1}
    assert np.all(np.abs(distance.min(axis=1) - radii[nearest]) < voxel)
    resting = np.ptp(points[nearest == 0, 1])
    falling = droplet_points(np.array([[0.0, -3.0, 0.0], [0.0, 0.0, 0.0]]))
    first = falling[np.linalg.norm(falling - centres[0], axis=1) < 3 * radii[0] + 3.0 * SHUTTER]
    assert first[:, 1].max() > centres[0, 1] + 0.5 * 3.0 * SHUTTER + radii[0]  # up its streak
    assert np.ptp(first[:, 1]) > resting + 0.5 * 3.0 * SHUTTER
    for corner in x @ shot.turn.T:
        u, v, depth = world_to_camera_view(shot.scene, shot.scene.camera, Vector(corner))
        assert 0.0 < u < 1.0 and 0.0 < v < 1.0 and depth > 0.0


def test_a_floating_body_is_drawn_at_its_pose_and_follows_it():
    """A box body: Blender's ``body_0`` holds its mesh at its world pose (in Blender's axes), and
    goes to its next pose at the next frame."""
    import surfflow as sf
    from surfflow.io.usd import UsdSettings
    from surfflow.scene.scene import RenderSpec
    from surfflow.scene.usd_export import RunMesh

    x = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [1.0, 0.0, -1.0]])
    mesh = RunMesh(vertices=x, normals=np.tile([0.0, 1.0, 0.0], (4, 1)), original_vertices=x,
                   faces=np.array([[0, 1, 2], [1, 3, 2]]))
    shot = blender.BlenderShot(mesh, UsdSettings(), RenderSpec(width=64, height=48))
    box = sf.RigidBody.box(extents=(0.2, 0.1, 0.3), density=500.0, position=(0.5, 0.2, -0.5),
                           orientation=(np.cos(0.3), 0.0, np.sin(0.3), 0.0))

    def drawn():
        data = bpy.data.objects["body_0"].data
        return np.array([v.co[:] for v in data.vertices]) @ shot.turn   # back to the scene's axes

    shot.show_bodies([box])
    assert np.abs(drawn() - box.world_vertices()).max() < 1e-6
    moved = sf.RigidBody.box(extents=(0.2, 0.1, 0.3), density=500.0, position=(0.6, 0.25, -0.4),
                             orientation=(np.cos(0.5), np.sin(0.5), 0.0, 0.0))  # the next pose
    shot.show_bodies([moved])
    assert np.abs(drawn() - moved.world_vertices()).max() < 1e-6


def srgb_to_linear(color) -> np.ndarray:
    c = np.asarray(color, dtype=np.float64) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def render_textured_square(path, lower: bool, wet_below: float) -> dict:
    """The textured square of asset_renders.py (``lower``: its four-colour texture) in the
    xz-plane, seen from above, wet (wetness 1, no film) where z < ``wet_below``, rendered in the
    Standard view transform (linear light to sRGB, no tone curve) at exposure -1.5 (no channel
    clips): the linear colour at the centre of each quadrant, "left_dry" (x, z = 1/4, 3/4),
    "left_wet" (1/4, 1/4), "right_dry", "right_wet"."""
    from asset_renders import square, texture
    from bpy_extras.object_utils import world_to_camera_view
    from mathutils import Vector

    import surfflow as sf
    from surfflow.io.asset import Asset
    from surfflow.io.usd import UsdSettings
    from surfflow.scene.scene import RenderSpec

    V, F, uv = square()
    V, F, uv = V[:, [0, 2, 1]], F[:, [0, 2, 1]], uv[:, [0, 2, 1]]  # into the xz-plane, y up
    geom = sf.precompute((V, F), feature_size=0, smoothing_iterations=0,
                         asset=Asset(uv, texture=texture(lower=lower)))
    shot = blender.BlenderShot(geom, UsdSettings(), RenderSpec(width=128, height=128, camera=(0.5, 1.6, 0.52),
                                                                target=(0.5, 0.0, 0.5)))
    shot.scene.view_settings.view_transform = "Standard"
    shot.scene.view_settings.exposure = -1.5
    n = geom.n_vertices
    shot.show({"depth": np.zeros(n), "bottom": np.zeros(n),
               "wetness": (geom.vertices[:, 2] < wet_below).astype(float)})
    image = shot.render(path)
    found = {}
    for name, (x, z) in {"left_dry": (0.25, 0.75), "left_wet": (0.25, 0.25),
                         "right_dry": (0.75, 0.75), "right_wet": (0.75, 0.25)}.items():
        u, v, _ = world_to_camera_view(shot.scene, shot.scene.camera, Vector(shot.turn @ np.array([x, 0.0, z])))
        row, column = int((1.0 - v) * image.shape[0]), int(u * image.shape[1])
        found[name] = srgb_to_linear(np.median(image[row - 4:row + 4, column - 4:column + 4].reshape(-1, 3), axis=0))
    return found


def test_a_textured_asset_shows_its_texture_darkened_where_wet(tmp_path):
    """A two-colour texture, left and right, the lower half wet after its film has drained.
    Dry: the left texels redder, the right bluer, as the texture. Wet: the difference of the two
    texture colours in linear light (the specular sheen, the same over both, cancels) is
    1 - WET_DARKENING of the dry one within 0.15 (Cycles' noise and the wet film's lower
    roughness, which moves light between the sheen and the diffuse layer)."""
    from surfflow.look import WET_DARKENING

    found = render_textured_square(tmp_path / "textured.png", lower=False, wet_below=0.5)
    for state in ("dry", "wet"):
        left, right = found[f"left_{state}"], found[f"right_{state}"]
        assert left[0] > 2 * right[0] and right[2] > 2 * left[2], (state, left, right)
    ratio = (found["left_wet"] - found["right_wet"]) / (found["left_dry"] - found["right_dry"])
    assert np.all(np.abs(ratio[[0, 2]] - (1.0 - WET_DARKENING)) < 0.15), ratio
    assert np.all(found["left_wet"] < found["left_dry"]) and np.all(found["right_wet"] < found["right_dry"])


def test_the_texture_is_not_turned_or_flipped(tmp_path):
    """A four-colour texture, all dry: each quadrant shows its own colour's strongest channel
    (upper left red, upper right blue, lower left green, lower right red and green over blue)."""
    found = render_textured_square(tmp_path / "quadrants.png", lower=True, wet_below=-1.0)
    assert np.argmax(found["left_dry"]) == 0 and np.argmax(found["right_dry"]) == 2
    assert np.argmax(found["left_wet"]) == 1
    assert min(found["right_wet"][:2]) > 2 * found["right_wet"][2]
