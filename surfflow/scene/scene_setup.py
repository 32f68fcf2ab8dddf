"""From a checked :class:`~surfflow.scene.scene.Scene` to a ready Simulation.

mesh file or procedural mesh -> placed (scale, rotate, translate) and validated -> precompute
(cached by content hash) -> ``Simulation`` with the initial condition and the sources.

Mesh files are looked up relative to the scene file, then in each folder of the
``SURFFLOW_MESH_PATH`` environment variable (``os.pathsep``-separated), then in the ``meshes/``
folder of a surfflow source checkout, so the shipped examples find ``bunny.obj``.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import numpy as np
import trimesh
from scipy.spatial.transform import Rotation

from ..errors import ParameterError, SceneError
from ..geometry.precompute import precompute
from ..io.mesh import load_mesh
from ..io.procedural import PROCEDURAL_MESHES
from ..particles import Droplets, Nozzle, Rain
from ..simulation import Simulation

REPOSITORY_MESHES = Path(__file__).resolve().parents[2] / "meshes"


def mesh_search_path(path: Path) -> list[Path]:
    """The candidate files for a scene's mesh ``path``, in the order they are tried."""
    folders = [Path(p) for p in os.environ.get("SURFFLOW_MESH_PATH", "").split(os.pathsep) if p]
    return [path] + [folder / path.name for folder in folders + [REPOSITORY_MESHES]]


def resolve_mesh_path(path: Path) -> Path:
    """The first existing candidate of :func:`mesh_search_path`, as an absolute path without
    ``..`` (what the loader's warnings and errors name), or a SceneError listing them."""
    candidates = mesh_search_path(path)
    for candidate in candidates:
        if candidate.is_file():
            return candidate.resolve()
    raise SceneError(f"mesh file {path.name!r} not found; looked in "
                     f"{', '.join(str(c) for c in candidates)}; fix [mesh] path or set SURFFLOW_MESH_PATH")


def scene_mesh(spec) -> tuple[np.ndarray, np.ndarray]:
    """The scene's mesh as validated (V (n, 3), F (m, 3)), placed as x' = R (s * x) + t (a
    file's ``units`` and ``up`` applied first, by ``load_mesh``)."""
    return scene_asset_mesh(spec)[:2]


def scene_asset_mesh(spec) -> tuple:
    """:func:`scene_mesh` and the file's :class:`~surfflow.io.asset.Asset` (UVs per corner of
    F, material, texture; None for a mesh without UVs or a procedural one, unless ``[mesh]
    uv_atlas`` asks for an xatlas atlas): (V, F, asset)."""
    asset = None
    if spec.path is not None:
        mesh = load_mesh(resolve_mesh_path(spec.path), units=spec.units, up=spec.up)
        V, F = np.array(mesh.vertices, dtype=np.float64), np.array(mesh.faces, dtype=np.int64)
        asset = mesh.metadata["asset"]
    else:
        builder, defaults = PROCEDURAL_MESHES[spec.procedural]
        V, F = builder(**{**defaults, **spec.procedural_args})
    rotation = Rotation.from_euler("xyz", spec.rotation, degrees=True)
    V = rotation.apply(V * np.asarray(spec.scale)) + np.asarray(spec.translation)
    mesh = load_mesh(trimesh.Trimesh(vertices=V, faces=F, process=False, metadata={"asset": asset}))
    V, F, asset = (np.asarray(mesh.vertices, dtype=np.float64),
                   np.asarray(mesh.faces, dtype=np.int64), mesh.metadata["asset"])
    if spec.uv_atlas and asset is None:
        from ..io.uv_atlas import atlas_asset
        asset = atlas_asset(V, F)
    return V, F, asset


def _load_vertex_array(path: Path, shape: tuple, what: str) -> np.ndarray:
    """An .npy array of the given shape, or a SceneError naming the file."""
    try:
        values = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as exc:
        raise SceneError(f"cannot read {what} file {str(path)!r} ({exc}); "
                         f"give an .npy array of shape {shape}") from None
    if values.shape != shape:
        raise SceneError(f"{what} file {str(path)!r} holds shape {values.shape}; the mesh needs {shape}")
    return values


def scene_geometry(scene, V: np.ndarray, F: np.ndarray, cache_dir: Path | None = None,
                   asset=None):
    """Precompute the scene's geometry (cached in ``cache_dir`` or the scene's cache folder);
    ``asset``: the mesh file's (:func:`scene_asset_mesh`), kept as ``geom.asset``."""
    n = len(V)
    friction = {}
    if scene.friction_tensor == "isotropic":
        friction["friction_tensors"] = np.tile(np.eye(2), (n, 1, 1))
    elif scene.friction_tensor == "field":
        friction["friction_field"] = _load_vertex_array(scene.friction_file, (n,), "friction field")
    elif scene.friction_tensor == "file":
        friction["friction_tensors"] = _load_vertex_array(scene.friction_file, (n, 2, 2), "friction tensor")
    return precompute((V, F), scene.precompute, cache_dir=cache_dir or scene.cache_dir,
                      moving=scene.motion is not None, asset=asset, **friction)


