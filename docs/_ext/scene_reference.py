"""The scene-file reference, written from the scene schema (``surfflow.scene.scene_schema``).

Every table and key comes from the schema's tables, the allowed values from its checkers, the
defaults from the dataclasses a scene is read into (``Params``, ``PrecomputeParams``, the
``*Spec`` classes, the procedural mesh builders), and the meaning of a key from the numpydoc
``Parameters`` of ``Params`` / ``PrecomputeParams`` where the key sets one of their fields, else
from ``KEY_TEXT`` below. A key the schema gains without a text here fails the build, so the
page cannot drift from the code.
"""

from __future__ import annotations

import inspect
import math
from dataclasses import MISSING, fields

from numpydoc.docscrape import NumpyDocString

from surfflow.config import Params, PrecomputeParams
from surfflow.io.procedural import PROCEDURAL_MESHES
from surfflow.scene import scene as scene_module
from surfflow.scene import scene_schema as schema
from surfflow.scene.body_spec import BODY_KEYS, BodySpec
from surfflow.scene.motion_spec import MOTION_KEYS, MOTION_TYPES
from surfflow.scene.presets import LIQUID_PRESETS

SPEC_CLASSES = {
    "mesh": scene_module.MeshSpec, "initial": scene_module.InitialSpec,
    "soluble_layer": scene_module.LayerSpec, "output": scene_module.OutputSpec,
    "render": scene_module.RenderSpec, "droplets": scene_module.DropletSpec,
    "sources": scene_module.SourceSpec, "boundaries": scene_module.BoundarySpec,
    "emitters": scene_module.EmitterSpec,
    "precompute": PrecomputeParams, "bodies": BodySpec,
    "ripples": scene_module.RippleSpec,
}

