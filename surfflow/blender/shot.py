"""The Blender scene of one run (``BlenderShot``), shaped per frame by the frame's fields (those
the writers get) and rendered by Cycles on the CPU with the OpenImageDenoise denoiser:

- the object: the input surface (moved when the frame carries ``vertices``), matte clay, or the
  asset's base-colour texture (an Image Texture node on the UV map ``UVMap`` made from the
  asset's ``corner_uv``) times its base colour; darkened where wet, by the per-vertex attribute
  ``wetness`` (the larger of the frame's ``wetness`` field and the drawn film's), its base colour
  times 1 - WET_DARKENING w (:mod:`surfflow.look`) and its roughness lowered from DRY_ROUGHNESS
  to WET_ROUGHNESS (a water film is smooth: what is left of the reflection is glossier);
- the liquid: the drawn film (:class:`surfflow.look.DisplayedFilm`, as in polyscope: its
  thickness h and dye amounts ring-smoothed and settled over a frame, its wetness faded in with
  depth and out over ``dry_time``) on all the object's triangles at x + (b + max(h, h_min)) n,
  h_min a display-only lift of 5e-4 of the object's size so the film never touches the object,
  with vertex attributes ``depth``, ``opacity`` (the wetness: clear where dry, no holes cut in
  the mesh, a film wholly there where wet, the glass itself as clear as its tint) and
  ``tint`` (:func:`surfflow.look.transmittance` through the liquid's own colour and its dyes,
  Beer-Lambert: dyes tint the glass, and the object shows through them);
  its material is a Principled BSDF with full transmission, IOR 1.33 and roughness 0.05 whose
  base colour is ``tint`` (the light crosses it down to the object and back) and whose alpha is
  ``opacity``;
- droplets, when the frame carries ``particle_positions`` / ``particle_volumes``, as one water
  mesh over spheres of their volumes along their streaks (:func:`surfflow.look.streaks`; close
  drops join), built by geometry nodes (Points to SDF Grid, Grid to Mesh);
- a grey floor under the object, a sun, a fill light and a soft sky;
- the camera at the scene's ``[render] camera`` looking at ``target``, else framed on the object.

Blender's world is Z-up: the scene is turned so that the axis against gravity points up.
``quality`` names a preset: "draft" (the default, for a 2-core machine: half the scene's
resolution, 16 samples, 6 bounces, the denoiser's balanced mode) or "high" (the scene's
resolution, 128 samples, 12 bounces). ``render.py`` runs a scene through it.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from pathlib import Path

import imageio.v2 as imageio
import numpy as np

from ..errors import SurfflowError
from ..io.up_axis import rotation_onto
from ..io.usd import UsdSettings
from ..look import (OBJECT_COLOR, WET_DARKENING, DisplayedFilm, droplet_radii, dye_absorbance, liquid_absorbance,
                    streaks, transmittance)
from .engine import denoiser_available, import_bpy, quiet_stdout

FLOOR_COLOR = (0.55, 0.55, 0.57)
DRY_ROUGHNESS = 0.6
WET_ROUGHNESS = 0.25
UV_MAP = "UVMap"
FIELD_OF_VIEW = math.radians(45.0)
STREAK_SAMPLES = 4
"""spheres along each droplet's streak."""
VOXELS_PER_RADIUS = 3.0
"""the droplets' distance grid: voxels per median droplet radius."""


@dataclass(frozen=True)
class Quality:
    """A render preset: the fraction of the scene's [render] size, Cycles samples per pixel and
    light bounces, and the denoiser's quality."""

    scale: float
    samples: int
    bounces: int
    denoising: str


QUALITIES = {"draft": Quality(scale=0.5, samples=16, bounces=6, denoising="BALANCED"),
             "high": Quality(scale=1.0, samples=128, bounces=12, denoising="HIGH")}


