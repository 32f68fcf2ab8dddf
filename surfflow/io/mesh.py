"""Loading a triangle mesh and making it fit for a surface flow.

``load_mesh`` takes a file (anything trimesh reads: OBJ, PLY, STL, OFF, GLB, ...), a
``trimesh.Trimesh`` or ``trimesh.Scene``, or a ``(V, F)`` pair; scales it to metres and turns it
+y up (``units``, ``up``: :mod:`surfflow.io.units`); and passes the arrays through
``validate_mesh``. That repairs what a surface flow can live with (:mod:`surfflow.io.collapse`,
:mod:`surfflow.io.sheets`), with one :class:`~surfflow.errors.MeshWarning` per kind of repair
saying what changed, how many, where and how to turn it off, and raises a
:class:`~surfflow.errors.MeshError` naming the problem, where it is and what to do for
everything else. The checks and repairs, in order:

1. vertices an (n, 3) array of numbers; faces triangles (polygons are fan-triangulated from their
   first corner, with a warning) of whole-number indices;
2. not empty; every face index in 0..n-1; every coordinate finite and no larger in magnitude than
   ``TOLERANCES.max_coordinate`` (1e75, beyond which squared areas overflow);
3. vertices closer than ``TOLERANCES.merge_distance`` x the mesh's diameter merged (warning);
4. degenerate faces (a repeated vertex, or area <= ``TOLERANCES.degenerate_area`` x the mean):
   the shortest edge collapsed where the mesh stays manifold, else the face dropped (warning);
   a mesh of nothing but degenerate faces is an error;
5. duplicate faces (the same three vertices, in any order) dropped (warning);
6. unreferenced vertices dropped (warning);
7. edges in more than two faces cut into sheets (warning) and pinched vertices (faces around
   them in more than one fan) split into one vertex per fan (warning), the copies appended;
8. consistent orientation: faces flipped to agree with the majority of their component (warning);
   a non-orientable component (a Moebius strip) is an error.

With ``repair=False`` steps 4 and 7 raise instead, as before repair existed. A clean mesh comes
through bit for bit: every repair returns the arrays it was given when it finds nothing to do.
Open meshes (with boundaries) and meshes of several components are valid.

Order is stable: the output vertices are the input vertices in input order, less later copies of
merged duplicates, collapsed and unreferenced vertices, then the copies made by splitting; the
faces keep their order, less dropped duplicates and degenerate faces.
Indices in messages are 0-based positions in the input arrays (for a file: in trimesh's reading of
it; for OBJ the file's vertex order is kept, so the file's 1-based vertex k is vertex k - 1).
"""

from __future__ import annotations

import os
import warnings

import numpy as np
import trimesh
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from scipy.spatial import cKDTree

from ..config import TOLERANCES
from ..errors import MeshError, MeshFileError, MeshWarning
from .asset import asset_of_trimesh, read_asset
from .extent import mesh_diameter
from .manifold import interior_edge_pairs, orientation_flips, vertex_fan_counts
from .mesh_arrays import counted, listed, triangle_array, vertex_array
from .collapse import collapse_degenerate_faces
from .repair import Repair, degenerate_faces
from .sheets import split_into_sheets
from .units import check_units, to_metres_y_up, warn_if_odd_size


