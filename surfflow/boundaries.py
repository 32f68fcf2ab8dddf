"""Open boundary segments of a mesh (SPEC §10): their kinds, how they are named and checked.

A segment is a run of boundary vertices where liquid flows in or out (either scheme):

* "inflow": a discharge q (m^2/s per unit length, a number or a callable of time) flows in;
* "level": the free surface is held at a height (m along the up direction);
* "transmissive": liquid leaves freely.

``check_segment`` is the one check of a segment's kind and value, used by
``Simulation.set_boundary`` and by the scene reader; ``select_boundary`` names the vertices by
a mask or a plane; ``segment_normals`` gives the scheme their boundary normals.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .errors import ParameterError
from .kernels.riemann import DISCHARGE, LEVEL, TRANSMISSIVE

BOUNDARY_KINDS = {"inflow": DISCHARGE, "level": LEVEL, "transmissive": TRANSMISSIVE}
VALUE_NAMES = {"inflow": "discharge", "level": "level"}  # the value each kind takes


class BoundarySegment(NamedTuple):
    """An open boundary: kind ("inflow", "level", "transmissive"), value (float or callable of
    time; 0.0 for "transmissive"), vertices (k,) int64."""

    kind: str
    value: object
    vertices: np.ndarray

    def value_at(self, time: float) -> float:
        """The discharge or level at ``time`` (s), checked finite (a discharge >= 0)."""
        value = float(self.value(time)) if callable(self.value) else float(self.value)
        if not math.isfinite(value) or (self.kind == "inflow" and value < 0.0):
            raise ParameterError(f"boundary discharge/level {value!r} at t={time:.9g} s must be "
                                 "finite (a discharge >= 0 m^2/s)")
        return value


def check_segment(kind: str, discharge=None, level=None):
    """The value of a segment of ``kind`` given ``discharge`` or ``level`` (None where not
    given); raises ParameterError saying what the kind takes."""
    if kind not in BOUNDARY_KINDS:
        raise ParameterError(f"boundary kind {kind!r} is not allowed; use one of "
                             f"{', '.join(map(repr, BOUNDARY_KINDS))}")
    needs = VALUE_NAMES.get(kind)
    given = {"discharge": discharge, "level": level}
    if (needs and given[needs] is None) or any(value is not None for name, value in given.items()
                                               if name != needs):
        raise ParameterError(f"a {kind!r} boundary takes "
                             + (f"'{needs}' only" if needs else "neither 'discharge' nor 'level'"))
    return given[needs] if needs else 0.0


def select_boundary(geom, mask=None, plane=None) -> np.ndarray:
    """The boundary vertices (k,) int64 named by an (n,) bool ``mask`` or a ``plane`` given as
    (point, normal): the boundary vertices within half their shortest edge of the plane."""
    if (mask is None) == (plane is None):
        raise ParameterError("name a boundary segment by exactly one of mask=(n,) bools or "
                             "plane=((x, y, z), (nx, ny, nz))")
    if mask is not None:
        mask = np.asarray(mask)
        if mask.shape != (geom.n_vertices,) or mask.dtype != bool:
            raise ParameterError(f"boundary mask has shape {mask.shape} and dtype {mask.dtype}; "
                                 f"it must be ({geom.n_vertices},) bool, one per vertex")
        chosen = mask & geom.is_boundary
    else:
        try:
            point, normal = (np.asarray(v, dtype=np.float64).reshape(3) for v in plane)
        except (TypeError, ValueError):
            raise ParameterError(f"plane={plane!r} must be (point, normal), two (x, y, z) "
                                 "triples") from None
        length = np.linalg.norm(normal)
        if not length > 0.0:
            raise ParameterError(f"plane normal {tuple(normal)} has zero length")
        edge = np.linalg.norm(geom.neighbor_coords, axis=1)
        spacing = np.minimum.reduceat(edge, geom.neighbor_offsets[:-1])
        distance = np.abs((geom.vertices - point) @ (normal / length))
        chosen = geom.is_boundary & (distance <= 0.5 * spacing)
    vertices = np.flatnonzero(chosen)
    if vertices.size < 2:
        raise ParameterError(f"the boundary segment holds {vertices.size} boundary vertices; it "
                             "needs at least two neighbouring ones on the mesh's open boundary "
                             "(check the mask or the plane's point and normal)")
    return vertices


def segment_normals(geom, vertices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Boundary normals (k, 2) (length x outward normal, in each vertex's frame) of the part of
    the boundary between selected vertices, the outward halves of the boundary edges whose other
    end is selected too (a vertex's ring starts and ends on its two boundary neighbours), and
    (k, 2) those of the other halves (the walls the segment meets at its ends)."""
    selected = np.zeros(geom.n_vertices, dtype=bool)
    selected[vertices] = True
    first = geom.neighbor_offsets[vertices]
    last = geom.neighbor_offsets[vertices + 1] - 1
    c_first, c_last = geom.neighbor_coords[first], geom.neighbor_coords[last]
    half_first = 0.5 * np.stack([c_first[:, 1], -c_first[:, 0]], axis=1)
    half_last = 0.5 * np.stack([-c_last[:, 1], c_last[:, 0]], axis=1)
    use_first = selected[geom.neighbor_indices[first]][:, None]
    use_last = selected[geom.neighbor_indices[last]][:, None]
    return (half_first * use_first + half_last * use_last,
            half_first * ~use_first + half_last * ~use_last)