# The meaning (and unit) of every key that sets no Params / PrecomputeParams field.
KEY_TEXT = {
    ("", "name"): "the run's name: names the video and the output of `surfflow render` (default: the file's stem)",
    ("", "duration"): "simulated seconds to run (s)",
    ("", "fps"): "frames written per simulated second (1/s)",
    ("", "mode"): "`film` (the shallow-water film) or `ripples` (small waves on a calm surface: the "
                  "`[ripples]` table; see [ripples](../guide/ripples.md))",
    ("mesh", "path"): "a mesh file, relative to the scene file (OBJ, PLY, STL, anything trimesh reads); "
                      "give `path` or `procedural`",
    ("mesh", "procedural"): "a mesh built in code instead of a file; its arguments are the keys below",
    ("mesh", "units"): "the unit of the mesh file's coordinates, scaled to metres before anything else "
                       "(`m`, `cm`, `mm`, `in`; default `m`)",
    ("mesh", "up"): "the mesh file's axis that points up: `y` (default) or `z`, which turns the mesh "
                    "(x, y, z) -> (x, z, -y) so that the file's +z is +y, surfflow's up",
    ("mesh", "uv_atlas"): "give a mesh without UVs a UV atlas made by xatlas (the extra `uv`), "
                          "for the `maps` output; a mesh with UVs keeps its own",
    ("mesh", "scale"): "one factor or three per-axis factors, applied first (x' = R (s x) + t)",
    ("mesh", "rotation"): "rotation about x, y, z in degrees, applied after the scale",
    ("mesh", "translation"): "translation (m), applied last",
    ("mesh", "subdivisions"): "procedural `icosphere`, `bumpy_sphere`: subdivisions of the icosahedron",
    ("mesh", "radius"): "procedural `icosphere`, `bumpy_sphere`: radius (m)",
    ("mesh", "bump_height"): "procedural `bumpy_sphere`: height of the bumps (m)",
    ("mesh", "bump_frequency"): "procedural `bumpy_sphere`: bumps per radian",
    ("mesh", "size"): "procedural `plane`, `grooved_plane`, `tray`: width and depth (m)",
    ("mesh", "resolution"): "procedural `plane`, `grooved_plane`, `tray`: cells along each side",
    ("mesh", "groove_depth"): "procedural `grooved_plane`: depth of the grooves (m)",
    ("mesh", "groove_spacing"): "procedural `grooved_plane`: distance between grooves (m)",
    ("mesh", "groove_angle"): "procedural `grooved_plane`: angle of the grooves to the x axis (degrees)",
    ("mesh", "rim_height"): "procedural `tray`: height of the rim (m)",
    ("mesh", "rim_width"): "procedural `tray`: width of the rim (m)",
    ("precompute", "cache"): "keep the precomputed geometry in a cache folder, so a second run skips it",
    ("precompute", "cache_dir"): "the cache folder, relative to the scene file",
    ("liquid", "preset"): "a named liquid whose values the other keys of the table override: "
                          + ", ".join(f"`{name}`" for name in LIQUID_PRESETS),
    ("liquid", "color"): "the liquid's colour: `[r, g, b]` in 0..1 or `\"#rrggbb\"`",
    ("friction", "tensor"): "where the friction anisotropy comes from: `features` (the surface's "
                            "detail, precompute), `isotropic`, `field` (an .npy of n scalars whose "
                            "gradient is the strong direction) or `file` (an .npy of (n, 2, 2) tensors)",
    ("friction", "file"): "the .npy file of `tensor = \"field\"` or `\"file\"`, relative to the scene file",
    ("wind", "file"): "an .npz wind grid (`origin`, `spacing`, `values` of shape (nx, ny, nz, 3), m/s) "
                      "sampled trilinearly; instead of `velocity`",
    ("initial", "depth"): "initial depth (m) everywhere, or inside the ball (`center`, `radius`)",
    ("initial", "center"): "centre of the initially wet ball (m)",
    ("initial", "radius"): "radius of the initially wet ball (m)",
    ("initial", "file"): "an .npy of n initial depths (m), relative to the scene file",
    ("initial", "velocity"): "initial velocity (m/s, world space; projected onto the surface)",
    ("soluble_layer", "thickness"): "thickness of the soluble layer (m), everywhere or in the ball; "
                                    "a layer turns dissolution on",
    ("soluble_layer", "center"): "centre of the ball that holds the layer (m)",
    ("soluble_layer", "radius"): "radius of the ball that holds the layer (m)",
    ("soluble_layer", "file"): "an .npy of n layer thicknesses (m), relative to the scene file",
    ("output", "directory"): "the output folder, relative to the working directory",
    ("output", "formats"): "the frame formats: `npz` (numpy arrays), `vtkhdf` (ParaView: one "
                           "`frames.vtkhdf` time series, the mesh stored once), `vtu` (ParaView, "
                           "a file a frame with a .pvd index), `usd` (one `run.usdc` stage; the "
                           "extra `usd`) and `maps` (wetness, film thickness and dye images per "
                           "frame on the mesh's own UVs, in `maps/`)",
    ("output", "checkpoint_every"): "write `checkpoint.npz` every this many frames (0: only at the end)",
    ("output", "map_resolution"): "texels per side of the `maps` output's square images",
    ("output", "map_thickness_range"): "the film thickness (m) at the brightest level of the "
                                       "`maps` output's 16-bit thickness images; thicker is clipped",
    ("droplets", "enabled"): "`false` turns droplets off (they are on without the table); what "
                             "cannot stay on the film then drips out of the scene, booked",
    ("droplets", "engine"): "`embedded` (numba particles) or `splishsplash` (SPH; the extra `sph`)",
    ("droplets", "floor"): "height along -gravity (m) below which particles are lost (default: none)",
    ("droplets", "bounds"): "box `[[x0, y0, z0], [x1, y1, z1]]` (m) outside which particles are lost "
                            "(default: the mesh's box grown by its diagonal)",
    ("droplets", "drag"): "linear air drag (1/s); terminal speed |g| / drag",
    ("droplets", "separation"): "share of the overlap between neighbouring particles removed per step",
    ("droplets", "smoothing"): "XSPH velocity smoothing between neighbours",
    ("droplets", "max_volume"): "the volume of a drop (m^3): cells smaller than one shed drops of at "
                                "most this volume, wider cells parcels as wide as the cell",
    ("droplets", "max_particles"): "the most particles at once (a whole number >= 2; default: what an "
                                   "eighth of the available memory holds, at most a million, at least "
                                   "two per vertex); past it, particles in flight merge",
    ("render", "directory"): "the image folder of `surfflow render`",
    ("render", "width"): "image width (pixels)",
    ("render", "height"): "image height (pixels)",
    ("render", "color_by"): "`dye` mixes the source colours, `liquid` the liquid's colour, `depth` a colour map",
    ("render", "video"): "also encode the frames to an MP4",
    ("render", "camera"): "camera position (m); default: framing the mesh and the sources",
    ("render", "target"): "the point the camera looks at (m); default: the mesh centre",
    ("render", "engine"): "`polyscope` (EGL, headless) or `blender` (Cycles; the extra `blender`)",
    ("render", "material"): "the liquid's material: `water` (glossy), `wax`, `candy`, `clay` (matte), `flat`",
    ("render", "opacity"): "opacity of deep liquid; thin films are at most 0.4",
    ("render", "tint_depth"): "depth (m) over which a film turns from clear to its full colour",
    ("render", "dry_time"): "seconds the drawn film takes to fade where the liquid has gone (s); "
                            "the surface's own wetness dries over `[liquid] drying_time`",
    ("render", "ground"): "polyscope's ground: `shadow_only`, `tile`, `tile_reflection` or `none`",
    ("sources", "type"): "`pour` (a disc), `rain` (per area, everywhere or in the ball) or `sink`",
    ("sources", "center"): "centre of the disc or ball (m)",
    ("sources", "radius"): "radius of the disc or ball (m)",
    ("sources", "rate"): "m^3/s for `pour` and `sink`, m/s (depth per second) for `rain`",
    ("sources", "start"): "time it starts (s)",
    ("sources", "stop"): "time it stops (s; default: never)",
    ("emitters", "type"): "`nozzle` (a stream of particles from a spout) or `rain` (drops falling "
                          "through a box)",
    ("emitters", "position"): "nozzle: centre of the spout's exit disc (m); it must lie outside the mesh",
    ("emitters", "direction"): "nozzle: where the stream points, e.g. `[0, -1, 0]` (any length)",
    ("emitters", "speed"): "nozzle: exit speed along `direction` (m/s; 0 drips)",
    ("emitters", "radius"): "nozzle: radius of the exit disc the particles leave from (m)",
    ("emitters", "rate"): "nozzle: volume poured per second (m^3/s), > 0",
    ("emitters", "region"): "rain: the box `[[x0, y0, z0], [x1, y1, z1]]` (m) the drops fall through; "
                            "they start at its top over its horizontal area",
    ("emitters", "intensity"): "rain: rain rate (mm/h) over the region's horizontal area; drop sizes "
                               "Marshall-Palmer",
    ("emitters", "start"): "time it starts (s)",
    ("emitters", "stop"): "time it stops (s; default: never)",
    ("emitters", "color"): "a dye colour the particles carry and leave where they land (as for sources)",
    ("sources", "color"): "a dye colour: each distinct colour is one dye the viewer and `dye` field mix",
    ("bodies", "shape"): "`box` (give `extents`), `sphere` (give `radius`) or `mesh` (give `mesh`, a closed "
                         "mesh that floats and collides as its convex hull)",
    ("bodies", "extents"): "a box's edge lengths along its own x, y, z (m)",
    ("bodies", "radius"): "a sphere's radius (m)",
    ("bodies", "mesh"): "a closed mesh file, relative to the scene file (m); its centre of mass is the body's origin",
    ("bodies", "density"): "the body's density (kg/m^3; water is 1000)",
    ("bodies", "position"): "the centre of mass at t = 0 (m)",
    ("bodies", "rotation"): "the orientation at t = 0 as angles about x, y, z in that order (degrees)",
    ("bodies", "orientation"): "the orientation at t = 0 as a quaternion [w, x, y, z] (instead of `rotation`)",
    ("bodies", "velocity"): "the centre of mass's velocity at t = 0 (m/s)",
    ("bodies", "angular_velocity"): "the angular velocity at t = 0, world axes (rad/s)",
    ("bodies", "friction"): "Coulomb friction coefficient against the surface and other bodies (dimensionless)",
    ("bodies", "keyframes"): "a kinematic body: a table `[bodies.keyframes]` with `times` (s) and `translations` "
                             "(m) and/or `rotations` (degrees about x, y, z, about the body's position)",
    ("boundaries", "type"): "`inflow` (a discharge), `level` (a free-surface height) or `transmissive` (outflow)",
    ("boundaries", "discharge"): "inflow discharge per metre of boundary (m^2/s)",
    ("boundaries", "level"): "imposed free-surface height (m)",
    ("boundaries", "point"): "a point of the plane that selects the boundary vertices (m)",
    ("boundaries", "normal"): "the plane's normal, pointing out of the domain",
    ("motion", "type"): "the kind of motion: " + ", ".join(f"`{kind}`" for kind in MOTION_TYPES),
    ("motion", "times"): "keyframe times (s)",
    ("motion", "translations"): "one translation (m) per keyframe",
    ("motion", "rotations"): "one rotation about x, y, z (degrees) per keyframe",
    ("motion", "pivot"): "the point rotations turn about (m)",
    ("motion", "curvature"): "bend: largest curvature (1/m)",
    ("motion", "rate"): "twist: degrees per metre along the axis",
    ("motion", "amplitude"): "pulse, wave: amplitude (m)",
    ("motion", "wavelength"): "wave: wavelength (m)",
    ("motion", "period"): "period of the motion (s)",
    ("motion", "axis"): "the axis the deformer acts along",
    ("motion", "direction"): "the direction the deformer displaces",
    ("motion", "center"): "the deformer's centre (m)",
    ("motion", "pinned"): "wave: grow from 0 at one end (a flag on its pole)",
    ("motion", "files"): "sequence: a glob or a list of mesh files, one per frame",
    ("motion", "fps"): "sequence: frames per second of the files (1/s)",
    ("motion", "loop"): "sequence: start again after the last file",
    ("ripples", "wave_speed"): "c, the speed of the waves (m/s); default sqrt(g depth)",
    ("ripples", "depth"): "H, the water's depth at rest over the mesh (m), drawn and written as the "
                          "water's depth; default c^2 / g. Give `wave_speed`, `depth` or both",
    ("ripples", "damping"): "mu (1/s): the wave energy decays as exp(-mu t)",
    ("ripples", "edge"): "an open mesh's edge: `fixed` (held at z = 0) or `reflect`",
    ("ripples", "shore_width"): "a sloping beach along the edge (m): shore coefficients rising from 0 "
                                "on the edge to 1 (free water) this far from it",
    ("ripples", "shore_file"): "an .npy of n shore coefficients in [0, 1] (1 free water, 0 held), "
                               "relative to the scene file; instead of `shore_width`",
    ("ripples", "shore_damping"): "the extra damping at shore coefficient 0 (1/s), mu + shore_damping "
                                  "(1 - shore); default c sqrt(lambda_max) / 2",
    ("ripples", "cfl"): "the fraction of the stable time step the run steps at (below 1)",
    ("ripples", "rain_rate"): "rain drops per second per m^2 of surface (1/(m^2 s)); 0: no rain",
    ("ripples", "rain_radius"): "a rain drop's radius (m)",
    ("ripples", "rain_depth"): "a rain drop's dent (m)",
    ("ripples", "rain_seed"): "the seed of the rain's random places (the same seed, the same drops)",
    ("ripples", "drops"): "`[[ripples.drops]]` tables: `center` (a point on the mesh, m), `radius` (m), "
                          "`depth` (m) of a Gaussian dent, `time` (s, default 0)",
}