def load_mesh(source, *, repair: bool = True, units: str = "m", up: str = "y",
              process_duplicates: bool = True) -> trimesh.Trimesh:
    """Load, repair and validate a triangle mesh, in metres with +y up.

    Parameters
    ----------
    source : str, PathLike, trimesh.Trimesh, trimesh.Scene or (V, F)
        a file path (any format trimesh reads; texture and normal seams are welded, several
        objects concatenated), a ``trimesh.Trimesh`` or ``trimesh.Scene``, or a ``(V, F)`` pair of
        array-likes, V (n, 3) positions and F (m, 3) vertex indices per face.
    repair : bool, default True
        repair pinched vertices, edges in three or more faces and degenerate faces (module
        docstring), one :class:`MeshWarning` per kind of repair; if False they are errors.
    units : {"m", "cm", "mm", "in"}, default "m"
        the unit of the source's coordinates; they are scaled to metres. A file whose mesh is
        then smaller than 1 mm or larger than 100 m across (bounding-box diagonal) gets a
        :class:`MeshWarning` naming this option (arrays and trimesh objects come from code that
        knows its units, and do not).
    up : {"y", "z"}, default "y"
        the source's axis that points up. surfflow's convention is +y up (gravity along -y by
        default), so ``up="z"`` turns the mesh a quarter turn about +x, (x, y, z) -> (x, z, -y),
        carrying the file's +z onto +y; the returned mesh is always +y up.
    process_duplicates : bool, default True
        merge coincident vertices and drop repeated faces (with a :class:`MeshWarning`); if False,
        coincident vertices stay apart (a seam becomes a boundary) and a repeated face is an error.

    Returns
    -------
    trimesh.Trimesh
        built with ``process=False``, with float64 vertices (n, 3) and int64 faces (m, 3) that
        passed :func:`validate_mesh`; ``mesh.metadata["repairs"]`` lists the
        :class:`~surfflow.io.repair.Repair` records of what was changed (empty for a clean mesh,
        whose arrays are the input's bit for bit); ``mesh.metadata["asset"]`` is the
        :class:`~surfflow.io.asset.Asset` (UVs per face corner, material, base-colour texture)
        when the source has UVs, carried through every repair, else None.

    Raises
    ------
    MeshFileError
        when a file is missing or unreadable.
    MeshError
        when the mesh cannot be used (the message names the faces or vertices and the fix).

    Examples
    --------
    >>> import surfflow as sf
    >>> mesh = sf.load_mesh("meshes/bunny.obj")
    >>> mesh.vertices.shape, mesh.faces.shape
    ((28088, 3), (56172, 3))
    >>> mesh.metadata["repairs"]
    []
    """
    check_units(units, up)
    V, F, where, asset = _read_source(source)
    V = to_metres_y_up(V, units, up)
    repairs: list[Repair] = []
    try:
        V, F, corners = _unchanged_is_clean(V, F, where, process_duplicates, repair, repairs)
    finally:
        _warn(repairs)
    if isinstance(source, (str, os.PathLike)):
        warn_if_odd_size(V, where)
    mesh = trimesh.Trimesh(vertices=V, faces=F, process=False)
    mesh.metadata["repairs"] = repairs
    mesh.metadata["asset"] = _kept_asset(asset, corners, where)
    return mesh


def validate_mesh(V, F, *, where: str = "mesh", process_duplicates: bool = True,
                  repair: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Check a triangle mesh, repair what a surface flow can live with, and return clean arrays.

    See the module docstring (``surfflow.io.mesh``) for the checks and repairs. Each kind of
    repair emits one :class:`MeshWarning` that says what changed, how many and where; anything
    that cannot be repaired raises :class:`MeshError`.

    Parameters
    ----------
    V : (n, 3) float array
        vertex positions (m).
    F : (m, 3) int array
        vertex indices per face (or (m, k) / a list of polygons, fan-triangulated).
    where : str, default "mesh"
        names the mesh in messages (a file name, say).
    process_duplicates : bool, default True
        merge coincident vertices and drop repeated faces; if False a repeated face is an error.
    repair : bool, default True
        split pinched vertices, cut edges in more than two faces into sheets, collapse or drop
        degenerate faces; if False each of these is an error.

    Returns
    -------
    V : (n', 3) float64 array
        the vertices, duplicates merged, unused ones dropped, pinched ones split (copies last).
    F : (m', 3) int64 array
        the faces, consistently oriented.

    Examples
    --------
    >>> import numpy as np
    >>> import surfflow as sf
    >>> V = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]])
    >>> F = np.array([[0, 1, 2], [1, 3, 2]])
    >>> V2, F2 = sf.validate_mesh(V, F)
    >>> V2.shape, F2.shape
    ((4, 3), (2, 3))
    """
    repairs: list[Repair] = []
    try:
        return _unchanged_is_clean(V, F, where, process_duplicates, repair, repairs)[:2]
    finally:
        _warn(repairs)


def _unchanged_is_clean(V, F, where, process_duplicates, repair,
                        repairs: list[Repair]) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``_checked_arrays``, with the repairs forgotten when the result is the input bit for bit.

    A repaired mesh holds coincident vertices on purpose (the fans of a split vertex, the sheets
    of a cut edge). Checked again (a scene places it, ``precompute`` validates what it is given)
    its coincident vertices are merged and split back into the same arrays: nothing changed, so
    nothing is reported."""
    V_out, F_out, corners = _checked_arrays(V, F, where, process_duplicates, repair, repairs)
    if repairs and _same(V, V_out) and _same(F, F_out):
        repairs.clear()
    return V_out, F_out, corners


