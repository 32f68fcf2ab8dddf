"""Compile ahead: on a cold start the step's kernels compile in a spawned process while this one
loads the mesh and precomputes (compiling the precompute's kernels), so the two halves of the
compiling run side by side on two cores.

    ahead = compile_ahead(scene)    # None when the kernels are in numba's cache already
    geometry = ...                  # load and precompute; meanwhile the step's kernels compile
    simulation = ...                # its set-up compiles the ring fit (the spawned one skips it)
    ahead.wait()                    # the first step then loads the step's kernels from the cache

The spawned process (a new ``python`` running :func:`main` on the pickled scene, never a
fork: numba's OpenMP layer does not survive one) builds the scene's run on a small icosphere
instead of its mesh, its pours moved onto the sphere's top, and takes a few steps: numba
compiles the same kernels for the same argument types and writes them to its cache, and this
process then reads them from there. The icosphere's geometry is precomputed first in a
process with numba's JIT off (plain Python, about a second on 162 vertices), so that the spawned
compiler does not compile the precompute's kernels a second time. Compiled code is the same from
the cache as compiled in place, so results do not change. Anything that fails in the spawned
process (a scene whose boundaries or files do not fit the sphere) only means this process
compiles what it needs itself, as without it. ``SURFFLOW_COMPILE_AHEAD=0`` turns it off.
:class:`~surfflow.SceneRunner` (``surfflow run``, ``render``, sweeps) and the viewer use it.
"""

from __future__ import annotations

import dataclasses
import os
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

STEPS = 3
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
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def wait(self) -> bool:
        """Wait for the spawned compiler (at most WAIT_LIMIT s: then it is stopped, and this
        process compiles what is left); True if it compiled everything it tried."""
        try:
            code = self.process.wait(WAIT_LIMIT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait()
        self.folder.cleanup()
        return code == 0


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


def skip_ring_fit(offsets, neighbor_coords, weights) -> None:
    """Stands in for ``ring_fit_weights`` in the spawned compiler: the small run's numbers do
    not matter, only its arguments' types, and the main process compiles that kernel (the
    largest of the simulation's set-up, 4 s) itself when it builds its simulation, after its
    precompute, while this one compiles the step's."""
    weights[:] = 0.0


def main(scene_file: str, folder: str) -> None:
    """The spawned process: the small scene's geometry without the JIT, then a few steps."""
    from .scene_setup import scene_geometry, scene_mesh, scene_simulation

    scene = small_scene(pickle.loads(Path(scene_file).read_bytes()))
    if os.environ.get("NUMBA_DISABLE_JIT") != "1":  # the geometry first, into the folder
        subprocess.run([sys.executable, "-c", COMMAND, scene_file, folder],
                       env=dict(os.environ, NUMBA_DISABLE_JIT="1"), check=True,
                       stdin=subprocess.DEVNULL)
    geom = scene_geometry(scene, *scene_mesh(scene.mesh), cache_dir=folder)
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return
    import surfflow.state as state

    state.ring_fit_weights = skip_ring_fit  # compiled by the main process, beside this one
    sim = scene_simulation(scene, geom, crash_dir=folder)
    for _ in range(STEPS):
        sim.step()

