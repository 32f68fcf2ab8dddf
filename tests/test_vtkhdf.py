"""The VTKHDF time series (``frames.vtkhdf``, ``particles.vtkhdf``): read back equal to what was
written, step by step, with h5py and (where the ``vtk`` package is installed) with VTK's own
reader; static fields stored once; readable after a killed run; resumed runs; bad frames raise
in the step's thread."""

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import h5py
import numpy as np
import pytest
from scene_helpers import TINY_SCENE

import surfflow as sf
from surfflow.io.vtkhdf import FRAMES_NAME, PARTICLES_NAME, read_step
from surfflow.io.writer_thread import FrameWriterThread
from surfflow.io.writers import frame_fields, make_writers
from surfflow.scene.describe import describe_file
from surfflow.scene.scene import parse_scene
from surfflow.scene.scene_setup import scene_geometry, scene_mesh, scene_simulation

DROPLET_COUNTS = (2, 0, 5)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """Three frames 0.05 s apart of the tiny scene's pour, each with a few droplets (their
    number changing, none in the second), written as npz and VTKHDF on the writer thread."""
    directory = tmp_path_factory.mktemp("run")
    scene = parse_scene(TINY_SCENE, directory / "tiny.toml")
    sim = scene_simulation(scene, scene_geometry(scene, *scene_mesh(scene.mesh), cache_dir=directory))
    rng = np.random.default_rng(3)
    frames = []
    with FrameWriterThread(make_writers(directory, ["npz", "vtkhdf"], sim.geometry), directory) as out:
        for frame, p in enumerate(DROPLET_COUNTS):
            fields = frame_fields(sim)
            fields.update(particle_positions=rng.random((p, 3)), particle_velocities=rng.random((p, 3)),
                          particle_volumes=rng.random(p) * 1e-9, particle_dyes=rng.random((p, 1)))
            out.put(frame, sim.time, fields)
            frames.append((sim.time, fields))
            sim.advance(0.05)
    return directory, sim.geometry, frames


def test_surface_steps_read_back_as_written(run):
    directory, geometry, frames = run
    with h5py.File(directory / FRAMES_NAME) as file:
        assert file["VTKHDF"].attrs["Type"] == b"UnstructuredGrid"
        assert file["VTKHDF/Steps"].attrs["NSteps"] == len(frames)
        assert np.array_equal(file["VTKHDF/Connectivity"][:], geometry.faces.ravel())
    for step, (time, fields) in enumerate(frames):
        written_time, points, data = read_step(directory / FRAMES_NAME, step)
        assert written_time == time
        assert np.array_equal(points, geometry.vertices.astype(np.float32))
        assert set(data) == {"depth", "velocity", "bottom", "free_surface", "wetness", "dye",
                             "normal"}
        assert np.array_equal(data["normal"], geometry.normals.astype(np.float32))
        for name in data.keys() - {"normal"}:
            assert data[name].dtype == np.float32, name
            assert np.array_equal(data[name], fields[name].astype(np.float32)), (step, name)
    assert not np.array_equal(frames[0][1]["depth"], frames[2][1]["depth"])


def test_surfflow_info_describes_the_series(run):
    directory, geometry, _ = run
    described = describe_file(directory / FRAMES_NAME)
    assert described["type"] == "VTKHDF time series (UnstructuredGrid)" and described["steps"] == 3
    assert described["points"] == geometry.n_vertices and "free_surface" in described["fields"]
    assert describe_file(directory / PARTICLES_NAME)["points"] == max(DROPLET_COUNTS)


def test_what_does_not_change_is_stored_once(run):
    directory, geometry, frames = run
    n = geometry.n_vertices
    with h5py.File(directory / FRAMES_NAME) as file:
        offsets = file["VTKHDF/Steps/PointDataOffsets"]
        assert list(offsets["bottom"]) == [0, 0, 0] and list(offsets["normal"]) == [0, 0, 0]
        assert list(file["VTKHDF/Steps/PointOffsets"]) == [0, 0, 0]
        assert file["VTKHDF/Points"].shape == (n, 3) and file["VTKHDF/PointData/bottom"].shape == (n,)
        assert list(offsets["velocity"]) == [0, n, 2 * n]


def test_droplet_steps_read_back_as_written(run):
    directory, _, frames = run
    for step, (time, fields) in enumerate(frames):
        written_time, points, data = read_step(directory / PARTICLES_NAME, step)
        assert written_time == time and len(points) == DROPLET_COUNTS[step]
        assert np.array_equal(points, fields["particle_positions"].astype(np.float32))
        assert np.array_equal(data["velocity"], fields["particle_velocities"].astype(np.float32))
        assert np.array_equal(data["volume"], fields["particle_volumes"].astype(np.float32))
        assert np.array_equal(data["dye"], fields["particle_dyes"].astype(np.float32))


