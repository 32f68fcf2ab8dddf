"""How the liquid and the object look, in every renderer: colours, dye mixing, opacity from
depth, the wet/dry fade. Pure numpy; the polyscope viewer (``viewer/``), the USD writer
(``io/usd.py``) and Blender (``blender/``) all take their look from here.

Colours. The object is OBJECT_COLOR; the liquid's colour with its dyes mixed in is

    rgb = sum_k c_k colour_k + (1 - sum_k c_k) liquid colour          (dye_mix)

for the (n, k) dye concentrations c.

Opacity from depth. Two curves, one per kind of renderer (they differ in shape, and each is what
its renderer has always shown):

- on screen (polyscope, ``display_opacity``): with the displayed wetness w (below) and the
  liquid's optical thickness s = 1 - exp(-d / tint_depth),

      alpha = w (FILM_OPACITY + (opacity - FILM_OPACITY) s),

  so a thin film is a partly transparent glossy layer and deep pools are denser;
- in exported and path-traced frames (USD's ``displayOpacity``, Blender, ``liquid_opacity``):

      alpha = max(1 - exp(-d / opacity_depth), MIN_OPACITY) where wet, 0 where dry,

  opacity_depth being OPACITY_DEPTH (2 mm), or that of OPAQUE_DEPTHS for the liquid presets that
  hide what is under them (paint, milk). Blender keeps a dyed film at least DYE_OPACITY times
  its dye concentration opaque (``dye_opacity``): a pigment shows even in a thin film, and tints
  the glass with the liquid's colour squared (``seen_through_film``).

To make thin films clearer: lower FILM_OPACITY (screen) or MIN_OPACITY (exported, path traced).

The wet/dry fade (screen). Every vertex gets a displayed wetness w in [0, 1]. The depth d fades
in over a few min_depth,

    target = clip(d / (FADE_DEPTHS d_min), 0, 1)

(the residual film a dry vertex keeps, d < d_min, still looks damp), raised to the mean target of
its one-ring neighbours where that is higher (a real film shows no hole one vertex wide; such a
vertex keeps the colour of its wet neighbours, or its last one, since a dry vertex has no dyes).
A drying vertex fades out over ``dry_time`` seconds instead of vanishing at once,

    w(t) = max(target(t), w(t - dt) - dt / dry_time),

so a vertex whose depth crosses d_min every other frame stays shown rather than blinking. The
depth d' that shades a film is averaged with its one-ring mean (a film whose depth alternates
from vertex to vertex is shown evenly, not mottled), and its colour is

    rgb = base sqrt(s) (1 - DEEP_DARKENING s),

base being the liquid's colour with the dyes mixed in: the colour comes in as the film thickens,
deep pools are darker. The object itself is darkened by WET_DARKENING w.
"""

from __future__ import annotations

import numpy as np

OBJECT_COLOR = (0.78, 0.76, 0.72)
FADE_DEPTHS = 2.0
FILM_OPACITY = 0.4
DEEP_DARKENING = 0.3
WET_DARKENING = 0.2
OPACITY_DEPTH = 2e-3
MIN_OPACITY = 0.15
OPAQUE_DEPTHS = {"paint": 5e-5, "milk": 1e-4}
"""opacity_depth (m) of the liquid presets that hide what is under them; the rest: OPACITY_DEPTH."""
DYE_OPACITY = 0.6
"""the least alpha of fully dyed liquid (Blender): a pigment shows even in a thin film."""


def dye_mix(dye: np.ndarray, dye_colors, liquid_color) -> np.ndarray:
    """(n, 3) colours: sum_k c_k colour_k + (1 - sum_k c_k) liquid colour, c the (n, k) dyes."""
    dye = np.clip(np.asarray(dye, dtype=np.float64), 0.0, 1.0)
    rgb = np.tile(np.asarray(liquid_color, dtype=np.float64), (len(dye), 1))
    if dye.shape[1]:
        total = np.minimum(dye.sum(axis=1), 1.0)
        rgb = rgb * (1.0 - total)[:, None] + dye @ np.asarray(dye_colors, dtype=np.float64)
    return np.clip(rgb, 0.0, 1.0)


def preset_opacity_depth(liquid: str) -> float:
    """The depth (m) over which the named liquid preset turns opaque in exported frames."""
    return OPAQUE_DEPTHS.get(liquid, OPACITY_DEPTH)


def liquid_opacity(depth: np.ndarray, wet: np.ndarray, opacity_depth: float = OPACITY_DEPTH,
                   min_opacity: float = MIN_OPACITY) -> np.ndarray:
    """(n,) opacity of exported frames for depth (n,): thin films clear, deep pools opaque,
    ``wet`` (n,) False vertices 0."""
    opaque = 1.0 - np.exp(-depth / opacity_depth)
    return np.where(wet, np.maximum(opaque, min_opacity), 0.0)


def dye_opacity(dye: np.ndarray, wet: np.ndarray) -> np.ndarray:
    """(n,) the least opacity of a film dyed with concentrations dye (n, k): DYE_OPACITY sum_k c_k
    (at most DYE_OPACITY), 0 where not ``wet`` (n,)."""
    return DYE_OPACITY * np.minimum(dye.sum(axis=1), 1.0) * wet


