"""A bare mesh on the command line, as a new user tries it: `surfflow run|view|render MESH` runs
the default scene (water from a spout above the highest point, droplets on), `surfflow new MESH`
writes it to edit, and a mesh or a scene in the wrong place gets an error saying which is which.

Known answers: the spout stands 0.05 D above the highest vertex (D: ``mesh_diameter``),
its radius is 0.025 D and its rate 5 mm/s x pi r^2, so the rate grows as D^2.
"""

import dataclasses
import json
import math
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import trimesh

import surfflow as sf

from surfflow.cli import main
from surfflow.io.extent import mesh_diameter
from surfflow.scene.default_scene import default_scene, measure_mesh
from surfflow.scene.scene import load_scene
from surfflow.scene.scene_input import mesh_scene
from surfflow.scene.toml_lines import parse_toml

REPOSITORY = Path(__file__).resolve().parents[1]
BUNNY = REPOSITORY / "meshes" / "bunny.obj"
NUT = REPOSITORY / "meshes" / "nut.ply"


def write_ball(directory: Path, name: str = "ball.obj", subdivisions: int = 2) -> Path:
    """An icosphere of radius 0.1 m around the origin (D = 0.2 m) written to ``name``."""
    path = Path(directory) / name
    trimesh.creation.icosphere(subdivisions=subdivisions, radius=0.1).export(path)
    return path


def write_cone(directory: Path) -> Path:
    """A cone of radius 0.05 m, its apex 0.2 m up +z (a z-up mesh), written as PLY."""
    path = Path(directory) / "cone.ply"
    trimesh.creation.cone(radius=0.05, height=0.2, sections=24).export(path)
    return path


def expected_rate(D: float) -> float:
    """5 mm/s x pi r^2 with r = 0.025 D, both to 3 significant digits (as the file holds them)."""
    radius = float(f"{0.025 * D:.3g}")
    return float(f"{5e-3 * math.pi * radius ** 2:.3g}")


def frame(directory: Path, k: int) -> dict:
    with np.load(directory / f"frame_{k:05d}.npz") as data:
        return {key: data[key] for key in data.files}


def film_volume(directory: Path, k: int) -> float:
    with np.load(directory / "mesh.npz") as mesh:
        return float(np.sum(mesh["dual_areas"] * frame(directory, k)["depth"]))


def liquid_pixels(image: np.ndarray) -> int:
    """Pixels of the water's blue: blue above red by 40 or more (the grey object, the grey
    spout, the panel and the background all stay within 32)."""
    image = image.astype(int)
    return int(np.sum((image[..., 2] - image[..., 0] >= 40) & (image[..., 2] > 100)))


# ---- the default scene: known answers ---------------------------------------------------------


@pytest.mark.parametrize("up", ["y", "z"])
def test_the_spout_stands_above_the_highest_point(tmp_path, up):
    """On a z-up cone, loaded with its up axis turned onto +y: with --up z the spout is over the
    apex, with --up y over the rim's highest point along y; 0.05 D above it, within a face of it
    across, pointing down -y."""
    cone = write_cone(tmp_path)
    mesh = sf.load_mesh(cone, up=up)
    V, F = np.asarray(mesh.vertices), np.asarray(mesh.faces)
    D = mesh_diameter(V, F)
    tables = default_scene(cone, up=up)
    spout = tables["emitters"][0]
    top = V[np.argmax(V[:, 1])]
    if up == "z":
        file_apex = np.asarray(trimesh.load(cone, process=False).vertices)[:, 2].max()
        assert top[1] == pytest.approx(file_apex)
    position = np.array(spout["position"])
    assert position[1] == pytest.approx(top[1] + 0.05 * D, abs=1e-4 * D)
    across = np.delete(position - top, 1)
    edges = np.linalg.norm(V[F] - V[np.roll(F, 1, axis=1)], axis=2)
    assert np.linalg.norm(across) < edges.max()
    assert spout["direction"] == [0.0, -1.0, 0.0] and tables["gravity"] == [0.0, -9.81, 0.0]
    assert tables["mesh"] == {"path": str(cone.resolve()), "units": "m", "up": up}
    assert tables["droplets"]["engine"] == "embedded"
    assert (tables["duration"], tables["fps"], spout["start"], spout["stop"]) == (3.0, 30.0, 0.0, 2.0)


