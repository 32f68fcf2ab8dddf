"""Per-vertex fields baked into image sequences on the asset's own UV layout: the ``"maps"`` output.

The solver's fields live on the welded mesh's vertices; the asset (:mod:`surfflow.io.asset`)
gives each face corner its UV. A texel whose centre lies in the UV triangle of face f takes the
barycentric interpolation of the face's three vertex values there,

    value(texel) = sum_k w_k field[F[f, k]],     w the texel centre's barycentric coordinates,

the same linear interpolation a renderer applies to a vertex primvar. Which face and weights
each texel takes depends only on the UVs and the resolution, so it is found once
(:func:`texel_table`, vectorised over each face's UV bounding box) and every frame is one
sparse product, the weights in a (texels, vertices) CSR matrix (:meth:`TexelTable.bake`).
Texels outside every UV triangle within ``GUTTER`` texels of a covered one (the gutter) take the
face and weights of the nearest covered texel, so a renderer's bilinear and mip-mapped lookups
at an island's edge read the island's values, not the background: no seam shows. Texels further
out are transparent. Where UV triangles overlap (mirrored or stacked islands), the later face's
values are kept.

Files, in ``<output>/maps/`` (``MapWriter``), for frame N (five digits):

``wetness_N.png``     16-bit grayscale with alpha (``png16.py``), wetness in [0, 1] times 65535,
                      when the frame has a ``wetness`` field; alpha 0 on texels outside the UV
                      layout (transparent), 65535 on it;
``thickness_N.png``   16-bit grayscale with alpha, the film thickness (``depth``, m) over ``thickness_range``
                      times 65535, thicker films clipped; ``maps.json`` states the scale
                      (``thickness_metres_per_unit``), one for the whole sequence so that the
                      frames compare;
``color_N.png``       8-bit RGBA (alpha: the layout), when the frame has a ``wetness`` field: the asset's base colour
                      (its texture, resampled to the map's resolution, times the material's
                      base colour) darkened where wet, B (1 - WET_DARKENING w) (the rule of
                      :mod:`surfflow.look` every renderer uses), for a shader that cannot
                      multiply two textures (UsdPreviewSurface: the USD stage wires it in);
``dye_N.png``         8-bit RGBA, when the run has dyes: alpha the dyes' coverage min(sum_k c_k, 1)
                      of the wet film (0 where dry), colour sum_k c_k colour_k / alpha, so that
                      laid over a base colour B it gives sum_k c_k colour_k + (1 - sum c) B, the
                      mix of :func:`surfflow.look.dye_mix` with B for the liquid's colour;
``coverage.png``      8-bit grayscale, written once: 255 where a texel belongs to the UV layout
                      (covered or gutter), 0 elsewhere: the maps' alpha, as a mask of its own.
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.ndimage import distance_transform_edt

from ..errors import MeshError, ParameterError
from ..look import WET_DARKENING, dye_mix
from .png16 import write_png16

DEFAULT_RESOLUTION = 1024
THICKNESS_RANGE = 0.01   # m: the film thickness that maps to 65535 in thickness_N.png
GUTTER = 4               # texels of dilation around the UV islands
MAPS_DIR = "maps"
CHUNK = 1 << 22          # bounding-box texels tested at once while building a table
INSIDE_SLACK = 1e-9      # barycentric round-off a texel centre on an edge is allowed


def check_resolution(value, key: str = "map_resolution") -> int:
    """``value`` as a positive whole number of texels, or ParameterError naming ``key``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ParameterError(f"{key} must be a positive whole number of texels (such as 1024), "
                             f"not {value!r}")
    return int(value)


