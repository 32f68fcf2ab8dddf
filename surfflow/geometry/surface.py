"""The frozen container of everything precompute produces: ``SurfaceGeometry``.

All per-vertex quantities live on the vertices of the *smoothed* mesh. Tangent vectors are two
components in each vertex's frame (rows ``tangent_frames[i] = (t1, t2)``, with t1 x t2 = n).

Connectivity (computed once per mesh):

=====================  ===============  =====================================================
``faces``              (m, 3) int64     triangles, consistently oriented
``neighbor_offsets``   (n + 1,) int64   CSR row starts: j in indices[offsets[i]:offsets[i+1]]
``neighbor_indices``   (nnz,) int64     one-ring of i, counter-clockwise about n_i; consecutive
                                        entries (j_k, j_k+1) span the triangle (i, j_k, j_k+1),
                                        and for interior vertices the last entry wraps to the
                                        first. A boundary vertex's ring starts and ends on its
                                        two boundary neighbours.
``reverse_edges``      (nnz,) int64     the CSR entry of (j, i) for the entry (i, j)
``is_boundary``        (n,) bool        vertex on an open boundary
``components``         (n,) int64       connected-component label of each vertex
=====================  ===============  =====================================================

Positions (the cheap part, redone every step for a deforming mesh):

=====================  ===============  =====================================================
``vertices``           (n, 3) float64   smoothed positions x_i
``original_vertices``  (n, 3) float64   the input positions X_i (after a deformation: the
                                        detail surface x_i + b_i n_i)
``bottom``             (n,) float64     b_i = (X_i - x_i) . n_i, the detail smoothing removed
``normals``            (n, 3) float64   unit vertex normals n_i
``dual_areas``         (n,) float64     barycentric control areas A_i (sum = surface area)
``tangent_frames``     (n, 2, 3)        rows t1, t2 of vertex i's frame
``edge_transforms``    (nnz, 2, 2)      M_ij: carries a tangent vector stored at j into i's frame
``neighbor_coords``    (nnz, 2)         x_j in i's tangent-plane coordinates (length-preserving)
``dual_edge_vectors``  (nnz, 2)         length x unit normal of the dual boundary between i and
                                        j, oriented from i to j, in i's frame
``boundary_normals``   (n, 2)           length x outward normal of i's dual boundary lying on the
                                        mesh boundary, in i's frame (zero inside)
``friction_tensors``   (n, 2, 2)        dimensionless anisotropy (1 + eta1 r1) x1 x1^T +
                                        (1 + eta2 r2) x2 x2^T in i's frame; the runtime
                                        multiplies it by gamma (linear) or 3 nu / d^2 (laminar)
=====================  ===============  =====================================================

``key`` is the content hash of the input mesh and the precompute parameters. How to redo the
position-dependent part for a deforming mesh (:func:`~surfflow.geometry.precompute.update_positions`):
``normal_weighting`` ("area" or "angle"), and ``feature_gains``, the (eta1, eta2) of feature-based
friction tensors (recomputed from the bottom heights), or None when the user gave the tensors
(they then stay attached to the material).
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass

import numpy as np

from ..errors import CacheError
from ..io.asset import Asset

FORMAT_VERSION = 2

_FIELD_DTYPES = {
    "faces": np.int64,
    "neighbor_offsets": np.int64,
    "neighbor_indices": np.int64,
    "reverse_edges": np.int64,
    "is_boundary": np.bool_,
    "components": np.int64,
    "vertices": np.float64,
    "original_vertices": np.float64,
    "bottom": np.float64,
    "normals": np.float64,
    "dual_areas": np.float64,
    "tangent_frames": np.float64,
    "edge_transforms": np.float64,
    "neighbor_coords": np.float64,
    "dual_edge_vectors": np.float64,
    "boundary_normals": np.float64,
    "friction_tensors": np.float64,
}


@dataclass(frozen=True, eq=False)
class SurfaceGeometry:
    """Everything the runtime needs to know about the surface, frozen; built by :func:`precompute`.

    Every per-vertex array lives on the vertices of the smoothed mesh, in SI units; tangent
    vectors are two components in each vertex's frame. The module docstring
    (``surfflow.geometry.surface``) tabulates the arrays; users read them and never build one
    by hand: :func:`precompute` and :func:`update_positions` make them, :meth:`save` and
    :meth:`load` round-trip them exactly.

    Parameters
    ----------
    faces : (m, 3) int64 array
        triangles, consistently oriented.
    neighbor_offsets, neighbor_indices : (n + 1,) and (nnz,) int64 arrays
        the one-rings in CSR form: j in ``indices[offsets[i]:offsets[i + 1]]``.
    reverse_edges : (nnz,) int64 array
        the CSR entry of (j, i) for the entry (i, j).
    is_boundary : (n,) bool array
        vertex on an open boundary.
    components : (n,) int64 array
        connected-component label of each vertex.
    vertices : (n, 3) float64 array
        smoothed positions x_i (m).
    original_vertices : (n, 3) float64 array
        the input positions X_i (m).
    bottom : (n,) float64 array
        bottom heights ``b_i = (X_i - x_i) . n_i`` (m), the detail smoothing removed.
    normals : (n, 3) float64 array
        unit vertex normals.
    dual_areas : (n,) float64 array
        barycentric control areas A_i (m^2); they sum to the surface area.
    tangent_frames : (n, 2, 3) float64 array
        rows t1, t2 of each vertex's frame.
    edge_transforms : (nnz, 2, 2) float64 array
        M_ij, carrying a tangent vector stored at j into i's frame.
    neighbor_coords : (nnz, 2) float64 array
        x_j in i's tangent-plane coordinates (m).
    dual_edge_vectors : (nnz, 2) float64 array
        length (m) times unit normal of the dual boundary between i and j, in i's frame.
    boundary_normals : (n, 2) float64 array
        length (m) times outward normal of i's dual boundary on the mesh boundary (zero inside).
    friction_tensors : (n, 2, 2) float64 array
        the dimensionless friction anisotropy T_i in i's frame.
    key : str
        content hash of the input mesh and the precompute parameters (the cache's key).
    normal_weighting : {"area", "angle"}
        how the vertex normals were weighted.
    feature_gains : (2,) floats or None
        (eta1, eta2) of feature-based friction tensors, None when the user gave the tensors.
    asset : Asset or None
        the artist's asset (:class:`surfflow.io.asset.Asset`: UVs per corner of ``faces``,
        material, base-colour texture) when the mesh came with UVs; it changes nothing the
        solver computes, so it is saved with the geometry but is no part of ``key``.

    Examples
    --------
    >>> import trimesh
    >>> import surfflow as sf
    >>> sphere = trimesh.creation.icosphere(subdivisions=2)
    >>> geom = sf.precompute(sf.load_mesh(sphere), feature_size=0)
    >>> geom.vertices.shape, geom.dual_areas.shape, geom.friction_tensors.shape
    ((162, 3), (162,), (162, 2, 2))
    >>> round(geom.area, 2)   # m^2, the icosphere's area (4 pi is 12.57)
    12.33
    """

    faces: np.ndarray
    neighbor_offsets: np.ndarray
    neighbor_indices: np.ndarray
    reverse_edges: np.ndarray
    is_boundary: np.ndarray
    components: np.ndarray
    vertices: np.ndarray
    original_vertices: np.ndarray
    bottom: np.ndarray
    normals: np.ndarray
    dual_areas: np.ndarray
    tangent_frames: np.ndarray
    edge_transforms: np.ndarray
    neighbor_coords: np.ndarray
    dual_edge_vectors: np.ndarray
    boundary_normals: np.ndarray
    friction_tensors: np.ndarray
    key: str = ""
    normal_weighting: str = "area"
    feature_gains: tuple[float, float] | None = (1.0, 1.0)
    asset: Asset | None = None

    def __post_init__(self):
        for name, dtype in _FIELD_DTYPES.items():
            arr = np.ascontiguousarray(getattr(self, name), dtype=dtype)
            arr.setflags(write=False)
            object.__setattr__(self, name, arr)
        if self.feature_gains is not None:
            object.__setattr__(self, "feature_gains", tuple(float(eta) for eta in self.feature_gains))
        if self.asset is not None and self.asset.n_faces != len(self.faces):
            raise ValueError(f"the asset has UVs for {self.asset.n_faces} faces, the geometry has "
                             f"{len(self.faces)}; load the mesh with load_mesh, which keeps them together")

    @property
    def n_vertices(self) -> int:
        return self.vertices.shape[0]

    @property
    def n_faces(self) -> int:
        return self.faces.shape[0]

    @property
    def n_edges(self) -> int:
        """Number of undirected edges (every edge stands in both endpoints' rings)."""
        return self.neighbor_indices.shape[0] // 2

    @property
    def area(self) -> float:
        return float(self.dual_areas.sum())

    def replace(self, **changes) -> SurfaceGeometry:
        """A copy with some arrays replaced (for example new positions or friction tensors)."""
        return dataclasses.replace(self, **changes)

    def save(self, path: str | os.PathLike) -> None:
        """Write every array, the key, the update settings and the asset to an ``.npz`` file;
        ``load`` reads it back exactly."""
        arrays = {name: getattr(self, name) for name in _FIELD_DTYPES}
        if self.asset is not None:
            arrays.update(self.asset.arrays())
        gains = np.empty(0) if self.feature_gains is None else np.array(self.feature_gains)
        np.savez(path, format_version=np.int64(FORMAT_VERSION), key=np.str_(self.key),
                 normal_weighting=np.str_(self.normal_weighting), feature_gains=gains, **arrays)

    @classmethod
    def load(cls, path: str | os.PathLike) -> SurfaceGeometry:
        """Read a geometry written by :meth:`save`."""
        path = os.fspath(path)
        if not os.path.exists(path):
            raise CacheError(f"geometry file {path!r} does not exist; run `surfflow precompute MESH` to make it")
        try:
            with np.load(path, allow_pickle=False) as data:
                version = int(data["format_version"])
                if version != FORMAT_VERSION:
                    raise CacheError(
                        f"geometry file {path!r} has format version {version}, this surfflow reads "
                        f"version {FORMAT_VERSION}; delete it and run precompute again"
                    )
                arrays = {name: data[name] for name in _FIELD_DTYPES}
                key = str(data["key"])
                weighting = str(data["normal_weighting"])
                gains = tuple(data["feature_gains"].tolist()) or None
                asset = Asset.from_arrays(data)
        except CacheError:
            raise
        except (OSError, KeyError, ValueError) as exc:
            raise CacheError(
                f"geometry file {path!r} cannot be read ({exc}); delete it and run precompute again"
            ) from None
        return cls(key=key, normal_weighting=weighting, feature_gains=gains, asset=asset, **arrays)
