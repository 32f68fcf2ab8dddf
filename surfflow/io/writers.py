"""Frame output: ``.npz`` files and ParaView time series (VTKHDF, or VTU files with a ``.pvd`` index).

``frame_fields(sim)`` collects the per-vertex fields of one frame:

=================  ===========  ==========================================================
``depth``          (n,)         liquid depth d along the normal (m)
``velocity``       (n, 3)       world-space velocity (m/s)
``bottom``         (n,)         bottom height b (m)
``free_surface``   (n, 3)       (b + d) n: the offset from the smoothed surface to the
                                liquid's free surface (ParaView: Warp By Vector)
``wetness``        (n,)         wetness w in [0, 1]: 1 under the film, drying as
                                exp(-t / drying_time) after it has gone (``terms/wetness.py``)
``dye``            (n, k)       dye concentrations, when the run has k > 0 dyes
``dissolved``      (n,)         depth s of dissolved material carried by the liquid (m),
                                when the run has a soluble layer
``soluble_layer``  (n,)         thickness m of the soluble layer left on the bottom (m),
                                when the run has one
``vertices``       (n, 3)       the smoothed positions now, when the surface moves (SPEC §9)
``normals``        (n, 3)       their normals, when the surface moves
``particle_*``     (p, 3), (p,)  ``particle_positions``, ``particle_velocities``,
                                ``particle_volumes`` of the droplets, when the run has them,
                  (p, k)        and ``particle_dyes``, their dye concentrations, with k > 0 dyes
=================  ===========  ==========================================================

A ripple run (``surfflow.Ripples``) writes ``height`` and ``height_rate`` (n,) with ``depth``,
``bottom``, ``free_surface`` and ``velocity`` shaped as above (``Ripples.frame_fields``).

Writers write the frames of one run into one directory, in the formats a scene's ``[output]
formats`` names (:func:`make_writers`):

* ``"npz"``: ``NpzFrameWriter`` writes ``mesh.npz`` (vertices, faces, normals, dual_areas,
  original_vertices and the bottom at rest) once and ``frame_00000.npz`` ... with ``time``,
  ``frame`` and the fields; :func:`read_frame` reads one back.
* ``"vtkhdf"``: ``frames.vtkhdf`` and ``particles.vtkhdf``, one ParaView time series file each,
  the mesh and every field that did not change since the frame before stored once
  (:mod:`surfflow.io.vtkhdf`).
* ``"vtu"``: ``VtuSeriesWriter`` writes ``frame_00000.vtu`` ... (points: the moved vertices when
  the surface moves, the mesh again in every file) and rewrites ``frames.pvd`` after every
  frame; the droplets go to ``particles_00000.vtu`` ... (a point set, indexed by
  ``particles.pvd``). Either ParaView format writes the rigid bodies as ``bodies_00000.vtu`` ...
* ``"usd"``: the USD stage (``run.usdc``, optional extra), :class:`surfflow.io.usd.UsdWriter`.
* ``"maps"``: wetness, film thickness and dye maps per frame on the asset's own UVs, PNG image
  sequences in ``maps/`` (:class:`surfflow.io.maps.MapWriter`; a mesh loaded with UVs).

Every file is compressed and written so that a stopped run leaves what it wrote readable.
Precision in the npz frames, field by field (``FLOAT32_FIELDS``):

* ``depth`` float64: a frame's volume, ``sum(dual_areas * depth)``, is the run's to round-off;
  so are ``dissolved``, ``soluble_layer``, ``height`` (volumes and heights of the ledger) and the
  droplets' fields (few).
* ``dye`` float64 as well: a USD stage exported from the frames afterwards (``surfflow
  export-usd``) colours the liquid from them exactly as the live stage did.
* ``velocity``, ``free_surface``, ``bottom`` and ``wetness`` float32: a relative error of 6e-8
  (a nanometre on a centimetre of bottom, 6e-8 of full wetness) is far below what the model
  resolves or a picture shows, and no volume is computed from them; in float64 their low bits
  are noise that does not deflate.

Every frame holds every field, so ``np.load`` of one frame is enough.

The ParaView files hold every floating-point field in Float32 (a frame is for looking at), the
VTU's in zlib blocks ParaView reads (:mod:`surfflow.io.vtu`). :class:`FrameWriterThread`
(:mod:`surfflow.io.writer_thread`) runs the writers beside the step.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import numpy as np

from .point_data import BODY_PREFIX, PARTICLE_PREFIX, mesh_point_data, particle_point_data
from .vtu import LEVEL, STORE_ABOVE, CompressedArray, triangle_cells, vertex_cells, write_vtu

PVD_NAME = "frames.pvd"
PARTICLE_PVD_NAME = "particles.pvd"
BODY_PVD_NAME = "bodies.pvd"
FLOAT32_FIELDS = frozenset({"velocity", "free_surface", "bottom", "wetness"})  # in the npz frames
MESH_NAME = "mesh.npz"


def particle_fields(particles) -> dict[str, np.ndarray]:
    """Copies of a droplet system's positions (p, 3), velocities (p, 3), volumes (p,) and,
    when it carries k > 0 dyes, their concentrations (p, k)."""
    fields = {PARTICLE_PREFIX + "positions": np.array(particles.positions, dtype=np.float64),
              PARTICLE_PREFIX + "velocities": np.array(particles.velocities, dtype=np.float64),
              PARTICLE_PREFIX + "volumes": np.array(particles.volumes, dtype=np.float64)}
    if particles.n_dyes > 0:
        fields[PARTICLE_PREFIX + "dyes"] = np.array(particles.dyes, dtype=np.float64)
    return fields


def frame_fields(sim) -> dict[str, np.ndarray]:
    """The per-vertex fields of ``sim``'s current state (see the module docstring); a model
    with its own ``frame_fields()`` (``surfflow.Ripples``) gives those."""
    if hasattr(sim, "frame_fields"):
        return sim.frame_fields()
    geom = sim.geometry
    depth = np.array(sim.depth, dtype=np.float64)
    bottom = np.array(sim.bottom, dtype=np.float64)
    fields = {
        "depth": depth,
        "velocity": np.array(sim.velocity, dtype=np.float64),
        "bottom": bottom,
        "free_surface": (bottom + depth)[:, None] * geom.normals,
        "wetness": np.array(sim.wetness, dtype=np.float64),
    }
    dye = np.asarray(sim.dye)
    if dye.ndim == 2 and dye.shape[1] > 0:
        fields["dye"] = np.array(dye, dtype=np.float64)
    if sim.term("dissolution"):
        fields["dissolved"] = np.array(sim.dissolved, dtype=np.float64)
        fields["soluble_layer"] = np.array(sim.soluble_layer, dtype=np.float64)
    if sim.term("motion"):
        fields["vertices"] = np.array(geom.vertices, dtype=np.float64)
        fields["normals"] = np.array(geom.normals, dtype=np.float64)
    if sim.particles is not None:
        fields.update(particle_fields(sim.particles))
    if sim.bodies:
        fields.update(body_fields(sim.bodies))
    return fields


def body_fields(bodies) -> dict[str, np.ndarray]:
    """The rigid bodies' poses: body_position (m, 3) m, body_orientation (m, 4) quaternions
    (w, x, y, z)."""
    return {BODY_PREFIX + "position": np.array([b.position for b in bodies]).reshape(-1, 3),
            BODY_PREFIX + "orientation": np.array([b.orientation for b in bodies]).reshape(-1, 4)}


def posed(mesh, position: np.ndarray, orientation: np.ndarray) -> np.ndarray:
    """(v, 3) a body's mesh vertices (in its frame) at the pose (3,), quaternion (w, x, y, z)."""
    w, x, y, z = orientation
    rotation = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                         [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                         [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])
    return np.asarray(mesh.vertices) @ rotation.T + position