class BlenderShot:
    """The Blender scene of one run: built once, then ``show(fields)`` and ``render(path)`` per frame.

    geometry: the run's SurfaceGeometry; settings: colours, gravity and the wet threshold
    (:class:`~surfflow.io.usd.UsdSettings`); render_spec: the scene's [render] table.
    """

    def __init__(self, geometry, settings: UsdSettings, render_spec, quality: str = "draft"):
        if quality not in QUALITIES:
            raise SurfflowError(f"unknown render quality {quality!r}; use one of {', '.join(QUALITIES)}")
        self.bpy = bpy = import_bpy()
        self.geometry, self.settings = geometry, settings
        self.turn = rotation_onto(settings.gravity, 2)
        with quiet_stdout():
            bpy.ops.wm.read_factory_settings(use_empty=True)
        self.scene = bpy.context.scene
        self._configure_cycles(render_spec, QUALITIES[quality])
        self.object = self._add_mesh("object", self._object_material())
        self.liquid = self._add_mesh("liquid", self._water_material())
        self.film = DisplayedFilm(geometry.faces, len(geometry.vertices), render_spec.dry_time)
        self.absorbance = np.vstack([liquid_absorbance(settings.liquid_color, settings.opacity_depth),
                                     dye_absorbance(settings.dye_colors)])
        self.lift = 5e-4 * float(np.linalg.norm(np.ptp(geometry.original_vertices, axis=0)))
        self.droplets = None
        self._set_object_points(geometry.original_vertices)
        self._set_object_uvs()
        set_point_attribute(self.object.data, "wetness", "FLOAT", "value", np.zeros(len(geometry.vertices)))
        self._add_floor_and_lights()
        self._add_camera(render_spec)

    # ---- building the scene ---------------------------------------------------------------

    def _configure_cycles(self, spec, quality: Quality) -> None:
        scene = self.scene
        scene.render.engine = "CYCLES"
        scene.cycles.device = "CPU"
        scene.cycles.samples = quality.samples
        scene.cycles.use_denoising = denoiser_available()
        if scene.cycles.use_denoising:
            scene.cycles.denoiser = "OPENIMAGEDENOISE"
            scene.cycles.denoising_quality = quality.denoising
        else:
            warnings.warn("this bpy's Cycles has no OpenImageDenoise: rendering without a denoiser",
                          stacklevel=2)
        for bounces in ("max_bounces", "transmission_bounces", "transparent_max_bounces"):
            setattr(scene.cycles, bounces, quality.bounces)
        scene.render.resolution_x = max(16, round(spec.width * quality.scale))
        scene.render.resolution_y = max(16, round(spec.height * quality.scale))
        scene.render.resolution_percentage = 100
        scene.render.image_settings.file_format = "PNG"
        scene.render.image_settings.color_mode = "RGB"

    def _add_mesh(self, name: str, material):
        bpy = self.bpy
        mesh = bpy.data.meshes.new(name)
        mesh.materials.append(material)
        obj = bpy.data.objects.new(name, mesh)
        self.scene.collection.objects.link(obj)
        return obj

    def _principled(self, name: str):
        """A new material and its Principled BSDF node (Blender 5 gives new materials one)."""
        material = self.bpy.data.materials.new(name)
        return material, material.node_tree.nodes["Principled BSDF"]

    def _object_material(self):
        """Principled BSDF: the asset's texture times its base colour (else OBJECT_COLOR), times
        1 - WET_DARKENING w, roughness DRY_ROUGHNESS + (WET_ROUGHNESS - DRY_ROUGHNESS) w, w the
        ``wetness`` attribute."""
        material, bsdf = self._principled("object")
        nodes, links = material.node_tree.nodes, material.node_tree.links
        wetness = nodes.new("ShaderNodeAttribute")
        wetness.attribute_name = "wetness"
        darken = nodes.new("ShaderNodeMix")
        darken.data_type, darken.blend_type = "RGBA", "MIX"
        darken.inputs["B"].default_value = (0.0, 0.0, 0.0, 1.0)
        share = nodes.new("ShaderNodeMath")
        share.operation = "MULTIPLY"
        share.inputs[1].default_value = WET_DARKENING
        links.new(wetness.outputs["Fac"], share.inputs[0])
        links.new(share.outputs["Value"], darken.inputs["Factor"])
        asset = getattr(self.geometry, "asset", None)
        if asset is not None and asset.texture is not None:
            texture = nodes.new("ShaderNodeTexImage")
            texture.image = self._texture_image(asset.texture)
            uv = nodes.new("ShaderNodeUVMap")
            uv.uv_map = UV_MAP
            links.new(uv.outputs["UV"], texture.inputs["Vector"])
            tinted = nodes.new("ShaderNodeMix")
            tinted.data_type, tinted.blend_type = "RGBA", "MULTIPLY"
            tinted.inputs["Factor"].default_value = 1.0
            tinted.inputs["B"].default_value = tuple(asset.base_color)
            links.new(texture.outputs["Color"], tinted.inputs["A"])
            links.new(tinted.outputs["Result"], darken.inputs["A"])
        else:
            darken.inputs["A"].default_value = (*OBJECT_COLOR, 1.0)
        links.new(darken.outputs["Result"], bsdf.inputs["Base Color"])
        roughness = nodes.new("ShaderNodeMath")
        roughness.operation = "MULTIPLY_ADD"
        roughness.inputs[1].default_value = WET_ROUGHNESS - DRY_ROUGHNESS
        roughness.inputs[2].default_value = DRY_ROUGHNESS
        links.new(wetness.outputs["Fac"], roughness.inputs[0])
        links.new(roughness.outputs["Value"], bsdf.inputs["Roughness"])
        return material

    def _body_material(self):
        """The floating bodies' matte clay (made once)."""
        material = self.bpy.data.materials.get("body")
        if material is None:
            material, bsdf = self._principled("body")
            bsdf.inputs["Base Color"].default_value = (*OBJECT_COLOR, 1.0)
            bsdf.inputs["Roughness"].default_value = DRY_ROUGHNESS
        return material

    def _texture_image(self, texture: np.ndarray):
        """A Blender image (packed into the .blend) of the (H, W, 3|4) uint8 ``texture``, row 0 at the top."""
        height, width = texture.shape[:2]
        image = self.bpy.data.images.new("texture", width, height, alpha=True)
        rgba = np.ones((height, width, 4), dtype=np.float32)
        rgba[:, :, :texture.shape[2]] = texture / 255.0
        image.pixels.foreach_set(np.ascontiguousarray(rgba[::-1]).ravel())
        image.pack()
        return image

    def _water_material(self):
        """Principled BSDF: transmission 1, IOR 1.33, base colour and alpha from the attributes."""
        material, bsdf = self._principled("water")
        bsdf.inputs["Transmission Weight"].default_value = 1.0
        bsdf.inputs["IOR"].default_value = 1.33
        bsdf.inputs["Roughness"].default_value = 0.05
        nodes, links = material.node_tree.nodes, material.node_tree.links
        for attribute, socket, output in (("tint", "Base Color", "Color"), ("opacity", "Alpha", "Fac")):
            node = nodes.new("ShaderNodeAttribute")
            node.attribute_name = attribute
            links.new(node.outputs[output], bsdf.inputs[socket])
        return material

    def _add_floor_and_lights(self) -> None:
        bpy = self.bpy
        points = self.geometry.original_vertices @ self.turn.T
        low, high = points.min(axis=0), points.max(axis=0)
        size = float(np.linalg.norm(high - low))
        floor = bpy.data.meshes.new("floor")
        corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * 4.0 * size + (low + high)[:2] / 2
        floor.from_pydata([(x, y, low[2] - 1e-3 * size) for x, y in corners], [], [(0, 1, 2, 3)])
        material, bsdf = self._principled("floor")
        bsdf.inputs["Base Color"].default_value = (*FLOOR_COLOR, 1.0)
        floor.materials.append(material)
        self.scene.collection.objects.link(bpy.data.objects.new("floor", floor))
        sun = bpy.data.objects.new("sun", bpy.data.lights.new("sun", "SUN"))
        sun.data.energy, sun.data.angle = 2.5, math.radians(3.0)
        sun.rotation_euler = (math.radians(35.0), 0.0, math.radians(30.0))
        fill = bpy.data.objects.new("fill", bpy.data.lights.new("fill", "AREA"))
        fill.data.energy, fill.data.size = 40.0 * size ** 2, size
        fill.location = tuple((low + high) / 2 + np.array([-1.0, -1.0, 1.0]) * size)
        fill.rotation_euler = self._look_rotation(fill.location, (low + high) / 2)
        for light in (sun, fill):
            self.scene.collection.objects.link(light)
        world = bpy.data.worlds.new("sky")
        world.node_tree.nodes["Background"].inputs["Color"].default_value = (0.6, 0.65, 0.75, 1.0)
        world.node_tree.nodes["Background"].inputs["Strength"].default_value = 0.6
        self.scene.world = world

    def _look_rotation(self, location, target):
        from mathutils import Vector
        return (Vector(tuple(target)) - Vector(tuple(location))).to_track_quat("-Z", "Y").to_euler()

    def _add_camera(self, spec) -> None:
        """The scene's camera and target (turned Z-up), else a view from the front right above."""
        bpy = self.bpy
        points = self.geometry.original_vertices @ self.turn.T
        center = (points.min(axis=0) + points.max(axis=0)) / 2
        if spec.camera is not None:
            target = self.turn @ np.asarray(spec.target) if spec.target else center
            location = self.turn @ np.asarray(spec.camera)
        else:
            radius = float(np.linalg.norm(points - center, axis=1).max())
            direction = np.array([1.0, -1.2, 0.7]) / np.linalg.norm([1.0, -1.2, 0.7])
            target, location = center, center + direction * 1.15 * radius / math.sin(FIELD_OF_VIEW / 2)
        camera = bpy.data.objects.new("camera", bpy.data.cameras.new("camera"))
        camera.data.sensor_fit = "VERTICAL"
        camera.data.angle = FIELD_OF_VIEW
        camera.location = tuple(location)
        camera.rotation_euler = self._look_rotation(location, target)
        self.scene.collection.objects.link(camera)
        self.scene.camera = camera

    # ---- per frame ------------------------------------------------------------------------

    def show(self, fields: dict, time: float | None = None) -> None:
        """Shape the liquid (and the object, droplets) to one frame's fields at simulated ``time``
        (the film drawn follows the frames before; None: this frame alone)."""
        geom, s, film = self.geometry, self.settings, self.film
        depth = np.asarray(fields["depth"])
        if "vertices" in fields:
            normals = fields.get("normals")
            moved = (fields["vertices"] + fields["bottom"][:, None] * normals if normals is not None
                     else geom.original_vertices + (fields["vertices"] - geom.vertices))
            self._set_object_points(moved)
        dye = fields.get("dye", np.zeros((len(depth), 0)))
        film.update(depth, dye, s.min_depth, time)
        lift = fields["bottom"] + np.maximum(film.thickness, self.lift)
        points = fields.get("vertices", geom.vertices) + lift[:, None] * fields.get("normals", geom.normals)
        mesh = self.liquid.data
        if len(mesh.vertices) == 0:
            set_mesh(mesh, points @ self.turn.T, geom.faces)
        else:
            mesh.vertices.foreach_set("co", np.ascontiguousarray(points @ self.turn.T, dtype=np.float32).ravel())
        amounts = np.column_stack([film.thickness, film.dye_amount])
        tint = transmittance(amounts, self.absorbance[:amounts.shape[1]])
        set_point_attribute(mesh, "depth", "FLOAT", "value", depth)
        set_point_attribute(mesh, "opacity", "FLOAT", "value", film.wetness)
        set_point_attribute(mesh, "tint", "FLOAT_COLOR", "color", np.column_stack([tint, np.ones(len(tint))]))
        mesh.update()
        wetness = film.wetness if "wetness" not in fields else np.maximum(film.wetness, fields["wetness"])
        set_point_attribute(self.object.data, "wetness", "FLOAT", "value", wetness)
        self.object.data.update()
        if "particle_positions" in fields and "particle_volumes" in fields:
            self._show_droplets(fields["particle_positions"], fields.get("particle_velocities"),
                                fields["particle_volumes"])

    def show_bodies(self, bodies) -> None:
        """The floating rigid bodies (``sim.bodies``) as meshes at their poses, in matte clay (they
        have no UVs of the asset's; one Blender object per body, ``body_K``, made at its first frame)."""
        for k, body in enumerate(bodies):
            name = f"body_{k}"
            points = np.ascontiguousarray(body.world_vertices() @ self.turn.T, dtype=np.float32)
            obj = self.bpy.data.objects.get(name)
            if obj is None:
                obj = self._add_mesh(name, self._body_material())
                set_mesh(obj.data, points, np.asarray(body.shape.mesh.faces))
            else:
                obj.data.vertices.foreach_set("co", points.ravel())
                obj.data.update()

    def _set_object_uvs(self) -> None:
        """The asset's corner UVs as the object's UV map (loops follow the faces' corners)."""
        asset = getattr(self.geometry, "asset", None)
        if asset is None:
            return
        layer = self.object.data.uv_layers.new(name=UV_MAP)
        layer.data.foreach_set("uv", np.ascontiguousarray(asset.corner_uv, dtype=np.float32).ravel())

    def _set_object_points(self, points: np.ndarray) -> None:
        mesh = self.object.data
        if len(mesh.vertices) == 0:
            set_mesh(mesh, points @ self.turn.T, self.geometry.faces)
        else:
            mesh.vertices.foreach_set("co", np.ascontiguousarray(points @ self.turn.T, dtype=np.float32).ravel())
            mesh.update()

    def _show_droplets(self, positions, velocities, volumes) -> None:
        """Droplets as one mesh around spheres of their volumes' radii at STREAK_SAMPLES points
        along each one's streak (velocities None: at rest), which geometry nodes build."""
        if self.droplets is None:
            self.droplets = self._add_mesh("droplets", self.liquid.data.materials[0])
            self._droplet_surface_modifier(self.droplets, self.liquid.data.materials[0])
        mesh = self.droplets.data
        mesh.clear_geometry()
        positions = np.reshape(positions, (-1, 3))
        velocities = np.zeros_like(positions) if velocities is None else np.reshape(velocities, (-1, 3))
        points = streaks(positions, velocities, samples=STREAK_SAMPLES).reshape(-1, 3) @ self.turn.T
        set_mesh(mesh, points, np.zeros((0, 3), dtype=np.int32))
        radii = droplet_radii(volumes)
        set_point_attribute(mesh, "radius", "FLOAT", "value", np.repeat(radii, STREAK_SAMPLES))
        if len(radii):
            self._voxel_size.default_value = float(np.median(radii)) / VOXELS_PER_RADIUS

    def _droplet_surface_modifier(self, obj, material) -> None:
        """Geometry nodes on ``obj``: its points to a signed distance grid of spheres of the
        ``radius`` attribute, its zero surface to a smooth mesh, then ``material``."""
        tree = self.bpy.data.node_groups.new("droplets", "GeometryNodeTree")
        tree.interface.new_socket("Geometry", in_out="INPUT", socket_type="NodeSocketGeometry")
        tree.interface.new_socket("Geometry", in_out="OUTPUT", socket_type="NodeSocketGeometry")
        nodes, links = tree.nodes, tree.links
        group_in, group_out = nodes.new("NodeGroupInput"), nodes.new("NodeGroupOutput")
        to_points, radius = nodes.new("GeometryNodeMeshToPoints"), nodes.new("GeometryNodeInputNamedAttribute")
        radius.data_type, radius.inputs["Name"].default_value = "FLOAT", "radius"
        to_grid, to_mesh = nodes.new("GeometryNodePointsToSDFGrid"), nodes.new("GeometryNodeGridToMesh")
        to_mesh.inputs["Threshold"].default_value = 0.0
        self._voxel_size = to_grid.inputs["Voxel Size"]
        smooth, set_material = nodes.new("GeometryNodeSetShadeSmooth"), nodes.new("GeometryNodeSetMaterial")
        set_material.inputs["Material"].default_value = material
        links.new(group_in.outputs["Geometry"], to_points.inputs["Mesh"])
        links.new(radius.outputs["Attribute"], to_points.inputs["Radius"])
        links.new(to_points.outputs["Points"], to_grid.inputs["Points"])
        links.new(radius.outputs["Attribute"], to_grid.inputs["Radius"])
        links.new(to_grid.outputs[0], to_mesh.inputs["Grid"])
        links.new(to_mesh.outputs["Mesh"], smooth.inputs["Mesh"])
        links.new(smooth.outputs["Mesh"], set_material.inputs["Geometry"])
        links.new(set_material.outputs["Geometry"], group_out.inputs["Geometry"])
        obj.modifiers.new("droplets", "NODES").node_group = tree

    def render(self, path: Path) -> np.ndarray:
        """Render with Cycles to the PNG ``path``; returns the (h, w, 3) image."""
        self.scene.render.filepath = str(path)
        with quiet_stdout():
            self.bpy.ops.render.render(write_still=True)
        return imageio.imread(path)[:, :, :3]

    def save(self, path: Path) -> Path:
        """Write the Blender scene (as it stands, the last frame shown) to the .blend ``path``."""
        with quiet_stdout():
            self.bpy.ops.wm.save_as_mainfile(filepath=str(path), check_existing=False)
        return path


def set_mesh(mesh, points: np.ndarray, faces: np.ndarray) -> None:
    """Fill an empty Blender mesh with points (n, 3) and triangles (m, 3), smooth shaded."""
    mesh.vertices.add(len(points))
    mesh.vertices.foreach_set("co", np.ascontiguousarray(points, dtype=np.float32).ravel())
    mesh.loops.add(3 * len(faces))
    mesh.loops.foreach_set("vertex_index", np.ascontiguousarray(faces, dtype=np.int32).ravel())
    mesh.polygons.add(len(faces))
    mesh.polygons.foreach_set("loop_start", np.arange(0, 3 * len(faces), 3, dtype=np.int32))
    mesh.update()
    mesh.shade_smooth()


def set_point_attribute(mesh, name: str, kind: str, key: str, values: np.ndarray) -> None:
    """Set the per-vertex attribute ``name`` of ``mesh`` (kind "FLOAT" or "FLOAT_COLOR", made if
    missing) to ``values``."""
    attribute = mesh.attributes.get(name) or mesh.attributes.new(name, kind, "POINT")
    attribute.data.foreach_set(key, np.ascontiguousarray(values, dtype=np.float32).ravel())
