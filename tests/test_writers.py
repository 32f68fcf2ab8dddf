"""Frame writers: npz files, VTU files and the .pvd index, read back with numpy and meshio."""

import meshio
import numpy as np
import pytest
from scene_helpers import TINY_SCENE

from surfflow.scene.scene import parse_scene
from surfflow.scene.scene_setup import scene_geometry, scene_mesh, scene_simulation
from surfflow.io.writers import NpzFrameWriter, VtuSeriesWriter, frame_fields, read_pvd


@pytest.fixture(scope="module")
def poured(tmp_path_factory):
    """The tiny scene's simulation after 0.1 s of pouring."""
    cache = tmp_path_factory.mktemp("cache")
    scene = parse_scene(TINY_SCENE, cache / "tiny.toml")
    geom = scene_geometry(scene, *scene_mesh(scene.mesh), cache_dir=cache)
    sim = scene_simulation(scene, geom)
    sim.advance(0.1)
    return sim


def test_frame_fields_shapes(poured):
    fields = frame_fields(poured)
    n = poured.geometry.n_vertices
    assert fields["depth"].shape == (n,) and fields["velocity"].shape == (n, 3)
    assert fields["dye"].shape == (n, 1) and fields["dye"].max() > 0.5
    expected = (fields["bottom"] + fields["depth"])[:, None] * poured.geometry.normals
    assert np.array_equal(fields["free_surface"], expected)


def test_dissolved_material_is_written_when_the_run_has_a_soluble_layer(poured, tmp_path):
    assert "dissolved" not in frame_fields(poured)
    sim = scene_simulation(parse_scene(TINY_SCENE, tmp_path / "tiny.toml"), poured.geometry)
    layer = np.zeros(sim.geometry.n_vertices)
    layer[: len(layer) // 2] = 1e-4
    sim.set_soluble_layer(layer)
    sim.advance(0.1)
    writer = VtuSeriesWriter(tmp_path, sim.geometry)
    writer.write(0, sim.time, frame_fields(sim))
    point_data = meshio.read(tmp_path / "frame_00000.vtu").point_data
    assert np.array_equal(point_data["dissolved"], sim.dissolved.astype(np.float32))
    assert np.array_equal(point_data["soluble_layer"], sim.soluble_layer.astype(np.float32))
    assert point_data["soluble_layer"].max() > 0.0


def test_vtu_series_reads_back(poured, tmp_path):
    writer = VtuSeriesWriter(tmp_path, poured.geometry)
    fields = frame_fields(poured)
    writer.write(0, 0.0, fields)
    writer.write(1, 0.1, fields)
    assert read_pvd(tmp_path / "frames.pvd") == [(0.0, "frame_00000.vtu"), (0.1, "frame_00001.vtu")]
    mesh = meshio.read(tmp_path / "frame_00001.vtu")
    assert {"depth", "velocity", "bottom", "dye", "free_surface", "normal"} <= set(mesh.point_data)
    assert np.array_equal(mesh.point_data["depth"], fields["depth"].astype(np.float32))
    assert np.array_equal(mesh.point_data["velocity"], fields["velocity"].astype(np.float32))
    assert np.array_equal(mesh.cells_dict["triangle"], poured.geometry.faces)


def test_resumed_series_keeps_earlier_frames(poured, tmp_path):
    fields = frame_fields(poured)
    first = VtuSeriesWriter(tmp_path, poured.geometry)
    for frame in range(3):
        first.write(frame, 0.1 * frame, fields)
    resumed = VtuSeriesWriter(tmp_path, poured.geometry, first_frame=2)
    resumed.write(2, 0.2, fields)
    names = [name for _, name in read_pvd(tmp_path / "frames.pvd")]
    assert names == ["frame_00000.vtu", "frame_00001.vtu", "frame_00002.vtu"]


def test_npz_frames(poured, tmp_path):
    writer = NpzFrameWriter(tmp_path, poured.geometry)
    writer.write(4, 0.4, frame_fields(poured))
    with np.load(tmp_path / "mesh.npz") as mesh, np.load(tmp_path / "frame_00004.npz") as frame:
        assert np.array_equal(mesh["faces"], poured.geometry.faces)
        assert float(frame["time"]) == 0.4 and int(frame["frame"]) == 4
        volume = float(np.sum(mesh["dual_areas"] * frame["depth"]))
        assert volume == pytest.approx(1e-7, rel=1e-12)


def test_npz_frames_hold_every_field(poured, tmp_path):
    """Every frame holds the bottom (float32), at rest or raised by a dissolving layer, so a
    frame file alone is enough (np.load)."""
    writer = NpzFrameWriter(tmp_path, poured.geometry)
    fields = frame_fields(poured)
    raised = fields["bottom"] + 1e-4
    writer.write(0, 0.0, fields)
    writer.write(1, 0.1, dict(fields, bottom=raised))
    for frame, bottom in ((0, fields["bottom"]), (1, raised)):
        with np.load(tmp_path / f"frame_0000{frame}.npz") as raw:
            assert set(raw.files) == set(fields) | {"time", "frame"}
            written = raw["bottom"]
        assert written.dtype == np.float32 and np.array_equal(written, bottom.astype(np.float32))