def frame_name(frame: int, suffix: str) -> str:
    return f"frame_{frame:05d}{suffix}"


def save_npz(path: str | os.PathLike, arrays: dict, stored=frozenset()) -> dict[str, float]:
    """``np.savez_compressed`` at deflate level 1 (the names in ``stored`` stored without
    deflating), read by ``np.load``; returns {name: stored size / raw size}."""
    ratios = {}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=LEVEL) as archive:
        for name, values in arrays.items():
            member = zipfile.ZipInfo(name + ".npy", (1980, 1, 1, 0, 0, 0)) if name in stored \
                else name + ".npy"
            with archive.open(member, "w", force_zip64=True) as file:
                np.lib.format.write_array(file, np.asanyarray(values), allow_pickle=False)
            info = archive.getinfo(name + ".npy")
            ratios[name] = info.compress_size / max(info.file_size, 1)
    return ratios


class NpzFrameWriter:
    """Writes ``mesh.npz`` once and one compressed ``frame_NNNNN.npz`` per frame (a field that
    did not deflate below ``STORE_ABOVE`` of its size is stored from the next frame on).

    ``mesh.npz`` holds the surface and its ``bottom`` at rest, and the asset's ``asset_*``
    arrays when the mesh has one (:meth:`surfflow.io.asset.Asset.arrays`). The fields in
    ``FLOAT32_FIELDS`` are stored as float32, the others as given.
    """

    def __init__(self, directory: str | os.PathLike, geometry):
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.stored: set[str] = set()
        bottom = getattr(geometry, "bottom", None)
        rest = {} if bottom is None else {"bottom": bottom}
        asset = getattr(geometry, "asset", None)
        if asset is not None:
            rest.update(asset.arrays())
        self.written_once = [self.directory / MESH_NAME]
        save_npz(self.directory / MESH_NAME, {
            "vertices": geometry.vertices, "faces": geometry.faces, "normals": geometry.normals,
            "dual_areas": geometry.dual_areas, "original_vertices": geometry.original_vertices,
            **rest})

    def write(self, frame: int, time: float, fields: dict) -> Path:
        path = self.directory / frame_name(frame, ".npz")
        fields = {name: np.asarray(values, dtype=np.float32) if name in FLOAT32_FIELDS else values
                  for name, values in fields.items()}
        ratios = save_npz(path, {"time": np.float64(time), "frame": np.int64(frame), **fields},
                          self.stored)
        self.stored |= {name for name, ratio in ratios.items() if ratio > STORE_ABOVE}
        return path


