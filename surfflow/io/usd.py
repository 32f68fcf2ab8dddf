"""USD export: one stage per run (``run.usdc``), time-sampled at the run's frames.

Needs the optional extra ``usd`` (``pip install "surfflow[usd]"``: Pixar's usd-core, imported as
``pxr``). ``UsdWriter`` is a frame writer like those in :mod:`surfflow.io.writers`
(``write(frame, time, fields)``); ``[output] formats = ["usd"]`` adds it to a run and
``export_run(run_dir, path)`` (``surfflow export-usd RUN_DIR -o run.usdc``) builds the same
stage from a finished run's npz frames. The stage::

    /surfflow               Xform, the default prim; turned only when gravity is not along -Y or -Z
      object                Mesh: the input surface (points once; per frame when the surface
                            moves), with the vertex primvar ``wetness`` per frame
      liquid                Mesh on the same triangles, points on the free surface x + (b + d) n
      particles             Points, when the frames carry droplets (widths: equal-volume spheres)
      materials/water       UsdPreviewSurface (opacity from the depth, ior 1.33, roughness 0.05)
      materials/object      the object's UsdPreviewSurface, when the mesh came with UVs (below)

Units are metres (``metersPerUnit`` 1), ``upAxis`` is the axis against gravity (Y or Z), frame k
is time code k and ``timeCodesPerSecond`` is the run's fps, so the stage plays at the run's
speed. Per frame the liquid carries the vertex primvars ``depth`` (m), ``velocity`` (m/s, world),
``dye_0`` ... ``dye_{k-1}`` (one float primvar per dye: DCC tools import scalar primvars as
attributes, few read a k-element one), ``displayColor`` (the dyes mixed over the liquid's colour)
and ``displayOpacity`` (1 - exp(-d / opacity_depth), at least ``min_opacity`` where wet, 0 where
dry; opacity_depth is 2 mm, 0.05 mm for paint and 0.1 mm for milk: :mod:`surfflow.look`). Its
topology is written once. The object carries the vertex primvar ``wetness`` (0 dry to 1 wet:
where the liquid has been, drying over ``drying_time``, ``surfflow/terms/wetness.py``) per
frame, for a shader to darken the surface with; frames without it (a run written before
wetness was kept) leave it out.

The dry part: the liquid mesh covers the whole object, and where it is dry its points lie on the
object's surface (d = 0). Faces whose three corners are dry are listed per frame in the mesh's
``holeIndices``, a standard UsdGeomMesh attribute that every Hydra renderer and usdview leaves
undrawn. This keeps the topology fixed (a renderer, motion blur and Blender's mesh cache need
that) and costs one int array per frame; faces on the shoreline stay, taper into the object
and fade out through ``displayOpacity``. Dropping the faces would change the topology each
frame; per-vertex opacity alone leaves a skin that z-fights with the object in every viewer
that ignores opacity.

Frames may carry, beyond :func:`surfflow.io.writers.frame_fields`: ``vertices`` (n, 3), the
smoothed surface x of a moving mesh (with ``normals`` (n, 3), the object is x + b n; without, it
moves with x), and ``particle_positions`` (m, 3) with ``particle_volumes`` (m,). The layer is
saved after every frame (usdc appends what is new), so a run stopped at any point leaves a stage
that opens with every frame written so far.

The artist's asset. When the geometry carries an asset (a mesh loaded with UVs,
:mod:`surfflow.io.asset`), the object mesh gets its UVs as the face-varying ``st`` primvar
(corner k of face f: ``corner_uv[f, k]``), per frame the vertex primvars ``depth`` (m),
``wetness`` (when the frames have it) and ``dye_0`` ... (time-sampled), and its own
UsdPreviewSurface (``materials/object``): diffuseColor from a UsdUVTexture reading the base-colour
texture (written once as ``textures/base_color.png`` beside the stage, scaled by the material's
base colour; the base colour alone when there is no texture). With the ``"maps"`` output as
well, the material reads the map sequences, each UsdUVTexture's ``file`` input time-sampled to
frame N's map: diffuseColor from ``maps/color_NNNNN.png``, the base colour darkened where wet
(UsdPreviewSurface cannot multiply the texture by the wetness, so the maps bake the product),
and the roughness from ``maps/wetness_NNNNN.png`` (0.7 dry, 0.1 wet: wet surfaces shine) through
the texture's scale and bias.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import SurfflowError
from ..look import (MIN_OPACITY, OBJECT_COLOR, OPACITY_DEPTH, dye_mix, liquid_opacity,
                    preset_opacity_depth)
from .up_axis import AXES, rotation_onto, up_axis

USD_NAME = "run.usdc"
ROOT = "/surfflow"
PARTICLE_KEYS = ("particle_positions", "particle_volumes")


def import_pxr():
    """The pxr modules (Usd, UsdGeom, UsdShade, Sdf, Vt, Gf), or a clear error naming the extra."""
    try:
        from pxr import Gf, Sdf, Usd, UsdGeom, UsdShade, Vt
    except ImportError as exc:
        raise SurfflowError(f"USD output needs the optional extra 'usd' (pip install 'surfflow[usd]', "
                            f"which installs usd-core); importing pxr failed: {exc}") from None
    return Usd, UsdGeom, UsdShade, Sdf, Vt, Gf


@dataclass(frozen=True)
class UsdSettings:
    """What the stage takes from the scene: frame rate, gravity (up axis), the wet threshold and
    colours; ``opacity_depth`` (m) sets how fast a film turns opaque in ``displayOpacity``."""

    fps: float = 30.0
    gravity: tuple = (0.0, -9.81, 0.0)
    min_depth: float = 1e-6
    liquid_color: tuple = (0.55, 0.75, 0.95)
    dye_colors: tuple = ()
    opacity_depth: float = OPACITY_DEPTH
    min_opacity: float = MIN_OPACITY

    @classmethod
    def from_scene(cls, scene) -> UsdSettings:
        return cls(fps=scene.fps, gravity=tuple(scene.params.gravity),
                   min_depth=scene.params.min_depth, liquid_color=tuple(scene.liquid_color),
                   dye_colors=tuple(scene.dye_colors),
                   opacity_depth=preset_opacity_depth(scene.liquid))

    def opacity(self, depth: np.ndarray, wet: np.ndarray) -> np.ndarray:
        """(n,) opacity of depth (n,) (:func:`surfflow.look.liquid_opacity`), 0 where not ``wet``."""
        return liquid_opacity(depth, wet, self.opacity_depth, self.min_opacity)


def dry_faces(faces: np.ndarray, wet: np.ndarray) -> np.ndarray:
    """Indices of the faces (m, 3) whose three corners are all dry (``wet`` (n,) False)."""
    return np.flatnonzero(~wet[faces].any(axis=1))


def describe_stage(path: str | os.PathLike) -> dict:
    """What ``surfflow info`` says of a USD stage: frames, rate, units, up axis and prims."""
    Usd, UsdGeom, *_ = import_pxr()
    stage = Usd.Stage.Open(str(path))
    if stage is None:
        raise SurfflowError(f"{str(path)!r} cannot be opened as a USD stage")
    start, end = stage.GetStartTimeCode(), stage.GetEndTimeCode()
    return {"type": "USD stage", "frames": f"{start:g} to {end:g} at {stage.GetTimeCodesPerSecond():g} fps",
            "metres per unit": UsdGeom.GetStageMetersPerUnit(stage),
            "up axis": UsdGeom.GetStageUpAxis(stage),
            "prims": ", ".join(str(prim.GetPath()) for prim in stage.Traverse())}


class UsdWriter:
    """Writes the stage ``directory/file_name`` frame by frame (see the module docstring).

    One stage per run (the extra ``usd``, Pixar's usd-core): the object with its ``wetness``
    primvar, the liquid on its free surface with ``depth``, ``velocity`` and dye primvars,
    droplets as points, time-sampled at the run's frames, in metres, with the scene's up axis.
    The layer is saved after every frame.

    Parameters
    ----------
    directory : str or PathLike
        the folder the stage is written into.
    geometry : SurfaceGeometry
        or anything with ``vertices``, ``normals``, ``original_vertices`` (n, 3) and ``faces``
        (m, 3).
    settings : UsdSettings, optional
        the fps, gravity and colours (``surfflow.io.usd.UsdSettings``; defaults if None).
    first_frame : int, default 0
        a resumed run keeps the samples before this frame.
    file_name : str, default "run.usdc"
        the stage's file name (``.usdc`` binary or ``.usda`` text).
    maps : MapWriter, optional
        the run's ``"maps"`` writer (:class:`surfflow.io.maps.MapWriter`): its wetness maps are
        wired into the object's material.

    Examples
    --------
    >>> import surfflow as sf
    >>> writer = sf.UsdWriter("output/run", geom)                      # doctest: +SKIP
    >>> writer.write(0, sim.time, {"depth": sim.depth, "velocity": sim.velocity})  # doctest: +SKIP
    """

    def __init__(self, directory: str | os.PathLike, geometry, settings: UsdSettings | None = None,
                 first_frame: int = 0, file_name: str = USD_NAME, maps=None):
        self.Usd, self.UsdGeom, self.UsdShade, self.Sdf, self.Vt, self.Gf = import_pxr()
        self.settings = settings or UsdSettings()
        self.geometry = geometry
        self.asset = getattr(geometry, "asset", None)
        self.maps = maps
        self.path = Path(directory) / file_name
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.stage = self._open_stage(first_frame)
        self.object = self.UsdGeom.Mesh(self.stage.GetPrimAtPath(f"{ROOT}/object"))
        self.liquid = self.UsdGeom.Mesh(self.stage.GetPrimAtPath(f"{ROOT}/liquid"))
        self.moving = bool(self.object.GetPointsAttr().GetNumTimeSamples())

    # ---- the stage ------------------------------------------------------------------------

    def _open_stage(self, first_frame: int):
        layer = self.Sdf.Layer.Find(str(self.path))
        if first_frame > 0 and self.path.exists():
            layer = layer or self.Sdf.Layer.FindOrOpen(str(self.path))
            layer.Reload()
            stage = self.Usd.Stage.Open(layer)
            self._drop_samples_from(stage, first_frame)
            stage.SetEndTimeCode(max(stage.GetStartTimeCode(), first_frame - 1))
            return stage
        if layer is not None:
            layer.Clear()
        else:
            self.path.unlink(missing_ok=True)
            layer = self.Sdf.Layer.CreateNew(str(self.path))
        stage = self.Usd.Stage.Open(layer)
        self._build(stage)
        return stage

    @staticmethod
    def _drop_samples_from(stage, first_frame: int) -> None:
        """Remove every time sample at or after ``first_frame`` (a resumed run rewrites them)."""
        for prim in stage.Traverse():
            for attribute in prim.GetAttributes():
                for time in attribute.GetTimeSamples():
                    if time >= first_frame:
                        attribute.ClearAtTime(time)

    def _build(self, stage) -> None:
        """Stage metadata, the prims, the topology, the object's rest points and the material."""
        UsdGeom, Vt = self.UsdGeom, self.Vt
        s, geom = self.settings, self.geometry
        index, _ = up_axis(s.gravity)
        target = index if index in (1, 2) else 1
        UsdGeom.SetStageMetersPerUnit(stage, 1.0)
        UsdGeom.SetStageUpAxis(stage, AXES[target])
        stage.SetTimeCodesPerSecond(s.fps)
        stage.SetFramesPerSecond(s.fps)
        root = UsdGeom.Xform.Define(stage, ROOT)
        stage.SetDefaultPrim(root.GetPrim())
        turn = rotation_onto(s.gravity, target)
        if not np.array_equal(turn, np.eye(3)):
            matrix = np.eye(4)
            matrix[:3, :3] = turn.T
            root.AddTransformOp().Set(self.Gf.Matrix4d(matrix.tolist()))
        counts = Vt.IntArray.FromNumpy(np.full(len(geom.faces), 3, dtype=np.int32))
        indices = Vt.IntArray.FromNumpy(np.ascontiguousarray(geom.faces, dtype=np.int32).ravel())
        for name in ("object", "liquid"):
            mesh = UsdGeom.Mesh.Define(stage, f"{ROOT}/{name}")
            mesh.CreateFaceVertexCountsAttr(counts)
            mesh.CreateFaceVertexIndicesAttr(indices)
            mesh.CreateSubdivisionSchemeAttr(UsdGeom.Tokens.none)
        obj = UsdGeom.Mesh(stage.GetPrimAtPath(f"{ROOT}/object"))
        obj.CreatePointsAttr(self._vec3f(geom.original_vertices))
        obj.CreateExtentAttr(self._extent(geom.original_vertices))
        obj.CreateDisplayColorPrimvar(UsdGeom.Tokens.constant).Set([self.Gf.Vec3f(*OBJECT_COLOR)])
        self._build_liquid_primvars(stage)
        self._bind_water_material(stage)
        if self.asset is not None:
            self._build_asset(stage, obj)

    def _build_liquid_primvars(self, stage) -> None:
        UsdGeom, Sdf = self.UsdGeom, self.Sdf
        liquid = UsdGeom.Mesh(stage.GetPrimAtPath(f"{ROOT}/liquid"))
        primvars = UsdGeom.PrimvarsAPI(liquid.GetPrim())
        vertex = UsdGeom.Tokens.vertex
        primvars.CreatePrimvar("depth", Sdf.ValueTypeNames.FloatArray, vertex)
        primvars.CreatePrimvar("velocity", Sdf.ValueTypeNames.Vector3fArray, vertex)
        liquid.CreateDisplayColorPrimvar(vertex)
        liquid.CreateDisplayOpacityPrimvar(vertex)
        liquid.CreateHoleIndicesAttr()
        liquid.CreateExtentAttr()

    def _bind_water_material(self, stage) -> None:
        """A UsdPreviewSurface: colour and opacity read from displayColor / displayOpacity."""
        UsdShade, Sdf = self.UsdShade, self.Sdf
        material = UsdShade.Material.Define(stage, f"{ROOT}/materials/water")
        surface = UsdShade.Shader.Define(stage, f"{ROOT}/materials/water/surface")
        surface.CreateIdAttr("UsdPreviewSurface")
        surface.CreateInput("ior", Sdf.ValueTypeNames.Float).Set(1.33)
        surface.CreateInput("roughness", Sdf.ValueTypeNames.Float).Set(0.05)
        surface.CreateInput("metallic", Sdf.ValueTypeNames.Float).Set(0.0)
        for name, kind, reader_type in (("displayColor", Sdf.ValueTypeNames.Color3f, "float3"),
                                        ("displayOpacity", Sdf.ValueTypeNames.Float, "float")):
            reader = UsdShade.Shader.Define(stage, f"{ROOT}/materials/water/{name}")
            reader.CreateIdAttr(f"UsdPrimvarReader_{reader_type}")
            reader.CreateInput("varname", Sdf.ValueTypeNames.Token).Set(name)
            output = reader.CreateOutput("result", kind)
            target = "diffuseColor" if name == "displayColor" else "opacity"
            surface.CreateInput(target, kind).ConnectToSource(output)
        material.CreateSurfaceOutput().ConnectToSource(surface.ConnectableAPI(), "surface")
        liquid = stage.GetPrimAtPath(f"{ROOT}/liquid")
        UsdShade.MaterialBindingAPI.Apply(liquid).Bind(material)

    def _build_asset(self, stage, obj) -> None:
        """The asset's UVs on the object (face-varying ``st``) and its material: base-colour
        texture, and the wetness maps when the run writes them."""
        UsdGeom, UsdShade, Sdf = self.UsdGeom, self.UsdShade, self.Sdf
        primvars = UsdGeom.PrimvarsAPI(obj.GetPrim())
        st = primvars.CreatePrimvar("st", Sdf.ValueTypeNames.TexCoord2fArray,
                                    UsdGeom.Tokens.faceVarying)
        st.Set(self.Vt.Vec2fArray.FromNumpy(
            np.ascontiguousarray(self.asset.corner_uv.reshape(-1, 2), dtype=np.float32)))
        path = f"{ROOT}/materials/object"
        material = UsdShade.Material.Define(stage, path)
        surface = UsdShade.Shader.Define(stage, path + "/surface")
        surface.CreateIdAttr("UsdPreviewSurface")
        surface.CreateInput("roughness", Sdf.ValueTypeNames.Float).Set(0.7)
        reader = UsdShade.Shader.Define(stage, path + "/st")
        reader.CreateIdAttr("UsdPrimvarReader_float2")
        reader.CreateInput("varname", Sdf.ValueTypeNames.Token).Set("st")
        st_output = reader.CreateOutput("result", Sdf.ValueTypeNames.Float2)
        color = self.Gf.Vec3f(*self.asset.base_color[:3])
        diffuse = surface.CreateInput("diffuseColor", Sdf.ValueTypeNames.Color3f)
        if self.asset.texture is not None:
            texture = self._texture(stage, path + "/base_color", st_output, self._base_color_file())
            texture.CreateInput("scale", Sdf.ValueTypeNames.Float4).Set(
                self.Gf.Vec4f(*self.asset.base_color))
            diffuse.ConnectToSource(texture.CreateOutput("rgb", Sdf.ValueTypeNames.Float3))
        else:
            diffuse.Set(color)
        if self.maps is not None:  # the base colour darkened where wet, one map per frame
            wet_color = self._texture(stage, path + "/wet_color", st_output, None)
            diffuse.ConnectToSource(wet_color.CreateOutput("rgb", Sdf.ValueTypeNames.Float3))
            wetness = self._texture(stage, path + "/wetness", st_output, None)
            wetness.CreateInput("scale", Sdf.ValueTypeNames.Float4).Set(self.Gf.Vec4f(-0.6, -0.6, -0.6, 1))
            wetness.CreateInput("bias", Sdf.ValueTypeNames.Float4).Set(self.Gf.Vec4f(0.7, 0.7, 0.7, 0))
            surface.GetInput("roughness").ConnectToSource(
                wetness.CreateOutput("r", Sdf.ValueTypeNames.Float))
        material.CreateSurfaceOutput().ConnectToSource(surface.ConnectableAPI(), "surface")
        UsdShade.MaterialBindingAPI.Apply(obj.GetPrim()).Bind(material)
        for name in ("depth", "wetness"):
            primvars.CreatePrimvar(name, Sdf.ValueTypeNames.FloatArray, UsdGeom.Tokens.vertex)

    def _texture(self, stage, path: str, st_output, file: str | None):
        """A UsdUVTexture at ``path`` reading ``file`` (set later when None) at ``st``."""
        Sdf = self.Sdf
        texture = self.UsdShade.Shader.Define(stage, path)
        texture.CreateIdAttr("UsdUVTexture")
        file_input = texture.CreateInput("file", Sdf.ValueTypeNames.Asset)
        if file is not None:
            file_input.Set(file)
        texture.CreateInput("st", Sdf.ValueTypeNames.Float2).ConnectToSource(st_output)
        texture.CreateInput("wrapS", Sdf.ValueTypeNames.Token).Set("repeat")
        texture.CreateInput("wrapT", Sdf.ValueTypeNames.Token).Set("repeat")
        return texture

    def _base_color_file(self) -> str:
        """Write the asset's texture beside the stage once; its path relative to the stage."""
        from PIL import Image
        folder = self.path.parent / "textures"
        folder.mkdir(parents=True, exist_ok=True)
        Image.fromarray(np.asarray(self.asset.texture)).save(folder / "base_color.png")
        return "./textures/base_color.png"

    def _write_asset_fields(self, code, fields: dict) -> None:
        """The frame's vertex fields on the object, and its wetness map in the material."""
        primvars = self.UsdGeom.PrimvarsAPI(self.object.GetPrim())
        for name in ("depth", "wetness"):
            if name in fields:
                primvars.GetPrimvar(name).Set(self.Vt.FloatArray.FromNumpy(
                    np.ascontiguousarray(fields[name], dtype=np.float32)), code)
        dye = fields.get("dye", np.zeros((0, 0)))
        for k in range(dye.shape[1] if dye.ndim == 2 else 0):
            self._dye_primvar(primvars, k).Set(
                self.Vt.FloatArray.FromNumpy(np.ascontiguousarray(dye[:, k], dtype=np.float32)), code)
        if self.maps is None or "wetness" not in fields:
            return
        for shader, name in (("wetness", "wetness"), ("wet_color", "color")):
            prim = self.stage.GetPrimAtPath(f"{ROOT}/materials/object/{shader}")
            if prim:
                file = f"./{self.maps.directory.name}/{name}_{int(code.GetValue()):05d}.png"
                self.UsdShade.Shader(prim).GetInput("file").Set(self.Sdf.AssetPath(file), code)

    # ---- frames ---------------------------------------------------------------------------

    def write(self, frame: int, time: float, fields: dict) -> Path:
        """Add ``frame``'s samples (time code ``frame``) and save the layer."""
        code = self.Usd.TimeCode(frame)
        geom, s = self.geometry, self.settings
        depth = np.asarray(fields["depth"])
        wet = depth >= s.min_depth
        base = fields.get("vertices", geom.vertices)
        points = base + fields["free_surface"]
        liquid = self.liquid
        liquid.GetPointsAttr().Set(self._vec3f(points), code)
        liquid.GetExtentAttr().Set(self._extent(points), code)
        liquid.GetHoleIndicesAttr().Set(self.Vt.IntArray.FromNumpy(
            dry_faces(geom.faces, wet).astype(np.int32)), code)
        primvars = self.UsdGeom.PrimvarsAPI(liquid.GetPrim())
        primvars.GetPrimvar("depth").Set(self.Vt.FloatArray.FromNumpy(depth.astype(np.float32)), code)
        primvars.GetPrimvar("velocity").Set(self._vec3f(fields["velocity"]), code)
        dye = fields.get("dye", np.zeros((len(depth), 0)))
        for k in range(dye.shape[1]):
            self._dye_primvar(primvars, k).Set(
                self.Vt.FloatArray.FromNumpy(np.ascontiguousarray(dye[:, k], dtype=np.float32)), code)
        colors = dye_mix(dye, s.dye_colors[:dye.shape[1]], s.liquid_color)
        liquid.GetDisplayColorPrimvar().Set(self._vec3f(colors), code)
        liquid.GetDisplayOpacityPrimvar().Set(self.Vt.FloatArray.FromNumpy(
            s.opacity(depth, wet).astype(np.float32)), code)
        if "wetness" in fields:
            self._object_primvar("wetness").Set(self.Vt.FloatArray.FromNumpy(
                np.ascontiguousarray(fields["wetness"], dtype=np.float32)), code)
        if "vertices" in fields:
            self._move_object(frame, fields)
        if self.asset is not None:
            self._write_asset_fields(code, fields)
        if all(key in fields for key in PARTICLE_KEYS):
            self._write_particles(frame, fields)
        if "body_position" in fields:
            self._write_bodies(frame, fields)
        self._set_time_range(frame)
        self.stage.GetRootLayer().Save()
        return self.path

    def _dye_primvar(self, primvars, k: int):
        name = f"dye_{k}"
        if not primvars.HasPrimvar(name):
            return primvars.CreatePrimvar(name, self.Sdf.ValueTypeNames.FloatArray,
                                          self.UsdGeom.Tokens.vertex)
        return primvars.GetPrimvar(name)

    def _object_primvar(self, name: str):
        """The object's float vertex primvar ``name``, made on its first frame."""
        primvars = self.UsdGeom.PrimvarsAPI(self.object.GetPrim())
        if not primvars.HasPrimvar(name):
            return primvars.CreatePrimvar(name, self.Sdf.ValueTypeNames.FloatArray,
                                          self.UsdGeom.Tokens.vertex)
        return primvars.GetPrimvar(name)

    def _move_object(self, frame: int, fields: dict) -> None:
        """The object's points at ``frame``: x + b n with the frame's normals, else moved with x."""
        geom = self.geometry
        if "normals" in fields:
            points = fields["vertices"] + fields["bottom"][:, None] * fields["normals"]
        else:
            points = geom.original_vertices + (fields["vertices"] - geom.vertices)
        attribute = self.object.GetPointsAttr()
        if not self.moving and frame > self._start_frame():
            attribute.Set(self._vec3f(geom.original_vertices), self.Usd.TimeCode(frame - 1))
        self.moving = True
        attribute.Set(self._vec3f(points), self.Usd.TimeCode(frame))
        self.object.GetExtentAttr().Set(self._extent(points), self.Usd.TimeCode(frame))

    def _write_particles(self, frame: int, fields: dict) -> None:
        """Droplets as points, widths the diameters of spheres of their volumes."""
        path = f"{ROOT}/particles"
        created = not self.stage.GetPrimAtPath(path)
        points = self.UsdGeom.Points.Define(self.stage, path)
        if created and frame > self._start_frame():
            points.CreatePointsAttr().Set(self.Vt.Vec3fArray(), self.Usd.TimeCode(self._start_frame()))
            points.CreateWidthsAttr().Set(self.Vt.FloatArray(), self.Usd.TimeCode(self._start_frame()))
        volumes = np.asarray(fields["particle_volumes"], dtype=np.float64)
        widths = np.cbrt(6.0 * volumes / np.pi).astype(np.float32)
        code = self.Usd.TimeCode(frame)
        points.CreatePointsAttr().Set(self._vec3f(np.reshape(fields["particle_positions"], (-1, 3))), code)
        points.CreateWidthsAttr().Set(self.Vt.FloatArray.FromNumpy(widths), code)

    def _write_bodies(self, frame: int, fields: dict) -> None:
        """One Xform per rigid body, ``bodies/body_K``, its transform time-sampled (the pose),
        over a Mesh of the body in its own frame (``body_meshes``, set by ``make_writers``)."""
        Gf = __import__("pxr", fromlist=["Gf"]).Gf
        code = self.Usd.TimeCode(frame)
        meshes = getattr(self, "body_meshes", [])
        for k, (x, q) in enumerate(zip(fields["body_position"], fields["body_orientation"],
                                       strict=True)):
            path = f"{ROOT}/bodies/body_{k}"
            xform = self.UsdGeom.Xform.Define(self.stage, path)
            if not xform.GetOrderedXformOps():
                xform.AddTransformOp()
                if k < len(meshes):
                    mesh = self.UsdGeom.Mesh.Define(self.stage, path + "/mesh")
                    mesh.CreatePointsAttr().Set(self._vec3f(meshes[k].vertices))
                    mesh.CreateFaceVertexCountsAttr().Set([3] * len(meshes[k].faces))
                    mesh.CreateFaceVertexIndicesAttr().Set(self.Vt.IntArray.FromNumpy(
                        np.asarray(meshes[k].faces, dtype=np.int32).reshape(-1)))
            rotation = Gf.Matrix3d(Gf.Rotation(Gf.Quatd(*map(float, q))))
            matrix = Gf.Matrix4d(rotation, Gf.Vec3d(*map(float, x)))
            xform.GetOrderedXformOps()[0].Set(matrix, code)

    def _start_frame(self) -> int:
        start = self.stage.GetStartTimeCode()
        return int(start) if self.stage.HasAuthoredMetadata("startTimeCode") else 0

    def _set_time_range(self, frame: int) -> None:
        stage = self.stage
        if not stage.HasAuthoredMetadata("startTimeCode") or frame < stage.GetStartTimeCode():
            stage.SetStartTimeCode(frame)
        if not stage.HasAuthoredMetadata("endTimeCode") or frame > stage.GetEndTimeCode():
            stage.SetEndTimeCode(frame)

    def _vec3f(self, values: np.ndarray):
        return self.Vt.Vec3fArray.FromNumpy(np.ascontiguousarray(values, dtype=np.float32))

    def _extent(self, points: np.ndarray):
        return self._vec3f(np.stack([points.min(axis=0), points.max(axis=0)]))