def test_the_rate_grows_as_the_size_squared(tmp_path):
    """rate = 5 mm/s pi (0.025 D)^2: a ball, the same ball ten times as large, and that one read
    in centimetres (a tenth of the ball)."""
    small = write_ball(tmp_path, "small.obj")
    large = tmp_path / "large.obj"
    ball = trimesh.load(small, process=False)
    trimesh.Trimesh(ball.vertices * 10.0, ball.faces, process=False).export(large)
    rates = {}
    for name, path, units in (("small", small, "m"), ("large", large, "m"), ("large_cm", large, "cm")):
        size = measure_mesh(path, units)
        mesh = trimesh.load(path, process=False)
        scale = {"m": 1.0, "cm": 0.01}[units]
        assert size.diameter == pytest.approx(mesh_diameter(mesh.vertices * scale, mesh.faces), rel=1e-12)
        spout = default_scene(path, units, size=size)["emitters"][0]
        assert spout["radius"] == float(f"{0.025 * size.diameter:.3g}")
        assert spout["rate"] == expected_rate(size.diameter)
        rates[name] = spout["rate"]
    assert rates["small"] == pytest.approx(expected_rate(0.2), rel=1e-12)
    assert rates["large"] / rates["small"] == pytest.approx(100.0, rel=0.01)
    assert rates["large_cm"] / rates["small"] == pytest.approx(0.01, rel=0.01)


def test_the_projects_meshes_with_their_units(tmp_path, capsys):
    """The bunny (metres, y up): the spout 0.05 D over its top at y = 0.548676, rate 8.75e-6;
    the nut (a PLY in millimetres) read with --units mm is 1000 times smaller than read in m."""
    bunny = measure_mesh(BUNNY)
    tables = default_scene(BUNNY, size=bunny)
    assert bunny.diameter == pytest.approx(0.94279, abs=1e-5)
    assert tables["emitters"][0]["position"][1] == pytest.approx(0.548676 + 0.05 * bunny.diameter, abs=1e-4)
    assert tables["emitters"][0]["rate"] == expected_rate(bunny.diameter) == 8.75e-06
    in_m, in_mm = measure_mesh(NUT, "m"), measure_mesh(NUT, "mm")
    assert in_mm.diameter == pytest.approx(in_m.diameter / 1000.0, rel=1e-12)
    assert 0.05 < in_mm.diameter < 0.06
    rates = [default_scene(NUT, units, size=s)["emitters"][0]["rate"] for units, s in (("m", in_m), ("mm", in_mm))]
    assert rates[1] / rates[0] == pytest.approx(1e-6, rel=0.01)
    assert main(["new", str(NUT), "--units", "mm", "-o", str(tmp_path / "nut.toml")]) == 0
    out = capsys.readouterr().out
    assert "diameter 0.0562 m (read in mm" in out and "up        the file's +y: gravity" in out



@pytest.mark.parametrize("name, units", [("cow.obj", "m"), ("teapot.obj", "m"), ("suzanne.obj", "m"),
                                         ("beetle.obj", "m"), ("ogre_patches.obj", "m"),
                                         ("nut.ply", "mm"), ("jar.obj", "m")])
def test_every_mesh_of_the_project_runs_as_it_is(tmp_path, name, units):
    """`surfflow run MESH` on each of meshes/ (repaired at load, open ones included) for 0.1 s:
    the run ends and writes its frames (the Ogre's patches: their top faces down, so the spout
    moves over a face that faces up)."""
    out = tmp_path / "out"
    assert main(["run", str(REPOSITORY / "meshes" / name), "--units", units, "-q",
                 "--duration", "0.1", "-o", str(out), "--cache-dir", str(tmp_path / "cache")]) == 0
    assert len(list(out.glob("frame_*.npz"))) == 4