def read_frame(path: str | os.PathLike) -> tuple[int, float, dict[str, np.ndarray]]:
    """The frame number, time (s) and fields of a ``frame_NNNNN.npz`` as written."""
    path = Path(path)
    with np.load(path, allow_pickle=False) as data:
        fields = {name: data[name] for name in data.files if name not in ("time", "frame")}
        frame, time = int(data["frame"]), float(data["time"])
    return frame, time, fields


class VtuSeriesWriter:
    """Writes ``frame_NNNNN.vtu`` per frame and keeps ``frames.pvd`` listing them with times.

    first_frame: entries of an existing index before this frame are kept (a resumed run).
    """

    index_name = PVD_NAME

    def __init__(self, directory: str | os.PathLike, geometry, first_frame: int = 0):
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.entries = [(t, name) for t, name in read_pvd(self.directory / self.index_name)
                        if int(Path(name).stem.split("_")[-1]) < first_frame]
        self.stored: set[str] = set()
        self.cells = triangle_cells(geometry.faces)
        self.rest = {"vertices": CompressedArray(geometry.vertices),
                     "normals": CompressedArray(geometry.normals)}

    def write(self, frame: int, time: float, fields: dict) -> Path:
        path = self.directory / frame_name(frame, ".vtu")
        values, points, normals = mesh_point_data(fields, self.rest)
        point_data = {name: self._compress(name, field) for name, field in values.items()}
        point_data["normal"] = self._compress("normal", normals)
        write_vtu(path, self._compress("points", points), self.cells, point_data)
        self.entries.append((float(time), path.name))
        self._write_index()
        return path

    def _compress(self, name: str, values) -> CompressedArray:
        """``values`` compressed, stored (level 0) once a frame's did not deflate well."""
        if isinstance(values, CompressedArray):
            return values
        array = CompressedArray(values, level=0 if name in self.stored else LEVEL)
        if array.ratio > STORE_ABOVE:
            self.stored.add(name)
        return array

    def _write_index(self) -> None:
        root = ET.Element("VTKFile", type="Collection", version="0.1", byte_order="LittleEndian")
        collection = ET.SubElement(root, "Collection")
        for time, name in self.entries:
            ET.SubElement(collection, "DataSet", timestep=repr(time), group="", part="0", file=name)
        ET.indent(root)
        temporary = self.directory / (self.index_name + ".tmp")
        ET.ElementTree(root).write(temporary, encoding="utf-8", xml_declaration=True)
        os.replace(temporary, self.directory / self.index_name)


