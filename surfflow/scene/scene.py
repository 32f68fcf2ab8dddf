"""Scene files: a TOML description of a whole run, parsed and checked into a frozen ``Scene``.

A scene names the mesh (a file or a built-in procedural mesh, with the file's units, its up
axis, scale, rotation in degrees about x, y, z in that order, and translation), the gravity
vector (default (0, -9.81, 0): a mesh file's ``up`` axis is turned onto +y), the liquid (a preset from
:mod:`surfflow.scene.presets` and/or explicit values), friction (model, coefficient and where the
anisotropy tensors come from), sources (``[[sources]]`` of type pour, rain or sink, each with an
optional dye colour), the initial condition, the duration and frame rate, outputs and rendering.
See ``surfflow/examples/*.toml`` for complete files; every key is listed in
:mod:`surfflow.scene.scene_schema`.

Files the scene reads (mesh, initial depth, friction field) are relative to the scene file;
output and render directories are relative to the working directory. Every unknown key and bad
value raises :class:`~surfflow.errors.SceneError` naming the file, line, key and what is allowed.
"""

from __future__ import annotations

import difflib
import math
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..boundaries import check_segment
from ..config import Params, PrecomputeParams
from ..errors import MeshError, ParameterError, SceneError
from ..kernels.wind import WindGrid
from ..io.procedural import PROCEDURAL_MESHES
from . import scene_schema as schema
from .body_spec import body_specs
from .motion_spec import MOTION_KEYS, MotionSpec, MotionTableError, motion_spec
from .ripple_spec import FILM_TABLES, RippleSpec, RippleTableError, ripple_spec
from .presets import DEFAULT_LIQUID, LIQUID_PRESETS
from .toml_lines import key_lines, line_of, parse_toml, read_text

FRAME_SLACK = 1e-9
"""duration * fps within this fraction above a whole number of frames counts as that number, so
round-off (0.1 s at 30 fps is 3.0000000000000004 frames) adds no frame of a few attoseconds."""


@dataclass(frozen=True)
class MeshSpec:
    """Where the mesh comes from and how it is placed: x' = R (s * x) + t, after a mesh file's
    ``units`` and ``up`` axis have made it metres with +y up (``load_mesh``)."""

    path: Path | None = None
    procedural: str | None = None
    procedural_args: dict = field(default_factory=dict)
    scale: tuple = (1.0, 1.0, 1.0)
    rotation: tuple = (0.0, 0.0, 0.0)
    translation: tuple = (0.0, 0.0, 0.0)
    units: str = "m"
    up: str = "y"
    uv_atlas: bool = False
    """a mesh without UVs gets an xatlas atlas (the extra ``uv``), for the "maps" output."""


@dataclass(frozen=True)
class SourceSpec:
    """A pour (disc around ``center``), rain (per area, over the ball around ``center`` if given,
    else everywhere) or sink; ``rate`` in m^3/s for pour and sink, m/s for rain."""

    kind: str
    rate: float
    center: tuple | None = None
    radius: float | None = None
    start: float = 0.0
    stop: float = float("inf")
    color: tuple | None = None


@dataclass(frozen=True)
class EmitterSpec:
    """A nozzle (``position``, ``direction``, ``speed`` m/s, ``radius`` m, ``rate`` m^3/s) or rain
    (``region`` box, ``intensity`` mm/h) pouring particles (``sf.Nozzle``, ``sf.Rain``)."""

    kind: str
    position: tuple | None = None
    direction: tuple | None = None
    speed: float | None = None
    radius: float | None = None
    rate: float | None = None
    region: tuple | None = None
    intensity: float | None = None
    start: float = 0.0
    stop: float = float("inf")
    color: tuple | None = None


EMITTER_NEEDS = {"nozzle": ("position", "direction", "speed", "radius", "rate"),
                 "rain": ("region", "intensity")}


