"""Wetness w in [0, 1] per vertex: where the liquid has been, drying after it has gone (SPEC §15).

A surface wets at once where the film is and dries exponentially after it has gone:

    w = 1                 where d >= d_min (the film is there),
    dw/dt = -w / T        where d <  d_min (dry),  T = ``Params.drying_time`` (s),

integrated exactly over a step of length dt, w <- w exp(-dt / T), so a vertex the film left
at time t_dry reads w(t) = exp(-(t - t_dry) / T) to round-off whatever the time steps were.
Wetting takes no time because a surface wets in milliseconds (the film touches it; a porous
top layer fills by capillarity), well inside one frame, while it dries in minutes: a rise time
would be a parameter no frame could show. Drying is exponential because what the film leaves
is thinner than the model resolves (below d_min), so the rule cannot depend on how much is left:
one time scale, a fade that slows as the spot dries. t_dry is the end of the last step that
ended with the vertex wet (the film left somewhere inside the next one, an error of at most
dt / T).

The wetness is the term's own array ``wetness`` (n,), never the film's: it is read at the end of
a step (stage ``record``, after the wet/dry cleanup), changes nothing in the film and travels in
the state dict, so a restart continues bit for bit. A moving surface keeps it per vertex (it is
a state of the surface's material, not a volume). numpy, in place, no allocation per step: three
passes over n values (threshold, decay, set), the same for any number of threads.
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import ParameterError
from .base import Term


class Wetness(Term):
    """The per-vertex wetness w (n,) in [0, 1] of ``geom`` under ``params`` (``drying_time``,
    ``min_depth``); 0 (never wet) at the start."""

    name = "wetness"
    stages = ("record",)

    def __init__(self, geom, params):
        self.params = params
        self.wetness = np.zeros(geom.n_vertices)
        self.wet = np.zeros(geom.n_vertices, dtype=bool)

    def record(self, geom, state, dt: float) -> None:
        """w <- w exp(-dt / T) on every vertex, then w = 1 where d >= d_min."""
        np.greater_equal(state.depth, self.params.min_depth, out=self.wet)
        self.wetness *= math.exp(-dt / self.params.drying_time)
        np.copyto(self.wetness, 1.0, where=self.wet)

    def state_dict(self) -> dict:
        return {"wetness": self.wetness.copy()}

    def load_state_dict(self, data: dict) -> None:
        """The saved wetness; a state saved before wetness was kept (no ``wetness``) starts
        with w = 1 where its film is (its ``depth``), else 0."""
        if "wetness" in data:
            wetness = np.asarray(data["wetness"], dtype=np.float64)
            if wetness.shape != self.wetness.shape:
                raise ParameterError(f"state dict 'wetness' has shape {wetness.shape}, this "
                                     f"simulation needs {self.wetness.shape} (same mesh)")
            self.wetness[:] = wetness
        elif "depth" in data:
            self.wetness[:] = np.asarray(data["depth"]) >= self.params.min_depth