# ---- run, new, render, view -------------------------------------------------------------------


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """`surfflow run ball.obj` and `surfflow new ball.obj` + `surfflow run scene.toml`, 0.2 s."""
    directory = tmp_path_factory.mktemp("bare")
    ball = write_ball(directory)
    cache = str(directory / "cache")
    outputs = {}
    previous = os.getcwd()
    os.chdir(directory)
    try:
        code = main(["run", str(ball), "-q", "--duration", "0.2", "--cache-dir", cache])
        outputs["mesh"] = (code, Path("output/ball").resolve())
        scene_file = directory / "scenes" / "my_ball.toml"
        outputs["new"] = main(["new", str(ball), "-o", str(scene_file)])
        code = main(["run", str(scene_file), "-q", "--duration", "0.2", "-o", "from_scene",
                     "--cache-dir", cache])
        outputs["scene"] = (code, directory / "from_scene")
    finally:
        os.chdir(previous)
    return directory, ball, scene_file, outputs


def test_run_a_bare_mesh_writes_frames_with_the_pour_on_the_top(runs, capsys):
    directory, ball, _, outputs = runs
    code, out = outputs["mesh"]
    assert code == 0
    assert [p.name for p in sorted(out.glob("frame_*.npz"))] == [f"frame_{k:05d}.npz" for k in range(7)]
    assert film_volume(out, 0) == 0.0
    poured = expected_rate(0.2) * 0.2
    assert 0.2 * poured < film_volume(out, 6) <= poured * (1 + 1e-9)  # some still in the air
    with np.load(out / "mesh.npz") as mesh:
        vertices = mesh["vertices"]
    wet = frame(out, 6)["depth"] > 1e-6
    assert wet.any() and np.all(vertices[wet, 1] > 0.0)  # on the top half, under the spout
    scene = load_scene(out / "scene.toml")  # the scene it ran, written beside the frames
    assert scene.duration == 0.2 and scene.mesh.path.resolve() == ball.resolve()


def test_run_the_bunny_as_it_is(tmp_path, capsys):
    """`surfflow run meshes/bunny.obj` for 0.2 s: the stream lands on the top of the bunny (its
    ear), under the spout, and nowhere else."""
    out = tmp_path / "bunny"
    assert main(["run", str(BUNNY), "-q", "--duration", "0.2", "-o", str(out),
                 "--cache-dir", str(tmp_path / "cache")]) == 0
    printed = capsys.readouterr().out
    assert "diameter 0.943 m" in printed and "up        the file's +y: gravity [0.0, -9.81, 0.0]" in printed
    spout = load_scene(out / "scene.toml").emitters[0]
    with np.load(out / "mesh.npz") as mesh:
        vertices = mesh["vertices"]
    wet = frame(out, 6)["depth"] > 1e-6
    assert wet.any() and film_volume(out, 6) > 0.0
    across = np.linalg.norm((vertices[wet] - spout.position)[:, [0, 2]], axis=1)
    assert np.all(vertices[wet, 1] > 0.4) and np.all(across < 0.1), (vertices[wet, 1].min(), across.max())



def test_an_open_sheet_facing_down_on_top_pours_on_the_highest_face_that_faces_up(tmp_path,
                                                                                  capsys):
    """An open mesh (two sheets): a 0.1 m square facing down at y = 0.1 (its film's side is
    underneath) over a 0.4 m square facing up at y = 0. A stream from over the highest vertex
    would meet the upper sheet from behind (the nozzle's check refuses it); the default scene
    pours past it onto the lower sheet, the first face that faces up, and the run wets it."""
    grid = np.array([[x, 0.1, z] for z in np.linspace(-0.05, 0.05, 5)
                     for x in np.linspace(-0.05, 0.05, 5)])
    quads = [(5 * r + c, 5 * r + c + 1, 5 * (r + 1) + c + 1, 5 * (r + 1) + c)
             for r in range(4) for c in range(4)]
    F_down = np.array([f for a, b, c, d in quads for f in ((a, b, c), (a, c, d))])  # normal -y
    lower = np.array([[x, 0.0, z] for z in np.linspace(-0.2, 0.2, 9)
                      for x in np.linspace(-0.2, 0.2, 9)])
    quads = [(9 * r + c, 9 * r + c + 1, 9 * (r + 1) + c + 1, 9 * (r + 1) + c)
             for r in range(8) for c in range(8)]
    F_low = np.array([f for a, b, c, d in quads for f in ((a, c, b), (a, d, c))]) + len(grid)  # +y
    V = np.concatenate([grid, lower])
    F = np.concatenate([F_down, F_low])
    normals = np.cross(V[F[:, 1]] - V[F[:, 0]], V[F[:, 2]] - V[F[:, 0]])
    assert np.all(normals[:len(F_down), 1] < 0) and np.all(normals[len(F_down):, 1] > 0)
    path = tmp_path / "sheets.obj"
    trimesh.Trimesh(V, F, process=False).export(path)
    size = measure_mesh(path)
    x, _, z = size.spout_axis
    assert max(abs(x), abs(z)) > 0.05  # beside the upper sheet, over the lower one
    out = tmp_path / "sheets"
    assert main(["run", str(path), "-q", "--duration", "0.4", "-o", str(out),
                 "--cache-dir", str(tmp_path / "cache")]) == 0
    with np.load(out / "mesh.npz") as mesh:
        vertices = mesh["vertices"]
    wet = frame(out, 12)["depth"] > 1e-6
    assert wet.any() and np.all(np.abs(vertices[wet, 1]) < 1e-9)  # on the lower sheet

