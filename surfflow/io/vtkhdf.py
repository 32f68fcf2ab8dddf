"""A run's frames as ParaView time series in single files: VTK's VTKHDF format, through h5py.

``frames.vtkhdf`` is a temporal ``UnstructuredGrid`` (VTKHDF 2.0; ParaView >= 5.12 and
VTK >= 9.3 open it as a time series): the triangles (``Connectivity``, ``Offsets``, ``Types``)
are written once, and every step's ``Steps/PointOffsets`` and ``Steps/PointDataOffsets/<name>``
say where its points and fields start in the datasets ``Points`` and ``PointData/<name>``. A
step whose array equals the step before's (the points and ``normal`` of a surface that does not
move, the ``bottom`` of a run without dissolution) points at the rows already written instead of
writing them again, so every field is in every step and the static ones cost their bytes once.
``particles.vtkhdf`` is a temporal ``PolyData`` of the droplets, one vertex cell each, their
count changing from step to step (point data ``velocity``, ``volume``, ``radius`` and, with dyes,
``dye``).

The fields are stored as the VTU frames hold them (:mod:`surfflow.io.writers`): floating-point
point data in Float32 (a frame is for looking at: the npz frames keep what must be exact),
indices as Int64. Every dataset is chunked (one chunk per step on the surface) and deflated at
level 1 after HDF5's byte shuffle. After every frame the file is flushed, so a run that stops,
even killed between two frames' writes, leaves a file that reads with every frame so far (HDF5
keeps no journal: a kill in the midst of a write can leave it unreadable); a resumed run
(``first_frame``) keeps the steps before it and writes on.
"""

from __future__ import annotations

import os
from pathlib import Path

import h5py
import numpy as np

from .point_data import PARTICLE_PREFIX, mesh_point_data, particle_point_data
from .vtu import LEVEL, VTK_TRIANGLE

FRAMES_NAME = "frames.vtkhdf"
PARTICLES_NAME = "particles.vtkhdf"
VERSION = (2, 0)
POLY_TOPOLOGIES = ("Vertices", "Lines", "Polygons", "Strips")
FIRST_FRAME = "surfflow_first_frame"  # an attribute of the file: the frame of its first step
PARTICLE_ROWS = 4096  # rows per chunk of the droplets' datasets


def _appendable(group, name: str, dtype, tail: tuple = (), rows: int = PARTICLE_ROWS):
    """An empty dataset that grows along its first axis, deflated in chunks of ``rows``."""
    return group.create_dataset(name, shape=(0, *tail), maxshape=(None, *tail), dtype=dtype,
                                chunks=(max(rows, 1), *tail), compression="gzip",
                                compression_opts=LEVEL, shuffle=True)


def _append(dataset, values) -> int:
    """Append ``values`` (rows along the first axis) to ``dataset``; returns the first row."""
    values = np.asarray(values, dtype=dataset.dtype)
    start = dataset.shape[0]
    dataset.resize(start + len(values), axis=0)
    if len(values):
        dataset[start:] = values
    return start


def _truncate(dataset, rows: int) -> None:
    dataset.resize(min(rows, dataset.shape[0]), axis=0)


def _display(values) -> np.ndarray:
    """A field as it is stored: Float32 when floating point, Int64 otherwise."""
    values = np.asarray(values)
    return np.ascontiguousarray(values, dtype=np.float32 if values.dtype.kind == "f" else np.int64)