NAMED_CHECKERS = {
    "text": "string", "boolean": "`true` / `false`", "scale_factor": "number > 0, or 3",
    "color": "`[r, g, b]` in 0..1 or `\"#rrggbb\"`", "positive_pair": "2 numbers > 0",
    "feature_size": "metres >= 0, or `\"P%\"` of the box diagonal",
    "box": "`[[x0, y0, z0], [x1, y1, z1]]`", "numbers": "list of numbers",
    "vectors": "list of `[x, y, z]`", "files": "glob or list of files",
    "drop_tables": "`[[ripples.drops]]` tables",
    "keyframes_table": "a `[bodies.keyframes]` table",
}


def _range(low, high, low_open) -> str:
    low_text = "" if low == -math.inf else f"{'>' if low_open else '>='} {low:g}"
    high_text = "" if high == math.inf else f"<= {high:g}"
    return ", ".join(filter(None, [low_text, high_text]))


def describe_checker(check) -> str:
    """What a scene_schema checker accepts, in words, from its name and closure."""
    kind = check.__qualname__.split(".")[0]
    if kind in NAMED_CHECKERS:
        return NAMED_CHECKERS[kind]
    bound = inspect.getclosurevars(check).nonlocals
    if kind == "number":
        limits = _range(bound["low"], bound["high"], bound["low_open"])
        return f"number {limits}".strip()
    if kind == "whole":
        return f"whole number >= {bound['low']}"
    if kind == "choice":
        return "one of " + ", ".join(f"`{v}`" for v in bound["allowed"])
    if kind == "choices":
        return "list of " + ", ".join(f"`{v}`" for v in bound["allowed"])
    if kind == "vector":
        low = "" if bound["low"] == -math.inf else f", each >= {bound['low']:g}"
        return f"list of {bound['length']} numbers{low}"
    raise RuntimeError(f"scene reference: cannot describe the checker {check.__qualname__}; "
                       f"add it to docs/_ext/scene_reference.py")


