"""What every test module shares: polyscope's global state is let go between modules."""

import gc
import sys

import pytest


@pytest.fixture(autouse=True, scope="module")
def polyscope_released():
    """After each module: polyscope's user callback cleared, the module's Python handles of
    structures and quantities collected, then the structures removed. A handle left alive while
    a later module registers a structure of the same name points at freed memory, and a new
    quantity allocated at that address can meet it as a stale handle of another type (nanobind:
    "Unable to convert function return value to a Python type")."""
    yield
    ps = sys.modules.get("polyscope")
    if ps is None or not ps.is_initialized():
        return
    ps.clear_user_callback()
    gc.collect()
    ps.remove_all_structures()
