"""surfflow: shallow-water flow of liquids over curved triangle-mesh surfaces.

The public API, nothing else::

    import surfflow as sf
    mesh = sf.load_mesh("meshes/bunny.obj")
    geom = sf.precompute(mesh, feature_size="2%")
    sim = sf.Simulation(geom, sf.Params())
"""

from . import motion
from .batch import load_sweep, sweep
from .bodies import RigidBody
from .config import Params, PrecomputeParams, Tolerances
from .errors import (CacheError, MeshError, MeshFileError, MeshWarning, ParameterError, SceneError,
                     SimulationError, SurfflowError)
from .errors import OutputError
from .geometry.precompute import precompute, update_positions
from .geometry.surface import SurfaceGeometry
from .io.mesh import load_mesh, validate_mesh
from .io.usd import UsdWriter
from .kernels.wind import WindGrid
from .particles import Droplets, Nozzle, Rain
from .ripples import Ripples
from .scene.runner import SceneRunner
from .scene.scene import load_scene
from .simulation import Simulation
from .sources import Source
from .step_limits import StepLimits

__version__ = "0.1.0"

__all__ = [
    "CacheError", "Droplets", "MeshError", "MeshFileError", "MeshWarning", "Nozzle", "OutputError",
    "ParameterError", "Params", "PrecomputeParams", "Rain", "RigidBody", "Ripples", "SceneError", "SceneRunner",
    "Simulation", "SimulationError", "Source", "StepLimits", "SurfaceGeometry", "SurfflowError", "Tolerances",
    "UsdWriter", "WindGrid", "load_mesh", "load_scene", "load_sweep", "motion", "precompute", "sweep",
    "update_positions", "validate_mesh",
]
