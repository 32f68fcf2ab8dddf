"""Compile ahead: on a cold start the step's kernels compile in a spawned process while this one
loads the mesh and precomputes (compiling the precompute's kernels), so the two halves of the
compiling run side by side on two cores.

    ahead = compile_ahead(scene)    # None when the kernels are in numba's cache already
    geometry = ...                  # load and precompute; meanwhile the step's kernels compile
    simulation = ...                # its set-up compiles the set-up's kernels (the spawned one skips them)
    ahead.wait()                    # compiles this one's share of the step's kernels; the first
                                    # step then loads the others from the cache

The spawned process (a new ``python`` running :func:`main` on the pickled scene, never a
fork: numba's OpenMP layer does not survive one) builds the scene's run on a small icosphere
instead of its mesh, its pours moved onto the sphere's top, and takes a few steps: numba
compiles the same kernels for the same argument types and writes them to its cache, and this
process then reads them from there. What to compile is found by running the step, not listed:
the small scene's geometry and set-up run :func:`interpreted`, every kernel as plain Python
(a fraction of a second on 162 vertices), and the set-up's kernels stay so in its steps (the
nozzles' aim and the droplets' landings share one), so the spawned compiler compiles the step's
kernels and nothing that this process compiles itself. Its first step runs interpreted too,
recording the kernels it calls from Python with their argument types, listed largest first
(:func:`compile_size`); then it compiles them from the first on, and this process, once set up,
from the last back
(:meth:`CompileAhead.wait`), each claiming a kernel before compiling it (:func:`compile_share`),
until they meet: the two cores share the step's kernels whichever process is set up first. The
spawned one reports on its standard output when it has compiled its share, and
:meth:`CompileAhead.wait` returns then (this process has its own share in memory, and loads the
other's from the cache in its first step); it goes on with a few steps, the first step's kernels
of this process's share interpreted, compiling the kernels of later steps (the droplets' meeting,
once there are droplets) beside this process's first steps. Compiled code is the same
from the cache as compiled in place, so results do not change. Anything that fails in the
spawned process (a scene whose boundaries or files do not fit the sphere) only means this process
compiles what it needs itself, as without it (so does a listed kernel that does not compile
here for the listed types). ``SURFFLOW_COMPILE_AHEAD=0`` turns it off.
:class:`~surfflow.SceneRunner` (``surfflow run``, ``render``, sweeps) and the viewer use it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import os
import pickle
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import numba
import numpy as np
from numba.core.errors import NumbaError

STEPS = 3
FIRST_STEP = "first step done"
KERNELS = "kernels.pickle"  # [(module, name, argument types)] of the first step, largest first
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
        """Compile this process's share of the first step's kernels, from the last back, then wait
        until the spawned compiler has compiled its share (at most WAIT_LIMIT s: then it is
        stopped, and this process compiles what is left); True if it did. It goes on with the
        later steps' kernels meanwhile, and ends by itself."""
        reported = []
        reader = threading.Thread(target=lambda: reported.append(self.process.stdout.readline()),
                                  daemon=True)
        reader.start()
        kernels = Path(self.folder.name) / KERNELS
        if kernels.exists():  # not yet, or never: the spawned compiler failed before its step
            listed = pickle.loads(kernels.read_bytes())
            with contextlib.suppress(NumbaError):  # types the step does not give: it compiles
                compile_share(self.folder.name, listed, reversed(range(len(listed))))
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
    its Python function, and back at the end. Yields {(module, name): argument types} of those
    called, in the order of their first calls."""
    called = {}
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


def recording(function, key, called: dict):
    """``function``, setting ``called[key]`` to the numba types of its arguments in its first
    call (None with keyword arguments or an argument numba cannot type: left for the call itself
    to compile; as are the types of later calls, if they differ)."""
    def run(*args, **kwargs):
        if key not in called:
            called[key] = None if kwargs else argument_types(args)
        return function(*args, **kwargs)
    return run


def argument_types(args) -> tuple | None:
    """The numba types of ``args``, None if one has none (the call compiles when it comes)."""
    try:
        return tuple(map(numba.typeof, args))
    except ValueError:
        return None


def called_from_python(called) -> set:
    """Those of ``called`` (module, name) (a set, or the keys of a dict) that no compiled
    function of the module calls: a
    compiled caller looks its callees up among its module's names when it compiles, so only
    these may stay interpreted while others compile."""
    return {(module, name) for module, name in called
            if not any(name in value.py_func.__code__.co_names
                       for _, value in compiled_functions(module)
                       if value.py_func.__globals__ is vars(module))}


def first_step_kernels(stepped: dict, set_up: set) -> list:
    """[(module name, name, argument types)] of the kernels of ``stepped`` (from
    :func:`interpreted`) called from Python, but those of ``set_up`` (the main process compiles
    them in its set-up), largest first (:func:`compile_size`; in call order where equal): the
    two processes then meet among the small ones, and the one that is done first waits for a
    short compile, not for the longest (measured: up to 1 s idle when they met at tracers.carry
    or limited_faces, which come late in a step)."""
    kept = called_from_python(stepped) - set_up
    listed = [(module, name, signature) for (module, name), signature in stepped.items()
              if (module, name) in kept]
    listed.sort(key=lambda kernel: -compile_size(getattr(kernel[0], kernel[1]).py_func))
    return [(module.__name__, name, signature) for module, name, signature in listed]


def compile_size(function, counted=None) -> int:
    """Bytes of Python bytecode of ``function`` and of the compiled functions it calls, each
    counted once: a guess at its compile time (across the first step's kernels it goes with
    it, 0.04-1.5 s)."""
    from numba.core.registry import CPUDispatcher

    counted = set() if counted is None else counted
    counted.add(function)
    size = len(function.__code__.co_code)
    for name in function.__code__.co_names:
        value = function.__globals__.get(name)
        if isinstance(value, CPUDispatcher) and value.py_func not in counted:
            size += compile_size(value.py_func, counted)
    return size


def compile_share(folder: str, kernels: list, indices) -> list:
    """Compile ``kernels[i]`` (from :func:`first_step_kernels`) for i in ``indices``, each once
    claimed (creating the file ``claimed<i>`` in ``folder``: the first of the two processes to
    create it compiles it), until one the other process has claimed; returns the indices
    compiled."""
    compiled = []
    for index in indices:
        try:
            os.close(os.open(Path(folder) / f"claimed{index}", os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            break
        module, name, signature = kernels[index]
        if signature is not None:
            getattr(importlib.import_module(module), name).compile(signature)
        compiled.append(index)
    return compiled


def main(scene_file: str, folder: str) -> None:
    """The spawned process: the small scene's geometry, simulation and first step interpreted,
    recording the first step's kernels; its share of them compiled (:func:`compile_share`, from
    the first on), then FIRST_STEP printed; then a few steps, compiling the later steps' kernels
    (the set-up's and the main process's share stay interpreted: the main process compiles
    them)."""
    from .scene_setup import scene_geometry, scene_mesh, scene_simulation

    scene = small_scene(pickle.loads(Path(scene_file).read_bytes()))
    with interpreted() as set_up:
        geom = scene_geometry(scene, *scene_mesh(scene.mesh), cache_dir=folder)
        sim = scene_simulation(scene, geom, crash_dir=folder)
    with interpreted() as stepped:
        sim.step()
    set_up = called_from_python(set_up)
    kernels = first_step_kernels(stepped, set_up)
    listing = Path(folder) / (KERNELS + ".part")
    listing.write_bytes(pickle.dumps(kernels))
    listing.replace(Path(folder) / KERNELS)  # whole, for the main process to read
    own = len(compile_share(folder, kernels, range(len(kernels))))
    print(FIRST_STEP, flush=True)
    shared = {(sys.modules[module], name) for module, name, _ in kernels[own:]}
    with interpreted(set_up | shared):
        for _ in range(STEPS):
            sim.step()