def _kept_asset(asset, corners, where: str):
    """The asset of the checked mesh: its rows carried to the checked faces by ``corners``
    (m', 3), the input corner (3 f + k) of each output corner; None (with a MeshWarning) where
    polygons were split, which no textured trimesh reading gives."""
    if asset is None:
        return None
    if corners is None:
        warnings.warn(f"{where}: polygons were fan-triangulated, so the UVs could not follow the "
                      "faces; the mesh loads without its asset", MeshWarning, stacklevel=3)
        return None
    return asset.remapped(corners)


def _same(given, array: np.ndarray) -> bool:
    """Whether ``given`` (an array-like, perhaps ragged) holds ``array``'s shape and values."""
    try:
        given = np.asarray(given)
    except ValueError:  # a ragged list of polygons
        return False
    return given.shape == array.shape and np.array_equal(given, array)


def _warn(repairs: list[Repair]) -> None:
    """One MeshWarning per repair, pointing at the line that called load_mesh / validate_mesh;
    also when a later check raised."""
    for item in repairs:
        warnings.warn(item.message, MeshWarning, stacklevel=3)


def _read_source(source) -> tuple:
    """(V, F, where, asset) from whatever ``load_mesh`` was given (asset: the
    :class:`~surfflow.io.asset.Asset` per input face, or None)."""
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        mesh = _read_file(path)
        V, F = np.asarray(mesh.vertices, dtype=np.float64), np.asarray(mesh.faces, dtype=np.int64)
        return V, F, path, read_asset(path, V, F, mesh)
    if isinstance(source, trimesh.Scene):
        mesh = source.to_mesh()
        return mesh.vertices, mesh.faces, "trimesh.Scene", asset_of_trimesh(mesh)
    if isinstance(source, trimesh.Trimesh):
        return source.vertices, source.faces, "trimesh.Trimesh", asset_of_trimesh(source)
    if isinstance(source, (tuple, list)) and len(source) == 2:
        return source[0], source[1], "(V, F) input", None
    raise MeshError(
        f"load_mesh cannot make a mesh from a {type(source).__name__}; pass a file path, "
        "a trimesh.Trimesh or a (V, F) pair of arrays"
    )


def _read_file(path: str) -> trimesh.Trimesh:
    """Read a mesh file with trimesh; MeshFileError if it fails.

    ``maintain_order`` keeps an OBJ file's vertices in file order, one per ``v`` line, instead of
    splitting them at texture and normal seams, so OBJ vertex k is vertex k - 1 here.
    """
    if not os.path.exists(path):
        raise MeshFileError(
            f"{path}: no such file; check the path (a relative path starts at {os.getcwd()})"
        )
    if os.path.isdir(path):
        raise MeshFileError(f"{path}: is a folder, not a mesh file; name a file inside it")
    try:
        mesh = trimesh.load(path, force="mesh", process=False, merge_tex=True, merge_norm=True,
                            maintain_order=True)
    except Exception as exc:  # trimesh's readers raise many types on garbled input
        raise MeshFileError(
            f"{path}: cannot be read as a mesh ({type(exc).__name__}: {exc}); check that the file "
            "is complete and in a format trimesh reads (OBJ, PLY, STL, OFF, GLB, ...)"
        ) from exc
    if not isinstance(mesh, trimesh.Trimesh):
        raise MeshError(f"{path}: holds no triangles (trimesh read a {type(mesh).__name__}); "
                        "export the surface as a triangle mesh")
    return mesh


