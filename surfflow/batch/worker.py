"""What a Dask worker runs for a sweep: a mesh's geometry, and one case with its measurements.

``run_case`` never raises: a failure comes back as a row with status "failed" and the error.
The driver imports this module only when a sweep runs.
"""

from __future__ import annotations

import time
from pathlib import Path

from ..scene.scene import load_scene
from ..scene.scene_setup import scene_geometry, scene_mesh
from ..scene.runner import SceneRunner
from .results import failed_row


def prepare_geometry(scene_file: str) -> str:
    """Precompute the geometry of a scene into its cache folder (or find it there); returns its key."""
    scene = load_scene(scene_file)
    V, F = scene_mesh(scene.mesh)
    return scene_geometry(scene, V, F).key


def run_case(scene_file: str, metrics: dict, geometry_key: str | None = None) -> dict:
    """Run the scene of one case into its folder; returns its result row (never raises).

    metrics: {column: fn(simulation) -> float} besides the built-in ones; geometry_key: the
    result of :func:`prepare_geometry` (passing it makes Dask run this after it).
    """
    start = time.perf_counter()
    try:
        scene = load_scene(scene_file)
        runner = SceneRunner(scene, output_dir=Path(scene_file).parent)
        runner.run()
        row = {"status": "ok", "error": "", "wall_time_s": time.perf_counter() - start,
               "steps": runner.steps_taken, "time": runner.simulation.time,
               **summary(runner.simulation, metrics), "geometry_key": runner.geometry.key}
    except Exception as exc:  # a failed case is a result; the sweep goes on
        row = failed_row(exc, time.perf_counter() - start)
    return row


def summary(sim, metrics: dict) -> dict:
    """The built-in metrics, the ledger and the user's metrics of a finished simulation.

    volume: liquid on the surface (m^3); ledger_<entry>: every ledger entry (m^3);
    wetted_area: area of the vertices deeper than min_depth (m^2); max_depth (m);
    outflow_volume: what left through outflow boundaries (m^3).
    """
    ledger = sim.ledger()
    depth = sim.depth
    wet = depth > sim.params.min_depth
    row = {"volume": ledger["current"],
           **{f"ledger_{key}": value for key, value in ledger.items() if key != "current"},
           "wetted_area": float(sim.geometry.dual_areas[wet].sum()),
           "max_depth": float(depth.max()),
           "outflow_volume": ledger["outflow"]}
    for name, metric in metrics.items():
        row[name] = float(metric(sim))
    return row