def test_vtks_reader_reads_every_step(run):
    """VTK's vtkHDFReader (ParaView's) sees the times, the triangles, the fields of each step
    and each step's droplets as vertex cells."""
    vtk = pytest.importorskip("vtk", reason="the vtk package is not installed")
    from vtk.util.numpy_support import vtk_to_numpy
    directory, geometry, frames = run
    for name in (FRAMES_NAME, PARTICLES_NAME):
        reader = vtk.vtkHDFReader()
        reader.SetFileName(str(directory / name))
        reader.UpdateInformation()
        times = reader.GetOutputInformation(0).Get(vtk.vtkStreamingDemandDrivenPipeline.TIME_STEPS())
        assert list(times) == [time for time, _ in frames]
        for step, (time, fields) in enumerate(frames):
            reader.UpdateTimeStep(time)
            grid = reader.GetOutputDataObject(0)
            arrays = grid.GetPointData()
            if name == FRAMES_NAME:
                cells = vtk_to_numpy(grid.GetCells().GetConnectivityArray()).reshape(-1, 3)
                assert np.array_equal(cells, geometry.faces)
                for field in ("depth", "velocity", "dye", "free_surface", "bottom"):
                    assert np.array_equal(vtk_to_numpy(arrays.GetArray(field)),
                                          fields[field].astype(np.float32).squeeze()), (step, field)
            else:
                assert grid.GetNumberOfVerts() == DROPLET_COUNTS[step]
                assert np.array_equal(vtk_to_numpy(grid.GetVerts().GetConnectivityArray()),
                                      np.arange(DROPLET_COUNTS[step]))
                assert np.array_equal(vtk_to_numpy(grid.GetPoints().GetData()).reshape(-1, 3),
                                      fields["particle_positions"].astype(np.float32))


def plane(n: int = 4) -> SimpleNamespace:
    """A stand-in geometry: n x n vertices on the unit square, two triangles per cell."""
    x, y = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    vertices = np.column_stack([x.ravel(), y.ravel(), np.zeros(n * n)]) / (n - 1)
    quads = [(i * n + j, (i + 1) * n + j, (i + 1) * n + j + 1, i * n + j + 1)
             for i in range(n - 1) for j in range(n - 1)]
    faces = np.array([t for a, b, c, d in quads for t in ((a, b, c), (a, c, d))])
    normals = np.tile([0.0, 0.0, 1.0], (n * n, 1))
    return SimpleNamespace(vertices=vertices, faces=faces, normals=normals, n_vertices=n * n)


KILLED = """
import os, sys
import numpy as np
sys.path.insert(0, {tests!r})
from test_vtkhdf import plane
from surfflow.io.vtkhdf import SurfaceVtkHdfWriter
writer = SurfaceVtkHdfWriter({directory!r}, plane())
for frame in range(3):
    writer.write(frame, 0.1 * frame, {{"depth": np.full(16, float(frame))}})
os._exit(0)  # killed: the file is never closed
"""


def test_a_killed_run_leaves_a_readable_file(tmp_path):
    script = KILLED.format(tests=str(Path(__file__).parent), directory=str(tmp_path))
    subprocess.run([sys.executable, "-c", script], check=True)
    for step in range(3):
        time, _, data = read_step(tmp_path / FRAMES_NAME, step)
        assert time == pytest.approx(0.1 * step) and np.all(data["depth"] == step)


def test_a_moving_surface_writes_its_points_each_frame(tmp_path):
    geometry = plane()
    writer = make_writers(tmp_path, ["vtkhdf"], geometry)[0]
    for frame in range(3):
        moved = geometry.vertices + [0.0, 0.0, 0.1 * frame]
        writer.write(frame, 0.1 * frame, {"depth": np.zeros(16), "vertices": moved,
                                          "normals": geometry.normals})
    writer.close()
    for step in range(3):
        _, points, data = read_step(tmp_path / FRAMES_NAME, step)
        assert np.array_equal(points, (geometry.vertices + [0.0, 0.0, 0.1 * step]).astype(np.float32))
        assert set(data) == {"depth", "normal"}
    with h5py.File(tmp_path / FRAMES_NAME) as file:
        assert list(file["VTKHDF/Steps/PointOffsets"]) == [0, 16, 32]


def test_a_resumed_run_keeps_the_steps_before_it(tmp_path):
    geometry = plane()
    first = make_writers(tmp_path, ["vtkhdf"], geometry)[0]
    for frame in range(3):
        first.write(frame, 0.1 * frame, {"depth": np.full(16, float(frame))})
    first.close()
    resumed = make_writers(tmp_path, ["vtkhdf"], geometry, first_frame=2)[0]
    resumed.write(2, 0.2, {"depth": np.full(16, 7.0)})
    resumed.write(3, 0.3, {"depth": np.full(16, 8.0)})
    resumed.close()
    depths = [read_step(tmp_path / FRAMES_NAME, step)[2]["depth"][0] for step in range(4)]
    assert depths == [0.0, 1.0, 7.0, 8.0]
    with h5py.File(tmp_path / FRAMES_NAME) as file:
        assert file["VTKHDF/PointData/depth"].shape == (4 * 16,)


def test_a_bad_frame_raises_in_the_steps_thread(tmp_path):
    out = FrameWriterThread(make_writers(tmp_path, ["vtkhdf"], plane()), tmp_path)
    out.put(0, 0.0, {"depth": np.zeros(16)})
    out.put(1, 0.1, {"depth": np.zeros(17)})
    with pytest.raises(sf.OutputError, match="writing frame 1 with SurfaceVtkHdfWriter") as caught:
        out.flush()
    assert "the frame's depth has 17 rows, the surface 16 vertices" in str(caught.value)
    out.close(raise_error=False)
    assert read_step(tmp_path / FRAMES_NAME, 0)[2]["depth"].shape == (16,)