def _checked_arrays(V, F, where: str, process_duplicates: bool, repair: bool,
                    repairs: list[Repair]) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """validate_mesh's work: the clean (n, 3) float64 V and (m, 3) int64 F; repairs are noted.

    Also returns the input corner (3 f + k, into the input triangles) of each output corner
    (m, 3), through drops, collapses and flips, or None when polygons were fan-triangulated."""
    V = vertex_array(V, where)
    F, face_origin, polygons_split = triangle_array(F, where)
    if polygons_split:
        repairs.append(Repair("fan_triangulated", polygons_split,
                              f"{where}: fan-triangulated {counted(polygons_split, 'face')} with "
                              "more than 3 vertices"))
    _check_not_empty(V, F, where)
    _check_indices(F, len(V), where)
    _check_finite(V, where)
    _check_magnitude(V, where)
    n_input, vertex_origin = len(V), np.arange(len(V))
    if process_duplicates:
        V, F, vertex_origin = _merge_close_vertices(V, F, where, repairs)
    merged_any = len(V) < n_input
    if repair:
        V, F, vertex_origin, face_origin = _repair_degenerate(V, F, vertex_origin, face_origin,
                                                              where, repairs)
    else:
        _check_degenerate(V, F, face_origin, vertex_origin, where)
    F, face_origin = _drop_duplicate_faces(F, face_origin, where, process_duplicates, repairs)
    V, F, vertex_origin = _drop_unreferenced(V, F, vertex_origin, where, repairs)
    if repair:
        V, F, vertex_origin, pairs, sheets = split_into_sheets(V, F, vertex_origin, where)
        repairs += sheets
        if sheets:
            pairs = _check_manifold(V, F, vertex_origin, where, merged_any)
    else:
        pairs = _check_manifold(V, F, vertex_origin, where, merged_any)
    F, flipped = _orient_consistently(F, pairs, face_origin, where, repairs)
    corners = None
    if not polygons_split:
        corners = 3 * face_origin[:, None] + np.arange(3)
        corners[flipped] = corners[flipped][:, [0, 2, 1]]
    return np.ascontiguousarray(V), np.ascontiguousarray(F), corners


def _repair_degenerate(V, F, vertex_origin, face_origin, where, repairs):
    """collapse_degenerate_faces, or MeshError when every face is degenerate (nothing is left)."""
    V, F, vertex_origin, face_origin, done = collapse_degenerate_faces(
        V, F, TOLERANCES.degenerate_area, vertex_origin, face_origin, where)
    if done is None:
        return V, F, vertex_origin, face_origin
    if len(F) == 0:
        raise MeshError(
            f"{where}: every face is degenerate (zero area or a repeated vertex; {done.count} "
            "faces), so no surface is left to flow on; check that the file holds the surface you "
            "meant (a line or a point cloud exported as triangles looks like this)")
    repairs.append(done)
    return V, F, vertex_origin, face_origin


def _check_not_empty(V: np.ndarray, F: np.ndarray, where: str) -> None:
    if len(V) == 0 or len(F) == 0:
        raise MeshError(
            f"{where}: the mesh is empty ({len(V)} vertices, {len(F)} faces); a surface flow "
            "needs at least one triangle: check that the file or arrays hold the surface you meant"
        )


