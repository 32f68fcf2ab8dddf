"""What set a run's time steps, and where: the tally behind ``Simulation.step_limits``.

An explicit step is as long as its tightest limit allows (``kernels/timestep.py``): the flow's
CFL limit cfl r_i / (|u_i| + sqrt(|g| d_i)) or surface tension's cfl r_i / (2 c_i), each at the
wet vertex i that attains it, or ``max_dt``, or a term's own limit. Both CFL limits grow with
the dual cell's size r_i, so a few vertices whose cells are much smaller than the mesh's median
(the fan of thin triangles around a UV sphere's pole, a cluster of slivers) pace the whole run
wherever they are wet, by about the ratio of their cells to the median one. The tally counts the
steps each limit set and, for the two CFL limits, the vertex that set them; :meth:`report`
names the vertices that set the most steps with their cells' size against the median, which is
where remeshing would lengthen the step. Before a run, :func:`smallest_cells` names the cells
that would (``surfflow precompute`` and ``surfflow info`` of a geometry cache print them).
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from .kernels.fields import ring_edge_fields_numpy


class StepLimits:
    """Counts of what set each time step, and where: a Simulation's ``step_limits``.

    ``limits`` {name: steps} counts the steps each limit set (the names of
    ``Simulation.step_limit``: "flow", "surface tension", "max_dt" or a term's), ``vertices``
    {vertex: steps} the steps a vertex's CFL limit set (the flow's or surface tension's). A
    Simulation records every step it takes; :meth:`report` and :meth:`summary` name the
    vertices that paced the run, with their dual cells against the median.

    Examples
    --------
    >>> import numpy as np
    >>> import surfflow as sf
    >>> tally = sf.StepLimits()
    >>> for limit, vertex in [("flow", 7), ("flow", 7), ("surface tension", 2), ("max_dt", None)]:
    ...     tally.record(limit, vertex)
    >>> tally.steps, tally.pacing_vertices()
    (4, [(7, 2), (2, 1)])
    >>> spacing = np.array([1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.1])  # m: vertex 7's cell is small
    >>> for line in tally.report(spacing):
    ...     print(line)
    what set the time step over 4 steps: flow 50 %, surface tension 25 %, max_dt 25 %
    vertex 7 set 2 steps (50 %); its cell is 0.1 of the median cell
    vertex 2 set 1 step (25 %); its cell is 1 of the median cell
    """

    def __init__(self):
        self.limits: Counter[str] = Counter()
        self.vertices: Counter[int] = Counter()

    @property
    def steps(self) -> int:
        """How many steps the tally holds."""
        return sum(self.limits.values())

    def record(self, limit: str, vertex: int | None) -> None:
        """Count one step, set by ``limit`` at ``vertex`` (None where no vertex set it)."""
        self.limits[limit] += 1
        if vertex is not None:
            self.vertices[vertex] += 1

    def to_arrays(self) -> dict[str, np.ndarray]:
        """The tally as numpy arrays, for a Simulation's ``state_dict`` (so that a resumed run
        goes on counting): step_limit_names (k,) str, step_limit_counts (k,), and
        step_limit_vertices (m,), step_limit_vertex_counts (m,) int64."""
        return {"step_limit_names": np.array(list(self.limits), dtype=str),
                "step_limit_counts": np.array(list(self.limits.values()), dtype=np.int64),
                "step_limit_vertices": np.array(list(self.vertices), dtype=np.int64),
                "step_limit_vertex_counts": np.array(list(self.vertices.values()),
                                                     dtype=np.int64)}

    def load_arrays(self, data: dict) -> None:
        """Continue from :meth:`to_arrays`' arrays in ``data``; an empty tally where they are
        absent (a checkpoint written before they were kept)."""
        self.limits = Counter(dict(zip((str(name) for name in data.get("step_limit_names", ())),
                                       (int(n) for n in data.get("step_limit_counts", ())))))
        self.vertices = Counter(dict(zip((int(v) for v in data.get("step_limit_vertices", ())),
                                         (int(n) for n in
                                          data.get("step_limit_vertex_counts", ())))))

    def pacing_vertices(self, count: int = 3) -> list[tuple[int, int]]:
        """The ``count`` vertices that set the most steps, as (vertex, steps), most first (the
        lower index first among equals)."""
        return sorted(self.vertices.items(), key=lambda item: (-item[1], item[0]))[:count]

    def summary(self, ring_spacing: np.ndarray, count: int = 10) -> dict:
        """{"steps": N, "limits": {name: steps}, most first, "vertices": [{"vertex", "steps",
        "cell"}]}: the ``count`` vertices that set the most steps, ``cell`` the size r_i of each
        one's dual cell against the median of ``ring_spacing`` (n,) (m;
        ``Simulation.fields.ring_spacing``). What ``surfflow run`` writes as
        ``step_limits.json``."""
        median = float(np.median(ring_spacing))
        return {"steps": self.steps,
                "limits": dict(sorted(self.limits.items(), key=lambda item: -item[1])),
                "vertices": [{"vertex": vertex, "steps": n,
                              "cell": float(ring_spacing[vertex]) / median}
                             for vertex, n in self.pacing_vertices(count)]}

    def report(self, ring_spacing: np.ndarray, count: int = 3) -> list[str]:
        """Lines for a person: the share of the steps each limit set and the ``count`` vertices
        that set the most, each with its dual cell against the median (:meth:`summary`). No
        lines before a step."""
        summary = self.summary(ring_spacing, count)
        steps = summary["steps"]
        if steps == 0:
            return []
        shares = ", ".join(f"{name} {100.0 * n / steps:.0f} %"
                           for name, n in summary["limits"].items())
        lines = [f"what set the time step over {steps} steps: {shares}"]
        for row in summary["vertices"]:
            n = row["steps"]
            lines.append(f"vertex {row['vertex']} set {n} step{'' if n == 1 else 's'} "
                         f"({100.0 * n / steps:.0f} %); its cell is "
                         f"{row['cell']:.2g} of the median cell")
        return lines


def last_step_limit(simulation) -> str:
    """What set ``simulation``'s last step, and at which vertex where one did ("flow at vertex
    5121"); "-" before the first step."""
    vertex = simulation.step_limit_vertex
    return f"{simulation.step_limit or '-'}" + ("" if vertex is None else f" at vertex {vertex}")


