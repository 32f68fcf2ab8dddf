"""Parameter sweeps on Dask: sweep files, a 2-worker LocalCluster shared by the module's tests,
bit-identical results to serial runs, failed cases, resume, one geometry build per mesh."""

import csv
import json
import sys

import numpy as np
import pytest

from surfflow.batch import load_sweep, sweep
from surfflow.batch.cluster import ClusterError, dask_client
from surfflow.batch.results import write_tables
from surfflow.cli import EXAMPLES_DIR, main
from surfflow.errors import ParameterError, SceneError
from surfflow.io.checkpoint import load_checkpoint
from surfflow.scene.scene import load_scene
from surfflow.scene.toml_lines import parse_toml
from surfflow.scene.toml_write import dumps
from surfflow.scene.runner import SceneRunner

TILTED_SCENE = """\
name = "tilted"
duration = {duration}
fps = 10

[mesh]
procedural = "plane"
size = [0.2, 0.2]
resolution = {resolution}
rotation = [-80.0, 0.0, 0.0]

[precompute]
smoothing_iterations = 0

[liquid]
preset = "water"

[friction]
coefficient = {coefficient}

[solver]
boundary = "outflow"

[[sources]]
type = "pour"
center = [0.0, 0.0, 0.0]
radius = 0.05
rate = {rate}

[output]
formats = ["npz"]
"""
"""A 0.2 m square tilted 10 degrees off vertical with a pour at its centre and an outflow rim."""

BASE = {"duration": 0.2, "resolution": [6, 6], "coefficient": 2.0, "rate": 1.0e-6}


def write_base(tmp_path, **values):
    path = tmp_path / "tilted.toml"
    path.write_text(TILTED_SCENE.format(**{**BASE, **values}))
    return path


def write_sweep(tmp_path, text):
    write_base(tmp_path)
    path = tmp_path / "sweep.toml"
    path.write_text('scene = "tilted.toml"\n' + text)
    return path


def read_csv(path):
    with open(path, newline="") as stream:
        return list(csv.DictReader(stream))


@pytest.fixture(scope="module")
def scheduler():
    """The address of a 2-worker LocalCluster made the way ``sweep`` makes its own."""
    pytest.importorskip("distributed")
    from surfflow.batch.cluster import start_local_cluster
    with start_local_cluster(2) as cluster:
        yield cluster.scheduler_address


# ---- sweep files (no cluster) -------------------------------------------------------------

def test_cases_are_the_explicit_cases_times_the_axes_grid(tmp_path):
    spec = load_sweep(write_sweep(tmp_path, """
[axes]
"friction.coefficient" = [1.0, 2.0]
solver.cfl = [0.3, 0.4]

[[cases]]
name = "water"

[[cases]]
"liquid.preset" = "honey"
"sources[0].rate" = 2e-6
"""))
    assert spec.keys == ("friction.coefficient", "solver.cfl", "liquid.preset", "sources[0].rate")
    assert [c.name for c in spec.cases] == ["water-000", "water-001", "water-002", "water-003",
                                            "case-004", "case-005", "case-006", "case-007"]
    assert [(c.values["friction.coefficient"], c.values["solver.cfl"]) for c in spec.cases[:4]] == [
        (1.0, 0.3), (1.0, 0.4), (2.0, 0.3), (2.0, 0.4)]
    assert spec.cases[5].values == {"liquid.preset": "honey", "sources[0].rate": 2e-6,
                                    "friction.coefficient": 1.0, "solver.cfl": 0.4}
    assert load_sweep(write_sweep(tmp_path, "")).cases[0].values == {}


@pytest.mark.parametrize("text, expected", [
    ('[axes]\n"friction.coeficient" = [1.0]\n',
     r"line 3: axes\.\"friction\.coeficient\": not a scene key; did you mean 'friction\.coefficient'"),
    ('[axes]\n"friction.coefficient" = [1.0, "high"]\n',
     r"line 3: axes\.\"friction\.coefficient\"\[1\]: must be a finite number"),
    ('[axes]\nduration = 0.5\n', r"line 3: axes\.duration: must be a non-empty list of values"),
    ('[axes]\n"sources[1].rate" = [1e-6]\n', r"has 1 \[\[sources\]\] entries; index them from 0 to 0"),
    ('[axes]\nduration = [0.1]\n[[cases]]\nduration = 0.2\n', r"line 5: cases\[0\]\.duration: is also an axis"),
    ('[[cases]]\nname = "a b"\n', r"cases\[0\]\.name: must be a folder name"),
    ('[[cases]]\nname = "a"\n[[cases]]\nname = "a"\n', r"two cases are named 'a'"),
    ('seed = 3\n', r"line 2: seed: unknown key; a sweep file holds scene, axes, cases"),
])
def test_bad_sweep_files_name_the_line_key_and_fix(tmp_path, text, expected):
    with pytest.raises(SceneError, match=expected):
        load_sweep(write_sweep(tmp_path, text))


