"""Batch runs: a base scene over parameter axes, each case a run on a Dask cluster (SPEC §12).

``sweep`` runs a sweep file; ``load_sweep`` reads and checks one. Dask distributed is imported
only when a sweep runs (the optional extra ``cluster``).
"""

from .driver import sweep
from .sweep_file import load_sweep

__all__ = ["load_sweep", "sweep"]
