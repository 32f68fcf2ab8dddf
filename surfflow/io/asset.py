"""The artist's asset kept beside the welded mesh: UVs per face corner, material, base colour.

The solver runs on the welded mesh (texture and normal seams merged, defects repaired:
:mod:`surfflow.io.mesh`); the :class:`Asset` maps its corners back to the asset's UV layout:
face f, corner k is welded vertex ``F[f, k]`` with UV ``corner_uv[f, k]``. Every repair that drops,
collapses, reorders or flips faces carries the rows along (:meth:`Asset.remapped`), so a
per-vertex field of the solver can be baked onto the asset's own UVs (:mod:`surfflow.io.maps`).

Reading (:func:`read_asset`): the UVs, the material and its base-colour texture as trimesh
reads them (an OBJ's ``vt`` lines and MTL ``map_Kd``, a glTF's ``baseColorTexture``). A texture
the material names that is missing or unreadable is a :class:`~surfflow.errors.MeshWarning`
and the asset loads without it (UVs kept). UVs outside [0, 1] are wrapped as renderers wrap
them (a face lying outside the unit square is moved by whole units onto it; a face across an
integer line keeps its shape and is wrapped texel by texel when baked), said once in a
MeshWarning. A mesh without UVs has no asset (None).
"""

from __future__ import annotations

import os
import re
import warnings
from dataclasses import dataclass

import numpy as np

from ..errors import MeshWarning

UV_SLACK = 1e-6  # UVs this far outside [0, 1] (export round-off) are not reported as outside


@dataclass(frozen=True, eq=False)
class Asset:
    """The asset's UV layout and material, per face corner of the welded mesh.

    Parameters
    ----------
    corner_uv : (m, 3, 2) float64 array
        the UV of corner k of face f of the welded mesh (its ``faces``), texture space: u right,
        v up, the unit square the texture.
    texture : (H, W, 3) or (H, W, 4) uint8 array or None
        the base-colour texture, row 0 at the top (v = 1); None when there is none.
    base_color : (4,) float tuple
        the material's base colour (RGBA in [0, 1]), which the texture is multiplied by.
    material_name : str
        the material's name, "" when unnamed.
    source : str
        the file the asset came from ("" for a mesh given in code).

    Examples
    --------
    >>> import numpy as np
    >>> from surfflow.io.asset import Asset
    >>> asset = Asset(corner_uv=np.zeros((2, 3, 2)))
    >>> asset.corner_uv.shape, asset.texture is None
    ((2, 3, 2), True)
    """

    corner_uv: np.ndarray
    texture: np.ndarray | None = None
    base_color: tuple = (1.0, 1.0, 1.0, 1.0)
    material_name: str = ""
    source: str = ""

    def __post_init__(self):
        uv = np.ascontiguousarray(self.corner_uv, dtype=np.float64).reshape(-1, 3, 2)
        uv.setflags(write=False)
        object.__setattr__(self, "corner_uv", uv)
        if self.texture is not None:
            texture = np.ascontiguousarray(self.texture, dtype=np.uint8)
            if texture.ndim == 2:
                texture = texture[:, :, None].repeat(3, axis=2)
            texture.setflags(write=False)
            object.__setattr__(self, "texture", texture)
        object.__setattr__(self, "base_color", tuple(float(c) for c in self.base_color))

    @property
    def n_faces(self) -> int:
        return self.corner_uv.shape[0]

    def remapped(self, corner_origin: np.ndarray) -> Asset:
        """The asset of a repaired mesh whose corner c is this asset's corner ``corner_origin``
        (m', 3) (flat index 3 f + k into this asset's faces): dropped faces drop rows, a
        flipped face swaps its corners, split vertices keep their faces' UVs."""
        uv = self.corner_uv.reshape(-1, 2)[np.asarray(corner_origin, dtype=np.int64)]
        return Asset(uv, self.texture, self.base_color, self.material_name, self.source)

    def arrays(self) -> dict:
        """The asset as named arrays (``asset_*``), for an ``.npz`` file; :meth:`from_arrays`
        reads them back."""
        out = {"asset_corner_uv": self.corner_uv,
               "asset_base_color": np.array(self.base_color),
               "asset_material_name": np.str_(self.material_name),
               "asset_source": np.str_(self.source)}
        if self.texture is not None:
            out["asset_texture"] = self.texture
        return out

    @classmethod
    def from_arrays(cls, data) -> Asset | None:
        """The asset stored by :meth:`arrays` in ``data`` (a mapping or NpzFile), or None."""
        names = data.files if hasattr(data, "files") else list(data)
        if "asset_corner_uv" not in names:
            return None
        texture = data["asset_texture"] if "asset_texture" in names else None
        return cls(data["asset_corner_uv"], texture, tuple(data["asset_base_color"].tolist()),
                   str(data["asset_material_name"]), str(data["asset_source"]))


