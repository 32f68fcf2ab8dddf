"""The default scene for a bare mesh: what ``surfflow run|view|render MESH`` runs and what
``surfflow new MESH`` writes out to edit (SPEC §14).

Lengths scale with D, the mesh's diameter in metres after ``units``
(:func:`surfflow.io.extent.mesh_diameter`); heights are measured along the up axis. The choices,
each with its reason:

- ``name``: the mesh file's stem, so outputs go to ``output/<stem>``, pictures to
  ``render/<stem>``.
- ``duration`` 3 s at ``fps`` 30 (a scene's default frame rate): the spout pours for 2 s, the
  last second shows the film running off and draining.
- ``gravity`` 9.81 m/s^2 down the up axis; ``[mesh] up`` is y unless told (OBJ and glTF exports
  and the shipped examples are y-up; CAD and Blender exports are z-up: ``--up z``).
- ``[mesh] units`` m unless told: the file's numbers are read as metres; the size printed with
  the scene shows a mesh in millimetres read as metres (1000 times too large).
- ``[precompute] feature_size`` "2%" (the default, written out to be edited): detail narrower
  than 2 % of D goes into the bottom heights.
- ``[liquid]`` the water preset with its surface tension 0.072 N/m and contact angle 60 degrees
  written out: water is what one pours first; tension and the contact angle make the film bead
  and leave dry patches instead of a uniform smear.
- ``[friction] model`` laminar: the wall shear of water's own viscosity, 3 nu / d^2, which runs
  a 0.7 mm film at about 1.5 m/s; linear drag alone lets a thin film run at g / gamma.
- ``[[emitters]]`` one nozzle above the highest point, pouring straight down: liquid poured at
  the top runs down over the most surface.

  - position: over the highest vertex, nudged a quarter of the way (SPOUT_NUDGE) towards the
    centroid of the face around it that faces the up axis most squarely, so that the stream's
    axis meets that face inside it (the nozzle's inside-the-mesh check casts along the axis; a
    ray through a vertex can slip between its faces, one along a vertical face grazes it).
    Where the stream would first meet the surface from behind (an open sheet whose top faces
    down, a patch under another), it moves over the highest face that faces up and is the first
    the stream meets, the film's side: the liquid lands on the side the film is on;
    CLEARANCE = 0.05 D above the highest point: clear of the top, landing within a fraction of
    a second.
  - radius r = SPOUT_RADIUS = 0.025 D.
  - rate q = w pi r^2 with w = FILM_GROWTH = 5 mm/s: the stream lays a film growing 5 mm per
    second over the spout's footprint, whatever the size; q = 9.82e-6 D^2 m^3/s (the bunny,
    D = 0.943 m: 8.7 mL/s).
  - speed SPOUT_SPEED = 0.5 m/s, a gentle pour; the nozzle's drops are then
    sqrt(6 q / (pi v)) = r sqrt(6 w / v) = 0.245 r across at any size.
  - from 0 to POUR_STOP = 2 s.
- ``[droplets]`` on, the embedded engine (written out although droplets are on by default):
  liquid that piles up drips off as drops; ``floor`` 0.05 D below the lowest point, so drops
  that fall past the mesh leave the run instead of falling to the bounds.
- ``[output]`` npz and VTKHDF (the defaults), ``[render]`` 800 x 600 with the camera framing
  the mesh and the spout.

Positions are rounded to 1e-4 D, the radius and the rate to 3 significant digits (the rate
from the rounded radius), so the file reads cleanly and its numbers still satisfy the formulas.
"""

from __future__ import annotations

import math
import os
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..io.extent import mesh_diameter
from ..io.mesh import load_mesh
from ..io.units import check_units
from ..particles.triangle_grid import TriangleGrid
from .presets import LIQUID_PRESETS
from .toml_write import dumps