class VtkHdfSeries:
    """The part of a temporal VTKHDF file both kinds share: the ``Steps`` group, one step per
    frame, and the point data datasets with their per-step offsets.

    A subclass sets ``name`` and ``kind``, creates its topology's datasets in ``_create``,
    writes a step's points and cells in ``write`` and says in ``_rows_in_use`` how many rows of
    a point data dataset the steps a resumed run keeps use; ``first_frame`` > 0 continues an
    existing file, keeping its steps before that frame.
    """

    name = ""
    kind = ""
    cell_kinds = 1  # the columns of Steps/CellOffsets: the topologies a step's cells are in

    def __init__(self, directory: str | os.PathLike, first_frame: int = 0):
        self.path = Path(directory) / self.name
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.first_frame = first_frame
        self.file = self.root = None
        self.last: dict[str, tuple[np.ndarray, int]] = {}

    def _open(self, frame: int) -> None:
        """Open the file at ``frame``, its first; a resumed run's keeps the steps before it."""
        if self.first_frame > 0 and self.path.is_file():
            self.file = h5py.File(self.path, "a")
            self.root = self.file["VTKHDF"]
            self._truncate(max(0, min(self.first_frame - int(self.file.attrs[FIRST_FRAME]),
                                      int(self.steps.attrs["NSteps"]))))
        else:
            self.file = h5py.File(self.path, "w")
            self.file.attrs[FIRST_FRAME] = np.int64(frame)
            self.root = self.file.create_group("VTKHDF")
            self.root.attrs["Version"] = np.array(VERSION, dtype=np.int64)
            self.root.attrs["Type"] = np.bytes_(self.kind)
            steps = self.root.create_group("Steps")
            steps.attrs["NSteps"] = np.int64(0)
            _appendable(steps, "Values", np.float64)
            for offsets in ("PartOffsets", "NumberOfParts", "PointOffsets"):
                _appendable(steps, offsets, np.int64)
            for offsets in ("CellOffsets", "ConnectivityIdOffsets"):
                _appendable(steps, offsets, np.int64, (self.cell_kinds,))
            steps.create_group("PointDataOffsets")
            self.root.create_group("PointData")
            self._create()
        self.file.flush()

    @property
    def steps(self):
        return self.root["Steps"]

    def close(self) -> None:
        """Close the file (every step is on disk already)."""
        if self.file is not None:
            self.file.close()
            self.file = None

    def _point_data(self, name: str, values: np.ndarray, rows: int) -> int:
        """Store ``values`` as the step's ``name`` unless they equal the step before's; returns
        the first row of the step's values in ``PointData/<name>``."""
        values = _display(values)
        last = self.last.get(name)
        if last is not None and np.array_equal(last[0], values):
            return last[1]
        data = self.root["PointData"]
        if name not in data:
            _appendable(data, name, values.dtype, values.shape[1:], rows)
            _appendable(self.steps["PointDataOffsets"], name, np.int64)
        start = _append(data[name], values)
        self.last[name] = (values, start)
        return start

    def _add_step(self, time: float, point_data: dict, rows: int, part: int, points: int,
                  cells, connectivity) -> None:
        """Append one step: its point data {name: values}, the row of its part in the
        ``NumberOf*`` datasets, of its first point, cells and connectivity ids."""
        steps = self.steps
        offsets = {name: self._point_data(name, values, rows) for name, values in point_data.items()}
        for name, start in offsets.items():
            _append(steps["PointDataOffsets"][name], [start])
        _append(steps["Values"], [time])
        _append(steps["PartOffsets"], [part])
        _append(steps["NumberOfParts"], [1])
        _append(steps["PointOffsets"], [points])
        _append(steps["CellOffsets"], [cells])
        _append(steps["ConnectivityIdOffsets"], [connectivity])
        steps.attrs["NSteps"] = np.int64(len(steps["Values"]))
        self.file.flush()

    def _truncate(self, keep: int) -> None:
        """Drop the steps from ``keep`` on (a resumed run writes them again)."""
        steps = self.steps
        for name in ("Values", "PartOffsets", "NumberOfParts", "PointOffsets", "CellOffsets",
                     "ConnectivityIdOffsets"):
            _truncate(steps[name], keep)
        for name, offsets in steps["PointDataOffsets"].items():
            _truncate(self.root["PointData"][name], self._rows_in_use(offsets[:keep], keep))
            _truncate(offsets, keep)
        steps.attrs["NSteps"] = np.int64(keep)

    def _rows_in_use(self, offsets: np.ndarray, keep: int) -> int:
        raise NotImplementedError


class SurfaceVtkHdfWriter(VtkHdfSeries):
    """Writes ``frames.vtkhdf``: the surface's triangles once, per frame its point data (the
    fields of ``surfflow.io.writers.frame_fields`` but the droplets' and bodies', and
    ``normal``) and, when the surface moves, its points."""

    name = FRAMES_NAME
    kind = "UnstructuredGrid"

    def __init__(self, directory: str | os.PathLike, geometry, first_frame: int = 0):
        self.geometry = geometry
        self.n = int(geometry.n_vertices)
        super().__init__(directory, first_frame)
        self._open(first_frame)

    def _create(self) -> None:
        faces = np.asarray(self.geometry.faces, dtype=np.int64)
        m = len(faces)
        root = self.root
        for name, value in (("NumberOfPoints", self.n), ("NumberOfCells", m),
                            ("NumberOfConnectivityIds", 3 * m)):
            root.create_dataset(name, data=np.array([value], dtype=np.int64))
        for name, values in (("Connectivity", faces.ravel()), ("Offsets", 3 * np.arange(m + 1)),
                             ("Types", np.full(m, VTK_TRIANGLE, dtype=np.uint8))):
            _append(_appendable(root, name, values.dtype, rows=len(values)), values)
        _appendable(root, "Points", np.float32, (3,), self.n)

    def write(self, frame: int, time: float, fields: dict) -> Path:
        point_data, points, normals = mesh_point_data(fields, self.geometry)
        point_data["normal"] = normals
        for name, values in (*point_data.items(), ("points", points)):
            if len(values) != self.n:
                raise ValueError(f"the frame's {name} has {len(values)} rows, the surface "
                                 f"{self.n} vertices")
        points = _display(points)
        last = self.last.get("Points")
        if last is None or not np.array_equal(last[0], points):
            self.last["Points"] = (points, _append(self.root["Points"], points))
        self._add_step(time, point_data, self.n, 0, self.last["Points"][1], [0], [0])
        return self.path

    def _rows_in_use(self, offsets: np.ndarray, keep: int) -> int:
        return int(offsets.max()) + self.n if keep else 0

    def _truncate(self, keep: int) -> None:
        points = self.steps["PointOffsets"][:keep]
        _truncate(self.root["Points"], int(points.max()) + self.n if keep else 0)
        super()._truncate(keep)