def wrap_uv(corner_uv: np.ndarray, where: str) -> np.ndarray:
    """(m, 3, 2) UVs with each face lying outside [0, 1] moved by whole units so that its
    centroid lies in [0, 1) (a face inside the unit square is left as it is); one MeshWarning
    when any UV lies outside."""
    corner_uv = np.asarray(corner_uv, dtype=np.float64)
    outside = (corner_uv < -UV_SLACK) | (corner_uv > 1.0 + UV_SLACK)
    if not outside.any():
        return corner_uv
    faces = outside.any(axis=(1, 2))
    shift = np.floor(corner_uv[faces].mean(axis=1))
    wrapped = corner_uv.copy()
    wrapped[faces] -= shift[:, None, :]
    warnings.warn(
        f"{where}: {int(faces.sum())} of {len(corner_uv)} faces have UVs outside [0, 1] (from "
        f"{corner_uv.min():.3g} to {corner_uv.max():.3g}); they are wrapped as renderers wrap "
        "them (the texture repeats), so baked maps fold them onto the unit square; lay the UVs "
        "out inside [0, 1] if several faces should not share texels", MeshWarning, stacklevel=4)
    return wrapped


def read_asset(path: str, V: np.ndarray, F: np.ndarray, loaded) -> Asset | None:
    """The asset of the mesh file ``path`` whose welded reading is V (n, 3), F (m, 3) (before
    units and repair); ``loaded``: that reading (a trimesh.Trimesh). None when it has no UVs."""
    visual = getattr(loaded, "visual", None)
    uv = getattr(visual, "uv", None)
    if uv is None or len(uv) == 0:
        return None
    if path.lower().endswith(".obj"):
        corner_uv, visual = _obj_corner_uv(path, V, F)
        if corner_uv is None:
            return None
    else:
        corner_uv = np.asarray(uv, dtype=np.float64)[F]
    material = getattr(visual, "material", None)
    texture, base_color, name = _material(material)
    if texture is None:
        _warn_missing_texture(path)
    return Asset(wrap_uv(corner_uv, path), texture, base_color, name, os.path.abspath(path))


def asset_of_trimesh(mesh) -> Asset | None:
    """The asset a trimesh.Trimesh carries: ``metadata["asset"]`` (kept by :func:`load_mesh`),
    else its texture visuals (UVs per vertex), else None."""
    asset = mesh.metadata.get("asset") if isinstance(getattr(mesh, "metadata", None), dict) else None
    if isinstance(asset, Asset):
        return asset
    uv = getattr(getattr(mesh, "visual", None), "uv", None)
    if uv is None or len(uv) != len(mesh.vertices):
        return None
    texture, base_color, name = _material(getattr(mesh.visual, "material", None))
    return Asset(wrap_uv(np.asarray(uv, dtype=np.float64)[np.asarray(mesh.faces)], "trimesh.Trimesh"),
                 texture, base_color, name)


