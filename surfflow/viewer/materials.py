"""How the liquid looks: per-vertex wetness, opacity and colours, and polyscope's scene settings.

Every vertex gets a displayed wetness w in [0, 1]. The depth d fades in over a few min_depth,

    target = clip(d / (FADE_DEPTHS d_min), 0, 1)

(the residual film a dry vertex keeps, d < d_min, still looks damp), raised to the mean target of
its one-ring neighbours where that is higher (a real film shows no hole one vertex wide; such a
vertex keeps the colour of its wet neighbours, or its last one, since a dry vertex has no dyes).
A drying vertex fades out over ``dry_time`` seconds instead of vanishing at once,

    w(t) = max(target(t), w(t - dt) - dt / dry_time),

so a vertex whose depth crosses d_min every other frame stays shown rather than blinking. The
liquid's optical thickness s = 1 - exp(-d' / tint_depth), with d' the depth averaged with its
one-ring mean (display only: a film whose depth alternates from vertex to vertex is shown
evenly, not mottled), then sets its opacity and colour,

    alpha = w (FILM_OPACITY + (opacity - FILM_OPACITY) s),
    rgb = base sqrt(s) (1 - DEEP_DARKENING s),

base being the liquid's colour with the dyes mixed in. A thin film is thus a nearly black,
partly transparent glossy layer: it darkens the object under it and adds the material's
highlights, the look of a wet surface; the colour comes in as the film thickens, and deep pools
are denser and darker. The object itself is darkened by WET_DARKENING w.
"""

from __future__ import annotations

import numpy as np
import polyscope as ps
from scipy import sparse

from .matcap import WATER_MATERIAL, load_water_material

FADE_DEPTHS = 2.0
FILM_OPACITY = 0.4
DEEP_DARKENING = 0.3
WET_DARKENING = 0.2
OBJECT_MATERIAL = "clay"


def wetness_target(depth: np.ndarray, min_depth: float) -> np.ndarray:
    """(n,) wetness in [0, 1] of depths (n,): d / (FADE_DEPTHS d_min), at most 1."""
    return np.clip(depth / (FADE_DEPTHS * min_depth), 0.0, 1.0)


def ring_mean_matrix(faces: np.ndarray, n_vertices: int) -> sparse.csr_matrix:
    """(n, n) sparse matrix averaging a vertex field over each vertex's one-ring neighbours."""
    rows = faces[:, [0, 1, 2, 1, 2, 0]].ravel()
    cols = faces[:, [1, 2, 0, 0, 1, 2]].ravel()
    adjacency = sparse.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(n_vertices, n_vertices))
    adjacency.data[:] = 1.0  # an edge shared by two faces counts once
    degree = np.maximum(np.asarray(adjacency.sum(axis=1)).ravel(), 1.0)
    return sparse.diags(1.0 / degree) @ adjacency


class DisplayWetness:
    """The displayed wetness of the vertices of triangles ``faces`` (m, 3), held while drying
    (see the module docstring)."""

    def __init__(self, faces: np.ndarray, n_vertices: int, dry_time: float):
        self.dry_time = dry_time
        self.ring_mean = ring_mean_matrix(faces, n_vertices)
        self.wetness = np.zeros(n_vertices)
        self.colors: np.ndarray | None = None
        self.time: float | None = None

    def update(self, depth: np.ndarray, min_depth: float, time: float) -> np.ndarray:
        """The wetness (n,) at simulated ``time`` for ``depth`` (n,); a time that goes back
        (a reset) starts afresh."""
        target = wetness_target(depth, min_depth)
        target = np.maximum(target, self.ring_mean @ target)
        if self.time is None or time < self.time or self.dry_time == 0.0:
            self.wetness = target
        else:
            self.wetness = np.maximum(target, self.wetness - (time - self.time) / self.dry_time)
        self.time = time
        return self.wetness

    def smoothed(self, field: np.ndarray) -> np.ndarray:
        """(n,) ``field`` (n,) averaged with the mean of its one-ring: (f + mean_ring f) / 2."""
        return 0.5 * (field + self.ring_mean @ field)

    def hold_colors(self, colors: np.ndarray, depth: np.ndarray, min_depth: float) -> np.ndarray:
        """(n, 3) colours to show: ``colors`` (n, 3) where wet; where dry (and perhaps still
        shown), the mean colour of the wet neighbours, else the colour shown last."""
        wet = (depth >= min_depth).astype(np.float64)
        wet_share = self.ring_mean @ wet
        from_neighbours = (self.ring_mean @ (colors * wet[:, None])) / np.maximum(wet_share, 1e-12)[:, None]
        last = colors if self.colors is None else self.colors
        self.colors = np.where(wet[:, None] > 0.0, colors,
                               np.where(wet_share[:, None] > 0.0, from_neighbours, last))
        return self.colors


def thickness(depth: np.ndarray, tint_depth: float) -> np.ndarray:
    """(n,) optical thickness s = 1 - exp(-d / tint_depth) in [0, 1)."""
    return -np.expm1(-np.maximum(depth, 0.0) / tint_depth)


def liquid_opacity(wetness: np.ndarray, depth: np.ndarray, tint_depth: float, opacity: float) -> np.ndarray:
    """(n,) alpha = w (FILM_OPACITY + (opacity - FILM_OPACITY) s)."""
    film = min(FILM_OPACITY, opacity)
    return wetness * (film + (opacity - film) * thickness(depth, tint_depth))


def depth_tint(colors: np.ndarray, depth: np.ndarray, tint_depth: float) -> np.ndarray:
    """(n, 3) colours (n, 3) of a film of the given depths: rgb sqrt(s) (1 - DEEP_DARKENING s)."""
    s = thickness(depth, tint_depth)
    return colors * (np.sqrt(s) * (1.0 - DEEP_DARKENING * s))[:, None]


def wet_object_colors(object_color, wetness: np.ndarray) -> np.ndarray:
    """(n, 3) object colours darkened where wet: colour (1 - WET_DARKENING w)."""
    return np.outer(1.0 - WET_DARKENING * wetness, object_color)


def apply_scene_look(spec) -> None:
    """Polyscope's scene-wide settings for a [render] table ``spec``: depth-peeled ("pretty")
    transparency, the ground plane and its shadow."""
    ps.set_transparency_mode("pretty")
    ps.set_ground_plane_mode(spec.ground)
    ps.set_shadow_darkness(0.35)


def liquid_material(spec) -> str:
    """The polyscope material named by ``spec.material``, loading surfflow's "water" if needed."""
    return load_water_material() if spec.material == WATER_MATERIAL else spec.material