@dataclass(frozen=True)
class BoundarySpec:
    """An open boundary segment (``Simulation.set_boundary``): the boundary vertices on the plane
    through ``point`` with ``normal``; ``discharge`` (m^2/s) for inflow, ``level`` (m) for level."""

    kind: str
    point: tuple
    normal: tuple
    discharge: float | None = None
    level: float | None = None


@dataclass(frozen=True)
class InitialSpec:
    """Initial depth: ``depth`` everywhere or inside the ball (center, radius), or from ``file``
    (an .npy of n depths); a uniform world-space ``velocity``, projected on the surface."""

    depth: float = 0.0
    center: tuple | None = None
    radius: float | None = None
    file: Path | None = None
    velocity: tuple = (0.0, 0.0, 0.0)


@dataclass(frozen=True)
class LayerSpec:
    """The soluble layer (m, metres): ``thickness`` everywhere or inside the ball (center,
    radius), or from ``file`` (an .npy of n thicknesses). Its presence turns dissolution on."""

    thickness: float = 0.0
    center: tuple | None = None
    radius: float | None = None
    file: Path | None = None


@dataclass(frozen=True)
class OutputSpec:
    """Where frames go (default ``output/<scene name>``) and in which formats."""

    directory: Path = Path("output")
    formats: tuple = ("npz", "vtkhdf")
    checkpoint_every: int = 0
    """frames between checkpoints; 0 writes one only at the end or on Ctrl-C."""
    map_resolution: int = 1024
    """texels per side of the "maps" output's images (surfflow.io.maps)."""
    map_thickness_range: float = 0.01
    """the film thickness (m) at the brightest level of the "maps" output's thickness images."""


@dataclass(frozen=True)
class RenderSpec:
    """Headless rendering: image folder (default ``render/<scene name>``), size, colouring, camera."""

    directory: Path = Path("render")
    width: int = 800
    height: int = 600
    color_by: str = "dye"
    video: bool = True
    camera: tuple | None = None
    target: tuple | None = None
    engine: str = "polyscope"
    """"polyscope" (the default) or "blender" (Cycles, the optional extra "blender")."""
    material: str = "water"
    """the liquid's polyscope material: "water" (glossy, surfflow's own) or wax, candy, clay, flat."""
    opacity: float = 0.8
    """opacity of deep liquid (0..1); thin films are FILM_OPACITY of it (surfflow/look.py)."""
    tint_depth: float = 5e-5
    """depth (m) over which the liquid turns from a clear film to its full colour and opacity."""
    dry_time: float = 0.5
    """seconds over which a drying vertex fades out (0: at once)."""
    ground: str = "shadow_only"
    """polyscope's ground plane: shadow_only, tile, tile_reflection or none."""


@dataclass(frozen=True)
class DropletSpec:
    """The [droplets] table: which particle engine and its settings (keep_depth goes to
    Params). Droplets are on without the table; ``enabled = false`` turns them off."""

    engine: str = "embedded"
    floor: float | None = None
    bounds: tuple | None = None
    drag: float = 1.5
    separation: float = 0.5
    smoothing: float = 0.1
    max_volume: float = 5e-8
    max_particles: int | None = None
    """the most particles at once (None: sf.Droplets' default, from the available memory)."""


