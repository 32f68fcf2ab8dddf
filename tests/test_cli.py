"""The command line end to end: run, info, precompute, help, errors; once through a subprocess."""

import json
import re
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
import trimesh
from scene_helpers import POURED_VOLUME, TINY_SCENE, write_scene

import surfflow as sf
from surfflow.cli import main
from surfflow.io.checkpoint import load_checkpoint
from surfflow.io.extent import mesh_diameter
from surfflow.io.writers import read_pvd


def frame_volume(directory, frame):
    with np.load(directory / "mesh.npz") as mesh, np.load(directory / f"frame_{frame:05d}.npz") as data:
        return float(np.sum(mesh["dual_areas"] * data["depth"]))


def test_run_writes_frames_and_conserves_volume(tmp_path, capsys):
    scene = write_scene(tmp_path)
    out = tmp_path / "out"
    assert main(["run", str(scene), "-o", str(out), "-q", "--cache-dir", str(tmp_path / "c")]) == 0
    assert "wrote 3 frames" in capsys.readouterr().out
    assert [name for _, name in read_pvd(out / "frames.pvd")] == [f"frame_0000{k}.vtu" for k in range(3)]
    assert frame_volume(out, 0) == 0.0
    assert frame_volume(out, 2) == pytest.approx(POURED_VOLUME, rel=1e-12)
    for name, kind in (("checkpoint.npz", "checkpoint"), ("frame_00002.npz", "output frame"),
                       ("frame_00002.vtu", "VTU frame"), ("frames.pvd", "VTU series index"),
                       ("mesh.npz", "output mesh")):
        assert main(["info", str(out / name)]) == 0
        assert f"type: {kind}" in capsys.readouterr().out
    assert main(["info", str(scene)]) == 0 and "liquid: water" in capsys.readouterr().out