def _parameter_texts(cls) -> dict:
    """Field name -> (type, description) in the numpydoc Parameters of ``cls``."""
    return {p.name: (p.type.split(", default")[0], " ".join(p.desc))
            for p in NumpyDocString(inspect.getdoc(cls))["Parameters"]}


def _format(value) -> str:
    if value is None or value is MISSING:
        return "—"
    if isinstance(value, float) and math.isinf(value):
        return "never"
    if isinstance(value, tuple):
        return "`[" + ", ".join(_format(v).strip("`") for v in value) + "]`"
    if isinstance(value, str):
        return value if "(" in value else f'`"{value}"`'
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    return f"`{value!r}`" if not hasattr(value, "as_posix") else f'`"{value.as_posix()}"`'


def _spec_default(table: str, key: str):
    cls = SPEC_CLASSES.get(table)
    for f in fields(cls) if cls else ():
        if f.name == key:
            return f.default_factory() if f.default is MISSING and f.default_factory is not MISSING else f.default
    return MISSING


def default_of(table: str, key: str):
    """The value a scene gets when it leaves ``table.key`` out."""
    field_name = schema.PARAMS_FIELDS.get((table, key) if table else (key,))
    if table == "liquid" and key != "preset" and key in LIQUID_PRESETS["water"]:
        return LIQUID_PRESETS["water"][key]
    if table == "friction" and key in ("model", "coefficient"):
        return LIQUID_PRESETS["water"]["friction_model" if key == "model" else "friction"]
    if field_name is not None:
        return getattr(Params(), field_name)
    if table == "mesh":
        builders = {name: defaults[key] for name, (_, defaults) in PROCEDURAL_MESHES.items()
                    if key in defaults}
        if len(set(builders.values())) == 1:
            return next(iter(builders.values()))
        if builders:
            return ", ".join(f"{_format(value)} ({name})" for name, value in builders.items())
    if table == "liquid" and key == "preset":
        return "water"
    if table == "precompute" and key == "cache":
        return True
    if table == "precompute" and key == "cache_dir":
        return ".surfflow_cache"
    if table == "friction" and key == "tensor":
        return "features"
    if table == "droplets" and key == "enabled":
        return True
    if not table:
        return {"duration": 1.0, "fps": 30.0, "mode": "film"}.get(key, MISSING)
    return _spec_default(table, key)