def test_the_base_scene_is_an_example_or_a_file(tmp_path):
    path = tmp_path / "sweep.toml"
    path.write_text('scene = "paint_groves"\n')
    with pytest.raises(SceneError, match=r"line 1: scene: no example 'paint_groves'; the examples are .*paint_grooves"):
        load_sweep(path)
    path.write_text('[axes]\nduration = [1.0]\n')
    with pytest.raises(SceneError, match='sweep.toml: scene: give the base scene: scene = "EXAMPLE"'):
        load_sweep(path)
    path.write_text('scene = "missing.toml"\n')
    with pytest.raises(SceneError, match="no scene file .*missing.toml.*relative to the sweep file"):
        load_sweep(path)
    shipped = load_sweep(EXAMPLES_DIR / "sweeps" / "paint_runniness.toml")
    assert shipped.scene_path == EXAMPLES_DIR / "paint_grooves.toml" and len(shipped.cases) == 6


def test_toml_writer_round_trips_every_example():
    for path in EXAMPLES_DIR.glob("*.toml"):
        raw = parse_toml(path.read_text(), path)
        assert parse_toml(dumps(raw), path) == raw
    odd = {"a.b": 'x"\n', "inf": float("inf"), "t": {"u": {"v": [1, 2.5e-7]}}, "s": [{"r": 1}, {}]}
    assert parse_toml(dumps(odd), "odd") == odd


def test_results_table_csv_and_parquet_agree(tmp_path):
    rows = [{"case": "a", "status": "ok", "error": "", "mesh.resolution": [4, 4], "volume": 1.5},
            {"case": "b", "status": "failed", "error": "E: x", "mesh.resolution": [6, 6], "volume": None}]
    written = write_tables(rows, tmp_path)
    table = read_csv(tmp_path / "results.csv")
    assert [r["mesh.resolution"] for r in table] == ["[4, 4]", "[6, 6]"] and table[1]["volume"] == ""
    if len(written) == 2:
        import pyarrow.parquet as pq
        parquet = pq.read_table(written[1]).to_pylist()
        assert [r["volume"] for r in parquet] == [1.5, None] and parquet[1]["error"] == "E: x"


def test_bad_arguments_are_refused_before_anything_runs(tmp_path):
    path = write_sweep(tmp_path, "")
    with pytest.raises(ParameterError, match="workers=0 must be a whole number >= 1"):
        sweep(path, tmp_path / "out", workers=0)
    with pytest.raises(ParameterError, match="metric name 'volume' is a built-in column"):
        sweep(path, tmp_path / "out", metrics={"volume": lambda sim: 0.0})
    assert not (tmp_path / "out").exists()


