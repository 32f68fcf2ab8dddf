"""VTU files with zlib-compressed binary blocks, the layout ParaView reads natively.

``write_vtu(path, points, cells, point_data)`` writes one ``UnstructuredGrid`` piece: the XML
header names ``compressor="vtkZLibDataCompressor"`` and ``header_type="UInt64"``, every array
sits in one raw ``AppendedData`` section (no base64), each split into 32 KiB blocks deflated at
level 1 (the sizes differ from level 6 by under 1 %, the time by half); a writer stores a
field that deflated to more than ``STORE_ABOVE`` of its size (float noise: the bottom, the
free-surface offset) in zlib's stored blocks from the next frame on, a copy instead of a
search (still the zlib format ParaView reads). Floating-point arrays
are stored as Float32 (a frame is for looking at; the npz frames keep float64), indices as
Int32. ``CompressedArray`` is one array already compressed, so a writer can keep the blocks of
what does not change from frame to frame (the mesh's connectivity, its rest positions).
"""

from __future__ import annotations

import os
import zlib

import numpy as np

BLOCK = 32768
LEVEL = 1
STORE_ABOVE = 0.9  # a field whose deflated size was above this share of its raw size is stored
VTK_TYPES = {np.dtype(np.float32): "Float32", np.dtype(np.float64): "Float64",
             np.dtype(np.int32): "Int32", np.dtype(np.uint8): "UInt8"}
VTK_TRIANGLE, VTK_VERTEX = 5, 1


class CompressedArray:
    """``values`` (n,) or (n, c) (one component or c) as ``real`` (Float32 or Float64), Int32
    or UInt8, deflated at ``level`` (0: zlib's stored blocks, for data that does not compress)
    into VTK's block layout: a UInt64 header (blocks, block size, last block's size, each
    block's compressed size) and the blocks; ``ratio`` is the payload's size over the raw one."""

    def __init__(self, values: np.ndarray, real=np.float32, level: int = LEVEL):
        values = np.asarray(values)
        kind = np.uint8 if values.dtype == np.uint8 else real if values.dtype.kind == "f" \
            else np.int32
        data = np.ascontiguousarray(values, dtype=kind)
        self.vtk_type = VTK_TYPES[data.dtype]
        self.count, self.components = len(data), None if data.ndim == 1 else data.shape[1]
        raw = data.tobytes()
        blocks = [zlib.compress(raw[k:k + BLOCK], level) for k in range(0, len(raw), BLOCK)]
        last = len(raw) - (len(blocks) - 1) * BLOCK if blocks else 0
        header = np.array([len(blocks), BLOCK, last] + [len(b) for b in blocks], dtype="<u8")
        self.payload = header.tobytes() + b"".join(blocks)
        self.ratio = len(self.payload) / max(len(raw), 1)


def _data_array(array: CompressedArray, name: str | None, offset: int) -> str:
    named = f' Name="{name}"' if name else ""
    components = f' NumberOfComponents="{array.components}"' if array.components else ""
    return (f'<DataArray type="{array.vtk_type}"{named}{components} format="appended" '
            f'offset="{offset}"/>')


def triangle_cells(faces: np.ndarray) -> tuple[CompressedArray, CompressedArray, CompressedArray]:
    """The connectivity, offsets and types arrays of ``faces`` (m, 3) as VTK triangles."""
    m = len(faces)
    return (CompressedArray(np.asarray(faces).ravel()), CompressedArray(3 * np.arange(1, m + 1)),
            CompressedArray(np.full(m, VTK_TRIANGLE, dtype=np.uint8)))


def vertex_cells(n: int) -> tuple[CompressedArray, CompressedArray, CompressedArray]:
    """The connectivity, offsets and types arrays of ``n`` one-point (vertex) cells."""
    return (CompressedArray(np.arange(n)), CompressedArray(np.arange(1, n + 1)),
            CompressedArray(np.full(n, VTK_VERTEX, dtype=np.uint8)))


def write_vtu(path: str | os.PathLike, points, cells, point_data: dict, real=np.float32) -> None:
    """Write ``points`` (n, 3), ``cells`` (from :func:`triangle_cells` or :func:`vertex_cells`)
    and ``point_data`` {name: (n,) or (n, c) array, or a CompressedArray} as one compressed VTU,
    floating-point arrays as ``real``."""
    points = points if isinstance(points, CompressedArray) else CompressedArray(points, real)
    data = {name: values if isinstance(values, CompressedArray) else CompressedArray(values, real)
            for name, values in point_data.items()}
    order = [(points, None)] + list(zip(cells, ("connectivity", "offsets", "types"))) \
        + [(values, name) for name, values in data.items()]
    offsets, at = [], 0
    for array, _ in order:
        offsets.append(at)
        at += len(array.payload)
    tags = [_data_array(array, name, offset) for (array, name), offset in zip(order, offsets)]
    head = ('<?xml version="1.0"?>\n'
            '<VTKFile type="UnstructuredGrid" version="1.0" byte_order="LittleEndian" '
            'header_type="UInt64" compressor="vtkZLibDataCompressor">\n<UnstructuredGrid>\n'
            f'<Piece NumberOfPoints="{points.count}" NumberOfCells="{cells[2].count}">\n'
            f'<Points>\n{tags[0]}\n</Points>\n<Cells>\n' + "\n".join(tags[1:4]) + '\n</Cells>\n'
            '<PointData>\n' + "".join(t + "\n" for t in tags[4:]) + '</PointData>\n'
            '</Piece>\n</UnstructuredGrid>\n<AppendedData encoding="raw">\n_')
    with open(path, "wb") as file:
        file.write(head.encode())
        for array, _ in order:
            file.write(array.payload)
        file.write(b"\n</AppendedData>\n</VTKFile>\n")