def check_thickness_range(value, key: str = "map_thickness_range") -> float:
    """``value`` as a positive finite thickness (m), or ParameterError naming ``key``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not np.isfinite(value) \
            or value <= 0:
        raise ParameterError(f"{key} must be a positive thickness in metres (such as 0.01), "
                             f"not {value!r}")
    return float(value)


@dataclass(frozen=True, eq=False)
class TexelTable:
    """Which face and barycentric weights each texel of a square map takes.

    resolution : int
        the map is resolution x resolution texels, row 0 at the top (v = 1).
    texels : (t,) int64
        flat indices (row * resolution + column) of the texels the layout covers, the gutter last.
    vertices : (t, 3) int64
        the welded vertices of each texel's face.
    weights : (t, 3) float64
        the barycentric weights of each texel's centre (of its nearest covered texel's, in the gutter).
    faces : (t,) int64
        the face each texel takes.
    n_inside : int
        the first n_inside texels lie inside a UV triangle; the rest form the gutter.
    n_vertices : int
        vertices of the mesh (the columns of :attr:`matrix`).
    """

    resolution: int
    texels: np.ndarray
    vertices: np.ndarray
    weights: np.ndarray
    faces: np.ndarray
    n_inside: int
    n_vertices: int

    def coverage(self) -> np.ndarray:
        """(resolution, resolution) bool: texels of the layout (inside or gutter)."""
        mask = np.zeros(self.resolution * self.resolution, dtype=bool)
        mask[self.texels] = True
        return mask.reshape(self.resolution, self.resolution)

    def bake(self, values: np.ndarray) -> np.ndarray:
        """Per-vertex ``values`` (n,) or (n, c) as a (resolution, resolution[, c]) float32 image,
        0 outside the layout: one sparse product with :attr:`matrix` (float32 holds a 16-bit
        level to 1e-3 of a level)."""
        values = np.asarray(values, dtype=np.float32)
        r = self.resolution
        return np.asarray(self.matrix @ values).reshape((r, r) + values.shape[1:])

    @functools.cached_property
    def matrix(self):
        """The (resolution^2, n) CSR matrix of the weights: row t holds texel t's three weights
        in the columns of its face's vertices (empty rows outside the layout)."""
        from scipy.sparse import csr_matrix
        r, t = self.resolution, len(self.texels)
        rows = np.zeros(r * r + 1, dtype=np.int64)
        rows[self.texels + 1] = 3
        order = np.argsort(self.texels, kind="stable")
        weights = self.weights[order].ravel().astype(np.float32)
        return csr_matrix((weights, self.vertices[order].ravel(), np.cumsum(rows)),
                          shape=(r * r, self.n_vertices)) if t else \
            csr_matrix((r * r, self.n_vertices), dtype=np.float32)


def texel_table(faces: np.ndarray, corner_uv: np.ndarray, resolution: int,
                gutter: int = GUTTER, n_vertices: int | None = None) -> TexelTable:
    """The :class:`TexelTable` of faces (m, 3) with UVs (m, 3, 2) at resolution x resolution
    (``n_vertices``: of the mesh, default the largest index in faces + 1).

    A texel belongs to face f when its centre lies in f's UV triangle (UVs across an integer line
    wrap, as the texture repeats); faces of zero UV area cover nothing. Gutter texels (within
    ``gutter`` texels of a covered one) copy their nearest covered texel's face and weights.
    """
    r = resolution
    faces = np.asarray(faces, dtype=np.int64)
    P = np.asarray(corner_uv, dtype=np.float64) * r
    P[..., 1] = r - P[..., 1]                       # image rows grow downwards
    low = np.ceil(P.min(axis=1) - 0.5).astype(np.int64)
    high = np.floor(P.max(axis=1) - 0.5).astype(np.int64)
    size = np.maximum(high - low + 1, 0)
    count = size[:, 0] * size[:, 1]
    twice_area = _cross(P[:, 1] - P[:, 0], P[:, 2] - P[:, 0])
    count[np.abs(twice_area) <= 1e-12] = 0
    found = [_covered(f, P, low, size, twice_area, count, r) for f in _chunks(count)]
    texel = np.concatenate([t for t, _, _ in found]) if found else np.zeros(0, np.int64)
    face = np.concatenate([f for _, f, _ in found]) if found else np.zeros(0, np.int64)
    weight = np.concatenate([w for _, _, w in found]) if found else np.zeros((0, 3))
    last = len(texel) - 1 - np.unique(texel[::-1], return_index=True)[1]   # the later face wins
    texel, face, weight = texel[last], face[last], weight[last]
    gutter_texel, source = _gutter(texel, r, gutter)
    row_of = np.full(r * r, -1, dtype=np.int64)
    row_of[texel] = np.arange(len(texel))
    rows = row_of[source]
    face = np.concatenate([face, face[rows]])
    n = int(faces.max()) + 1 if n_vertices is None else n_vertices
    return TexelTable(r, np.concatenate([texel, gutter_texel]), faces[face],
                      np.concatenate([weight, weight[rows]]), face, len(texel), n)


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]


