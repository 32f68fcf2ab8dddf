"""Compressed frames written on a thread: what is read back equals what was written, a failed
write raises in the step's thread, the run's summary line, and bunny_pour's frame sizes."""

import meshio
import numpy as np
import pytest
from scene_helpers import TINY_SCENE, write_scene

import surfflow as sf
from surfflow.cli import EXAMPLES_DIR, main
from surfflow.io.vtu import CompressedArray, triangle_cells, write_vtu
from surfflow.io.writer_thread import FrameWriterThread
from surfflow.io.writers import FLOAT32_FIELDS, frame_fields, make_writers, read_frame
from surfflow.scene.scene import parse_scene
from surfflow.scene.scene_setup import scene_geometry, scene_mesh, scene_simulation

MB = 1e6


@pytest.fixture(scope="module")
def poured(tmp_path_factory):
    """The tiny scene's simulation after 0.1 s of pouring, and its frame fields."""
    cache = tmp_path_factory.mktemp("cache")
    scene = parse_scene(TINY_SCENE, cache / "tiny.toml")
    sim = scene_simulation(scene, scene_geometry(scene, *scene_mesh(scene.mesh), cache_dir=cache))
    sim.advance(0.1)
    return sim, frame_fields(sim)


def test_frames_read_back_as_written(poured, tmp_path):
    """In the npz frames depth and dye in float64 and velocity, free_surface and bottom in
    float32; in the VTU frames every field in Float32. Also a
    field of float noise, which the writers store undeflated from the second frame."""
    sim, fields = poured
    rng = np.random.default_rng(5)
    n = sim.geometry.n_vertices
    noise = rng.uniform(-1.0, 1.0, (n, 3)) * 2.0 ** rng.integers(-60, 60, (n, 3))  # no deflating
    fields = dict(fields, free_surface=noise)
    with FrameWriterThread(make_writers(tmp_path, ["npz", "vtu"], sim.geometry), tmp_path) as out:
        out.put(2, sim.time, fields)
        out.put(3, sim.time, fields)
    assert all("free_surface" in writer.stored for writer in out.writers[:2])
    with np.load(tmp_path / "frame_00003.npz") as raw:  # every field in every frame
        assert set(raw.files) == set(fields) | {"time", "frame"}
    frame, time_, written = read_frame(tmp_path / "frame_00003.npz")
    assert frame == 3 and time_ == sim.time and set(written) == set(fields)
    for name, values in fields.items():
        kind = np.float32 if name in FLOAT32_FIELDS else np.float64
        assert written[name].dtype == kind and written[name].shape == values.shape, name
        assert np.array_equal(written[name], values.astype(kind)), name
    assert FLOAT32_FIELDS <= set(fields) and "depth" not in FLOAT32_FIELDS
    vtu = meshio.read(tmp_path / "frame_00003.vtu")
    surface = {name: values for name, values in fields.items()  # the droplets: particles_N.vtu
               if not name.startswith("particle_")}
    assert set(vtu.point_data) == set(surface) | {"normal"}
    for name, values in surface.items():
        written = vtu.point_data[name]
        assert written.dtype == np.float32 and np.array_equal(written, values.astype(np.float32))
    assert np.array_equal(vtu.points, sim.geometry.vertices.astype(np.float32))
    assert np.array_equal(vtu.cells_dict["triangle"], sim.geometry.faces)
    names = [f"frame_0000{k}.{kind}" for k in (2, 3) for kind in ("npz", "vtu")] + ["mesh.npz"]
    names += [f"particles_0000{k}.vtu" for k in (2, 3)]  # the droplets (none in flight yet)
    assert out.summary() == {"directory": tmp_path, "frames": 2, "files": 7,
                             "bytes": sum((tmp_path / name).stat().st_size for name in names)}


def test_vtu_blocks_are_zlib_compressed(tmp_path):
    values = np.zeros((70_000, 3))  # 840 kB of Float32: 26 blocks of 32 KiB, the last partial
    write_vtu(tmp_path / "zeros.vtu", values, triangle_cells(np.array([[0, 1, 2]])),
              {"zero": CompressedArray(values[:, 0])})
    text = (tmp_path / "zeros.vtu").read_bytes()
    assert b'compressor="vtkZLibDataCompressor"' in text and b'encoding="raw"' in text
    assert len(text) < 20_000
    assert np.array_equal(meshio.read(tmp_path / "zeros.vtu").point_data["zero"], values[:, 0])


class FullDisk:
    def write(self, frame, time, fields):
        if frame == 1:
            raise OSError(28, "No space left on device")


def test_a_failed_write_raises_in_the_steps_thread(tmp_path):
    out = FrameWriterThread([FullDisk()], tmp_path)
    out.put(0, 0.0, {})
    out.put(1, 0.1, {})
    with pytest.raises(sf.OutputError, match="writing frame 1 with FullDisk") as caught:
        out.flush()
    message = str(caught.value)
    assert "No space left on device" in message and str(tmp_path) in message
    assert "--output" in message and out.summary()["frames"] == 1
    with pytest.raises(sf.OutputError):
        out.put(2, 0.2, {})
    out.close(raise_error=False)


def test_the_run_says_where_its_outputs_are_and_how_large(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["run", str(write_scene(tmp_path)), "-o", str(out), "-q",
                 "--cache-dir", str(tmp_path / "c")]) == 0
    line, = (line for line in capsys.readouterr().out.splitlines() if line.startswith("outputs: "))
    frames = sorted(out.glob("frame_*.*"))
    particles = sorted(out.glob("particles_*.vtu"))  # droplets on: one file a frame
    total = sum(path.stat().st_size for path in frames + particles) + (out / "mesh.npz").stat().st_size
    assert len(frames) == 6 and len(particles) == 3
    assert line.startswith(f"outputs: {len(frames) + len(particles) + 1} files, {total / MB:.1f} MB in {out} "
                           f"({total / MB / 3:.2f} MB per frame); the writer thread took ")
    assert "s of CPU beside the run's" in line and line.endswith("s for it")


def test_bunny_pour_writes_under_1_5_mb_a_frame_once_its_film_has_spread(tmp_path):
    """At 1.5 s both spouts pour and the film covers most of what it will (frames then are the
    run's largest): three frames in the scene's formats (npz, VTKHDF) cost under 1.5 MB each,
    counting what is written once (mesh.npz, the VTKHDF's mesh and static fields) shared over
    the run's 91 frames. (3.0 MB with the VTU frames, 5.4 MB before they were compressed.)"""
    scene = sf.load_scene(EXAMPLES_DIR / "bunny_pour.toml")
    assert tuple(scene.output.formats) == ("npz", "vtkhdf")
    runner = sf.SceneRunner(scene, output_dir=tmp_path, cache_dir=tmp_path / "cache")
    sim = runner.simulation
    sim.advance(1.5)
    sizes = []
    with FrameWriterThread(make_writers(tmp_path, scene.output.formats, runner.geometry),
                           tmp_path) as out:
        for frame in (45, 46, 47):
            if frame > 45:
                sim.advance(1.0 / scene.fps)
            out.put(frame, sim.time, frame_fields(sim))
            out.flush()
            sizes.append(sum(path.stat().st_size for path in tmp_path.glob("*.vtkhdf")))
    npz = max((tmp_path / f"frame_000{frame}.npz").stat().st_size for frame in (45, 46, 47))
    growth = (sizes[2] - sizes[0]) / 2
    once = sizes[0] - growth + (tmp_path / "mesh.npz").stat().st_size
    per_frame = npz + growth + once / (scene.n_frames + 1)
    assert per_frame < 1.5 * MB, (npz, growth, once)