def test_run_prints_the_scene_with_its_size_and_up_axis(tmp_path, capsys):
    ball = write_ball(tmp_path)
    scene, lines = mesh_scene(ball, up="z")
    text = "\n".join(lines)
    assert "162 vertices, 0.2 x 0.2 x 0.2 m, diameter 0.2 m" in text
    assert "up        the file's +z, turned onto +y: gravity [0.0, -9.81, 0.0]" in text
    assert f"{expected_rate(0.2):.3g} m^3/s from 0.0 to 2.0 s" in text
    assert scene.params.gravity == (0.0, -9.81, 0.0) and scene.droplets is not None


def test_run_names_the_smallest_cells_before_it_steps(tmp_path, capsys):
    """`surfflow run MESH` prints the dual cells' line of `surfflow precompute` before the
    first step: on an icosphere of one subdivision the 12 valence-5 vertices (its first 12) hold
    the smallest cells, 0.93 of the median, and three of them are named."""
    ball = write_ball(tmp_path, subdivisions=1)
    assert main(["run", str(ball), "--duration", "0.04", "-q", "-o", str(tmp_path / "out")]) == 0
    printed = capsys.readouterr().out
    found = re.search(r"dual cells \(an explicit step is as short as the smallest wet one "
                      r"allows\): median (\S+) mm; the smallest 0.93 of it \(vertex (\d+)\), "
                      r"0.93 \((\d+)\), 0.93 \((\d+)\)\n", printed)
    assert found and len({int(v) for v in found.groups()[1:]} & set(range(12))) == 3, printed
    assert printed.index("dual cells") < printed.index("wrote "), printed


def test_new_writes_a_commented_scene_that_round_trips(runs):
    directory, ball, scene_file, outputs = runs
    assert outputs["new"] == 0
    text = scene_file.read_text()
    keys = [line for line in text.splitlines() if "=" in line.split("#")[0]]
    assert len(keys) >= 25 and all("  # " in line for line in keys)  # every key says what it is
    raw = parse_toml(text, scene_file)
    expected = default_scene(ball)
    expected["mesh"]["path"] = "../ball.obj"
    assert raw == expected
    from_file = load_scene(scene_file)
    in_memory, _ = mesh_scene(ball)
    assert from_file.mesh.path.resolve() == in_memory.mesh.path.resolve()
    same = dataclasses.replace(from_file, path=in_memory.path,
                               mesh=dataclasses.replace(from_file.mesh, path=in_memory.mesh.path))
    assert same == in_memory


def test_the_written_scene_gives_the_same_run(runs):
    _, _, _, outputs = runs
    (code_mesh, out_mesh), (code_scene, out_scene) = outputs["mesh"], outputs["scene"]
    assert code_mesh == code_scene == 0
    for k in range(7):
        a, b = frame(out_mesh, k), frame(out_scene, k)
        assert a.keys() == b.keys()
        for key in a:
            assert np.array_equal(a[key], b[key]), (k, key)
    assert film_volume(out_scene, 6) > 0.0


