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
DYE_DEPTH = 5e-5
"""depth (m) of fully dyed liquid that passes its dye's colour (Beer-Lambert): thinner films tint less."""
MIN_TRANSMITTANCE = 0.02
"""the least share of a channel a dye's colour passes through DYE_DEPTH (a black dye absorbs finitely)."""
SMOOTHING_PASSES = 1
SETTLE_TIME = 0.03
"""seconds over which the drawn film follows the liquid's depth (a frame at 30 fps)."""
SHUTTER = 1.0 / 60.0
"""seconds of motion a droplet's streak shows (half a frame at 30 fps, a film camera's shutter)."""
FLICKER_NOISE = 2.0
"""changes of images (grey levels of 255) too small to count in :func:`flicker`."""


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


def wet_object_colors(object_color, wetness: np.ndarray, transmitted: np.ndarray | None = None) -> np.ndarray:
    """(n, 3) object colours darkened where wet and seen through the film: colour
    (1 - WET_DARKENING w) T^2, T (n, 3) the film's transmittance (light crosses it down to the
    object and back; none: clear)."""
    colors = np.outer(1.0 - WET_DARKENING * wetness, object_color)
    return colors if transmitted is None else colors * transmitted ** 2


def wetness_target(thickness: np.ndarray, min_depth: float) -> np.ndarray:
    """(n,) wetness in [0, 1] of drawn thicknesses (n,): the smoothstep of h / (FADE_DEPTHS d_min)."""
    x = np.clip(thickness / (FADE_DEPTHS * min_depth), 0.0, 1.0)
    return x * x * (3.0 - 2.0 * x)


def dye_absorbance(dye_colors) -> np.ndarray:
    """(k, 3) absorbance per metre of each dye at full concentration, -ln(colour_k) / DYE_DEPTH:
    a fully dyed layer DYE_DEPTH deep passes colour_k of each channel (Beer-Lambert)."""
    colors = np.asarray(dye_colors, dtype=np.float64).reshape(-1, 3)
    return -np.log(np.clip(colors, MIN_TRANSMITTANCE, 1.0)) / DYE_DEPTH


def liquid_absorbance(liquid_color, opacity_depth: float) -> np.ndarray:
    """(1, 3) absorbance per metre of the liquid itself, -ln(colour) / opacity_depth: it takes its
    own colour over the depth where its preset turns opaque (clear films of water, paint at once)."""
    color = np.clip(np.asarray(liquid_color, dtype=np.float64), MIN_TRANSMITTANCE, 1.0)
    return -np.log(color).reshape(1, 3) / opacity_depth


def transmittance(dye_amount: np.ndarray, absorbance: np.ndarray) -> np.ndarray:
    """(n, 3) the share of each channel that crosses a film once, exp(-sum_k a_k c_k d), for the
    dye amounts c_k d (n, k) (m: concentration times depth) and absorbances a (k, 3) (1/m)."""
    return np.exp(-np.asarray(dye_amount, dtype=np.float64) @ absorbance)


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
            means = np.empty_like(field)
            for column in range(field.shape[1]):
                means[:, column] = self(field[:, column])
            return means
        return np.bincount(self.rows, weights=self.weights * field[self.cols], minlength=self.n_vertices)

    def smoothed(self, field: np.ndarray) -> np.ndarray:
        """``field`` (n,) or (n, c) averaged over about a two-ring: SMOOTHING_PASSES times
        f <- (f + mean_ring f) / 2 (sums over the mesh's vertices kept on a regular mesh)."""
        for _ in range(SMOOTHING_PASSES):
            field = 0.5 * (field + self(field))
        return field


class DisplayedFilm:
    """What is drawn of the film on the triangles ``faces`` (m, 3): its thickness, dye amounts
    and wetness per vertex, which follow the liquid without blinking (the module docstring)."""

    def __init__(self, faces: np.ndarray, n_vertices: int, dry_time: float):
        self.dry_time = dry_time
        self.ring_mean = RingMean(faces, n_vertices)
        self.wetness = np.zeros(n_vertices)
        self.thickness = np.zeros(n_vertices)
        self.dye_amount = np.zeros((n_vertices, 0))
        self.time: float | None = None

    def update(self, depth: np.ndarray, dye: np.ndarray, min_depth: float, time: float | None) -> None:
        """Follow depth (n,) and dye concentrations (n, k) at simulated ``time``: sets
        ``thickness`` (n,), ``dye_amount`` (n, k) and ``wetness`` (n,); a time that goes back (a
        reset) or None (a single picture) starts afresh."""
        depth = np.maximum(np.asarray(depth, dtype=np.float64), 0.0)
        thickness = self.ring_mean.smoothed(depth)
        dye_amount = self.ring_mean.smoothed(np.clip(dye, 0.0, 1.0) * depth[:, None])
        fresh = (self.time is None or time is None or time < self.time
                 or self.dye_amount.shape != dye_amount.shape)
        if not fresh:
            keep = np.exp(-(time - self.time) / SETTLE_TIME)
            thickness = thickness + keep * (self.thickness - thickness)
            dye_amount = dye_amount + keep * (self.dye_amount - dye_amount)
        target = wetness_target(thickness, min_depth)
        if fresh or self.dry_time == 0.0:
            self.wetness = target
        else:
            self.wetness = np.maximum(target, self.wetness - (time - self.time) / self.dry_time)
        self.thickness, self.dye_amount, self.time = thickness, dye_amount, time


def droplet_radii(volumes) -> np.ndarray:
    """(p,) radii (3 V / 4 pi)^(1/3) of spheres of the volumes (p,)."""
    return np.cbrt(0.75 * np.asarray(volumes, dtype=np.float64) / np.pi)


def streaks(positions, velocities, shutter: float = SHUTTER, samples: int = 2) -> np.ndarray:
    """(p, samples, 3) points along the streaks of droplets at positions (p, 3) moving at
    velocities (p, 3): from the tail x - u shutter to the head x, evenly."""
    heads = np.asarray(positions, dtype=np.float64).reshape(-1, 1, 3)
    back = np.linspace(1.0, 0.0, samples).reshape(1, -1, 1)
    return heads - back * shutter * np.asarray(velocities, dtype=np.float64).reshape(-1, 1, 3)


def flicker(frames) -> float:
    """The share of frame-to-frame change that is blinking rather than motion, in a sequence of
    images (t, h, w) or (t, h, w, c).

    Per pixel (and channel), with the changes a = I_t - I_{t-1} and b = I_{t+1} - I_t, the part
    of the change that comes back within a frame, min(|a|, |b|) where a and b have opposite signs,
    is blinking; the net change over the two frames, |I_{t+1} - I_{t-1}|, is motion:

        flicker = sum blinking / sum motion,

    0 for a steady motion or fade, large for a pixel that goes on and off. Changes of at most
    ``FLICKER_NOISE`` (grey levels of 255) count as neither (the PNGs' rounding).
    """
    images = np.asarray(frames, dtype=np.float64)
    before, after = np.diff(images[:-1], axis=0), np.diff(images[1:], axis=0)
    before[np.abs(before) <= FLICKER_NOISE] = 0.0
    after[np.abs(after) <= FLICKER_NOISE] = 0.0
    back = np.where(before * after < 0.0, np.minimum(np.abs(before), np.abs(after)), 0.0)
    net = np.abs(images[2:] - images[:-2])
    net[net <= FLICKER_NOISE] = 0.0
    return float(back.sum() / max(net.sum(), 1.0))