class ParticleVtuSeriesWriter(VtuSeriesWriter):
    """Writes the droplets of each frame as ``particles_NNNNN.vtu`` (vertex cells, point data
    velocity, volume, radius and, with dyes, dye (p, k), in Float64: they are few) and keeps
    ``particles.pvd``; frames without them are skipped."""

    index_name = PARTICLE_PVD_NAME

    def write(self, frame: int, time: float, fields: dict) -> Path | None:
        if PARTICLE_PREFIX + "positions" not in fields:
            return None
        path = self.directory / f"particles_{frame:05d}.vtu"
        positions, point_data = particle_point_data(fields)
        write_vtu(path, positions, vertex_cells(len(positions)), point_data, real=np.float64)
        self.entries.append((float(time), path.name))
        self._write_index()
        return path


class BodyVtuSeriesWriter(VtuSeriesWriter):
    """Writes the rigid bodies of each frame as one ``bodies_NNNNN.vtu`` (their meshes at the
    frame's poses, cell data ``body``: the index of each triangle's body) and keeps
    ``bodies.pvd``; ``meshes``: each body's mesh in its own frame (trimesh)."""

    index_name = BODY_PVD_NAME

    def __init__(self, directory: str | os.PathLike, geometry, meshes: list, first_frame: int = 0):
        super().__init__(directory, geometry, first_frame)
        self.meshes = meshes

    def write(self, frame: int, time: float, fields: dict) -> Path | None:
        if BODY_PREFIX + "position" not in fields:
            return None
        path = self.directory / f"bodies_{frame:05d}.vtu"
        poses = zip(fields[BODY_PREFIX + "position"], fields[BODY_PREFIX + "orientation"],
                    strict=True)
        points = [posed(m, x, q) for m, (x, q) in zip(self.meshes, poses, strict=True)]
        starts = np.cumsum([0] + [len(p) for p in points[:-1]])
        faces = np.concatenate([np.asarray(m.faces) + s for m, s in zip(self.meshes, starts, strict=True)])
        owner = np.concatenate([np.full(len(p), k) for k, p in enumerate(points)])
        write_vtu(path, np.concatenate(points), triangle_cells(faces), {"body": owner})
        self.entries.append((float(time), path.name))
        self._write_index()
        return path


def read_pvd(path: str | os.PathLike) -> list[tuple[float, str]]:
    """The (time, file name) entries of a .pvd index; empty if the file does not exist."""
    if not os.path.exists(path):
        return []
    root = ET.parse(path).getroot()
    return [(float(d.get("timestep")), d.get("file")) for d in root.iter("DataSet")]


def make_writers(directory: str | os.PathLike, formats, geometry, first_frame: int = 0,
                 scene=None) -> list:
    """The writers of the requested formats ("npz", "vtu", "vtkhdf", "usd", "maps"), all
    writing into ``directory`` (the bodies go to a VTU series in either ParaView format); the USD
    stage takes its frame rate, up axis and colours from ``scene`` when given, the maps their
    resolution and thickness range (``[output] map_resolution``, ``map_thickness_range``)."""
    writers = []
    if "npz" in formats:
        writers.append(NpzFrameWriter(directory, geometry))
    body_meshes = [spec.build().shape.mesh for spec in getattr(scene, "bodies", ())]
    if "vtu" in formats:
        writers.append(VtuSeriesWriter(directory, geometry, first_frame))
        writers.append(ParticleVtuSeriesWriter(directory, geometry, first_frame))
    if "vtkhdf" in formats:
        from .vtkhdf import ParticleVtkHdfWriter, SurfaceVtkHdfWriter
        writers.append(SurfaceVtkHdfWriter(directory, geometry, first_frame))
        writers.append(ParticleVtkHdfWriter(directory, first_frame))
    if body_meshes and {"vtu", "vtkhdf"} & set(formats):
        writers.append(BodyVtuSeriesWriter(directory, geometry, body_meshes, first_frame))
    maps = None
    if "maps" in formats:
        from .maps import MapWriter
        output = getattr(scene, "output", None)
        options = {} if output is None else {"resolution": output.map_resolution,
                                             "thickness_range": output.map_thickness_range}
        maps = MapWriter(directory, geometry, dye_colors=tuple(getattr(scene, "dye_colors", ())),
                         **options)
        writers.append(maps)
    if "usd" in formats:
        from .usd import UsdSettings, UsdWriter
        settings = UsdSettings.from_scene(scene) if scene is not None else None
        writers.append(UsdWriter(directory, geometry, settings, first_frame, maps=maps))
        writers[-1].body_meshes = body_meshes
    return writers