def test_missing_dask_names_the_extra(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(ClusterError, match=r'pip install "surfflow\[cluster\]"'), dask_client():
        pass
    path = write_sweep(tmp_path, '[axes]\nduration = [0.1]\n')
    assert main(["sweep", str(path), "-o", str(tmp_path / "out"), "-q"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "surfflow[cluster]" in err


# ---- sweeps on the shared 2-worker cluster --------------------------------------------------

def test_workers_are_spawned_single_threaded(scheduler):
    from distributed import Client
    test_module = __name__

    def settings():
        import os

        import numba
        return os.environ["NUMBA_NUM_THREADS"], numba.get_num_threads(), test_module in sys.modules

    with Client(scheduler) as client:
        assert list(client.nthreads().values()) == [1, 1]
        # a forked worker would hold this test module, imported before the cluster started
        assert list(client.run(settings).values()) == [("1", 1, False)] * 2


def test_sweep_is_bit_identical_to_serial_runs(tmp_path, scheduler):
    path = write_sweep(tmp_path, """
[axes]
"friction.coefficient" = [1.0, 4.0]
"sources[0].rate" = [1.0e-6, 3.0e-6]
""")
    metrics = {"wet_vertices": lambda sim: float(np.count_nonzero(sim.depth > 0.0))}
    rows = sweep(path, tmp_path / "out", scheduler=scheduler, metrics=metrics,
                 cache_dir=tmp_path / "cache", progress=False)
    assert [r["status"] for r in rows] == ["ok"] * 4
    for row in rows:
        serial_dir = tmp_path / "serial" / row["case"]
        serial_dir.mkdir(parents=True)
        scene = serial_dir / "tilted.toml"
        scene.write_text(TILTED_SCENE.format(**{**BASE, "coefficient": row["friction.coefficient"],
                                                 "rate": row["sources[0].rate"]}))
        runner = SceneRunner(load_scene(scene), output_dir=serial_dir, cache_dir=tmp_path / "cache")
        runner.run()
        sim = runner.simulation
        swept = load_checkpoint(tmp_path / "out" / row["case"] / "checkpoint.npz").state
        serial = sim.state_dict()
        assert swept.keys() == serial.keys()
        for name, values in serial.items():
            assert np.array_equal(swept[name], values), (row["case"], name)
        assert row["steps"] == runner.steps_taken and row["volume"] == sim.total_volume()
        assert row["wet_vertices"] == np.count_nonzero(sim.depth > 0.0)
        assert row["ledger_outflow"] == sim.ledger()["outflow"] > 0.0
        assert abs(row["ledger_balance_error"]) < 1e-12 * row["ledger_poured"]
        assert row["max_depth"] == sim.depth.max()
        assert 0.0 < row["wetted_area"] < 0.04
    assert rows[1]["volume"] > rows[0]["volume"] and rows[2]["outflow_volume"] < rows[0]["outflow_volume"]
    table = read_csv(tmp_path / "out" / "results.csv")
    assert [r["case"] for r in table] == [f"case-{k:03d}" for k in range(4)]
    assert float(table[3]["volume"]) == rows[3]["volume"]
    resolved_path = tmp_path / "out" / "case-003" / "scene.toml"
    resolved = parse_toml(resolved_path.read_text(), resolved_path)
    assert resolved["friction"]["coefficient"] == 4.0 and resolved["sources"][0]["rate"] == 3.0e-6


def test_failed_cases_are_recorded_and_resume_skips_finished_ones(tmp_path, scheduler, capsys):
    path = write_sweep(tmp_path, """
[axes]
duration = [0.1]

[[cases]]
name = "good"

[[cases]]
name = "missing_file"
"initial.file" = "missing.npy"

[[cases]]
name = "stops_early"
"sources[0].stop" = 0.0

[[cases]]
name = "no_friction_field"
"friction.tensor" = "field"
"friction.file" = "missing.npy"

[[cases]]
name = "also_good"
"friction.coefficient" = 8.0
""")
    out = tmp_path / "out"
    args = ["sweep", str(path), "-o", str(out), "--scheduler", scheduler, "-q",
            "--cache-dir", str(tmp_path / "cache")]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert "case missing_file failed: SceneError: cannot read initial depth file" in err
    assert "case stops_early failed: SceneError:" in err and "must be later than 'start'" in err
    assert "case no_friction_field failed: SceneError: cannot read friction field file" in err
    table = read_csv(out / "results.csv")
    assert [(r["case"], r["status"]) for r in table] == [
        ("good", "ok"), ("missing_file", "failed"), ("stops_early", "failed"),
        ("no_friction_field", "failed"), ("also_good", "ok")]
    assert table[1]["initial.file"] == "missing.npy" and table[0]["initial.file"] == ""
    assert json.loads((out / "missing_file" / "result.json").read_text())["status"] == "failed"

    finished = {name: (out / name / "checkpoint.npz").stat().st_mtime_ns for name in ("good", "also_good")}
    np.save(tmp_path / "missing.npy", np.zeros(49))
    assert main(args + ["--resume"]) == 1
    assert {name: (out / name / "checkpoint.npz").stat().st_mtime_ns for name in finished} == finished
    table = read_csv(out / "results.csv")
    assert [r["status"] for r in table] == ["ok", "ok", "failed", "ok", "ok"]


def test_each_mesh_is_precomputed_once_across_workers(tmp_path, scheduler, monkeypatch):
    path = write_sweep(tmp_path, """
[axes]
"mesh.resolution" = [[4, 4], [8, 8]]
"friction.coefficient" = [1.0, 2.0, 3.0]
duration = [0.1]
""")

    def count_builds():
        import surfflow.geometry.precompute as pre
        original = getattr(pre, "_uncounted_smooth_surface", pre.smooth_surface)
        pre._uncounted_smooth_surface, pre.builds = original, 0

        def counted(*args, **kwargs):
            pre.builds += 1
            return original(*args, **kwargs)
        pre.smooth_surface = counted

    def builds():
        import surfflow.geometry.precompute as pre
        count, pre.smooth_surface = pre.builds, pre._uncounted_smooth_surface
        return count

    monkeypatch.setenv("SURFFLOW_SCHEDULER", scheduler)
    cache = tmp_path / "cache"
    from distributed import Client
    with Client(scheduler) as client:
        for out, expected in (("first", 2), ("second", 0)):
            client.run(count_builds)
            rows = sweep(path, tmp_path / out, cache_dir=cache, progress=False)
            assert sum(client.run(builds).values()) == expected, out
            assert [r["status"] for r in rows] == ["ok"] * 6
    keys = {r["geometry_key"] for r in rows}
    assert len(keys) == 2 and {p.name for p in cache.iterdir()} == {f"{k}.geom.npz" for k in keys}


def test_cli_sweep_starts_and_stops_its_own_local_cluster(tmp_path, capsys):
    pytest.importorskip("distributed")
    path = write_sweep(tmp_path, '[axes]\nduration = [0.1]\n')
    out = tmp_path / "out"
    assert main(["sweep", str(path), "-o", str(out), "--workers", "1", "-q",
                 "--cache-dir", str(tmp_path / "cache")]) == 0
    assert f"1 of 1 cases ok; results in {out / 'results.csv'}" in capsys.readouterr().out
    row = json.loads((out / "case-000" / "result.json").read_text())
    assert row["status"] == "ok" and row["time"] == 0.1 and row["ledger_poured"] > 0.0