@dataclass(frozen=True)
class Scene:
    """A checked scene; build a run from it with :class:`surfflow.SceneRunner`."""

    path: Path
    name: str
    duration: float
    fps: float
    mesh: MeshSpec
    params: Params
    precompute: PrecomputeParams
    cache_dir: Path | None
    liquid: str
    liquid_color: tuple
    friction_tensor: str
    friction_file: Path | None
    sources: tuple
    initial: InitialSpec
    soluble_layer: LayerSpec | None
    output: OutputSpec
    render: RenderSpec
    motion: MotionSpec | None = None
    """the [motion] table: what moves the mesh (SPEC §9), None for a still mesh."""
    droplets: DropletSpec | None = None
    boundaries: tuple = ()
    """the [[boundaries]] segments (BoundarySpec), empty for none."""
    emitters: tuple = ()
    """the [[emitters]] (EmitterSpec): nozzles and rain pouring particles, empty for none."""
    bodies: tuple = ()
    """the [[bodies]] (``body_spec.BodySpec``), empty for none."""
    mode: str = "film"
    """"film" (the shallow-water film, default) or "ripples" (``surfflow.Ripples``)."""
    ripples: RippleSpec | None = None
    """the [ripples] table of a ``mode = "ripples"`` scene, else None."""

    @property
    def n_frames(self) -> int:
        """Frames after the initial one: frame k is the state at :meth:`frame_time` (k); the last
        is at the duration, a shorter frame when the duration is not a whole number of them."""
        frames = self.duration * self.fps
        return max(1, math.ceil(frames - FRAME_SLACK * frames))

    def frame_time(self, frame: int) -> float:
        """The time (s) of frame ``frame``: frame / fps, the last one (n_frames) at the duration."""
        return self.duration if frame >= self.n_frames else frame / self.fps

    @property
    def dye_colors(self) -> tuple:
        """The distinct source and emitter colours, in order of first use (sources first): dye k
        has colour dye_colors[k]."""
        colors = [s.color for s in (*self.sources, *self.emitters) if s.color is not None]
        return tuple(dict.fromkeys(colors))


def load_scene(path: str | os.PathLike) -> Scene:
    """Read and check a scene file.

    Every table and key is checked against the scene schema (the scene-file reference lists
    them); a mistake raises a :class:`SceneError` naming the file, line, key and what is allowed.

    Parameters
    ----------
    path : str or PathLike
        the scene file (.toml); files it names are read relative to it.

    Returns
    -------
    Scene
        the checked scene: ``name``, ``duration`` (s), ``fps`` (1/s), ``params``
        (:class:`Params`), ``mesh``, ``sources``, ``output``, ``render``, ...; run it with
        :class:`SceneRunner`.

    Raises
    ------
    SceneError
        for bad content, or a missing or unreadable file.

    Examples
    --------
    >>> import surfflow as sf
    >>> from surfflow.cli import EXAMPLES_DIR
    >>> scene = sf.load_scene(EXAMPLES_DIR / "paint_grooves.toml")
    >>> scene.duration, scene.fps, scene.output.formats
    (4.0, 25.0, ('npz', 'vtkhdf'))
    """
    path = Path(path)
    return parse_scene(read_text(path, "scene"), path)


def parse_scene(text: str, path: str | os.PathLike = "<scene>") -> Scene:
    """Check the TOML ``text`` of a scene; ``path`` locates relative files and names errors."""
    path = Path(path)
    return _SceneReader(parse_toml(text, path), path, key_lines(text)).scene()


def _unchanged(value):
    return value


