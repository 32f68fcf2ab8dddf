"""Compile ahead: on a cold start the step's kernels compile in a spawned process while this one
loads the mesh and precomputes (compiling the precompute's kernels), so the two halves of the
compiling run side by side on two cores.

    ahead = compile_ahead(scene)    # None when the kernels are in numba's cache already
    geometry = ...                  # load and precompute; meanwhile the step's kernels compile
    simulation = ...                # its set-up compiles the set-up's kernels (the spawned one skips them)
    ahead.wait()                    # the first step then loads the step's kernels from the cache

The spawned process (a new ``python`` running :func:`main` on the pickled scene, never a
fork: numba's OpenMP layer does not survive one) builds the scene's run on a small icosphere
instead of its mesh, its pours moved onto the sphere's top, and takes a few steps: numba
compiles the same kernels for the same argument types and writes them to its cache, and this
process then reads them from there. What to compile is found by running the step, not listed:
the small scene's geometry and set-up run :func:`interpreted`, every kernel as plain Python
(a fraction of a second on 162 vertices), and the set-up's kernels stay so in its steps (the
nozzles' aim and the droplets' landings share one), so the spawned compiler compiles the step's
kernels and nothing that this process compiles itself. It reports its first step on its standard output, and
:meth:`CompileAhead.wait` returns then: the kernels of later steps (the droplets' meeting, once
there are droplets) go on compiling beside this process's first steps. Compiled code is the same
from the cache as compiled in place, so results do not change. Anything that fails in the
spawned process (a scene whose boundaries or files do not fit the sphere) only means this process
compiles what it needs itself, as without it. ``SURFFLOW_COMPILE_AHEAD=0`` turns it off.
:class:`~surfflow.SceneRunner` (``surfflow run``, ``render``, sweeps) and the viewer use it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import pickle
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import numpy as np

STEPS = 3
FIRST_STEP = "first step done"
COMMAND = "import sys; from surfflow.scene.compile_ahead import main; main(*sys.argv[1:3])"
RADIUS = 0.2
SUBDIVISIONS = 2
WAIT_LIMIT = 300.0  # s


def kernels_cached() -> bool:
    """Whether numba's cache holds the time step's kernel (a warm start: nothing to do)."""
    from ..kernels.timestep import cfl_time_step

    cache = getattr(cfl_time_step, "_cache", None)  # none with NUMBA_DISABLE_JIT=1
    return cache is None or os.path.exists(cache._cache_file._index_path)


class CompileAhead:
    """The spawned compiler of one scene's step kernels; :meth:`wait` before the first step."""

    def __init__(self, scene):
        self.folder = tempfile.TemporaryDirectory(prefix="surfflow-ahead-")
        path = Path(self.folder.name) / "scene.pickle"
        path.write_bytes(pickle.dumps(scene))
        self.process = subprocess.Popen(
            [sys.executable, "-c", COMMAND, str(path), self.folder.name],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)

    def wait(self) -> bool:
        """Wait until the spawned compiler has taken its first step (at most WAIT_LIMIT s: then it
        is stopped, and this process compiles what is left); True if it did. It goes on with the
        later steps' kernels meanwhile, and ends by itself."""
        reported = []
        reader = threading.Thread(target=lambda: reported.append(self.process.stdout.readline()),
                                  daemon=True)
        reader.start()
        reader.join(WAIT_LIMIT)
        if reader.is_alive():
            self.process.kill()
        self.folder.cleanup()
        return bool(reported) and reported[0].strip() == FIRST_STEP


def compile_ahead(scene) -> CompileAhead | None:
    """Start compiling ``scene``'s step kernels in a spawned process, or None on a warm cache
    (or with ``SURFFLOW_COMPILE_AHEAD=0``, or a scene that cannot be pickled)."""
    if (os.environ.get("SURFFLOW_COMPILE_AHEAD", "1") == "0" or scene.mode != "film"
            or kernels_cached()):
        return None
    try:
        return CompileAhead(scene)
    except (pickle.PicklingError, TypeError, AttributeError, OSError):
        return None


def small_scene(scene):
    """``scene`` on an icosphere of radius RADIUS (m) with its pours and rain centred on the
    sphere's top (against gravity), its nozzles RADIUS above that top pointing down and its rain
    over a box around the sphere."""
    from .scene import MeshSpec

    gravity = np.asarray(scene.params.gravity, dtype=np.float64)
    top = tuple(-RADIUS * gravity / max(np.linalg.norm(gravity), 1e-300))
    sources = tuple(dataclasses.replace(s, center=top, radius=0.5 * RADIUS, start=0.0)
                    if s.center is not None else dataclasses.replace(s, start=0.0)
                    for s in scene.sources)
    down = gravity / max(np.linalg.norm(gravity), 1e-300)
    emitters = tuple(dataclasses.replace(e, position=tuple(2.0 * np.asarray(top)), direction=tuple(down),
                                         radius=0.1 * RADIUS, start=0.0)
                     if e.kind == "nozzle" else
                     dataclasses.replace(e, region=((-RADIUS,) * 3, (RADIUS,) * 3), start=0.0)
                     for e in scene.emitters)
    mesh = MeshSpec(procedural="icosphere",
                    procedural_args={"subdivisions": SUBDIVISIONS, "radius": RADIUS})
    return dataclasses.replace(scene, mesh=mesh, sources=sources, emitters=emitters)


def compiled_functions(module) -> list:
    """(name, dispatcher) of every compiled function named in ``module``."""
    from numba.core.registry import CPUDispatcher

    return [(name, value) for name, value in list(vars(module).items())
            if isinstance(value, CPUDispatcher)]


@contextlib.contextmanager
def interpreted(names=None):
    """Meanwhile the kernels of surfflow's modules (those of ``names`` alone, a set of
    (module, name)) run as plain Python: each module's name for a compiled function points at
    its Python function, and back at the end. Yields the set of (module, name) called."""
    called = set()
    swapped = [(module, name, value) for key, module in list(sys.modules.items())
               if key.split(".")[0] == "surfflow" for name, value in compiled_functions(module)
               if names is None or (module, name) in names]
    for module, name, value in swapped:
        setattr(module, name, recording(value.py_func, (module, name), called))
    try:
        yield called
    finally:
        for module, name, value in swapped:
            setattr(module, name, value)


def recording(function, key, called: set):
    """``function``, adding ``key`` to ``called`` when called."""
    def run(*args, **kwargs):
        called.add(key)
        return function(*args, **kwargs)
    return run


def called_from_python(called: set) -> set:
    """Those of ``called`` (module, name) that no compiled function of the module calls: a
    compiled caller looks its callees up among its module's names when it compiles, so only
    these may stay interpreted while others compile."""
    return {(module, name) for module, name in called
            if not any(name in value.py_func.__code__.co_names
                       for _, value in compiled_functions(module)
                       if value.py_func.__globals__ is vars(module))}


def main(scene_file: str, folder: str) -> None:
    """The spawned process: the small scene's geometry and simulation interpreted, then a few
    steps, compiling their kernels (the set-up's stay interpreted: the main process compiles
    them in its own set-up); prints FIRST_STEP after the first."""
    from .scene_setup import scene_geometry, scene_mesh, scene_simulation

    scene = small_scene(pickle.loads(Path(scene_file).read_bytes()))
    with interpreted() as set_up:
        geom = scene_geometry(scene, *scene_mesh(scene.mesh), cache_dir=folder)
        sim = scene_simulation(scene, geom, crash_dir=folder)
    with interpreted(called_from_python(set_up)):
        for step in range(STEPS):
            sim.step()
            if step == 0:
                print(FIRST_STEP, flush=True)
