"""USD export: the stage of a run opens with pxr, holds one sample per frame, its liquid lies on
the free surface, carries the dyes, hides the dry part, and survives an interrupted run."""

import sys
from pathlib import Path

import numpy as np
import pytest
from scene_helpers import TINY_SCENE, write_scene

from surfflow.cli import main
from surfflow.errors import SurfflowError
from surfflow.scene.scene import load_scene
from surfflow.io.usd import UsdSettings, UsdWriter, dry_faces
from surfflow.scene.usd_export import RunMesh
from surfflow.scene.runner import SceneRunner

Usd = pytest.importorskip("pxr.Usd")
UsdGeom = pytest.importorskip("pxr.UsdGeom")
UsdShade = pytest.importorskip("pxr.UsdShade")


USD_SCENE = TINY_SCENE.replace("duration = 0.2", "duration = 0.4").replace(
    'formats = ["npz", "vtu"]', 'formats = ["npz", "usd"]')
"""The tiny dyed pour, 4 frames of 0.1 s, written as npz frames and a USD stage."""

FLOAT32_ROUND_OFF = np.finfo(np.float32).eps


def run_scene(directory: Path, text: str = USD_SCENE, on_frame=None, resume=None) -> SceneRunner:
    scene = load_scene(write_scene(directory, text))
    runner = SceneRunner(scene, output_dir=directory / "out", cache_dir=directory / "cache",
                         resume=resume)
    runner.run(on_frame)
    return runner


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return run_scene(tmp_path_factory.mktemp("usd"))


def liquid(stage):
    return UsdGeom.Mesh(stage.GetPrimAtPath("/surfflow/liquid"))


def primvar(stage, name: str, frame: int) -> np.ndarray:
    values = UsdGeom.PrimvarsAPI(stage.GetPrimAtPath("/surfflow/liquid")).GetPrimvar(name).Get(frame)
    return np.array(values)


def frame_data(run, frame: int) -> dict:
    with np.load(run.output_dir / f"frame_{frame:05d}.npz") as data:
        return {key: data[key] for key in data.files}


def test_stage_metadata_units_up_axis_and_time(run):
    stage = Usd.Stage.Open(str(run.output_dir / "run.usdc"))
    assert UsdGeom.GetStageMetersPerUnit(stage) == 1.0
    assert UsdGeom.GetStageUpAxis(stage) == "Y"
    assert stage.GetTimeCodesPerSecond() == 10.0 and stage.GetFramesPerSecond() == 10.0
    assert (stage.GetStartTimeCode(), stage.GetEndTimeCode()) == (0.0, 4.0)
    assert stage.GetDefaultPrim().GetPath() == "/surfflow"


def test_info_describes_the_stage(run, capsys):
    assert main(["info", str(run.output_dir / "run.usdc")]) == 0
    out = capsys.readouterr().out
    assert "USD stage" in out and "0 to 4 at 10 fps" in out and "/surfflow/liquid" in out


def test_one_time_sample_per_frame_and_static_object(run):
    stage = Usd.Stage.Open(str(run.output_dir / "run.usdc"))
    mesh = liquid(stage)
    for attribute in (mesh.GetPointsAttr(), mesh.GetHoleIndicesAttr(),
                      mesh.GetDisplayColorPrimvar().GetAttr()):
        assert attribute.GetTimeSamples() == [0.0, 1.0, 2.0, 3.0, 4.0]
    obj = UsdGeom.Mesh(stage.GetPrimAtPath("/surfflow/object"))
    assert obj.GetPointsAttr().GetNumTimeSamples() == 0
    assert np.allclose(np.array(obj.GetPointsAttr().Get()), run.geometry.original_vertices,
                       rtol=0.0, atol=FLOAT32_ROUND_OFF * 0.2)
    assert np.array_equal(np.array(mesh.GetFaceVertexIndicesAttr().Get()), run.geometry.faces.ravel())


def test_liquid_points_lie_on_the_free_surface(run):
    stage = Usd.Stage.Open(str(run.output_dir / "run.usdc"))
    frame = frame_data(run, 3)
    geom = run.geometry
    free_surface = geom.vertices + (frame["bottom"] + frame["depth"])[:, None] * geom.normals
    points = np.array(liquid(stage).GetPointsAttr().Get(3))
    size = np.abs(free_surface).max()
    assert frame["depth"].max() > 1e-5
    assert np.abs(points - free_surface).max() <= FLOAT32_ROUND_OFF * size
    assert np.array_equal(primvar(stage, "depth", 3), frame["depth"].astype(np.float32))
    assert np.array_equal(primvar(stage, "velocity", 3), frame["velocity"].astype(np.float32))


