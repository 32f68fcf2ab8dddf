"""The object drawn in polyscope with the asset's own base-colour texture, darkened where wet.

Polyscope draws a texture through a per-corner parameterization (the asset's ``corner_uv``) and
a colour quantity defined on the texture; it cannot multiply that texture by a per-vertex
quantity. So the darkened texture is baked on the CPU each frame: the per-vertex factor
f = (1 - WET_DARKENING w) T^2 (:func:`surfflow.look.wet_object_colors` of white, w the
wetness, T the film's transmittance) is interpolated onto the texels by the texel table of
:mod:`surfflow.io.maps` (each texel's face and barycentric weights, found once), and

    colour(texel) = texture(texel) base_colour (1 + bake(f - 1)(texel)),

so texels outside every UV triangle keep the texture's colour (f - 1 bakes to 0 there). The
table has the texture's larger side in texels, at most MAX_TABLE_RESOLUTION (a non-square or
larger texture reads the nearest table texel); a frame costs one sparse product over the
table's texels and one product and upload over the texture's.
"""

from __future__ import annotations

import numpy as np

from ..io.maps import texel_table

TEXTURE_NAME = "texture"
UV_NAME = "uv"
MAX_TABLE_RESOLUTION = 1024


def has_texture(geometry) -> bool:
    """Whether ``geometry`` carries an asset with a base-colour texture."""
    asset = getattr(geometry, "asset", None)
    return asset is not None and asset.texture is not None


class TexturedObject:
    """The asset's texture on the polyscope surface mesh ``mesh`` of ``geometry``'s faces."""

    def __init__(self, mesh, geometry):
        asset = geometry.asset
        self.mesh = mesh
        texture = asset.texture[:, :, :3].astype(np.float32) / 255.0
        self.texture = texture * np.asarray(asset.base_color[:3], dtype=np.float32)
        height, width = self.texture.shape[:2]
        resolution = min(max(height, width), MAX_TABLE_RESOLUTION)
        self.table = texel_table(geometry.faces, asset.corner_uv, resolution,
                                 n_vertices=geometry.n_vertices)
        self.rows = ((np.arange(height) + 0.5) * resolution / height).astype(np.int64)
        self.columns = ((np.arange(width) + 0.5) * resolution / width).astype(np.int64)
        self.same_size = height == width == resolution
        mesh.add_parameterization_quantity(UV_NAME, asset.corner_uv.reshape(-1, 2), defined_on="corners")
        self.colors = self.texture
        mesh.add_color_quantity(TEXTURE_NAME, self.texture, defined_on="texture", param_name=UV_NAME,
                                image_origin="upper_left", enabled=True)

    def darkened(self, factor: np.ndarray) -> np.ndarray:
        """(H, W, 3) float32 texture colours times the per-vertex ``factor`` (n, 3) interpolated
        onto the texels (1 outside the UV layout)."""
        image = self.table.bake(np.asarray(factor, dtype=np.float32) - 1.0)
        if not self.same_size:
            image = image[self.rows[:, None], self.columns[None, :]]
        image += 1.0
        image *= self.texture
        return image

    def draw(self, factor: np.ndarray) -> None:
        """Show the texture darkened by ``factor`` (n, 3)."""
        self.colors = self.darkened(factor)
        self.mesh.get_quantity_buffer(TEXTURE_NAME, "colors").update_data(self.colors.reshape(-1, 3))