def _obj_corner_uv(path: str, V: np.ndarray, F: np.ndarray):
    """The OBJ's UVs per corner of the welded faces F, from a reading that keeps seams apart
    (faces in the same order; matched by corner position where trimesh ordered them otherwise);
    and that reading's visuals. (None, None) when the faces cannot be matched."""
    import trimesh

    split = trimesh.load(path, force="mesh", process=False)
    uv = getattr(split.visual, "uv", None)
    if uv is None or len(uv) != len(split.vertices):
        return None, None
    Fs = np.asarray(split.faces, dtype=np.int64)
    Vs = np.asarray(split.vertices, dtype=np.float64)
    if Fs.shape == F.shape and np.array_equal(Vs[Fs], V[F]):
        return np.asarray(uv, dtype=np.float64)[Fs], split.visual
    by_corners = {Vs[face].tobytes(): face for face in Fs}
    corner_uv = np.empty((len(F), 3, 2))
    for f, face in enumerate(F):
        match = None
        for turn in range(3):
            match = by_corners.get(V[np.roll(face, -turn)].tobytes())
            if match is not None:
                corner_uv[f] = np.roll(np.asarray(uv)[match], turn, axis=0)
                break
        if match is None:
            warnings.warn(f"{path}: the UVs could not be matched to the welded faces (face {f}); "
                          "the mesh loads without its asset (UVs, texture)", MeshWarning,
                          stacklevel=4)
            return None, None
    return corner_uv, split.visual


def _material(material) -> tuple:
    """(texture (H, W, 3|4) uint8 or None, base colour (4,), name) of a trimesh material."""
    if material is None:
        return None, (1.0, 1.0, 1.0, 1.0), ""
    image = getattr(material, "baseColorTexture", None)
    if image is None:
        image = getattr(material, "image", None)
    factor = getattr(material, "baseColorFactor", None)
    if factor is None:
        factor = getattr(material, "diffuse", None)
    color = (1.0, 1.0, 1.0, 1.0) if factor is None else tuple(np.asarray(factor, float) / 255.0)
    texture = None
    if image is not None:
        mode = "RGBA" if "A" in image.mode else "RGB"
        texture = np.asarray(image.convert(mode), dtype=np.uint8)
    return texture, color, str(getattr(material, "name", "") or "")


def _warn_missing_texture(path: str) -> None:
    """A MeshWarning for each base-colour texture the OBJ's MTL names that could not be read."""
    for texture in _named_textures(path):
        problem = "no such file" if not os.path.isfile(texture) else _unreadable(texture)
        if problem:
            warnings.warn(f"{path}: the texture {texture} that its material names cannot be read "
                          f"({problem}); the asset loads without it (its UVs are kept); put the "
                          "image beside the MTL file or fix the map_Kd line", MeshWarning,
                          stacklevel=4)


def _named_textures(path: str) -> list[str]:
    """The map_Kd files named by the MTL libraries of the OBJ ``path`` (as paths)."""
    if not path.lower().endswith(".obj"):
        return []
    folder = os.path.dirname(os.path.abspath(path))
    found = []
    with open(path, errors="replace") as obj:
        libraries = [line.split(None, 1)[1].strip() for line in obj if line.startswith("mtllib")]
    for library in libraries:
        mtl = os.path.join(folder, library)
        if not os.path.isfile(mtl):
            continue
        with open(mtl, errors="replace") as lines:
            for line in lines:
                if re.match(r"\s*map_Kd\s", line):
                    found.append(os.path.join(os.path.dirname(mtl), line.split()[-1]))
    return found


def _unreadable(path: str) -> str:
    """Why Pillow cannot read the image at ``path`` ("" when it can)."""
    from PIL import Image
    try:
        with Image.open(path) as image:
            image.load()
    except Exception as exc:  # Pillow raises many types on garbled files
        return f"{type(exc).__name__}: {exc}"
    return ""
