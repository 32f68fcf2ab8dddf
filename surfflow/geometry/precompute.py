"""The precompute stage: mesh in, frozen :class:`SurfaceGeometry` out (SPEC §2).

``precompute`` runs the whole pipeline once per mesh (smoothing, topology, positions, friction)
and can keep the result in a cache folder keyed by a content hash. ``position_arrays`` is the
cheap, position-dependent part, and ``update_positions`` redoes it, with the friction tensors, for
a deforming mesh (same connectivity, new vertex positions or bottom heights) every step.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np
import trimesh

from ..config import PrecomputeParams
from ..errors import ParameterError
from . import roughness
from .frames import offset_along_normals, ring_normals_areas_frames, ring_normals_areas_frames_serial
from .smoothing import smooth_surface
from .surface import FORMAT_VERSION, SurfaceGeometry
from .topology import Topology, build_topology
from .transport import ring_edge_geometry, ring_edge_geometry_serial


def position_arrays(V: np.ndarray, topology: Topology, weighting: str = "area",
                    still: bool = True) -> dict:
    """Every position-dependent array of SurfaceGeometry except bottom and friction.

    V: (n, 3) smoothed positions; topology: from :func:`build_topology`.
    Returns a dict with normals (n, 3), dual_areas (n,), tangent_frames (n, 2, 3),
    edge_transforms (nnz, 2, 2), neighbor_coords (nnz, 2), dual_edge_vectors (nnz, 2) and
    boundary_normals (n, 2). ``still``: on the kernels' serial twins (:func:`fill_position_arrays`).
    """
    V = np.ascontiguousarray(V, dtype=np.float64)
    out = position_buffers(len(V), len(topology.neighbor_indices))
    fill_position_arrays(V, topology, weighting, out, still)
    return out


def position_buffers(n: int, nnz: int) -> dict:
    """Unfilled arrays for :func:`position_arrays` (n vertices, nnz CSR entries)."""
    return {
        "normals": np.empty((n, 3)),
        "dual_areas": np.empty(n),
        "tangent_frames": np.empty((n, 2, 3)),
        "edge_transforms": np.empty((nnz, 2, 2)),
        "neighbor_coords": np.empty((nnz, 2)),
        "dual_edge_vectors": np.empty((nnz, 2)),
        "boundary_normals": np.empty((n, 2)),
    }


def fill_position_arrays(V: np.ndarray, topology: Topology, weighting: str, out: dict,
                         still: bool = False) -> None:
    """:func:`position_arrays` into ``out`` (from :func:`position_buffers`); V (n, 3) float64.
    ``still``: a one-off precompute, on the kernels' serial twins (``kernels._jit.serial_twin``);
    a deforming surface's every step on the parallel kernels."""
    frames_kernel, edges_kernel = ((ring_normals_areas_frames_serial, ring_edge_geometry_serial)
                                   if still else (ring_normals_areas_frames, ring_edge_geometry))
    frames_kernel(V, topology.neighbor_offsets, topology.neighbor_indices, topology.is_boundary,
                  weighting == "angle", out["normals"], out["dual_areas"], out["tangent_frames"])
    edges_kernel(V, topology.neighbor_offsets, topology.neighbor_indices, topology.is_boundary,
                 out["normals"], out["tangent_frames"], out["edge_transforms"],
                 out["neighbor_coords"], out["dual_edge_vectors"], out["boundary_normals"])


def update_positions(geom: SurfaceGeometry, vertices: np.ndarray,
                     bottom: np.ndarray | None = None) -> SurfaceGeometry:
    """The geometry of the same surface after its vertices moved or its detail changed.

    The position-dependent precompute a deforming mesh redoes every step (SPEC §9): normals,
    control areas, frames, M_ij, neighbour coordinates, dual-edge vectors, and the feature-based
    friction tensors from the bottom heights; equal to a fresh precompute of the moved mesh with
    the same smoothing, to round-off. User-given friction tensors (``geom.feature_gains`` None)
    stay attached to the material: each frame follows the vertex's first ring edge. A
    simulation's ``move_to`` fills the same arrays in place, with the same result.

    Parameters
    ----------
    geom : SurfaceGeometry
        the surface before the move.
    vertices : (n, 3) float array
        the new smoothed positions (m).
    bottom : (n,) float array, optional
        new bottom heights (m): the detail itself grows, shrinks or moves; None keeps
        ``geom.bottom``. The detail surface ``original_vertices`` becomes x + b n.

    Returns
    -------
    SurfaceGeometry
        a new frozen geometry of the moved surface; pass it to ``sim.set_geometry``.

    Examples
    --------
    >>> import trimesh
    >>> import surfflow as sf
    >>> geom = sf.precompute(sf.load_mesh(trimesh.creation.icosphere(2)), feature_size=0)
    >>> bigger = sf.update_positions(geom, 2.0 * geom.vertices)
    >>> round(bigger.area / geom.area, 6)
    4.0
    """
    vertices = np.ascontiguousarray(vertices, dtype=np.float64)
    if vertices.shape != geom.vertices.shape:
        raise ParameterError(
            f"new vertices have shape {vertices.shape}, the geometry has {geom.vertices.shape}; "
            "a deforming mesh must keep its vertices and connectivity"
        )
    bottom = geom.bottom if bottom is None else _checked_bottom(bottom, geom.n_vertices)
    out = moved_geometry_buffers(geom)
    fill_moved_geometry(geom, vertices, bottom, out, friction_scratch(geom))
    return moved_geometry(geom, vertices, bottom, out)