DURATION = 3.0
FPS = 30.0
POUR_STOP = 2.0
GRAVITY = 9.81
CLEARANCE = 0.05
"""the spout's height above the highest point, a share of D"""
SPOUT_RADIUS = 0.025
"""the spout's radius, a share of D"""
FILM_GROWTH = 5e-3
"""m/s: how fast the pour thickens a film over the spout's footprint (q = w pi r^2)"""
SPOUT_SPEED = 0.5
"""m/s: the stream's speed at the spout"""
SPOUT_NUDGE = 0.25
"""how far from the highest vertex towards its highest face's centroid the stream's axis runs"""
FLOOR_DROP = 0.05
"""the droplets' floor below the lowest point, a share of D"""
FEATURE_SIZE = "2%"


@dataclass(frozen=True)
class MeshSize:
    """What the default scene measured on a mesh, in metres after ``units``: ``extent`` (3,) the
    bounding box's sides, ``diameter`` D, ``top`` (3,) the highest vertex, ``spout_axis`` (3,)
    the point of the surface the stream's axis meets, ``lowest`` the lowest height, ``vertices``
    and ``faces`` the counts."""

    path: Path
    units: str
    up: str
    extent: tuple
    diameter: float
    top: tuple
    spout_axis: tuple
    lowest: float
    vertices: int
    faces: int


UP = np.array([0.0, 1.0, 0.0])
"""surfflow's up axis: ``load_mesh`` turns the file's ``up`` axis onto +y (``io/units.py``)."""


def measure_mesh(mesh_path: str | os.PathLike, units: str = "m", up: str = "y") -> MeshSize:
    """Load the mesh (its repairs are not reported here: the run reports them when it loads it)
    and measure what the default scene needs."""
    check_units(units, up, "the default scene")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mesh = load_mesh(mesh_path, units=units, up=up)
    V = np.asarray(mesh.vertices)
    F = np.asarray(mesh.faces)
    heights = V @ UP
    top = int(np.argmax(heights))
    around = np.flatnonzero(np.any(F == top, axis=1))
    corners = V[F[around]]
    normals = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    facing = np.abs(normals @ UP) / np.linalg.norm(normals, axis=1)
    face = around[np.argmax(facing)]
    axis_point = V[top] + SPOUT_NUDGE * (V[F[face]].mean(axis=0) - V[top])
    axis_point = poured_side(V, F, axis_point, float(heights.max()))
    return MeshSize(path=Path(mesh_path).resolve(), units=units, up=up,
                    extent=tuple(float(e) for e in np.ptp(V, axis=0)),
                    diameter=mesh_diameter(V, F), top=tuple(float(c) for c in V[top]),
                    spout_axis=tuple(float(c) for c in axis_point), lowest=float(heights.min()),
                    vertices=len(V), faces=len(F))


def poured_side(V: np.ndarray, F: np.ndarray, axis_point: np.ndarray, top: float,
                batch: int = 256) -> np.ndarray:
    """``axis_point`` (3,) if a stream falling down the up axis onto it first meets a face that
    faces up (the film's side), else the first such point among the centroids of the faces that
    face up, highest first (the point where that stream lands); ``axis_point`` if none does."""
    corners = V[F]
    normals = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    grid = TriangleGrid(V, F)
    lift = top - float(np.min(V @ UP)) + 1.0

    def landings(points):
        start = points + (top + lift - points @ UP)[:, None] * UP
        end = points - lift * UP
        hit, weights = np.full(len(points), -1, dtype=np.int64), np.zeros((len(points), 3))
        grid.first_hits(start, end, hit, weights)
        ok = (hit >= 0) & (normals[np.maximum(hit, 0)] @ UP > 0.0)
        return ok, np.einsum("pk,pka->pa", weights, corners[np.maximum(hit, 0)])

    ok, _ = landings(axis_point[None, :])
    if ok[0]:
        return axis_point
    centroids = corners.mean(axis=1)
    upward = np.flatnonzero(normals @ UP > 0.0)
    upward = upward[np.argsort(-(centroids[upward] @ UP), kind="stable")]
    for first in range(0, len(upward), batch):
        ok, points = landings(centroids[upward[first:first + batch]])
        if ok.any():
            return points[np.argmax(ok)]
    return axis_point