def dual_cell_sizes(geom) -> np.ndarray:
    """(n,) the size r_i = 4 A_i / sum_j |N_ij| of each vertex's dual cell (m): the length both
    CFL limits scale with, the numbers a Simulation's ``fields.ring_spacing`` holds."""
    sizes = np.empty(geom.n_vertices)
    ring_edge_fields_numpy(geom.neighbor_offsets, geom.dual_edge_vectors, geom.reverse_edges,
                           geom.dual_areas, sizes, np.empty_like(geom.dual_edge_vectors))
    return sizes


def smallest_cells(ring_spacing: np.ndarray, count: int = 3) -> list[tuple[int, float]]:
    """The ``count`` smallest dual cells of ``ring_spacing`` (n,) (m), as (vertex, r_i over the
    median), smallest first (the lower index first among equals): the vertices whose CFL limits
    are the shortest wherever the liquid is alike."""
    median = float(np.median(ring_spacing))
    order = np.argsort(ring_spacing, kind="stable")[:count]
    return [(int(vertex), float(ring_spacing[vertex]) / median) for vertex in order]


def cells_line(ring_spacing: np.ndarray, count: int = 3) -> str:
    """One line on the dual cells of ``ring_spacing`` (n,) (m): their median and the ``count``
    smallest against it, "median 4.1 mm; the smallest 0.13 of it (vertex 58), 0.13 (59), ..."
    (the median in m, mm or um, :func:`length_words`)."""
    smallest = smallest_cells(ring_spacing, count)
    (first, share), rest = smallest[0], smallest[1:]
    return (f"median {length_words(float(np.median(ring_spacing)))}; the smallest {share:.2g} of "
            f"it (vertex {first})" + "".join(f", {s:.2g} ({v})" for v, s in rest))


def cells_report(ring_spacing: np.ndarray) -> str:
    """The line ``surfflow precompute`` and ``surfflow run`` print before a run:
    "dual cells (an explicit step is as short as the smallest wet one allows): " and
    :func:`cells_line` of ``ring_spacing`` (n,) (m)."""
    return ("dual cells (an explicit step is as short as the smallest wet one allows): "
            + cells_line(ring_spacing))


def length_words(metres: float) -> str:
    """A length (m) in the unit that reads best: "4.4 m", "820 mm", "25 um"."""
    for unit, scale in (("m", 1.0), ("mm", 1e-3), ("um", 1e-6)):
        if metres >= scale:
            return f"{metres / scale:.3g} {unit}"
    return f"{metres:.3g} m"
