"""``sweep``: run every case of a sweep file on Dask and collect the results table (SPEC §12).

    rows = sf.sweep("paint_runniness.toml", "output/runniness", workers=2,
                    metrics={"front": lambda sim: float(sim.depth.max())})

The client writes each case's resolved scene and checks it (a case whose scene is invalid is
recorded as failed without running), submits one geometry task per distinct cached mesh and
then the cases, each depending on its mesh's task, so a mesh is precomputed once and every
worker loads it from the shared cache folder. Rows come back as cases finish; each is kept in
its case folder (``result.json``) and all of them in ``results.csv`` / ``results.parquet``.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import ParameterError, SceneError
from ..scene.scene import load_scene
from .case_scene import geometry_identity, write_case_scene
from .cluster import dask_client
from .results import failed_row, read_marker, write_marker, write_tables
from .sweep_file import Sweep, load_sweep

BUILT_IN_COLUMNS = ("case", "status", "error", "wall_time_s", "steps", "time", "volume",
                    "wetted_area", "max_depth", "outflow_volume", "geometry_key")


def sweep(spec_or_path, output_dir, workers: int | None = None, scheduler: str | None = None,
          resume: bool = False, metrics: dict | None = None, numba_threads: int = 1,
          cache_dir=None, progress: bool = True) -> list[dict]:
    """Run every case of a sweep; returns the rows of the results table, in case order.

    Needs the extra ``cluster`` (Dask distributed). The workers are spawned and import the calling
    script again: in a script, call it under ``if __name__ == "__main__":``.

    Parameters
    ----------
    spec_or_path : str, PathLike or Sweep
        a sweep file, or a sweep from :func:`load_sweep`.
    output_dir : str or PathLike
        gets a folder per case (resolved ``scene.toml``, frames, checkpoint, ``result.json``) and
        ``results.csv``.
    workers : int, optional
        LocalCluster processes (default: one per core, at most one per case).
    scheduler : str, optional
        the address of an existing Dask scheduler instead (default ``$SURFFLOW_SCHEDULER``); the
        output and cache folders must then be on a file system the workers share.
    resume : bool, default False
        skip the cases whose ``result.json`` says ok with the same values.
    metrics : dict, optional
        ``{column: fn(simulation) -> float}``, measured after each run.
    numba_threads : int, default 1
        numba threads of each LocalCluster worker.
    cache_dir : str or PathLike, optional
        the geometry cache folder (default: the base scene's).
    progress : bool, default True
        show a progress bar over the cases.

    Returns
    -------
    list of dict
        one row per case: ``case``, ``status``, ``error``, the swept keys, ``wall_time_s``,
        ``steps``, ``time`` (s), ``volume`` (m^3), ``ledger_<entry>`` (m^3), ``wetted_area``
        (m^2), ``max_depth`` (m), ``outflow_volume`` (m^3), ``geometry_key`` and the metrics.

    Examples
    --------
    >>> import surfflow as sf
    >>> rows = sf.sweep("surfflow/examples/sweeps/paint_runniness.toml", "output/runniness",
    ...                 workers=2, metrics={"wet": lambda sim: float((sim.depth > 1e-4).mean())})
    ...                                                                      # doctest: +SKIP
    >>> [row["status"] for row in rows]                                      # doctest: +SKIP
    ['ok', 'ok', 'ok', 'ok', 'ok', 'ok']
    """
    for name, count in (("workers", workers), ("numba_threads", numba_threads)):
        if count is not None and (isinstance(count, bool) or not isinstance(count, int) or count < 1):
            raise ParameterError(f"{name}={count!r} must be a whole number >= 1")
    spec = spec_or_path if isinstance(spec_or_path, Sweep) else load_sweep(spec_or_path)
    metrics = check_metrics(metrics)
    output_dir = Path(output_dir)
    output_dir.mkdir(parents=True, exist_ok=True)
    rows, pending = {}, []
    for case in spec.cases:
        case_dir = output_dir / case.name
        done = read_marker(case_dir) if resume else None
        if done is not None and done.get("status") == "ok" and same_values(done, case.values):
            rows[case.name] = done
            continue
        scene_file = write_case_scene(spec, case, case_dir, cache_dir)
        try:
            identity = geometry_identity(load_scene(scene_file))
        except SceneError as exc:
            rows[case.name] = case_row(case, failed_row(exc))
            write_marker(case_dir, rows[case.name])
            continue
        pending.append((case, scene_file, identity))
    if pending:
        workers = workers or min(len(pending), os.cpu_count() or 1)
        with dask_client(scheduler, workers, numba_threads) as client:
            rows.update(run_cases(client, pending, metrics, output_dir, len(spec.cases) - len(pending),
                                  len(spec.cases), progress))
    ordered = [in_table_order(rows[case.name], spec.keys) for case in spec.cases]
    write_tables(ordered, output_dir)
    return ordered


def run_cases(client, pending: list, metrics: dict, output_dir: Path, done: int, total: int,
              progress: bool) -> dict:
    """Submit the geometry tasks and the cases; returns {case name: row} as they finish."""
    from distributed import as_completed
    from tqdm import tqdm

    from .worker import prepare_geometry, run_case

    geometry = {}
    for _, scene_file, identity in pending:
        if identity is not None and identity not in geometry:
            geometry[identity] = client.submit(prepare_geometry, str(scene_file), pure=False)
    futures = {client.submit(run_case, str(scene_file), metrics, geometry.get(identity), pure=False): case
               for case, scene_file, identity in pending}
    rows, failed = {}, 0
    with tqdm(total=total, initial=done, unit="case", desc="sweep", disable=not progress,
              dynamic_ncols=True) as bar:
        for future in as_completed(futures):
            case = futures[future]
            try:
                result = future.result()
            except Exception as exc:  # its geometry task failed or its worker died
                result = failed_row(exc)
            rows[case.name] = case_row(case, result)
            write_marker(output_dir / case.name, rows[case.name])
            failed += rows[case.name]["status"] != "ok"
            bar.set_postfix_str(f"{failed} failed", refresh=False)
            bar.update(1)
    return rows


def case_row(case, result: dict) -> dict:
    """The row of a case: its name, its values and what ``run_case`` measured."""
    return {"case": case.name, **case.values, **result}


def in_table_order(row: dict, keys: tuple) -> dict:
    """``row`` with the columns case, status, error, every swept key (None where a case does
    not set it), then the measurements."""
    head = ("case", "status", "error", *keys)
    return {**{key: row.get(key) for key in head}, **{k: v for k, v in row.items() if k not in head}}


def same_values(row: dict, values: dict) -> bool:
    """Whether a finished case's row was run with ``values``."""
    return all(key in row and row[key] == value for key, value in values.items())


def check_metrics(metrics: dict | None) -> dict:
    """{name: callable}; the names must not clash with the table's own columns."""
    metrics = dict(metrics or {})
    for name, metric in metrics.items():
        if not isinstance(name, str) or not callable(metric):
            raise ParameterError(f"metrics[{name!r}] must be a callable fn(simulation) -> float "
                                 "under a string name")
        if name in BUILT_IN_COLUMNS or name.startswith("ledger_"):
            raise ParameterError(f"metric name {name!r} is a built-in column; choose another name")
    return metrics