def meaning(table: str, key: str, params_text: dict, precompute_text: dict) -> str:
    field_name = schema.PARAMS_FIELDS.get((table, key) if table else (key,))
    text = KEY_TEXT.get((table, key))
    if text is None and field_name is not None:
        text = params_text[field_name][1]
    if text is None and table == "precompute":
        text = precompute_text[key][1]
    if text is None:
        raise RuntimeError(f"scene reference: the scene key {table + '.' if table else ''}{key} has no "
                           f"description; add one to KEY_TEXT in docs/_ext/scene_reference.py or to "
                           f"the numpydoc Parameters of Params")
    if field_name is not None:
        text += f" (sets `Params.{field_name}`)"
    return text.replace("|", "\\|")


TABLE_TEXT = {
    "": "Keys at the top of the file, outside any table.",
    "mesh": "The surface: a file or a procedural mesh, scaled, rotated and moved. The only table "
            "a scene must have.",
    "precompute": "How the mesh is split into a smooth surface and detail (see "
                  "[precompute and feature size](../guide/precompute.md)).",
    "liquid": "The liquid: a preset and the values that override it.",
    "friction": "Bottom friction: the model, its coefficient and where the anisotropy comes from.",
    "solver": "The time step, wet/dry threshold, boundary condition and momentum scheme.",
    "wind": "A wind that drags the film.",
    "dissolution": "The dissolution model's constants (used when `[soluble_layer]` is given).",
    "initial": "The liquid at t = 0.",
    "soluble_layer": "A soluble layer on the surface; giving one turns dissolution on.",
    "output": "What `surfflow run` writes.",
    "droplets": "Droplets leaving and rejoining the film (on by default: "
                "[droplets](../guide/droplets.md)); `emit_depth` and `overhang_emit_depth` of "
                "older scenes are refused with what replaced them.",
    "render": "What `surfflow render` and the viewer draw.",
    "sources": "Pours, rain and sinks: an array of tables, `[[sources]]`, as many as you like.",
    "emitters": "Nozzles and rain pouring liquid as particles that fall onto the surface: "
                "`[[emitters]]`, as many as you like (see [emitters](../guide/emitters.md)).",
    "boundaries": "Open boundary segments, `[[boundaries]]` (conservative scheme).",
    "motion": "What moves the mesh; `type` picks the motion and its keys.",
    "bodies": "Floating rigid bodies, `[[bodies]]`, as many as you like ([bodies](../guide/bodies.md)).",
    "ripples": "Small waves on a calm water surface, for a `mode = \"ripples\"` scene (see "
               "[ripples](../guide/ripples.md)).",
}