def test_scene_error_is_one_line_with_exit_code(tmp_path, capsys):
    scene = write_scene(tmp_path, "duration = 1\nfsp = 30\n")
    assert main(["run", str(scene)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "line 2" in err and "fsp" in err and "Traceback" not in err


def test_debug_shows_the_exception(tmp_path):
    scene = write_scene(tmp_path, "fsp = 30\n")
    with pytest.raises(Exception, match="fsp"):
        main(["--debug", "run", str(scene)])


def test_precompute_and_info_of_a_mesh(tmp_path, capsys):
    mesh_path = tmp_path / "ball.obj"
    trimesh.creation.icosphere(subdivisions=1).export(mesh_path)
    out = tmp_path / "ball.geom.npz"
    assert main(["precompute", str(mesh_path), "-o", str(out), "--smoothing-iterations", "0"]) == 0
    printed = capsys.readouterr().out
    assert "42 vertices" in printed
    # the icosphere's 12 valence-5 vertices (its first 12) hold its smallest cells, alike to
    # round-off and 0.93 of the median (the 30 of valence 6): three of them are named
    cells = sf.Simulation(sf.SurfaceGeometry.load(out)).fields.ring_spacing
    share = cells[:12].max() / np.median(cells)
    assert np.allclose(cells[:12], cells[0], rtol=1e-12) and cells[12:].min() > cells[:12].max()
    pattern = (rf"median {1e3 * np.median(cells):.3g} mm; the smallest {share:.2g} of it "
               rf"\(vertex (\d+)\), {share:.2g} \((\d+)\), {share:.2g} \((\d+)\)\n")
    found = re.search("dual cells \\(an explicit step is as short as the smallest wet one "
                      "allows\\): " + pattern, printed)
    assert found and len({int(v) for v in found.groups()} & set(range(12))) == 3, printed
    assert main(["info", str(out)]) == 0
    described = capsys.readouterr().out
    assert "geometry cache" in described and re.search("dual cells: " + pattern, described)
    assert main(["info", str(mesh_path)]) == 0 and "faces: 80" in capsys.readouterr().out


def test_precompute_takes_a_feature_size_in_metres_or_percent(tmp_path, capsys):
    mesh_path = tmp_path / "ball.obj"
    ball = trimesh.creation.icosphere(subdivisions=2)
    ball.export(mesh_path)
    percent = f"{100 * 0.2 / mesh_diameter(ball.vertices, ball.faces):.12f}%"   # 0.2 m
    bottoms = {}
    for size in ("0", "0.2", percent):
        out = tmp_path / f"ball-{size}.geom.npz"
        assert main(["precompute", str(mesh_path), "-o", str(out), "--feature-size", size]) == 0
        bottoms[size] = sf.SurfaceGeometry.load(out).bottom
    assert np.array_equal(bottoms["0"], np.zeros(162))
    assert np.abs(bottoms["0.2"]).max() > 0 and np.allclose(bottoms["0.2"], bottoms[percent], atol=1e-12)
    assert main(["precompute", str(mesh_path), "--feature-size", "big"]) == 1
    assert "feature_size='big' is not a length" in capsys.readouterr().err


def test_unknown_example_lists_the_examples(capsys):
    assert main(["run", "--example", "nope"]) == 1
    assert "bunny_pour" in capsys.readouterr().err


@pytest.mark.parametrize("command", [[], ["run"], ["view"], ["render"], ["precompute"], ["info"]])
def test_help_everywhere(command, capsys):
    with pytest.raises(SystemExit) as info:
        main(command + ["--help"])
    assert info.value.code == 0 and "usage: surfflow" in capsys.readouterr().out


def test_python_dash_m_runs_a_scene(tmp_path):
    scene = write_scene(tmp_path)
    result = subprocess.run([sys.executable, "-m", "surfflow", "run", str(scene), "-o", "out", "-q"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert frame_volume(tmp_path / "out", 2) == pytest.approx(POURED_VOLUME, rel=1e-12)


def test_ctrl_c_writes_a_checkpoint_and_resume_finishes(tmp_path):
    walled = TINY_SCENE + '\n[solver]\nboundary = "wall"\n'  # every poured drop stays in the film
    long_scene = write_scene(tmp_path, walled.replace("duration = 0.2", "duration = 1000"), "long.toml")
    process = subprocess.Popen([sys.executable, "-m", "surfflow", "run", str(long_scene), "-o", "out", "-q"],
                               cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not (tmp_path / "out" / "frame_00002.npz").exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130 and "--resume" in err
    stopped = load_checkpoint(tmp_path / "out" / "checkpoint.npz").frame
    assert stopped >= 2
    short = write_scene(tmp_path, walled.replace("duration = 0.2", f"duration = {(stopped + 2) / 10}"))
    assert main(["run", str(short), "-o", str(tmp_path / "out"), "-q", "--resume",
                 str(tmp_path / "out" / "checkpoint.npz")]) == 0
    assert len(read_pvd(tmp_path / "out" / "frames.pvd")) == stopped + 3
    assert frame_volume(tmp_path / "out", stopped + 2) == pytest.approx(1e-6 * (stopped + 2) / 10, rel=1e-12)


def test_run_says_what_its_closing_volume_is(tmp_path, capsys):
    """A film's run ends with the volume of liquid on the surface; a ripple scene's with the
    water raised above the rest level (``Ripples.total_volume``: negative where its floating
    bodies press the surface down), not as a volume of liquid. A film's run then says what set
    its steps and where, over every step it took (``Simulation.step_limits``)."""
    scene = write_scene(tmp_path)
    assert main(["run", str(scene), "-o", str(tmp_path / "film"), "-q",
                 "--cache-dir", str(tmp_path / "c")]) == 0
    out = capsys.readouterr().out
    assert "; liquid volume " in out
    steps = int(load_checkpoint(tmp_path / "film" / "checkpoint.npz").state["step_count"])
    assert f"what set the time step over {steps} steps: max_dt 100 %\n" in out  # a thin film
    written = json.loads((tmp_path / "film" / "step_limits.json").read_text())
    assert written == {"steps": steps, "limits": {"max_dt": steps}, "vertices": []}
    assert main(["run", "--example", "pond", "--duration", "0.1", "-o", str(tmp_path / "pond"),
                 "-q", "--cache-dir", str(tmp_path / "c")]) == 0
    out = capsys.readouterr().out
    assert "; water raised above the rest level " in out and "liquid volume" not in out
    assert "what set the time step" not in out and not (tmp_path / "pond" / "step_limits.json").exists()
