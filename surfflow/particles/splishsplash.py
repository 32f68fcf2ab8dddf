"""``SplishSplashDroplets``: SPlisHSPlasH's SPH (``pysplishsplash``, the ``[sph]`` extra) behind
the :class:`Droplets` interface.

    pip install "surfflow[sph]"
    sim = sf.Simulation(geom, params, particles=SplishSplashDroplets(capacity=20000))

What the bindings allow and how this uses it (pysplishsplash 2.19.0):

* the import crashes unless the system ``libGLdispatch.so.0`` is loaded first (done here);
* there is one simulator per process (``Simulation.getCurrent()``), started from a scene file
  with one fluid block; ``runSimulation()`` with ``STOP_AT`` raised each time steps it in
  chunks (``timeStepNoGUI()`` alone crashes); the engine stops at the first of its own CFL
  steps at or past the target, so its clock stays within one of its steps of the film's;
* the particle count can only move within the fluid block it was created with: the block holds
  ``capacity`` particles parked far away, the active count (``setNumActiveParticles``) rises
  and falls below it, and the position/velocity field buffers (float32 views) are written
  before and read after every step. Growing past the block crashes (the neighbourhood search's
  point set cannot be resized from Python), so a step past ``capacity`` raises instead;
* z-sorting is off, so particle k stays particle k and the volumes (kept here, float64, for the
  ledger) stay with their particles. SPH treats every particle as one of its radius.

Air drag and the particle interaction of :class:`Droplets` are replaced by the engine's
pressure solve (DFSPH, no air drag); the floor, the bounds and the collision with the mesh are
applied here, as for the embedded system.

Measured on the 2-core development machine (under load): a sheet of 198 drops falling from a
plate costs 0.01-0.03 s per film step at first, growing to 1.4 s per step after 0.1 s of fall
(capacity 1000) while the engine's own step only shrinks from 5 ms to 0.7 ms. The parked
particles take part in the engine's work: with capacity 220 the same step costs 0.23 s, and
parking them 1 m apart (done here) brings 1.4 s down to 0.6 s; the rest of the growth was not
explained. Results also depend on the engine's OpenMP thread count. The embedded system stays
the default.
"""

from __future__ import annotations

import ctypes
import json
import math
import os
import shutil
import tempfile
import weakref

import numpy as np

from ..errors import ParameterError, SimulationError
from .droplets import Droplets

PARK_HEIGHT = 1e4  # m: where the unused particles of the block wait
DFSPH = 4


def load_engine():
    """The ``pysplishsplash`` module, imported on first use (so that this module imports without
    the ``[sph]`` extra), after the system ``libGLdispatch.so.0`` it needs to be loaded first."""
    try:
        ctypes.CDLL("libGLdispatch.so.0", mode=ctypes.RTLD_GLOBAL)
    except OSError as exc:
        raise ImportError(f"the SPH engine needs the system library libGLdispatch.so.0 ({exc}); "
                          "install libglvnd (apt: libglvnd0) or use engine = \"embedded\"") from None
    try:
        import pysplishsplash
    except ImportError as exc:
        raise ImportError(f"the SPH engine needs pysplishsplash ({exc}): pip install \"surfflow[sph]\" "
                          "or use engine = \"embedded\"") from None
    return pysplishsplash


class SplishSplashDroplets(Droplets):
    """Droplets stepped by SPlisHSPlasH's DFSPH; settings as :class:`Droplets`, plus
    capacity: the most particles at once (the engine's block size; fixed at the first step).
    particle_radius: SPH particle radius (m); default half the edge of a cube of max_volume.
    """

    def __init__(self, capacity: int = 20000, particle_radius: float | None = None, **settings):
        if settings.get("max_particles") is None:
            settings["max_particles"] = capacity  # the engine's block holds no more
        super().__init__(capacity=capacity, **settings)
        self._sph = load_engine()
        self.capacity = int(capacity)
        self.particle_radius = (0.5 * math.cbrt(self.max_volume) if particle_radius is None
                                else float(particle_radius))
        if not self.particle_radius > 0.0:
            raise ParameterError(f"particle_radius={particle_radius!r} must be > 0")
        self._engine = None
        self._clock = 0.0

    def step(self, dt: float) -> None:
        """Write the particles into the engine, run it for dt, read them back."""
        if self._engine is None:
            self._start()
        base, fluid = self._engine
        n = self.count
        if n > self._engine_capacity:
            raise SimulationError(f"{n} droplets exceed the SPH engine's capacity "
                                  f"{self._engine_capacity}; raise SplishSplashDroplets(capacity=...)")
        self._previous[:n] = self._positions[:n]
        positions = np.asarray(fluid.getFieldBuffer("position"))
        velocities = np.asarray(fluid.getFieldBuffer("velocity"))
        positions[:n] = self._positions[:n]
        velocities[:n] = self._velocities[:n]
        fluid.setNumActiveParticles(n)
        self._clock += dt
        base.setValueFloat(base.STOP_AT, self._clock)
        base.runSimulation()
        self._positions[:n] = positions[:n]
        self._velocities[:n] = velocities[:n]

    def _start(self) -> None:
        """Write the engine's scene (one parked block of ``capacity`` particles) and start it."""
        spacing = 2.0 * self.particle_radius
        edge = math.ceil(math.cbrt(self.capacity)) * spacing
        scene = {
            "Configuration": {
                "particleRadius": self.particle_radius, "timeStepSize": 1e-3, "stopAt": -1,
                "gravitation": [float(c) for c in self.gravity], "simulationMethod": DFSPH,
                "cflMethod": 1, "enableZSort": False, "enableVTKExport": False,
                "enablePartioExport": False, "enableStateExport": False},
            "Materials": [{"id": "Fluid", "viscosityMethod": 0, "surfaceTensionMethod": 0}],
            "FluidBlocks": [{"denseMode": 0, "start": [0.0, 0.0, 0.0], "end": [edge] * 3,
                             "translation": [0.0, PARK_HEIGHT, 0.0], "scale": [1, 1, 1]}],
        }
        folder = tempfile.mkdtemp(prefix="surfflow-sph-")  # the engine's scene and log
        weakref.finalize(self, shutil.rmtree, folder, ignore_errors=True)
        path = os.path.join(folder, "scene.json")
        with open(path, "w", encoding="utf-8") as file:
            json.dump(scene, file)
        base = self._sph.Exec.SimulatorBase()
        base.init(sceneFile=path, useGui=False, initialPause=False, useCache=False, stopAt=0.0,
                  outputDir=folder)
        base.initSimulation()
        fluid = self._sph.Simulation.getCurrent().getFluidModel(0)
        self._engine_capacity = fluid.numActiveParticles()
        parked = np.asarray(fluid.getFieldBuffer("position"))
        k = np.arange(len(parked))
        side = math.ceil(math.cbrt(len(parked)))
        parked[:] = (np.stack([k % side, k // side % side, k // side ** 2], axis=1)
                     + [0.0, PARK_HEIGHT, 0.0])  # 1 m apart: no neighbours among them
        fluid.setNumActiveParticles(0)
        self._clock = self._sph.TimeManager.getCurrent().getTime()
        self._engine = (base, fluid)
