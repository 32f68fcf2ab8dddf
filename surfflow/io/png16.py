"""16-bit grayscale PNG images with an alpha channel, written and read with zlib.

Pillow writes 16-bit grayscale but no 16-bit grayscale with alpha, and reads such a file back as
8 bits; the maps (``maps.py``) need both 16 bits and transparency. The format (PNG, ISO/IEC
15948): the signature, an IHDR chunk (width, height, bit depth 16, colour type 4 = grayscale and
alpha), IDAT chunks holding the zlib stream of the scanlines (each a filter byte, here 0 = none,
then per pixel the gray and alpha samples as big-endian 16-bit integers) and an IEND chunk; each
chunk is its length, type, data and the CRC-32 of type and data.
"""

from __future__ import annotations

import os
import struct
import zlib

import numpy as np

SIGNATURE = b"\x89PNG\r\n\x1a\n"
GRAY_ALPHA = 4  # the PNG colour type of grayscale with alpha


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def write_png16(path: str | os.PathLike, gray: np.ndarray, alpha: np.ndarray) -> None:
    """Write (H, W) ``gray`` and ``alpha`` in [0, 1] as a 16-bit grayscale-and-alpha PNG
    (each rounded to 65535 levels)."""
    levels = [np.round(np.clip(a, 0.0, 1.0) * 65535.0) for a in (gray, alpha)]
    height, width = levels[0].shape
    rows = np.stack(levels, axis=2).astype(">u2").reshape(height, 2 * width).view(np.uint8)  # (H, 4 W)
    scanlines = np.concatenate([np.zeros((height, 1), np.uint8), rows], axis=1)
    header = struct.pack(">IIBBBBB", width, height, 16, GRAY_ALPHA, 0, 0, 0)
    with open(path, "wb") as file:
        file.write(SIGNATURE + _chunk(b"IHDR", header)
                   + _chunk(b"IDAT", zlib.compress(scanlines.tobytes(), 1)) + _chunk(b"IEND", b""))


def read_png16(path: str | os.PathLike) -> tuple[np.ndarray, np.ndarray]:
    """(gray, alpha), each (H, W) floats in [0, 1], of a PNG written by :func:`write_png16`
    (16-bit grayscale and alpha, unfiltered scanlines); ValueError for any other PNG."""
    with open(path, "rb") as file:
        data = file.read()
    if not data.startswith(SIGNATURE):
        raise ValueError(f"{path}: not a PNG file")
    at, header, stream = len(SIGNATURE), None, b""
    while at < len(data):
        (length,), kind = struct.unpack(">I", data[at:at + 4]), data[at + 4:at + 8]
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            stream += body
        at += 12 + length
    if header is None or header[2:4] != (16, GRAY_ALPHA):
        raise ValueError(f"{path}: not a 16-bit grayscale-and-alpha PNG")
    width, height = header[:2]
    raw = np.frombuffer(zlib.decompress(stream), np.uint8).reshape(height, 1 + 4 * width)
    if raw[:, 0].any():
        raise ValueError(f"{path}: filtered scanlines (written by another program)")
    samples = raw[:, 1:].copy().view(">u2").reshape(height, width, 2).astype(np.float64) / 65535.0
    return samples[..., 0], samples[..., 1]