def _check_indices(F: np.ndarray, n: int, where: str) -> None:
    bad = np.flatnonzero(((F < 0) | (F >= n)).any(axis=1))
    if len(bad):
        shown = listed(f"{f} {tuple(F[f].tolist())}" for f in bad)
        raise MeshError(
            f"{where}: {counted(len(bad), 'face')} referring to vertices that do not exist "
            f"(indices must lie in 0..{n - 1}): face {shown}; fix the face list (arrays count "
            "vertices from 0, OBJ files from 1)"
        )


def _check_finite(V: np.ndarray, where: str) -> None:
    bad = np.flatnonzero(~np.isfinite(V).all(axis=1))
    if len(bad):
        raise MeshError(
            f"{where}: {counted(len(bad), 'vertex', 'vertices')} with NaN or infinite "
            f"coordinates: vertex {listed(bad)}; fix or remove them before loading"
        )


def _check_magnitude(V: np.ndarray, where: str) -> None:
    bad = np.flatnonzero((np.abs(V) > TOLERANCES.max_coordinate).any(axis=1))
    if len(bad):
        shown = listed(f"{v} at ({', '.join(f'{c:.6g}' for c in V[v])})" for v in bad)
        raise MeshError(
            f"{where}: {counted(len(bad), 'vertex', 'vertices')} with coordinates beyond "
            f"+-{TOLERANCES.max_coordinate:g}, too large to compute areas and volumes with (they "
            f"would overflow): vertex {shown}; scale the mesh to metres or remove the stray vertices"
        )


def _merge_close_vertices(V, F, where, repairs) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Merge each cluster of vertices closer than merge_distance x the mesh's diameter
    (``extent.mesh_diameter``) into its first vertex. Returns V (n', 3), F remapped, and the input index (n',) of each
    kept vertex."""
    radius = TOLERANCES.merge_distance * mesh_diameter(V, F)
    close = cKDTree(V, balanced_tree=False).query_pairs(radius, output_type="ndarray")
    if len(close) == 0:
        return V, F, np.arange(len(V))
    graph = coo_matrix((np.ones(len(close), dtype=np.int8), (close[:, 0], close[:, 1])),
                       shape=(len(V), len(V)))
    cluster = connected_components(graph, directed=False)[1]
    _, kept = np.unique(cluster, return_index=True)
    kept.sort()
    new_index = np.empty(len(kept), dtype=np.int64)
    new_index[cluster[kept]] = np.arange(len(kept))
    merged = counted(len(V) - len(kept), "duplicate vertex", "duplicate vertices")
    repairs.append(Repair("merged_vertices", len(V) - len(kept),
                          f"{where}: merged {merged} (closer than {TOLERANCES.merge_distance:g} x "
                          "the mesh's diameter) into earlier ones"))
    return V[kept], new_index[cluster][F], kept


def _check_degenerate(V, F, face_origin, vertex_origin, where) -> None:
    """MeshError on faces with a repeated vertex or an area <= degenerate_area x the mean area."""
    bad = np.flatnonzero(degenerate_faces(V, F, TOLERANCES.degenerate_area))
    if len(bad):
        shown = listed(f"{face_origin[f]} {tuple(vertex_origin[F[f]].tolist())}" for f in bad)
        raise MeshError(
            f"{where}: {counted(len(bad), 'degenerate face')} (zero area or a repeated vertex; "
            f"area at most {TOLERANCES.degenerate_area:g} x the mean face area): face {shown}; "
            "remove them or collapse their short edges before loading"
        )


def _drop_duplicate_faces(F, face_origin, where, process_duplicates,
                          repairs) -> tuple[np.ndarray, np.ndarray]:
    """Drop each face with the same three vertices as an earlier one (raise if not processing)."""
    corners = np.sort(F, axis=1)
    order = np.lexsort(corners.T[::-1])
    sorted_corners = corners[order]
    repeats_previous = np.r_[False, (sorted_corners[1:] == sorted_corners[:-1]).all(axis=1)]
    duplicate = np.zeros(len(F), dtype=bool)
    duplicate[order[repeats_previous]] = True
    if not duplicate.any():
        return F, face_origin
    count, shown = int(duplicate.sum()), listed(face_origin[duplicate])
    if not process_duplicates:
        raise MeshError(f"{where}: {counted(count, 'face')} repeating the vertices of an earlier "
                        f"face: face {shown}; remove them or load with process_duplicates=True")
    repairs.append(Repair("duplicate_faces", count,
                          f"{where}: dropped {counted(count, 'duplicate face')} (same vertices as "
                          f"an earlier face): face {shown}"))
    return F[~duplicate], face_origin[~duplicate]


def _drop_unreferenced(V, F, vertex_origin, where,
                       repairs) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Drop vertices no face uses, keeping the order of the others."""
    used = np.zeros(len(V), dtype=bool)
    used[F.ravel()] = True
    if used.all():
        return V, F, vertex_origin
    count = int(len(V) - used.sum())
    repairs.append(Repair("unreferenced_vertices", count,
                          f"{where}: removed {counted(count, 'vertex', 'vertices')} no face uses: "
                          f"vertex {listed(vertex_origin[~used])}"))
    new_index = np.cumsum(used) - 1
    return V[used], new_index[F], vertex_origin[used]