def _chunks(count: np.ndarray):
    """Runs of the faces with texels to test, about CHUNK bounding-box texels a run."""
    faces = np.flatnonzero(count)
    if len(faces) == 0:
        return
    total = np.cumsum(count[faces])
    cuts = np.unique(np.searchsorted(total, np.arange(CHUNK, total[-1], CHUNK), side="right"))
    for part in np.split(faces, cuts):
        if len(part):
            yield part


def _covered(f, P, low, size, twice_area, count, r):
    """(flat texel, face, weights (k, 3)) of the texel centres inside the UV triangles of faces f."""
    n = count[f]
    face = np.repeat(f, n)
    local = np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n)
    width = size[face, 0]
    column = low[face, 0] + local % width
    row = low[face, 1] + local // width
    centre = np.stack([column + 0.5, row + 0.5], axis=1)
    a, b, c = P[face, 0], P[face, 1], P[face, 2]
    w1 = _cross(centre - a, c - a) / twice_area[face]
    w2 = _cross(b - a, centre - a) / twice_area[face]
    w0 = 1.0 - w1 - w2
    inside = (w0 >= -INSIDE_SLACK) & (w1 >= -INSIDE_SLACK) & (w2 >= -INSIDE_SLACK)
    flat = (row % r) * r + column % r
    weights = np.clip(np.stack([w0, w1, w2], axis=1)[inside], 0.0, 1.0)
    weights /= weights.sum(axis=1, keepdims=True)
    return flat[inside], face[inside], weights


def _gutter(texel: np.ndarray, r: int, gutter: int) -> tuple[np.ndarray, np.ndarray]:
    """(gutter texels, the covered texel each copies): uncovered texels within ``gutter`` texels
    (Euclidean) of a covered one, and their nearest covered texel."""
    if gutter <= 0 or len(texel) == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    empty = np.ones(r * r, dtype=bool)
    empty[texel] = False
    empty = empty.reshape(r, r)
    distance, (rows, columns) = distance_transform_edt(empty, return_indices=True)
    near = np.flatnonzero((distance > 0) & (distance <= gutter))
    return near, (rows * r + columns).ravel()[near]


def base_color_image(asset, resolution: int) -> np.ndarray:
    """(r, r, 3) float32 in [0, 1]: the asset's texture resampled (bilinear) to the maps'
    resolution, times its material's base colour; the base colour alone without a texture.
    Image rows grow downwards, as the maps' (v = 1 at the top)."""
    color = np.asarray(asset.base_color[:3], dtype=np.float32)
    if asset.texture is None:
        return np.broadcast_to(color, (resolution, resolution, 3)).astype(np.float32)
    from PIL import Image
    rgb = Image.fromarray(np.asarray(asset.texture)[:, :, :3]).resize(
        (resolution, resolution), Image.Resampling.BILINEAR)
    return np.asarray(rgb, dtype=np.float32) / 255.0 * color