class _SceneReader:
    """Walks the raw TOML dict against the schema, remembering lines for error messages."""

    def __init__(self, raw: dict, path: Path, lines: dict):
        self.raw, self.path, self.lines = raw, path, lines
        self.base = path.parent

    def fail(self, key_path: tuple, message: str) -> SceneError:
        line = line_of(self.lines, key_path)
        where = f"{self.path}, line {line}" if line else str(self.path)
        name = ".".join(str(k) if not isinstance(k, int) else f"[{k}]" for k in key_path)
        return SceneError(f"{where}: {name.replace('.[', '[')}: {message}")

    def table(self, key_path: tuple, values, checkers: dict) -> dict:
        """Check every key of one table; returns {key: converted value}."""
        if not isinstance(values, dict):
            raise self.fail(key_path, f"must be a table of keys {sorted(checkers)}")
        checked = {}
        for key, value in values.items():
            if key_path + (key,) in schema.REMOVED_KEYS:
                raise self.fail(key_path + (key,), schema.REMOVED_KEYS[key_path + (key,)])
            if key not in checkers:
                close = difflib.get_close_matches(key, checkers, n=1)
                hint = f"did you mean {close[0]!r}? " if close else ""
                raise self.fail(key_path + (key,), f"unknown key; {hint}the keys allowed here are "
                                                  f"{', '.join(sorted(checkers))}")
            try:
                checked[key] = checkers[key](value)
            except schema.BadValue as exc:
                raise self.fail(key_path + (key,), str(exc)) from None
        return checked

    def scene(self) -> Scene:
        table_names = (*schema.TABLES, "sources", "motion", "boundaries", "emitters", "bodies")
        top = self.table((), self.raw, {**schema.TOP_LEVEL, **dict.fromkeys(table_names, _unchanged)})
        sections = {name: self.table((name,), self.raw.get(name, {}), checkers)
                    for name, checkers in schema.TABLES.items()}
        liquid = sections["liquid"].get("preset", DEFAULT_LIQUID)
        name = top.get("name", self.path.stem)
        return Scene(
            path=self.path, name=name,
            duration=top.get("duration", 1.0), fps=top.get("fps", 30.0),
            mesh=self.mesh(sections["mesh"]),
            params=self.params(top, sections, LIQUID_PRESETS[liquid]),
            precompute=self.precompute(sections["precompute"]),
            cache_dir=self.cache_dir(sections["precompute"]),
            liquid=liquid,
            liquid_color=sections["liquid"].get("color", LIQUID_PRESETS[liquid]["color"]),
            friction_tensor=sections["friction"].get("tensor", "features"),
            friction_file=self.friction_file(sections["friction"]),
            sources=self.sources(self.raw.get("sources", [])),
            initial=InitialSpec(**self.region("initial", "depth", sections["initial"])),
            soluble_layer=(LayerSpec(**self.region("soluble_layer", "thickness", sections["soluble_layer"]))
                           if sections["soluble_layer"] else None),
            output=OutputSpec(**self.with_directory(sections["output"], Path("output") / name)),
            render=RenderSpec(**self.with_directory(sections["render"], Path("render") / name)),
            motion=self.motion(self.raw.get("motion")),
            droplets=self.droplets(sections["droplets"]),
            boundaries=self.boundaries(self.raw.get("boundaries", [])),
            emitters=self.emitters(self.raw.get("emitters", [])),
            bodies=body_specs(self.raw.get("bodies", []), self.table, self.fail, self.base),
            mode=top.get("mode", "film"),
            ripples=self.ripples(top.get("mode", "film"), sections["ripples"]),
        )

    def ripples(self, mode: str, values: dict) -> RippleSpec | None:
        """The [ripples] table of a ripples scene (whose film tables are refused), else None."""
        if mode != "ripples":
            if "ripples" in self.raw:
                raise self.fail(("ripples",), 'this table needs mode = "ripples" at the top of the file')
            return None
        for table in FILM_TABLES:
            if table in self.raw:
                raise self.fail((table,), 'a mode = "ripples" scene has no film; remove this table '
                                          'or set mode = "film"')
        if "ripples" not in self.raw:
            raise self.fail(("mode",), '"ripples" needs a [ripples] table with wave_speed or depth')
        try:
            return ripple_spec(values, self.base)
        except RippleTableError as exc:
            raise self.fail(("ripples", exc.args[0]), exc.args[1]) from None

    @staticmethod
    def droplets(values: dict) -> DropletSpec | None:
        """The [droplets] table's spec (the defaults without one), None where disabled."""
        if not values.get("enabled", True):
            return None
        params = ("enabled", "keep_depth")
        return DropletSpec(**{k: v for k, v in values.items() if k not in params})

    @staticmethod
    def with_directory(values: dict, default: Path) -> dict:
        """The table's values with ``directory`` as a Path (``default`` when not given)."""
        return {**values, "directory": Path(values.get("directory", default))}

    def mesh(self, values: dict) -> MeshSpec:
        has_path, procedural = "path" in values, values.get("procedural")
        if has_path == (procedural is not None):
            raise self.fail(("mesh",), "give exactly one of 'path' (a mesh file) or 'procedural' "
                                       f"(one of {', '.join(PROCEDURAL_MESHES)})")
        placement = {k: values[k] for k in ("scale", "rotation", "translation", "uv_atlas")
                     if k in values}
        file_keys = {k: values[k] for k in ("units", "up") if k in values}
        args = {k: v for k, v in values.items()
                if k not in placement and k not in file_keys and k not in ("path", "procedural")}
        if has_path:
            if args:
                raise self.fail(("mesh", next(iter(args))), "only procedural meshes take this key")
            return MeshSpec(path=self.base / values["path"], **placement, **file_keys)
        if file_keys:
            raise self.fail(("mesh", next(iter(file_keys))), "only a mesh file ('path') takes this "
                                                           "key; procedural meshes are in metres, +y up")
        allowed = PROCEDURAL_MESHES[procedural][1]
        for key in args:
            if key not in allowed:
                raise self.fail(("mesh", key), f"the {procedural!r} mesh takes only "
                                               f"{', '.join(allowed)} (besides scale, rotation, translation)")
        return MeshSpec(procedural=procedural, procedural_args=args, **placement)

    def params(self, top: dict, sections: dict, preset) -> Params:
        """Params from the preset, then every explicit scene value, each checked on its own."""
        values = {k: v for k, v in preset.items() if k != "color"}
        for key_path, field_name in schema.PARAMS_FIELDS.items():
            source = top if len(key_path) == 1 else sections[key_path[0]]
            if key_path[-1] not in source:
                continue
            try:
                Params().replace(**{field_name: source[key_path[-1]]})
            except ParameterError as exc:
                raise self.fail(key_path, str(exc)) from None
            values[field_name] = source[key_path[-1]]
        if "file" in sections["wind"]:
            values["wind"] = self.wind_grid(sections["wind"])
        try:
            return Params(**values)
        except ParameterError as exc:
            raise self.fail(("liquid",), str(exc)) from None

    def wind_grid(self, values: dict) -> WindGrid:
        """The [wind] table's ``file``: an .npz grid (origin, spacing, values) read as a WindGrid."""
        if "velocity" in values:
            raise self.fail(("wind", "file"), "give the wind as 'velocity' or as a grid 'file', not both")
        try:
            return WindGrid.load(self.base / values["file"])
        except ParameterError as exc:
            raise self.fail(("wind", "file"), str(exc)) from None

    def precompute(self, values: dict) -> PrecomputeParams:
        fields = {k: v for k, v in values.items() if k not in ("cache", "cache_dir")}
        try:
            return PrecomputeParams(**fields)
        except ParameterError as exc:
            raise self.fail(("precompute",), str(exc)) from None

    def cache_dir(self, values: dict) -> Path | None:
        if not values.get("cache", True):
            return None
        return self.base / values["cache_dir"] if "cache_dir" in values else Path(".surfflow_cache")

    def friction_file(self, values: dict) -> Path | None:
        needs_file = values.get("tensor") in ("field", "file")
        if needs_file != ("file" in values):
            raise self.fail(("friction",), "'file' is required exactly when tensor is 'field' "
                                           "(an .npy of n scalars) or 'file' (an .npy of n 2x2 tensors)")
        return self.base / values["file"] if needs_file else None

    def sources(self, entries) -> tuple:
        if not isinstance(entries, list):
            raise self.fail(("sources",), "write sources as [[sources]] tables")
        specs = []
        for k, entry in enumerate(entries):
            values = self.table(("sources", k), entry, schema.SOURCE_KEYS)
            kind = values.pop("type", None)
            if kind is None or "rate" not in values:
                raise self.fail(("sources", k), "every source needs 'type' (pour, rain or sink) and 'rate'")
            if kind != "rain" and not {"center", "radius"} <= values.keys():
                raise self.fail(("sources", k), f"a {kind} needs 'center' [x, y, z] and 'radius'")
            if kind == "rain" and ("center" in values) != ("radius" in values):
                raise self.fail(("sources", k), "rain takes both 'center' and 'radius' (a region) or neither")
            if values.get("stop", float("inf")) <= values.get("start", 0.0):
                raise self.fail(("sources", k, "stop"), "must be later than 'start'")
            specs.append(SourceSpec(kind=kind, **values))
        return tuple(specs)

    def emitters(self, entries) -> tuple:
        if not isinstance(entries, list):
            raise self.fail(("emitters",), "write emitters as [[emitters]] tables")
        specs = []
        for k, entry in enumerate(entries):
            values = self.table(("emitters", k), entry, schema.EMITTER_KEYS)
            kind = values.get("type")
            if kind is None:
                raise self.fail(("emitters", k), "every emitter needs 'type' (nozzle or rain)")
            missing = [key for key in EMITTER_NEEDS[kind] if key not in values]
            if missing:
                raise self.fail(("emitters", k), f"a {kind} needs {', '.join(map(repr, missing))}; "
                                f"give {' and '.join(EMITTER_NEEDS[kind])}")
            other = next((key for key in values if key in EMITTER_NEEDS[
                "rain" if kind == "nozzle" else "nozzle"]), None)
            if other is not None:
                raise self.fail(("emitters", k, other), f"a {kind} takes no {other!r}; its keys are "
                                f"{', '.join(EMITTER_NEEDS[kind])}, start, stop, color")
            if values.get("stop", float("inf")) <= values.get("start", 0.0):
                raise self.fail(("emitters", k, "stop"), "must be later than 'start'")
            specs.append(EmitterSpec(kind=values.pop("type"), **values))
        return tuple(specs)

    def motion(self, values) -> MotionSpec | None:
        """The [motion] table, checked by building the motion once (sequence files are read)."""
        if values is None:
            return None
        checked = self.table(("motion",), values, MOTION_KEYS)
        try:
            spec = motion_spec(checked, self.base)
            spec.build()
        except MotionTableError as exc:
            raise self.fail(("motion", exc.args[0]), exc.args[1]) from None
        except (ParameterError, MeshError) as exc:
            raise self.fail(("motion",), str(exc)) from None
        return spec

    def boundaries(self, entries) -> tuple:
        if not isinstance(entries, list):
            raise self.fail(("boundaries",), "write boundary segments as [[boundaries]] tables")
        specs = []
        for k, entry in enumerate(entries):
            values = self.table(("boundaries", k), entry, schema.BOUNDARY_KEYS)
            kind = values.pop("type", None)
            if kind is None or not {"point", "normal"} <= values.keys():
                raise self.fail(("boundaries", k), "every boundary needs 'type' (inflow, level or "
                                "transmissive), 'point' [x, y, z] and 'normal' [x, y, z]")
            try:
                check_segment(kind, values.get("discharge"), values.get("level"))
            except ParameterError as exc:
                raise self.fail(("boundaries", k), str(exc)) from None
            specs.append(BoundarySpec(kind=kind, **values))
        return tuple(specs)

    def region(self, table: str, value_key: str, values: dict) -> dict:
        """A per-vertex field's table ([initial], [soluble_layer]): ``value_key`` everywhere or
        in the ball (center, radius), or a ``file``; the file path made relative to the scene."""
        if ("center" in values) != ("radius" in values):
            raise self.fail((table,), "give both 'center' and 'radius' for a region, or neither")
        if "file" in values and (value_key in values or "center" in values):
            raise self.fail((table, "file"), f"a file excludes '{value_key}', 'center' and 'radius'")
        if "file" in values:
            values = {**values, "file": self.base / values["file"]}
        return values
