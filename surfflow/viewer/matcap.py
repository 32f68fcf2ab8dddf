"""The glossy "water" material: a blendable polyscope matcap made from a few lighting formulas.

Polyscope shades a surface by looking its view-space normal n = (x, y, z) up in four images,
one for a pure red, green, blue and black object, and blends them by the object's colour:
rgb = r M_r + g M_g + b M_b + (1 - r - g - b) M_k. Here, for n on the unit hemisphere facing
the camera (view direction v = (0, 0, 1)),

    M_c = D(n) e_c + S(n),   M_k = S(n)

with the diffuse term D = ambient + (1 - ambient) max(0, n . l_key) and the colourless
reflection S = sum_lights k (n . h)^p (Blinn-Phong highlights of a key and a fill light)
+ F(n) sky(r): Schlick's Fresnel factor F = F0 + (1 - F0) (1 - n . v)^5 times a sky that is
bright above the horizon, r the reflected view ray. The blend then gives rgb = D colour + S: a
tinted body under white highlights and a bright rim, whatever the colour. The highlights exceed
1 (the images are Radiance HDR), so they stay bright on a nearly transparent film.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import polyscope as ps

WATER_MATERIAL = "water"
SIZE = 256
AMBIENT = 0.35
KEY_LIGHT = (-0.45, 0.6, 0.66)
LIGHTS = ((KEY_LIGHT, 4.0, 120.0), ((0.55, 0.35, 0.76), 1.2, 60.0))
"""(direction, strength k, exponent p) of each highlight."""
FRESNEL_F0 = 0.04
SKY = 1.6


def _unit(vector) -> np.ndarray:
    vector = np.asarray(vector, dtype=np.float64)
    return vector / np.linalg.norm(vector)


def matcap_normals(size: int = SIZE) -> np.ndarray:
    """(size, size, 3) view-space unit normals of the matcap's pixels (row 0 is the top, +y)."""
    coords = (np.arange(size) + 0.5) / size * 2.0 - 1.0
    x, y = np.meshgrid(coords, -coords)
    z = np.sqrt(np.clip(1.0 - x * x - y * y, 0.0, 1.0))
    normals = np.stack([x, y, z], axis=-1)
    return normals / np.linalg.norm(normals, axis=-1, keepdims=True)


def water_terms(normals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The diffuse D (h, w) and colourless reflection S (h, w) at view-space ``normals`` (h, w, 3)."""
    view = np.array([0.0, 0.0, 1.0])
    n_dot_v = np.clip(normals @ view, 0.0, 1.0)
    diffuse = AMBIENT + (1.0 - AMBIENT) * np.clip(normals @ _unit(KEY_LIGHT), 0.0, 1.0)
    reflection = np.zeros_like(diffuse)
    for direction, strength, exponent in LIGHTS:
        half = _unit(_unit(direction) + view)
        reflection += strength * np.clip(normals @ half, 0.0, 1.0) ** exponent
    fresnel = FRESNEL_F0 + (1.0 - FRESNEL_F0) * (1.0 - n_dot_v) ** 5
    reflected_up = 2.0 * n_dot_v * normals[..., 1]  # y of r = 2 (n . v) n - v
    sky = SKY * np.clip(0.5 + 0.5 * reflected_up, 0.0, 1.0)
    return diffuse, reflection + fresnel * sky


def write_hdr(path: Path, rgb: np.ndarray) -> None:
    """Write (h, w, 3) non-negative floats as an uncompressed Radiance RGBE (.hdr) image."""
    height, width = rgb.shape[:2]
    peak = rgb.max(axis=-1)
    mantissa, exponent = np.frexp(peak)
    scale = np.where(peak > 1e-30, mantissa * 256.0 / np.maximum(peak, 1e-30), 0.0)
    rgbe = np.zeros((height, width, 4), dtype=np.uint8)
    rgbe[..., :3] = np.clip(rgb * scale[..., None], 0, 255).astype(np.uint8)
    rgbe[..., 3] = np.where(peak > 1e-30, exponent + 128, 0)
    header = f"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y {height} +X {width}\n".encode()
    path.write_bytes(header + rgbe.tobytes())


def load_water_material() -> str:
    """Register the "water" material with polyscope (once per process); returns its name."""
    if WATER_MATERIAL in _loaded:
        return WATER_MATERIAL
    diffuse, reflection = water_terms(matcap_normals())
    with tempfile.TemporaryDirectory(prefix="surfflow_matcap_") as folder:  # read at once
        names = []
        for channel, tint in zip("rgbk", np.vstack([np.eye(3), np.zeros(3)])):
            image = diffuse[..., None] * tint + reflection[..., None]
            names.append(str(Path(folder) / f"water_{channel}.hdr"))
            write_hdr(Path(names[-1]), image)
        ps.load_blendable_material(WATER_MATERIAL, filenames=tuple(names))
    _loaded.add(WATER_MATERIAL)
    return WATER_MATERIAL


_loaded: set[str] = set()