def test_dyes_colours_and_dry_faces(run):
    stage = Usd.Stage.Open(str(run.output_dir / "run.usdc"))
    frame = frame_data(run, 4)
    dye = primvar(stage, "dye_0", 4)
    assert np.array_equal(dye, frame["dye"][:, 0].astype(np.float32)) and dye.max() > 0.5
    wet = frame["depth"] >= run.simulation.params.min_depth
    colors, opacity = primvar(stage, "displayColor", 4), primvar(stage, "displayOpacity", 4)
    dyed = wet & (frame["dye"][:, 0] > 0.9)
    assert dyed.any() and np.all(colors[dyed, 0] > 0.9) and np.all(colors[dyed, 1:] < 0.1)
    assert np.all(opacity[~wet] == 0.0) and np.all(opacity[wet] > 0.0)
    holes = np.array(liquid(stage).GetHoleIndicesAttr().Get(4))
    faces = run.geometry.faces
    all_dry = ~wet[faces].any(axis=1)
    assert 0 < len(holes) < len(faces)
    assert np.array_equal(holes, np.flatnonzero(all_dry))
    assert len(liquid(stage).GetHoleIndicesAttr().Get(0)) == len(faces)


def test_water_material_is_bound_to_the_liquid(run):
    stage = Usd.Stage.Open(str(run.output_dir / "run.usdc"))
    material = UsdShade.MaterialBindingAPI(stage.GetPrimAtPath("/surfflow/liquid")).ComputeBoundMaterial()[0]
    shader = UsdShade.Shader(stage.GetPrimAtPath(material.GetPath().AppendChild("surface")))
    assert shader.GetIdAttr().Get() == "UsdPreviewSurface"
    assert shader.GetInput("ior").Get() == pytest.approx(1.33)
    assert shader.GetInput("roughness").Get() < 0.1
    assert shader.GetInput("opacity").HasConnectedSource()


def test_interrupted_run_leaves_a_stage_that_opens_and_resumes(tmp_path, run):
    stopped = run_scene(tmp_path, on_frame=lambda r: r.request_stop() if r.frame == 2 else None)
    path = stopped.output_dir / "run.usdc"
    stage = Usd.Stage.Open(str(path))
    assert liquid(stage).GetPointsAttr().GetTimeSamples() == [0.0, 1.0, 2.0]
    assert stage.GetEndTimeCode() == 2.0
    del stage
    resumed = run_scene(tmp_path, resume=stopped.checkpoint_path)
    stage = Usd.Stage.Open(str(resumed.output_dir / "run.usdc"))
    full = Usd.Stage.Open(str(run.output_dir / "run.usdc"))
    assert liquid(stage).GetPointsAttr().GetTimeSamples() == [0.0, 1.0, 2.0, 3.0, 4.0]
    assert stage.GetEndTimeCode() == 4.0
    for frame in (1, 4):
        assert np.array_equal(np.array(liquid(stage).GetPointsAttr().Get(frame)),
                              np.array(liquid(full).GetPointsAttr().Get(frame)))


def test_export_of_a_finished_run_matches_the_live_stage(run, tmp_path):
    assert main(["export-usd", str(run.output_dir), "-o", str(tmp_path / "exported.usda"), "-q"]) == 0
    exported = Usd.Stage.Open(str(tmp_path / "exported.usda"))
    live = Usd.Stage.Open(str(run.output_dir / "run.usdc"))
    assert exported.GetTimeCodesPerSecond() == 10.0 and exported.GetEndTimeCode() == 4.0
    for name in ("depth", "dye_0", "displayColor"):
        assert np.array_equal(primvar(exported, name, 2), primvar(live, name, 2))
    assert main(["export-usd", str(tmp_path / "nowhere")]) == 1


@pytest.mark.parametrize(("gravity", "axis", "up"), [
    ((0.0, 0.0, -9.81), "Z", (0.0, 0.0, 1.0)),
    ((-9.81, 0.0, 0.0), "Y", (1.0, 0.0, 0.0)),
    ((0.0, 9.81, 0.0), "Y", (0.0, -1.0, 0.0)),
])
def test_up_axis_follows_gravity(tmp_path, gravity, axis, up):
    """The stage's up axis is the one against gravity; a scene whose up is not +Y or +Z is turned
    so that its up direction lands on the stage's up axis."""
    stage = write_frames(tmp_path, UsdSettings(gravity=gravity), n_frames=1)
    assert UsdGeom.GetStageUpAxis(stage) == axis
    to_world = UsdGeom.Xformable(stage.GetPrimAtPath("/surfflow")).ComputeLocalToWorldTransform(0)
    turned = np.array(to_world.TransformDir(up))
    assert np.allclose(turned, np.eye(3)["XYZ".index(axis)], atol=1e-12)


