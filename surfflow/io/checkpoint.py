"""Checkpoints: a simulation's full state in one ``.npz``, for a bit-identical restart.

The file holds the arrays of ``Simulation.state_dict()`` (under ``state/`` keys), the frame
it was written after, the geometry's key (a restart onto another mesh is refused) and free-form
text metadata (the scene file, ...). Floats are stored as float64 bit patterns, so
``restore_checkpoint`` followed by the same steps gives exactly the numbers of an uninterrupted
run.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import CacheError

FORMAT_VERSION = 1
_STATE = "state/"
_META = "meta/"


@dataclass(frozen=True)
class Checkpoint:
    """What a checkpoint file holds; ``state`` is ready for ``Simulation.load_state_dict``."""

    state: dict
    frame: int
    time: float
    geometry_key: str
    meta: dict = field(default_factory=dict)


def _scalar_or_array(array: np.ndarray):
    """0-d arrays back to numpy scalars (exact), everything else unchanged."""
    return array[()] if array.ndim == 0 else array


def save_checkpoint(path: str | os.PathLike, sim, frame: int, meta: dict | None = None,
                    state: dict | None = None) -> Path:
    """Write ``sim``'s state after ``frame`` to ``path`` (a temporary file, then a rename).

    state: an earlier ``sim.state_dict()`` to write instead of the current state.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    state = sim.state_dict() if state is None else state
    arrays = {_STATE + key: np.asarray(value) for key, value in state.items()}
    for key, value in (meta or {}).items():
        arrays[_META + key] = np.str_(str(value))
    temporary = path.with_name(path.name + ".tmp.npz")
    np.savez(temporary, format_version=np.int64(FORMAT_VERSION), frame=np.int64(frame),
             time=np.float64(state["time"]), geometry_key=np.str_(sim.geometry.key), **arrays)
    os.replace(temporary, path)
    return path


def load_checkpoint(path: str | os.PathLike) -> Checkpoint:
    """Read a checkpoint written by :func:`save_checkpoint`; raises CacheError if it cannot."""
    path = os.fspath(path)
    if not os.path.exists(path):
        raise CacheError(f"checkpoint {path!r} does not exist; check the path (runs write "
                         f"'checkpoint.npz' into their output directory)")
    try:
        with np.load(path, allow_pickle=False) as data:
            if "format_version" not in data or int(data["format_version"]) != FORMAT_VERSION:
                raise CacheError(f"{path!r} is not a surfflow checkpoint of format {FORMAT_VERSION}")
            state = {k[len(_STATE):]: _scalar_or_array(data[k]) for k in data.files if k.startswith(_STATE)}
            meta = {k[len(_META):]: str(data[k]) for k in data.files if k.startswith(_META)}
            return Checkpoint(state=state, frame=int(data["frame"]), time=float(data["time"]),
                              geometry_key=str(data["geometry_key"]), meta=meta)
    except CacheError:
        raise
    except (OSError, KeyError, ValueError) as exc:
        raise CacheError(f"checkpoint {path!r} cannot be read ({exc}); it may be truncated") from None


def restore_checkpoint(sim, checkpoint: Checkpoint | str | os.PathLike) -> Checkpoint:
    """Load a checkpoint's state into ``sim``, after checking it was made on the same geometry."""
    if not isinstance(checkpoint, Checkpoint):
        checkpoint = load_checkpoint(checkpoint)
    if checkpoint.geometry_key != sim.geometry.key:
        raise CacheError(
            f"the checkpoint was written on geometry {checkpoint.geometry_key[:12]!r}, this "
            f"simulation runs on {sim.geometry.key[:12]!r}; restart with the scene and mesh that wrote it"
        )
    sim.load_state_dict(checkpoint.state)
    return checkpoint