def seen_through_film(colors: np.ndarray) -> np.ndarray:
    """(n, 3) the tint of a film of colours (n, 3) on light that crosses it twice, down to the
    object and back (path-traced renders): rgb^2."""
    return colors ** 2


def thickness(depth: np.ndarray, tint_depth: float) -> np.ndarray:
    """(n,) optical thickness s = 1 - exp(-d / tint_depth) in [0, 1)."""
    return -np.expm1(-np.maximum(depth, 0.0) / tint_depth)


def display_opacity(wetness: np.ndarray, depth: np.ndarray, tint_depth: float,
                    opacity: float) -> np.ndarray:
    """(n,) on-screen alpha = w (FILM_OPACITY + (opacity - FILM_OPACITY) s)."""
    film = min(FILM_OPACITY, opacity)
    return wetness * (film + (opacity - film) * thickness(depth, tint_depth))


def depth_tint(colors: np.ndarray, depth: np.ndarray, tint_depth: float) -> np.ndarray:
    """(n, 3) colours (n, 3) of a film of the given depths: rgb sqrt(s) (1 - DEEP_DARKENING s)."""
    s = thickness(depth, tint_depth)
    return colors * (np.sqrt(s) * (1.0 - DEEP_DARKENING * s))[:, None]


def wet_object_colors(object_color, wetness: np.ndarray) -> np.ndarray:
    """(n, 3) object colours darkened where wet: colour (1 - WET_DARKENING w)."""
    return np.outer(1.0 - WET_DARKENING * wetness, object_color)


def wetness_target(depth: np.ndarray, min_depth: float) -> np.ndarray:
    """(n,) wetness in [0, 1] of depths (n,): d / (FADE_DEPTHS d_min), at most 1."""
    return np.clip(depth / (FADE_DEPTHS * min_depth), 0.0, 1.0)


class RingMean:
    """The mean of a vertex field over each vertex's one-ring neighbours, for triangles ``faces``
    (m, 3) on ``n_vertices`` vertices: ``ring_mean(field)`` of a field (n,) or (n, c) is (n,) or
    (n, c), sum_j f_j / degree over each vertex's neighbours j (0 at a vertex without any)."""

    def __init__(self, faces: np.ndarray, n_vertices: int):
        faces = np.asarray(faces, dtype=np.int64)
        rows = faces[:, [0, 1, 2, 1, 2, 0]].ravel()
        cols = faces[:, [1, 2, 0, 0, 1, 2]].ravel()
        edges = np.unique(rows * n_vertices + cols)  # sorted by (row, column); shared edges once
        self.rows, self.cols = np.divmod(edges, n_vertices)
        self.n_vertices = n_vertices
        degree = np.maximum(np.bincount(self.rows, minlength=n_vertices).astype(np.float64), 1.0)
        self.weights = (1.0 / degree)[self.rows]

    def __call__(self, field: np.ndarray) -> np.ndarray:
        field = np.asarray(field, dtype=np.float64)
        if field.ndim == 2:
            return np.column_stack([self(column) for column in field.T])
        return np.bincount(self.rows, weights=self.weights * field[self.cols], minlength=self.n_vertices)


class DisplayWetness:
    """The displayed wetness of the vertices of triangles ``faces`` (m, 3), held while drying
    (see the module docstring)."""

    def __init__(self, faces: np.ndarray, n_vertices: int, dry_time: float):
        self.dry_time = dry_time
        self.ring_mean = RingMean(faces, n_vertices)
        self.wetness = np.zeros(n_vertices)
        self.colors: np.ndarray | None = None
        self.time: float | None = None

    def update(self, depth: np.ndarray, min_depth: float, time: float) -> np.ndarray:
        """The wetness (n,) at simulated ``time`` for ``depth`` (n,); a time that goes back
        (a reset) starts afresh."""
        target = wetness_target(depth, min_depth)
        target = np.maximum(target, self.ring_mean(target))
        if self.time is None or time < self.time or self.dry_time == 0.0:
            self.wetness = target
        else:
            self.wetness = np.maximum(target, self.wetness - (time - self.time) / self.dry_time)
        self.time = time
        return self.wetness

    def smoothed(self, field: np.ndarray) -> np.ndarray:
        """(n,) ``field`` (n,) averaged with the mean of its one-ring: (f + mean_ring f) / 2."""
        return 0.5 * (field + self.ring_mean(field))

    def hold_colors(self, colors: np.ndarray, depth: np.ndarray, min_depth: float) -> np.ndarray:
        """(n, 3) colours to show: ``colors`` (n, 3) where wet; where dry (and perhaps still
        shown), the mean colour of the wet neighbours, else the colour shown last."""
        wet = (depth >= min_depth).astype(np.float64)
        wet_share = self.ring_mean(wet)
        from_neighbours = self.ring_mean(colors * wet[:, None]) / np.maximum(wet_share, 1e-12)[:, None]
        last = colors if self.colors is None else self.colors
        self.colors = np.where(wet[:, None] > 0.0, colors,
                               np.where(wet_share[:, None] > 0.0, from_neighbours, last))
        return self.colors