def region_field(value: float, center, radius, file, geom, what: str) -> np.ndarray:
    """(n,) per-vertex values: from ``file``, ``value`` inside the ball (center, radius), or
    ``value`` everywhere."""
    if file is not None:
        return _load_vertex_array(file, (geom.n_vertices,), what)
    values = np.full(geom.n_vertices, value)
    if center is not None:
        outside = np.linalg.norm(geom.vertices - np.asarray(center), axis=1) > radius
        values[outside] = 0.0
    return values


def initial_depth(spec, geom) -> np.ndarray:
    """(n,) initial depth of an [initial] table."""
    return region_field(spec.depth, spec.center, spec.radius, spec.file, geom, "initial depth")


def add_scene_source(sim, spec, dye_colors: tuple):
    """Add one [[sources]] entry to ``sim``; returns the source handle."""
    dye = dye_colors.index(spec.color) if spec.color is not None else None
    if spec.kind == "pour":
        return sim.add_source(spec.center, spec.radius, spec.rate, spec.start, spec.stop, dye=dye)
    if spec.kind == "sink":
        return sim.add_sink(spec.center, spec.radius, spec.rate, spec.start, spec.stop)
    mask = None
    if spec.center is not None:
        mask = np.linalg.norm(sim.geometry.vertices - np.asarray(spec.center), axis=1) <= spec.radius
    return sim.add_rain(spec.rate, mask=mask, start=spec.start, stop=spec.stop, dye=dye)


def add_scene_emitter(sim, spec, index: int, scene):
    """Add the ``index``-th [[emitters]] entry to ``sim``; returns the emitter. A nozzle the
    surface refuses (inside the mesh) is a SceneError naming the entry and its position."""
    dye = scene.dye_colors.index(spec.color) if spec.color is not None else None
    timing = {"start": spec.start, "stop": spec.stop, "dye": dye}
    try:
        if spec.kind == "rain":
            return sim.add_emitter(Rain(region=spec.region, intensity=spec.intensity, **timing))
        return sim.add_emitter(Nozzle(spec.position, spec.direction, spec.speed, spec.radius,
                                      spec.rate, **timing))
    except ParameterError as exc:
        key = "region" if spec.kind == "rain" else "position"
        raise SceneError(f"{scene.path}: emitters[{index}].{key}: {exc}") from None


def scene_droplets(scene):
    """The particle system of the scene's [droplets] table, or None without one."""
    spec = scene.droplets
    if spec is None:
        return None
    settings = {k: v for k, v in dataclasses.asdict(spec).items() if k != "engine"}
    if spec.engine == "splishsplash":
        from ..particles.splishsplash import SplishSplashDroplets

        try:  # the engine is imported when the droplets are made
            return SplishSplashDroplets(**settings)
        except ImportError as exc:
            raise SceneError(f"{scene.path}: [droplets] engine = \"splishsplash\" needs the SPH "
                             f"extra ({exc}); pip install \"surfflow[sph]\" or use engine = "
                             "\"embedded\"") from None
    return Droplets(**settings)


def scene_simulation(scene, geom, params=None, crash_dir: str | os.PathLike = ".") -> Simulation:
    """A Simulation of ``scene`` on ``geom`` at its initial condition with every source added.

    params: replaces the scene's Params (the viewer's sliders use this). A ``mode = "ripples"``
    scene gives its :class:`~surfflow.Ripples` instead (:func:`scene_ripples`).
    """
    if scene.mode == "ripples":
        return scene_ripples(scene, geom, params)
    sim = Simulation(geom, params or scene.params, n_dyes=len(scene.dye_colors), crash_dir=crash_dir,
                     particles=scene_droplets(scene))
    sim.set_depth(initial_depth(scene.initial, geom))
    sim.set_velocity(np.tile(np.asarray(scene.initial.velocity, dtype=np.float64), (geom.n_vertices, 1)))
    layer = scene.soluble_layer
    if layer is not None:
        sim.set_soluble_layer(region_field(layer.thickness, layer.center, layer.radius, layer.file,
                                           geom, "soluble layer"))
    for spec in scene.sources:
        add_scene_source(sim, spec, scene.dye_colors)
    for index, spec in enumerate(scene.emitters):
        add_scene_emitter(sim, spec, index, scene)
    if scene.motion is not None:
        sim.set_motion(scene.motion.build())
    for spec in scene.boundaries:
        sim.set_boundary(spec.kind, discharge=spec.discharge, level=spec.level,
                         plane=(spec.point, spec.normal))
    for spec in scene.bodies:
        sim.add_body(spec.build())
    return sim


def scene_ripples(scene, geom, params=None):
    """The :class:`~surfflow.Ripples` of a ``mode = "ripples"`` scene on ``geom``, with the
    density and gravity of ``params`` (default the scene's)."""
    try:
        ripples = scene.ripples.build(geom, params or scene.params)
    except ParameterError as exc:
        raise SceneError(f"{scene.path}: [ripples]: {exc}") from None
    for spec in scene.bodies:
        ripples.add_body(spec.build())
    return ripples