class ParticleVtkHdfWriter(VtkHdfSeries):
    """Writes ``particles.vtkhdf``: per frame the droplets as points with one vertex cell each
    and point data ``velocity``, ``volume``, ``radius`` and, with dyes, ``dye``, from the first
    frame of a run that has droplets on (a step may hold none)."""

    name = PARTICLES_NAME
    kind = "PolyData"
    cell_kinds = len(POLY_TOPOLOGIES)

    def _create(self) -> None:
        root = self.root
        _appendable(root, "NumberOfPoints", np.int64)
        _appendable(root, "Points", np.float32, (3,))
        for topology in POLY_TOPOLOGIES:
            group = root.create_group(topology)
            for name in ("NumberOfCells", "NumberOfConnectivityIds", "Connectivity", "Offsets"):
                _appendable(group, name, np.int64)

    def write(self, frame: int, time: float, fields: dict) -> Path | None:
        if self.file is None:
            if PARTICLE_PREFIX + "positions" not in fields:
                return None
            self._open(frame)
        positions, point_data = particle_point_data(fields)
        root, p = self.root, len(positions)
        step = int(self.steps.attrs["NSteps"])
        cells = [root[t]["Offsets"].shape[0] - step for t in POLY_TOPOLOGIES]
        connectivity = [root[t]["Connectivity"].shape[0] for t in POLY_TOPOLOGIES]
        points = _append(root["Points"], _display(positions).reshape(-1, 3))
        part = _append(root["NumberOfPoints"], [p])
        for topology in POLY_TOPOLOGIES:
            count = p if topology == "Vertices" else 0
            group = root[topology]
            _append(group["NumberOfCells"], [count])
            _append(group["NumberOfConnectivityIds"], [count])
            _append(group["Connectivity"], np.arange(count))
            _append(group["Offsets"], np.arange(count + 1))
        self.last.clear()  # the droplets' rows change with their number: nothing is reused
        self._add_step(time, point_data, PARTICLE_ROWS, part, points, cells, connectivity)
        return self.path

    def _rows_in_use(self, offsets: np.ndarray, keep: int) -> int:
        return int(self.root["NumberOfPoints"][:keep].sum())

    def _truncate(self, keep: int) -> None:
        root = self.root
        _truncate(root["Points"], int(root["NumberOfPoints"][:keep].sum()))
        _truncate(root["NumberOfPoints"], keep)
        for topology in POLY_TOPOLOGIES:
            group = root[topology]
            _truncate(group["Connectivity"], int(group["NumberOfConnectivityIds"][:keep].sum()))
            _truncate(group["Offsets"], int(group["NumberOfCells"][:keep].sum()) + keep)
            for name in ("NumberOfCells", "NumberOfConnectivityIds"):
                _truncate(group[name], keep)
        super()._truncate(keep)


def read_step(path: str | os.PathLike, step: int) -> tuple[float, np.ndarray, dict[str, np.ndarray]]:
    """Step ``step`` of a temporal VTKHDF file written here, with h5py alone: its time (s), its
    points (n, 3) and its point data {name: (n,) or (n, c)} as stored (Float32)."""
    with h5py.File(path, "r") as file:
        root = file["VTKHDF"]
        steps = root["Steps"]
        n = int(root["NumberOfPoints"][steps["PartOffsets"][step]])
        start = int(steps["PointOffsets"][step])
        data = {}
        for name, offsets in steps["PointDataOffsets"].items():
            first = int(offsets[step])
            data[name] = root["PointData"][name][first:first + n]
        return float(steps["Values"][step]), root["Points"][start:start + n], data


def describe_vtkhdf(path: str | os.PathLike) -> dict:
    """What ``surfflow info`` says of a VTKHDF time series: its kind, steps, times, points (the
    most in a step) and point data."""
    with h5py.File(path, "r") as file:
        root = file["VTKHDF"]
        times = root["Steps"]["Values"][:]
        counts = root["NumberOfPoints"][:]
        return {"type": f"VTKHDF time series ({root.attrs['Type'].decode()})", "steps": len(times),
                "time": f"{times.min():.6g} to {times.max():.6g} s" if len(times) else "none",
                "points": int(counts.max()) if len(counts) else 0,
                "fields": ", ".join(sorted(root["PointData"]))}
