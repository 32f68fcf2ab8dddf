"""The results of a sweep: one JSON marker per case folder and the table of all cases.

``<case>/result.json`` is written when a case ends (ok or failed) and is what ``resume`` reads.
``results.csv`` (and ``results.parquet`` where pyarrow is installed) has one row per case:
``case``, ``status``, ``error``, the swept scene keys, then the measured columns. A list value
(``mesh.resolution = [8, 8]``) is written as its JSON text.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

MARKER_NAME = "result.json"
TABLE_NAME = "results"


def read_marker(case_dir: Path) -> dict | None:
    """The row a finished case left in its folder, or None."""
    try:
        return json.loads((case_dir / MARKER_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def write_marker(case_dir: Path, row: dict) -> None:
    case_dir.mkdir(parents=True, exist_ok=True)
    (case_dir / MARKER_NAME).write_text(json.dumps(row, indent=1), encoding="utf-8")


def failed_row(exc: BaseException, wall_time: float | None = None) -> dict:
    """The row of a case that failed with ``exc``."""
    return {"status": "failed", "error": f"{type(exc).__name__}: {exc}", "wall_time_s": wall_time}


def table_columns(rows: list[dict]) -> list[str]:
    """Every column of ``rows`` in order of first appearance."""
    return list(dict.fromkeys(key for row in rows for key in row))


def _cell(value):
    return json.dumps(value) if isinstance(value, (list, tuple, dict)) else value


def write_tables(rows: list[dict], directory: Path) -> list[Path]:
    """Write ``results.csv`` (and ``results.parquet`` with pyarrow); returns the files written."""
    columns = table_columns(rows)
    cells = [{key: _cell(row.get(key)) for key in columns} for row in rows]
    csv_path = directory / f"{TABLE_NAME}.csv"
    with open(csv_path, "w", newline="", encoding="utf-8") as stream:
        writer = csv.DictWriter(stream, fieldnames=columns)
        writer.writeheader()
        writer.writerows(cells)
    written = [csv_path]
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        return written
    parquet_path = directory / f"{TABLE_NAME}.parquet"
    pq.write_table(pa.Table.from_pylist(cells), parquet_path)
    return written + [parquet_path]