def test_new_does_not_overwrite(tmp_path, capsys):
    ball = write_ball(tmp_path)
    target = tmp_path / "ball.toml"
    target.write_text("# mine\n")
    assert main(["new", str(ball), "-o", str(target)]) == 1
    assert "exists" in capsys.readouterr().err and target.read_text() == "# mine\n"
    assert main(["new", str(ball), "-o", str(target), "--force", "--up", "z"]) == 0
    assert load_scene(target).mesh.up == "z"


def test_render_a_bare_mesh_shows_the_liquid(tmp_path):
    """Through a subprocess (EGL; polyscope's backend is chosen once per process): frame 0 has
    no water on it, the last (0.3 s) has the stream and the film on the top."""
    ball = write_ball(tmp_path, subdivisions=3)
    result = subprocess.run([sys.executable, "-m", "surfflow", "render", str(ball), "--duration",
                             "0.3", "--no-video", "-o", "pictures"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "ball.obj is a mesh" in result.stdout and "rendered 10 frames" in result.stdout
    import imageio.v2 as imageio
    first, last = (imageio.imread(tmp_path / "pictures" / f"frame_{k:05d}.png")[..., :3] for k in (0, 9))
    assert liquid_pixels(first) == 0
    assert liquid_pixels(last) > 300, liquid_pixels(last)
    assert np.sum(np.abs(first.astype(int) - last.astype(int)).sum(axis=-1) > 40) > 300


def test_view_a_bare_mesh_pours_headless(tmp_path):
    """The viewer on the default scene under polyscope's mock backend: playing pours from the
    spout, and the film gathers on the ball's top."""
    import polyscope as ps

    from surfflow.scene.scene_setup import scene_geometry, scene_mesh
    from surfflow.viewer.app import ViewerApp

    scene, _ = mesh_scene(write_ball(tmp_path), duration=0.2)
    geometry = scene_geometry(scene, *scene_mesh(scene.mesh), cache_dir=tmp_path)
    ps.init("openGL_mock")
    ps.set_frame_tick_limit_fps_mode("ignore_limits")
    app = ViewerApp(scene, geometry)
    ps.set_user_callback(app.callback)
    app.playing = True
    for _ in range(8):
        ps.frame_tick()
    sim = app.simulation
    assert sim.time == pytest.approx(0.2) and not app.playing  # stopped at the duration
    assert sim.ledger()["poured"] == pytest.approx(expected_rate(0.2) * 0.2, rel=1e-9)
    wet = sim.depth > 1e-6
    assert wet.any() and np.all(geometry.vertices[wet, 1] > 0.0)


XVFB_RUN, XDOTOOL = shutil.which("xvfb-run"), shutil.which("xdotool")


@pytest.mark.skipif(not (XVFB_RUN and XDOTOOL), reason="the real-window viewer test needs "
                    "xvfb-run and xdotool: apt-get install xvfb xdotool")
def test_view_a_bare_mesh_in_a_real_window(tmp_path):
    """`surfflow view ball.obj --play` under Xvfb: it prints the default scene, and the water
    shows between the panels (whose colour swatches are blue too) and grows as it pours (the
    grey ball and spout have no blue)."""
    ball = write_ball(tmp_path, subdivisions=3)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPOSITORY), os.environ.get("PYTHONPATH", "")])}
    result = subprocess.run([XVFB_RUN, "-a", "-s", "-screen 0 1280x1024x24", sys.executable,
                             str(Path(__file__).with_name("window_driver.py")), "--watch", str(ball),
                             str(tmp_path / "out"), "--duration", "0.5"],
                            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert result.returncode == 0, (result.stderr, report)
    assert "ball.obj is a mesh" in report["log"] and "up        the file's +y" in report["log"], report["log"]
    from PIL import Image
    window = report["window"]
    x0, x1 = window["X"] + int(0.28 * window["WIDTH"]), window["X"] + int(0.6 * window["WIDTH"])
    view = slice(window["Y"], window["Y"] + window["HEIGHT"]), slice(x0, x1)  # between the panels
    first, later = (liquid_pixels(np.asarray(Image.open(tmp_path / "out" / f"{name}.png").convert("RGB"))[view])
                    for name in ("first", "later"))
    assert later > 500 and later > first, (first, later)


# ---- the [mesh] table's units and up ----------------------------------------------------------


def test_mesh_units_scale_the_file_and_up_turns_it(tmp_path):
    """units = "mm" reads the file's numbers as millimetres (before scale); up = "z" turns the
    file's +z onto +y, (x, y, z) -> (x, z, -y), and the default gravity stays (0, -9.81, 0)."""
    ball = write_ball(tmp_path)
    V = np.asarray(trimesh.load(ball, process=False).vertices)
    base = f'[mesh]\npath = "{ball.name}"\n'
    scenes = {name: tmp_path / f"{name}.toml" for name in ("m", "mm", "z")}
    scenes["m"].write_text(base)
    scenes["mm"].write_text(base + 'units = "mm"\nscale = 2.0\n')
    scenes["z"].write_text(base + 'up = "z"\n')
    from surfflow.scene.scene_setup import scene_mesh
    in_m, _ = scene_mesh(load_scene(scenes["m"]).mesh)
    in_mm, _ = scene_mesh(load_scene(scenes["mm"]).mesh)
    turned, _ = scene_mesh(load_scene(scenes["z"]).mesh)
    assert np.allclose(in_m, V, rtol=0, atol=1e-12) and np.allclose(in_mm, V * 0.002, rtol=1e-12, atol=0)
    assert np.allclose(turned, V[:, [0, 2, 1]] * [1.0, 1.0, -1.0], rtol=0, atol=1e-12)
    assert load_scene(scenes["m"]).params.gravity == (0.0, -9.81, 0.0)
    assert load_scene(scenes["z"]).params.gravity == (0.0, -9.81, 0.0)


# ---- errors -----------------------------------------------------------------------------------


@pytest.fixture
def files(tmp_path):
    ball = write_ball(tmp_path)
    scene = tmp_path / "scene.toml"
    assert main(["new", str(ball), "-o", str(scene)]) == 0
    (tmp_path / "empty.obj").write_bytes(b"")
    (tmp_path / "empty.toml").write_bytes(b"")
    (tmp_path / "notes.txt").write_text("a mesh? [not toml\n")
    (tmp_path / "sweep_out").mkdir()
    return tmp_path


@pytest.mark.parametrize("argv, says", [
    (["precompute", "scene.toml"], ["scene.toml is a scene file, not a mesh", "precompute` takes a mesh file"]),
    (["new", "scene.toml"], ["scene.toml is a scene file, not a mesh", "surfflow run scene.toml"]),
    (["sweep", "ball.obj", "-o", "sweep_out"], ["ball.obj is a mesh file, not a sweep file", "surfflow run ball.obj"]),
    (["export-usd", "sweep_out", "--scene", "ball.obj"], ["ball.obj is a mesh file, not the scene file"]),
    (["run", "nowhere.obj"], ["nowhere.obj: no such file"]),
    (["view", "nowhere.toml"], ["nowhere.toml: no such file"]),
    (["new", "nowhere.obj"], ["nowhere.obj: no such file"]),
    (["run", "empty.obj"], ["empty.obj: the file is empty", "export the mesh again"]),
    (["render", "empty.toml"], ["empty.toml: the file is empty", "[mesh] table", "surfflow new"]),
    (["run", "notes.txt"], ["neither a scene (.toml) nor a mesh file", "'.txt'"]),
    (["run", "scene.toml", "--up", "z"], ["--up and --units are for a bare mesh", "[mesh] table"]),
    (["run", "sweep_out"], ["sweep_out: is a folder"]),
])
def test_the_wrong_file_gets_an_error_saying_which_is_which(files, argv, says, capsys, monkeypatch):
    monkeypatch.chdir(files)
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith("surfflow: error: ") and err.count("\n") == 1, err
    for text in says:
        assert text in err, (text, err)


def test_a_duration_must_be_positive(capsys):
    with pytest.raises(SystemExit) as info:
        main(["run", "ball.obj", "--duration", "0"])
    assert info.value.code == 2 and "'0' is not a number of seconds > 0" in capsys.readouterr().err