def _significant(value: float, digits: int = 3) -> float:
    return float(f"{value:.{digits}g}")


def spout_rate(radius: float) -> float:
    """m^3/s: q = w pi r^2 (FILM_GROWTH w), to 3 significant digits."""
    return _significant(FILM_GROWTH * math.pi * radius ** 2)


def default_scene(mesh_path: str | os.PathLike, units: str = "m", up: str = "y",
                  size: MeshSize | None = None) -> dict:
    """The default scene of a mesh file as the dict of its TOML tables (module docstring).

    Parameters
    ----------
    mesh_path : str or PathLike
        the mesh file (anything :func:`surfflow.load_mesh` reads); written as an absolute path.
    units : {"m", "cm", "mm", "in"}
        the length of one unit of the file.
    up : {"y", "z"}
        the mesh's up axis.
    size : MeshSize, optional
        :func:`measure_mesh` of the same file, units and up axis, if already measured.

    Returns
    -------
    dict
        the tables as ``tomllib`` reads them; :func:`scene_text` writes them with comments.

    Examples
    --------
    >>> from surfflow.scene.default_scene import default_scene
    >>> tables = default_scene("meshes/bunny.obj")
    >>> tables["gravity"], tables["emitters"][0]["rate"]
    ([0.0, -9.81, 0.0], 8.75e-06)
    """
    size = size or measure_mesh(mesh_path, units, up)
    D = size.diameter
    decimals = max(0, math.ceil(-math.log10(1e-4 * D)))

    def place(point) -> list:
        return [round(float(c), decimals) + 0.0 for c in point]

    top_height = float(np.dot(size.top, UP))
    spout = np.asarray(size.spout_axis) + (top_height + CLEARANCE * D
                                           - float(np.dot(size.spout_axis, UP))) * UP
    radius = _significant(SPOUT_RADIUS * D)
    water = LIQUID_PRESETS["water"]
    name = Path(mesh_path).stem
    return {
        "name": name, "duration": DURATION, "fps": FPS,
        "gravity": [float(-GRAVITY * c) + 0.0 for c in UP],
        "mesh": {"path": str(size.path), "units": units, "up": up},
        "precompute": {"feature_size": FEATURE_SIZE},
        "liquid": {"preset": "water", "surface_tension": water["surface_tension"],
                   "contact_angle": water["contact_angle"]},
        "friction": {"model": "laminar"},
        "emitters": [{"type": "nozzle", "position": place(spout),
                      "direction": [float(-c) + 0.0 for c in UP], "speed": SPOUT_SPEED,
                      "radius": radius, "rate": spout_rate(radius), "start": 0.0,
                      "stop": POUR_STOP}],
        "droplets": {"engine": "embedded",
                     "floor": round(size.lowest - FLOOR_DROP * D, decimals) + 0.0},
        "output": {"directory": f"output/{name}", "formats": ["npz", "vtkhdf"]},
        "render": {"directory": f"render/{name}", "width": 800, "height": 600},
    }