def _check_manifold(V, F, vertex_origin, where, merged_any) -> np.ndarray:
    """MeshError on an edge in more than two faces or a vertex whose faces form several fans.
    Returns the (p, 2) half-edge pairs of the interior edges."""
    pairs, crowded_edges, crowded_counts = interior_edge_pairs(F, len(V))
    if len(crowded_edges):
        shown = listed(f"({vertex_origin[a]}, {vertex_origin[b]}) in {count} faces"
                       for (a, b), count in zip(crowded_edges, crowded_counts))
        raise MeshError(
            f"{where}: {counted(len(crowded_edges), 'non-manifold edge')} (shared by more than "
            f"2 faces): edge {shown}; a surface flow needs every edge in at most 2 faces: remove "
            "the extra faces or separate the parts that meet there"
        )
    fans = vertex_fan_counts(F, pairs, len(V))
    pinched = np.flatnonzero(fans > 1)
    if len(pinched):
        shown = listed(f"{vertex_origin[v]} at {tuple(np.round(V[v], 6).tolist())} ({fans[v]} fans)"
                       for v in pinched)
        merge_hint = (" (merging duplicate vertices may have made the pinch: "
                      "process_duplicates=False keeps them apart)" if merged_any else "")
        raise MeshError(
            f"{where}: {counted(len(pinched), 'non-manifold vertex', 'non-manifold vertices')} "
            f"(pinched: the faces around the vertex form more than one fan): vertex {shown}; "
            f"split each into one vertex per fan or separate the parts that touch there{merge_hint}"
        )
    return pairs


def _orient_consistently(F, pairs, face_origin, where, repairs) -> tuple[np.ndarray, np.ndarray]:
    """Flip the faces that disagree with the majority of their component; MeshError if a
    component cannot be oriented. Returns F and the (m,) mask of flipped faces."""
    flip, non_orientable = orientation_flips(F, pairs)
    if non_orientable.any():
        count, shown = int(non_orientable.sum()), listed(face_origin[non_orientable])
        raise MeshError(
            f"{where}: {counted(count, 'face')} in a non-orientable part (like a Moebius strip) "
            f"whose faces cannot all be given matching normals: face {shown}; cut that part "
            "open or remove it"
        )
    if not flip.any():
        return F, flip
    repairs.append(Repair("flipped_faces", int(flip.sum()),
                          f"{where}: flipped {flip.sum()} of {len(F)} faces to orient them "
                          f"consistently with their neighbours: face {listed(face_origin[flip])}"))
    F = F.copy()
    F[flip] = F[flip][:, [0, 2, 1]]
    return F, flip
