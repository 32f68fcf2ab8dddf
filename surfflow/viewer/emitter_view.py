"""Drawing emitters in polyscope: each nozzle as a small grey spout (a truncated cone whose
narrow end is the exit disc, widening upstream), each rain region as the edges of its box.

Drawn again when the emitters change (a click pour adds a nozzle); removed when there are none.
"""

from __future__ import annotations

import numpy as np
import polyscope as ps

NOZZLES_NAME = "nozzles"
RAIN_NAME = "rain regions"
SPOUT_COLOR = (0.55, 0.56, 0.58)
SEGMENTS = 16
BOX_EDGES = np.array([[0, 1], [2, 3], [4, 5], [6, 7], [0, 2], [1, 3], [4, 6], [5, 7],
                      [0, 4], [1, 5], [2, 6], [3, 7]])


def spout_mesh(position: np.ndarray, direction: np.ndarray, radius: float):
    """(V (2 s, 3), F (2 s, 3)) of a spout: the exit ring of ``radius`` at ``position`` and a
    ring twice as wide four radii upstream (against the unit ``direction``)."""
    helper = np.eye(3)[int(np.argmin(np.abs(direction)))]
    first = np.cross(direction, helper)
    first /= np.linalg.norm(first)
    second = np.cross(direction, first)
    angle = 2.0 * np.pi * np.arange(SEGMENTS) / SEGMENTS
    ring = np.outer(np.cos(angle), first) + np.outer(np.sin(angle), second)
    V = np.vstack([position + radius * ring, position - 4.0 * radius * direction + 2.0 * radius * ring])
    k = np.arange(SEGMENTS)
    nxt = (k + 1) % SEGMENTS
    F = np.vstack([np.column_stack([k, nxt, SEGMENTS + k]),
                   np.column_stack([nxt, SEGMENTS + nxt, SEGMENTS + k])])
    return V, F


def draw_emitters(emitters, size: float) -> None:
    """Show the nozzles and rain regions of ``emitters`` (an object of ``size`` m sets the
    smallest spout drawn, 0.5 % of it)."""
    nozzles = [e for e in emitters if e.kind == "nozzle"]
    if nozzles:
        parts = [spout_mesh(e.position, e.direction, max(e.radius, 0.005 * size)) for e in nozzles]
        V = np.vstack([v for v, _ in parts])
        F = np.vstack([f + k * 2 * SEGMENTS for k, (_, f) in enumerate(parts)])
        ps.register_surface_mesh(NOZZLES_NAME, V, F, color=SPOUT_COLOR, smooth_shade=True)
    elif ps.has_surface_mesh(NOZZLES_NAME):
        ps.remove_surface_mesh(NOZZLES_NAME)
    rains = [e for e in emitters if e.kind == "rain"]
    if rains:
        corners = np.vstack([[[x, y, z] for x in (e.low[0], e.high[0]) for y in (e.low[1], e.high[1])
                              for z in (e.low[2], e.high[2])] for e in rains])
        edges = np.vstack([BOX_EDGES + 8 * k for k in range(len(rains))])
        ps.register_curve_network(RAIN_NAME, corners, edges, color=SPOUT_COLOR, radius=0.001)
    elif ps.has_curve_network(RAIN_NAME):
        ps.remove_curve_network(RAIN_NAME)
