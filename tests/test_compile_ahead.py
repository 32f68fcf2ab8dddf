"""Compile ahead: the small scene a spawned process compiles the step's kernels on, its set-up
run interpreted (compiling nothing), the first step's kernels listed and shared between the two
processes, waiting only for the spawned compiler's share, and that nothing is spawned on a warm
cache."""

import sys
import time

import numpy as np
from numba import float64, int64, typeof
from numba.core import event
from scene_helpers import TINY_SCENE

import surfflow as sf
from surfflow.cli import EXAMPLES_DIR
from surfflow.geometry import precompute, transport
from surfflow.kernels import reconstruction
from surfflow.scene import compile_ahead as ahead
from surfflow.scene.scene import parse_scene
from surfflow.scene.scene_setup import scene_geometry, scene_mesh, scene_simulation


def test_the_small_scene_pours_onto_the_top_of_an_icosphere():
    scene = sf.load_scene(EXAMPLES_DIR / "bunny_pour.toml")          # two spouts
    small = ahead.small_scene(scene)
    assert small.mesh.path is None and small.mesh.procedural == "icosphere"
    assert small.mesh.procedural_args == {"subdivisions": 2, "radius": 0.2}
    assert [e.position for e in small.emitters] == [(0.0, 0.4, 0.0)] * 2  # gravity is -y
    assert [e.direction for e in small.emitters] == [(0.0, -1.0, 0.0)] * 2
    assert [e.start for e in small.emitters] == [0.0, 0.0]
    assert [e.rate for e in small.emitters] == [e.rate for e in scene.emitters]
    assert small.params == scene.params and small.droplets == scene.droplets


def test_the_small_scene_pours_its_surface_sources_onto_the_top(tmp_path):
    scene = parse_scene(TINY_SCENE, tmp_path / "tiny.toml")
    small = ahead.small_scene(scene)
    pours = [s for s in small.sources if s.center is not None]
    assert pours and all(s.center == (0.0, 0.2, 0.0) and s.start == 0.0 for s in pours)


def test_nothing_is_spawned_on_a_warm_cache_or_when_turned_off(tmp_path, monkeypatch):
    scene = parse_scene(TINY_SCENE, tmp_path / "tiny.toml")
    runner = sf.SceneRunner(scene, output_dir=tmp_path, cache_dir=tmp_path / "cache")
    runner.simulation.step()  # the time step's kernel is now in the cache
    assert ahead.kernels_cached() and ahead.compile_ahead(scene) is None
    monkeypatch.setattr(ahead, "kernels_cached", lambda: False)
    monkeypatch.setenv("SURFFLOW_COMPILE_AHEAD", "0")
    assert ahead.compile_ahead(scene) is None


def test_the_small_scene_is_set_up_interpreted_compiling_nothing(tmp_path):
    scene = ahead.small_scene(parse_scene(TINY_SCENE, tmp_path / "tiny.toml"))
    kernel = transport.ring_edge_geometry_serial  # a still surface's precompute: serial twins
    with event.install_recorder("numba:compile") as recorder, ahead.interpreted() as called:
        assert transport.ring_edge_geometry_serial is not kernel
        geom = scene_geometry(scene, *scene_mesh(scene.mesh), cache_dir=tmp_path)
        scene_simulation(scene, geom, crash_dir=tmp_path)
    assert geom.n_vertices == 162 and np.allclose(np.linalg.norm(geom.vertices, axis=1), 0.2, atol=0.01)
    assert recorder.buffer == []
    assert transport.ring_edge_geometry_serial is kernel  # back after the set-up
    # the set-up's kernels stay interpreted in the compiler's steps, not the helpers that
    # compiled kernels call (rotation_onto: ring_edge_geometry_serial, which precompute calls
    # under its own name for it, calls it)
    assert (transport, "rotation_onto") in called and (precompute, "ring_edge_geometry_serial") in called
    kept = ahead.called_from_python(called)
    assert (precompute, "ring_edge_geometry_serial") in kept and (transport, "rotation_onto") not in kept


def test_waiting_ends_at_the_spawned_compilers_first_step(tmp_path, monkeypatch):
    scene = parse_scene(TINY_SCENE, tmp_path / "tiny.toml")
    report = f"import time; print({ahead.FIRST_STEP!r}, flush=True); time.sleep(30)"
    monkeypatch.setattr(ahead, "COMMAND", report)
    started = time.perf_counter()
    compiler = ahead.CompileAhead(scene)
    assert compiler.wait() and time.perf_counter() - started < 20.0  # not its end
    compiler.process.kill()
    compiler.process.wait()


def test_the_first_steps_kernels_are_listed_largest_first_with_their_types(tmp_path):
    scene = ahead.small_scene(parse_scene(TINY_SCENE, tmp_path / "tiny.toml"))
    with ahead.interpreted() as set_up:
        sim = scene_simulation(scene, scene_geometry(scene, *scene_mesh(scene.mesh),
                                                     cache_dir=tmp_path), crash_dir=tmp_path)
    with ahead.interpreted() as stepped:
        sim.step()
    kernels = ahead.first_step_kernels(stepped, ahead.called_from_python(set_up))
    names = [name for _, name, _ in kernels]
    sizes = [ahead.compile_size(getattr(sys.modules[module], name).py_func)
             for module, name, _ in kernels]
    assert sizes == sorted(sizes, reverse=True)  # the largest first: they meet among small ones
    assert names.index("carry") < names.index("cfl_time_step")
    assert "ring_edge_geometry_serial" not in names  # the set-up's: the main process's own
    module, name, types = kernels[names.index("cfl_time_step")]
    assert module == "surfflow.simulation" and types[0] == typeof(sim.state.depth)


def test_the_two_processes_share_the_kernels_from_both_ends_each_compiling_its_claims(tmp_path):
    types = (float64, float64, typeof(np.zeros((3, 2))), int64, float64, float64)
    kernels = [("surfflow.kernels.reconstruction", "offset_dot", None)] * 5
    kernels[4] = ("surfflow.kernels.reconstruction", "offset_dot", types)
    assert ahead.compile_share(tmp_path, kernels, [4, 3]) == [4, 3]  # the main process, set up
    assert types in reconstruction.offset_dot.signatures
    assert ahead.compile_share(tmp_path, kernels, range(5)) == [0, 1, 2]  # the spawned one
    assert ahead.compile_share(tmp_path, kernels, reversed(range(3))) == []  # nothing left