def moved_geometry_buffers(geom: SurfaceGeometry) -> dict:
    """Unfilled arrays for :func:`fill_moved_geometry`: those of :func:`position_buffers`, and
    original_vertices (n, 3) and friction_tensors (n, 2, 2)."""
    n = geom.n_vertices
    out = position_buffers(n, len(geom.neighbor_indices))
    out["original_vertices"] = np.empty((n, 3))
    out["friction_tensors"] = np.empty((n, 2, 2))
    return out


def friction_scratch(geom: SurfaceGeometry) -> tuple:
    """Work space of the feature friction for :func:`fill_moved_geometry`: (ring fit weights
    (nnz, 2), slopes (n, 2))."""
    return np.empty((len(geom.neighbor_indices), 2)), np.empty((geom.n_vertices, 2))


def fill_moved_geometry(geom: SurfaceGeometry, vertices: np.ndarray, bottom: np.ndarray, out: dict,
                        scratch: tuple) -> None:
    """Fill ``out`` (from :func:`moved_geometry_buffers`) for the surface ``geom`` at vertices
    (n, 3) with bottom heights (n,), both float64 and contiguous; scratch (from
    :func:`friction_scratch`) is work space. The friction tensors are filled only where they
    come from the features."""
    topology = Topology(geom.neighbor_offsets, geom.neighbor_indices, geom.reverse_edges,
                        geom.is_boundary, geom.components)
    fill_position_arrays(vertices, topology, geom.normal_weighting, out)
    if geom.feature_gains is not None:
        roughness.fill_feature_friction_tensors(
            bottom, topology.neighbor_offsets, topology.neighbor_indices, out["neighbor_coords"],
            out["edge_transforms"], out["dual_areas"], topology.is_boundary, geom.feature_gains,
            scratch, out["friction_tensors"])
    offset_along_normals(vertices, bottom, out["normals"], out["original_vertices"])


def moved_geometry(geom: SurfaceGeometry, vertices: np.ndarray, bottom: np.ndarray,
                   arrays: dict) -> SurfaceGeometry:
    """``geom`` with the new vertices, bottom and the arrays :func:`fill_moved_geometry` filled
    (user-given friction tensors stay)."""
    arrays = dict(arrays)
    friction = arrays.pop("friction_tensors")
    if geom.feature_gains is None:
        friction = geom.friction_tensors
    return geom.replace(vertices=vertices, bottom=bottom, friction_tensors=friction, **arrays)


def _checked_bottom(bottom, n: int) -> np.ndarray:
    """bottom as a float64 (n,) array, or ParameterError naming the problem."""
    bottom = np.asarray(bottom, dtype=np.float64)
    if bottom.shape != (n,):
        raise ParameterError(f"new bottom heights have shape {bottom.shape}; give one height per "
                             f"vertex, shape ({n},)")
    if not np.all(np.isfinite(bottom)):
        v = int(np.flatnonzero(~np.isfinite(bottom))[0])
        raise ParameterError(f"the new bottom height of vertex {v} is {bottom[v]}; give finite heights (m)")
    return bottom