def plane_mesh() -> RunMesh:
    x = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [1.0, 0.0, -1.0]])
    return RunMesh(vertices=x, normals=np.tile([0.0, 1.0, 0.0], (4, 1)), original_vertices=x,
                   faces=np.array([[0, 1, 2], [1, 3, 2]]))


def write_frames(directory: Path, settings: UsdSettings, n_frames: int, extra=None):
    mesh = plane_mesh()
    writer = UsdWriter(directory, mesh, settings)
    for frame in range(n_frames):
        fields = {"depth": np.full(4, 1e-3), "velocity": np.zeros((4, 3)), "bottom": np.zeros(4),
                  "free_surface": np.tile([0.0, 1e-3, 0.0], (4, 1)), **(extra(frame) if extra else {})}
        writer.write(frame, frame / settings.fps, fields)
    return Usd.Stage.Open(str(writer.path))


def test_moving_surface_and_particles(tmp_path):
    """A frame with moved ``vertices`` animates the object; droplets become points whose widths
    are the diameters of spheres of their volumes."""
    def extra(frame):
        fields = {}
        if frame >= 2:
            fields["vertices"] = plane_mesh().vertices + [0.0, 0.1 * frame, 0.0]
            volumes = np.array([np.pi / 6.0 * 1e-6, np.pi / 6.0 * 8e-6])[:frame - 1]
            fields.update(particle_positions=np.zeros((len(volumes), 3)), particle_volumes=volumes)
        return fields

    stage = write_frames(tmp_path, UsdSettings(), n_frames=4, extra=extra)
    obj = UsdGeom.Mesh(stage.GetPrimAtPath("/surfflow/object")).GetPointsAttr()
    assert obj.GetTimeSamples() == [1.0, 2.0, 3.0]
    assert np.allclose(np.array(obj.Get(1))[:, 1], 0.0) and np.allclose(np.array(obj.Get(3))[:, 1], 0.3)
    points = np.array(liquid(stage).GetPointsAttr().Get(3))
    assert np.allclose(points[:, 1], 0.3 + 1e-3)
    drops = UsdGeom.Points(stage.GetPrimAtPath("/surfflow/particles"))
    assert len(drops.GetPointsAttr().Get(0)) == 0
    assert np.allclose(np.array(drops.GetWidthsAttr().Get(3)), [0.01, 0.02], rtol=1e-6)


def test_dry_faces_are_those_with_three_dry_corners():
    faces = np.array([[0, 1, 2], [1, 3, 2], [3, 4, 2]])
    wet = np.array([True, False, False, False, False])
    assert dry_faces(faces, wet).tolist() == [1, 2]


def test_missing_usd_core_names_the_extra(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "pxr", None)
    with pytest.raises(SurfflowError, match=r"extra 'usd'.*usd-core"):
        UsdWriter(tmp_path, plane_mesh())


BODY_SCENE = USD_SCENE.replace("[output]", """[[bodies]]
shape = "box"
extents = [0.04, 0.02, 0.03]
density = 500.0
position = [0.03, 0.05, 0.0]
rotation = [10.0, 20.0, 30.0]
angular_velocity = [0.0, 3.0, 1.0]

[output]""")
"""The tiny pour with a tilted, spinning wooden box dropped beside it."""


def test_a_body_is_an_xform_whose_samples_carry_its_mesh_to_the_poses_of_the_frames(tmp_path):
    run = run_scene(tmp_path, BODY_SCENE)
    stage = Usd.Stage.Open(str(run.output_dir / "run.usdc"))
    xform = UsdGeom.Xformable(stage.GetPrimAtPath("/surfflow/bodies/body_0"))
    mesh = UsdGeom.Mesh(stage.GetPrimAtPath("/surfflow/bodies/body_0/mesh"))
    local = np.array(mesh.GetPointsAttr().Get())
    body = run.simulation.bodies[0]
    assert np.allclose(local, body.shape.mesh.vertices, atol=1e-6)
    for frame in (1, 4):
        pose = frame_data(run, frame)
        matrix = np.array(xform.ComputeLocalToWorldTransform(Usd.TimeCode(frame)))
        world = local @ matrix[:3, :3] + matrix[3, :3]            # USD: row vectors, p M
        w, x, y, z = pose["body_orientation"][0]
        rotation = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                             [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                             [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])
        expected = local @ rotation.T + pose["body_position"][0]
        assert np.abs(world - expected).max() < 1e-6
    moved = frame_data(run, 4)["body_orientation"][0] - frame_data(run, 1)["body_orientation"][0]
    assert np.abs(moved).max() > 1e-3                                  # it spun between them