def _rows(table: str, checkers: dict, params_text: dict, precompute_text: dict) -> list[str]:
    rows = ["| key | allowed values | default | meaning |", "|---|---|---|---|"]
    for key, check in checkers.items():
        field_name = schema.PARAMS_FIELDS.get((table, key) if table else (key,))
        allowed = describe_checker(check)
        if field_name is not None and allowed.startswith("number"):
            allowed = params_text[field_name][0]  # Params checks the range
        rows.append(f"| `{key}` | {allowed} | {_format(default_of(table, key))} | "
                    f"{meaning(table, key, params_text, precompute_text)} |")
    return rows


def scene_reference() -> str:
    """The Markdown of the whole reference: one section per table."""
    params_text, precompute_text = _parameter_texts(Params), _parameter_texts(PrecomputeParams)
    tables = [("", "top level", schema.TOP_LEVEL)]
    tables += [(name, f"[{name}]", keys) for name, keys in schema.TABLES.items()]
    tables += [("sources", "[[sources]]", schema.SOURCE_KEYS),
               ("emitters", "[[emitters]]", schema.EMITTER_KEYS),
               ("boundaries", "[[boundaries]]", schema.BOUNDARY_KEYS),
               ("bodies", "[[bodies]]", BODY_KEYS),
               ("motion", "[motion]", MOTION_KEYS)]
    lines = []
    for table, title, checkers in tables:
        lines += [f"(scene-{table or 'top'})=", f"## {title}", "", TABLE_TEXT[table], ""]
        if table == "motion":
            lines += ["| type | required keys | optional keys |", "|---|---|---|"]
            lines += [f"| `{kind}` | {', '.join(f'`{k}`' for k in required)} | "
                      f"{', '.join(f'`{k}`' for k in optional)} |"
                      for kind, (_, required, optional) in MOTION_TYPES.items()]
            lines.append("")
        lines += _rows(table, checkers, params_text, precompute_text) + [""]
    return "\n".join(lines)