class MapWriter:
    """Writes the ``"maps"`` output: wetness, film thickness and dye maps per frame on the
    asset's UVs (module docstring), into ``directory/maps``.

    Parameters
    ----------
    directory : str or PathLike
        the run's output folder.
    geometry : SurfaceGeometry
        with an ``asset`` (a mesh loaded with UVs) and ``faces`` (m, 3).
    resolution : int, default 1024
        maps are resolution x resolution texels.
    thickness_range : float, default 0.01
        the film thickness (m) that maps to the brightest level of ``thickness_N.png``.
    dye_colors : tuple of RGB, optional
        the dyes' colours, in the order of the frames' ``dye`` columns.

    Examples
    --------
    >>> writer = MapWriter("output/run", geom, resolution=512)        # doctest: +SKIP
    >>> writer.write(0, 0.0, {"depth": sim.depth})                    # doctest: +SKIP
    """

    def __init__(self, directory: str | os.PathLike, geometry, resolution: int = DEFAULT_RESOLUTION,
                 thickness_range: float = THICKNESS_RANGE, dye_colors: tuple = ()):
        asset = getattr(geometry, "asset", None)
        if asset is None:
            raise MeshError(
                "the \"maps\" output bakes onto the mesh's UVs, and this mesh has none; UV-unwrap "
                "it in your 3D tool (Blender: Smart UV Project) and export an OBJ with vt lines, "
                "or let surfflow make a simple atlas with xatlas: [mesh] uv_atlas = true in a "
                "scene, surfflow.io.uv_atlas.atlas_asset in Python (the optional extra 'uv': "
                "pip install 'surfflow[uv]')")
        self.resolution = check_resolution(resolution)
        self.thickness_range = check_thickness_range(thickness_range)
        self.dye_colors = tuple(tuple(c) for c in dye_colors)
        self.directory = Path(directory) / MAPS_DIR
        self.directory.mkdir(parents=True, exist_ok=True)
        self.table = texel_table(geometry.faces, asset.corner_uv, self.resolution,
                                 n_vertices=len(geometry.vertices))
        self.coverage = self.table.coverage()
        self.base_color = base_color_image(asset, self.resolution)
        self.matrix = self.table.matrix  # built now, not in the first frame
        from PIL import Image
        Image.fromarray(self.coverage.astype(np.uint8) * 255).save(self.directory / "coverage.png")
        info = {"resolution": self.resolution, "gutter_texels": GUTTER,
                "thickness_metres_per_unit": self.thickness_range / 65535.0,
                "thickness_range_m": self.thickness_range,
                "files": {"wetness": "wetness_{frame:05d}.png", "thickness": "thickness_{frame:05d}.png",
                          "color": "color_{frame:05d}.png", "dye": "dye_{frame:05d}.png",
                          "coverage": "coverage.png"},
                "wet_darkening": WET_DARKENING}
        (self.directory / "maps.json").write_text(json.dumps(info, indent=2))
        self.written_once = [self.directory / "coverage.png", self.directory / "maps.json"]

    def images(self, fields: dict) -> dict[str, np.ndarray]:
        """The frame's maps as float32 arrays: "wetness" and "thickness" (r, r) in [0, 1]
        (thickness over ``thickness_range``), "color" (r, r, 3) RGB and "dye" (r, r, 4) RGBA in
        [0, 1]."""
        images = {}
        if "wetness" in fields:
            images["wetness"] = self.table.bake(np.clip(fields["wetness"], 0.0, 1.0))
            images["color"] = self.base_color * (1.0 - WET_DARKENING * images["wetness"])[..., None]
        depth = np.asarray(fields["depth"], dtype=np.float64)
        images["thickness"] = self.table.bake(depth / self.thickness_range)
        dye = fields.get("dye")
        if dye is not None and np.ndim(dye) == 2 and np.shape(dye)[1] > 0:
            images["dye"] = self._dye_image(np.asarray(dye), depth)
        return images

    def _dye_image(self, dye: np.ndarray, depth: np.ndarray) -> np.ndarray:
        """(r, r, 4) RGBA: premultiplied dye colours and coverage baked, then unpremultiplied."""
        colors = self.dye_colors[:dye.shape[1]]
        colors = colors + ((1.0, 1.0, 1.0),) * (dye.shape[1] - len(colors))
        wet = (depth > 0.0).astype(np.float64)
        premultiplied = dye_mix(dye, colors, (0.0, 0.0, 0.0)) * wet[:, None]
        alpha = np.minimum(np.clip(dye, 0.0, 1.0).sum(axis=1), 1.0) * wet
        rgb, coverage = self.table.bake(premultiplied), self.table.bake(alpha)
        rgb *= ((coverage > 0.0) / np.maximum(coverage, 1e-30))[..., None]   # premultiplied: 0 where 0
        np.minimum(rgb, 1.0, out=rgb)
        return np.concatenate([rgb, coverage[..., None]], axis=2)

    def write(self, frame: int, time: float, fields: dict) -> list[Path]:
        """Write the frame's maps; returns their paths."""
        from PIL import Image
        paths = []
        for name, image in self.images(fields).items():
            path = self.directory / f"{name}_{frame:05d}.png"
            if name == "dye":
                Image.fromarray(np.round(image * 255.0).astype(np.uint8), "RGBA").save(
                    path, compress_level=1)
            elif name == "color":
                rgba = np.concatenate([image, self.coverage[..., None]], axis=2)
                Image.fromarray(np.round(rgba * 255.0).astype(np.uint8), "RGBA").save(
                    path, compress_level=1)
            else:
                write_png16(path, image, self.coverage)
            paths.append(path)
        return paths
