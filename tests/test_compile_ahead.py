"""Compile ahead: the small scene a spawned process compiles the step's kernels on, its geometry
built with numba's JIT off, and that nothing is spawned on a warm cache."""

import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
from scene_helpers import TINY_SCENE

import surfflow as sf
from surfflow.cli import EXAMPLES_DIR
from surfflow.scene import compile_ahead as ahead
from surfflow.scene.scene import parse_scene

REPOSITORY = Path(__file__).resolve().parents[1]


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


def test_the_small_geometry_is_built_without_the_jit(tmp_path):
    scene = parse_scene(TINY_SCENE, tmp_path / "tiny.toml")
    (tmp_path / "scene.pickle").write_bytes(pickle.dumps(scene))
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=str(REPOSITORY))
    subprocess.run([sys.executable, "-c", ahead.COMMAND, str(tmp_path / "scene.pickle"),
                    str(tmp_path)], env=env, check=True, timeout=120)
    [cached] = tmp_path.glob("*.geom.npz")
    geom = sf.SurfaceGeometry.load(cached)
    assert geom.n_vertices == 162 and np.allclose(np.linalg.norm(geom.original_vertices, axis=1), 0.2)