def precompute(mesh, params: PrecomputeParams | None = None, *, cache_dir=None,
               friction_tensors: np.ndarray | None = None, friction_field: np.ndarray | None = None,
               moving: bool = False, asset=None, **overrides) -> SurfaceGeometry:
    """Precompute everything the runtime needs about a surface.

    Smooths the mesh by ``feature_size`` into the surface the film flows on and the bottom
    heights b, then builds the control areas, normals, tangent frames, transports, dual-edge
    vectors and friction tensors (SPEC §2).

    Parameters
    ----------
    mesh : str, PathLike, trimesh.Trimesh or (V, F)
        a path, a mesh, or a pair of arrays V (n, 3) in m and F (m, 3), validated by
        :func:`load_mesh`.
    params : PrecomputeParams, optional
        the precompute parameters (defaults if None).
    cache_dir : str or PathLike, optional
        if given, the result is stored there as ``<key>.geom.npz`` and a later call with the same
        mesh and parameters loads it instead of recomputing.
    friction_tensors : (n, 2, 2) float array, optional
        the user's dimensionless friction tensors in each vertex's frame, instead of the features.
    friction_field : (n,) float array, optional
        a per-vertex scalar (a texture's brightness, say) whose gradient direction becomes the
        strong friction direction (the "artist-specified" friction).
    moving : bool, default False
        the surface will deform (``update_positions`` every step): precompute on the parallel
        kernels its steps use, compiled once, instead of their serial twins (which compile
        faster, for a surface that stays still: ``kernels._jit.serial_twin``).
    asset : Asset, optional
        the artist's asset (:class:`surfflow.io.asset.Asset`, UVs per corner of the faces of
        ``mesh`` as :func:`load_mesh` returns it), replacing the one a textured file or mesh
        brings (a mesh with UVs needs none). It becomes ``geom.asset``, carried through the
        checks; it is no part of the cache key.
    **overrides
        fields of :class:`PrecomputeParams` replacing those of ``params`` (``feature_size="5%"``,
        or 0 to keep the input mesh).

    Returns
    -------
    SurfaceGeometry
        frozen; ``geom.vertices`` (n, 3) m, ``geom.bottom`` (n,) m, ``geom.dual_areas`` (n,) m^2,
        ``geom.friction_tensors`` (n, 2, 2), ...

    Examples
    --------
    >>> import surfflow as sf
    >>> geom = sf.precompute("meshes/bunny.obj", feature_size="2%", cache_dir=".surfflow_cache")
    >>> geom.n_vertices, geom.bottom.shape
    (28088, (28088,))
    """
    from ..io.mesh import load_mesh

    params = _merge_params(params, overrides)
    if asset is not None:
        if not isinstance(mesh, (tuple, list)):
            mesh = load_mesh(mesh)
            mesh = (mesh.vertices, mesh.faces)
        mesh = trimesh.Trimesh(vertices=mesh[0], faces=mesh[1], process=False,
                               metadata={"asset": asset})
    loaded = load_mesh(mesh)
    X = np.asarray(loaded.vertices, dtype=np.float64)
    F = np.asarray(loaded.faces, dtype=np.int64)
    asset = loaded.metadata.get("asset")
    key = geometry_key(X, F, params, friction_tensors, friction_field)
    cache_path = Path(cache_dir) / f"{key}.geom.npz" if cache_dir is not None else None
    if cache_path is not None and cache_path.exists():
        cached = SurfaceGeometry.load(cache_path)
        return cached if asset is None and cached.asset is None else cached.replace(asset=asset)

    topology = build_topology(F, len(X))
    x, bottom = smooth_surface(X, F, params)
    arrays = position_arrays(x, topology, params.normal_weighting, still=not moving)
    friction = _friction(params, topology, bottom, arrays, friction_tensors, friction_field,
                         still=not moving)
    features = friction_tensors is None and friction_field is None
    geom = SurfaceGeometry(faces=F, original_vertices=X, vertices=x, bottom=bottom,
                           friction_tensors=friction, key=key, normal_weighting=params.normal_weighting,
                           feature_gains=params.roughness_gains if features else None,
                           asset=asset, **topology._asdict(), **arrays)
    if cache_path is not None:
        os.makedirs(cache_path.parent, exist_ok=True)
        geom.save(cache_path)
    return geom


def geometry_key(X, F, params: PrecomputeParams, *extra) -> str:
    """Content hash of the input mesh, the parameters and any user friction input."""
    digest = hashlib.sha256()
    digest.update(f"surfflow-geometry-v{FORMAT_VERSION};{params.key()}".encode())
    for array in (X, F, *extra):
        if array is not None:
            array = np.ascontiguousarray(array)
            digest.update(f"{array.dtype}{array.shape}".encode())
            digest.update(array.tobytes())
    return digest.hexdigest()[:24]


def _merge_params(params: PrecomputeParams | None, overrides: dict) -> PrecomputeParams:
    if params is None:
        return PrecomputeParams(**overrides)
    if overrides:
        values = {name: getattr(params, name) for name in params.__dataclass_fields__}
        values.update(overrides)
        return PrecomputeParams(**values)
    return params


def _friction(params, topology, bottom, arrays, friction_tensors, friction_field,
              still: bool) -> np.ndarray:
    """The friction anisotropy (n, 2, 2) from user tensors, a scalar field or the features."""
    if friction_tensors is not None and friction_field is not None:
        raise ParameterError("give friction_tensors or friction_field, not both")
    n = len(bottom)
    if friction_tensors is not None:
        return roughness.check_friction_tensors(friction_tensors, n)
    if friction_field is not None:
        return roughness.friction_from_scalar_field(
            friction_field, topology.neighbor_offsets, topology.neighbor_indices,
            arrays["neighbor_coords"], arrays["dual_areas"], topology.is_boundary,
            params.roughness_gains)
    return _feature_friction(bottom, topology, arrays, params.roughness_gains, still)


def _feature_friction(bottom, topology, arrays, gains, still: bool) -> np.ndarray:
    """Feature-based friction anisotropy (n, 2, 2) from the bottom heights (n,)."""
    return roughness.feature_friction_tensors(
        bottom, topology.neighbor_offsets, topology.neighbor_indices, arrays["neighbor_coords"],
        arrays["edge_transforms"], arrays["dual_areas"], topology.is_boundary, gains, still)