KEY_NOTES = {
    ("name",): "the run's name",
    ("duration",): "simulated seconds (s)",
    ("fps",): "frames written per simulated second (1/s)",
    ("gravity",): "m/s^2: 9.81 down +y, where the mesh's up axis was turned",
    ("mesh",): "the surface the liquid runs on",
    ("mesh", "path"): "the mesh file (relative to this file)",
    ("mesh", "units"): "one unit of the file: m, cm, mm or in",
    ("mesh", "up"): "the file's up axis, y or z (turned onto +y when loaded)",
    ("precompute", "feature_size"): "m, or % of the mesh's diameter: narrower detail goes into the "
                                    "bottom heights",
    ("liquid", "preset"): "water: 1000 kg/m^3, viscosity 1e-6 m^2/s (also honey, paint, oil, ...)",
    ("liquid", "surface_tension"): "N/m",
    ("liquid", "contact_angle"): "degrees: 0 wets everything, larger beads up",
    ("friction", "model"): "laminar: the wall shear of the liquid's viscosity, 3 nu / d^2 (1/s)",
    ("emitters",): "a spout above the highest point, pouring straight down",
    ("emitters", "type"): "nozzle: a stream of drops from a disc",
    ("emitters", "position"): "m: the disc's centre, 5 % of the mesh's diameter above its top",
    ("emitters", "direction"): "where the stream points (any length)",
    ("emitters", "speed"): "m/s at the spout",
    ("emitters", "radius"): "m: the spout's radius, 2.5 % of the mesh's diameter",
    ("emitters", "rate"): "m^3/s: a film growing 5 mm/s over the disc, 5e-3 pi radius^2",
    ("emitters", "start"): "s: when the pour starts",
    ("emitters", "stop"): "s: when it stops",
    ("droplets",): "liquid that piles up drips off as drops; drops that land join the film",
    ("droplets", "engine"): "embedded, or splishsplash (SPH, an extra)",
    ("droplets", "floor"): "m: drops below this height (along +y) leave the run",
    ("output", "directory"): "frames and checkpoint.npz (relative to where you run)",
    ("output", "formats"): "any of npz, vtu, vtkhdf, usd",
    ("render", "directory"): "`surfflow render` writes PNG frames and an MP4 here",
    ("render", "width"): "pixels",
    ("render", "height"): "pixels",
}
"""The comment each key of the default scene gets in its file: what it is and its unit."""


def describe_size(size: MeshSize) -> str:
    """The mesh's size in a line: its box, diameter and the units it was read in."""
    box = " x ".join(f"{e:.3g}" for e in size.extent)
    return (f"{size.vertices} vertices, {box} m, diameter {size.diameter:.3g} m "
            f"(read in {size.units}; --units m|cm|mm|in if the file uses another unit)")


def scene_text(tables: dict, size: MeshSize, scene_path: str | os.PathLike | None = None) -> str:
    """The commented TOML file of ``tables`` (:func:`default_scene`); with ``scene_path`` the
    mesh path is written relative to the folder the file will be in."""
    mesh = dict(tables["mesh"])
    if scene_path is not None:
        mesh["path"] = Path(os.path.relpath(mesh["path"], Path(scene_path).resolve().parent)).as_posix()
    header = (f"The default scene surfflow made for {size.path.name}: {describe_size(size)}, up "
              f"+{size.up}.\nEdit any value; run it with `surfflow run FILE` (or view, render). "
              "Every key: the scene-file reference.")
    return dumps({**tables, "mesh": mesh}, KEY_NOTES, header)


def summary(tables: dict, size: MeshSize) -> list[str]:
    """The lines the command line prints about the default scene it runs."""
    spout = tables["emitters"][0]
    drops = tables["droplets"]
    liquid = tables["liquid"]
    return [
        f"mesh      {size.path}: {describe_size(size)}",
        f"up        the file's +{size.up}{'' if size.up == 'y' else ', turned onto +y'}: gravity "
        f"{tables['gravity']} m/s^2 (--up y|z)",
        f"liquid    water, surface tension {liquid['surface_tension']} N/m, contact angle "
        f"{liquid['contact_angle']} degrees, laminar friction",
        f"spout     nozzle at {spout['position']} m pointing {spout['direction']}, radius "
        f"{spout['radius']} m, {spout['speed']} m/s, {spout['rate']:.3g} m^3/s from "
        f"{spout['start']} to {spout['stop']} s",
        f"droplets  {drops['engine']}, floor at height {drops['floor']} m",
        f"time      {tables['duration']} s at {tables['fps']:g} fps",
    ]
