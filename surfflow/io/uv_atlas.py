"""A simple UV atlas made by xatlas, for meshes that come without UVs (the optional extra ``uv``).

The ``"maps"`` output bakes onto the mesh's own UVs (:mod:`surfflow.io.maps`); an asset from a
3D tool brings them. For a mesh without, :func:`atlas_asset` cuts it into charts and packs them
into the unit square with xatlas (``pip install "surfflow[uv]"``), one UV per face corner of the
welded mesh, no texture. An artist's own unwrap is better: xatlas places seams where it likes.
"""

from __future__ import annotations

import numpy as np

from ..errors import SurfflowError
from .asset import Asset


def atlas_asset(V, F) -> Asset:
    """An :class:`~surfflow.io.asset.Asset` for V (n, 3), F (m, 3): UVs (m, 3, 2) from xatlas.

    Examples
    --------
    >>> import surfflow as sf                                             # doctest: +SKIP
    >>> from surfflow.io.uv_atlas import atlas_asset                      # doctest: +SKIP
    >>> mesh = sf.load_mesh("meshes/bunny.obj")                           # doctest: +SKIP
    >>> geom = sf.precompute((mesh.vertices, mesh.faces),                 # doctest: +SKIP
    ...                      asset=atlas_asset(mesh.vertices, mesh.faces))
    """
    try:
        import xatlas
    except ImportError as exc:
        raise SurfflowError("a UV atlas needs the optional extra 'uv' (pip install 'surfflow[uv]', "
                            f"which installs xatlas); importing xatlas failed: {exc}") from None
    F = np.asarray(F, dtype=np.uint32)
    vertex_of, indices, uvs = xatlas.parametrize(np.asarray(V, dtype=np.float32), F)
    if indices.shape != F.shape or not np.array_equal(vertex_of[indices], F):
        raise SurfflowError(f"xatlas returned {len(indices)} faces that are not the mesh's {len(F)} "
                            "in order; the atlas cannot be matched to the mesh")
    return Asset(np.asarray(uvs, dtype=np.float64)[np.asarray(indices, dtype=np.int64)],
                 source="xatlas")
