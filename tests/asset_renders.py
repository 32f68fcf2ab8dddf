"""Render a textured square headless (EGL) for test_asset_view.py, through LiquidView.

    python asset_renders.py OUT_DIR

A unit square in the xy-plane (the camera straight above it) whose texture is TEXTURE_LEFT
where u < 1/2 and TEXTURE_RIGHT where u >= 1/2 (u = x, v = y) in its upper half, and
LOWER_LEFT and LOWER_RIGHT in its lower half (a texture turned or flipped shows), drawn in polyscope's flat
material (colours unshaded) after the film that covered its lower half (y < 1/2) has drained:
the liquid is gone (nothing drawn of it), the surface's wetness is 1 there and 0 above. Writes
OUT_DIR/textured.png, OUT_DIR/plain.png (the same square without a texture) and
OUT_DIR/pixels.json: the median colour (0-255) of a patch at the centre of each quadrant,
"left_dry", "left_wet", "right_dry", "right_wet", per picture, and how the object was drawn.
"""

import json
import sys
from pathlib import Path

import numpy as np
import polyscope as ps

import surfflow as sf
from surfflow.io.asset import Asset
from surfflow.viewer.liquid_view import LiquidView
from surfflow.viewer.render import init_headless, render_frame

TEXTURE_LEFT = (200, 60, 40)
TEXTURE_RIGHT = (40, 110, 200)
LOWER_LEFT = (60, 170, 90)
LOWER_RIGHT = (230, 200, 60)
CELLS = 40
SIZE = 400
PATCH = 10


def square():
    """A unit square in the xy-plane: V, F and per-corner UVs (u, v) = (x, y)."""
    t = np.linspace(0.0, 1.0, CELLS + 1)
    x, y = np.meshgrid(t, t, indexing="xy")
    V = np.column_stack([x.ravel(), y.ravel(), np.zeros(x.size)])
    k = np.arange(CELLS + 1)
    corner = (k[:-1, None] * (CELLS + 1) + k[None, :-1]).ravel()
    a, b, c, d = corner, corner + 1, corner + CELLS + 2, corner + CELLS + 1
    F = np.concatenate([np.column_stack([a, b, c]), np.column_stack([a, c, d])])
    return V, F, V[F][:, :, :2]


def texture(size: int = 64, lower: bool = False) -> np.ndarray:
    """(size, size, 3) TEXTURE_LEFT | TEXTURE_RIGHT, row 0 at the top (v = 1); ``lower``: the
    lower half (v < 1/2) LOWER_LEFT | LOWER_RIGHT."""
    image = np.empty((size, size, 3), dtype=np.uint8)
    image[:, : size // 2] = TEXTURE_LEFT
    image[:, size // 2:] = TEXTURE_RIGHT
    if lower:
        image[size // 2:, : size // 2] = LOWER_LEFT
        image[size // 2:, size // 2:] = LOWER_RIGHT
    return image


def patches(image: np.ndarray) -> dict:
    """The median colour of a patch at each quadrant's centre (the camera is straight above)."""
    h, w = image.shape[:2]
    found = {}
    for name, (x, y) in {"left_dry": (0.25, 0.75), "left_wet": (0.25, 0.25),
                         "right_dry": (0.75, 0.75), "right_wet": (0.75, 0.25)}.items():
        column, row = pixel_of(np.array([x, y, 0.0]), w, h)
        patch = image[row - PATCH: row + PATCH, column - PATCH: column + PATCH].reshape(-1, 3)
        found[name] = np.median(patch, axis=0).tolist()
    return found


CAMERA = np.array([0.5, 0.5, 1.5])
FOV = 45.0  # polyscope's default vertical field of view, degrees


def pixel_of(point: np.ndarray, width: int, height: int) -> tuple[int, int]:
    """The pixel (column, row) of ``point`` seen by the camera at CAMERA looking down -z, y up."""
    offset = point - CAMERA
    scale = np.tan(np.radians(FOV) / 2.0) * -offset[2]
    column = width / 2 + offset[0] / scale * height / 2
    row = height / 2 - offset[1] / scale * height / 2
    return int(round(column)), int(round(row))


def draw(geometry, out: Path, name: str) -> dict:
    ps.remove_all_structures()
    view = LiquidView(geometry, (0.8, 0.9, 1.0))
    view.object_mesh.set_material("flat")
    n = geometry.n_vertices
    wetness = (geometry.vertices[:, 1] < 0.5).astype(np.float64)
    view.draw(np.zeros(n), geometry.bottom, np.zeros((n, 0)), 1e-5, 10.0, wetness=wetness)
    ps.look_at(tuple(CAMERA), (0.5, 0.5, 0.0))
    image = render_frame(out / f"{name}.png")
    return {"pixels": patches(image), "textured": view.textured is not None,
            "wet_colors": ("object", "wet") in view._added}


def main(out: Path) -> None:
    V, F, uv = square()
    init_headless(SIZE, SIZE)
    ps.set_ground_plane_mode("none")
    ps.set_view_projection_mode("perspective")
    textured = sf.precompute((V, F), feature_size=0, smoothing_iterations=0,
                             asset=Asset(uv, texture=texture(lower=True)))
    plain = sf.precompute((V, F), feature_size=0, smoothing_iterations=0)
    result = {"textured": draw(textured, out, "textured"), "plain": draw(plain, out, "plain")}
    (out / "pixels.json").write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
