"""Letting go of polyscope's global state between viewers and test modules."""

import gc
import sys


def release_polyscope() -> None:
    """polyscope's user callback cleared, the Python handles of structures and quantities that
    nothing references any more collected, then the structures removed; nothing if polyscope
    was never imported or initialised. A handle left alive while a later viewer registers a
    structure of the same name points at freed memory, and a new quantity allocated at that
    address can meet it as a stale handle of another type (nanobind: "Unable to convert
    function return value to a Python type")."""
    ps = sys.modules.get("polyscope")
    if ps is None or not ps.is_initialized():
        return
    ps.clear_user_callback()
    gc.collect()
    ps.remove_all_structures()
