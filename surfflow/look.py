"""How the liquid and the object look, in every renderer: the drawn film, dyes as absorption,
opacity from depth, the wet/dry fade, droplets' streaks, and a measure of blinking. Pure numpy;
the polyscope viewer (``viewer/``), the USD writer (``io/usd.py``) and Blender (``blender/``) all
take their look from here.

The drawn film (``DisplayedFilm``, both renderers). A film's depth changes by a third from frame
to frame at a vertex, back and forth, while its mean over a few vertices drains smoothly; drawn
as is, it blinks (and single-vertex beads show as speckles). What is drawn is the film over
about a two-ring: with S f = (f + mean_ring f) / 2 (``RingMean``), the reach r = S d of the
depth d, the thickness h = S S d and the dye amounts m_k = S S (c_k d) (concentration times
depth), each followed over SETTLE_TIME (a frame) rather than jumped to,
h <- h_new + exp(-dt / SETTLE_TIME) (h_old - h_new). Every vertex gets a displayed wetness w in
[0, 1] that fades in with the reach over a few min_depth (the film shown spreads at most one
ring past the liquid),

    target = smoothstep(r / (FADE_DEPTHS d_min)),

(a residual film, h < d_min, still looks damp; a dry vertex inside a film is drawn wet) and out
over ``dry_time`` seconds, w(t) = max(target(t), w(t - dt) - dt / dry_time). What is drawn
follows the liquid within a frame and never blinks at min_depth.

Dyes tint the water (Beer-Lambert). Dye k of colour colour_k absorbs a_k = -ln(colour_k) /
DYE_DEPTH per metre in each channel (``dye_absorbance``): a film passes

    T = exp(-sum_k a_k m_k)                                        (transmittance)

of each channel once, so a fully dyed film DYE_DEPTH deep passes the dye's colour, a thinner
one less of a tint; the object seen through it takes T^2 (down and back), keeping its own
shading and hue under a thin film. In Blender T is the glass's colour (the liquid's own colour
absorbs too, over its preset's opacity depth, ``liquid_absorbance``); in polyscope the object is
drawn in its colour (the asset's texture, if it has one) times (1 - WET_DARKENING w) T^2
(``wet_object_colors``) under the film, w the wetness.

Opacity from depth. On screen (polyscope, ``display_opacity``) the film over the object has,
with the optical thickness s = 1 - exp(-h / tint_depth),

    alpha = w (FILM_OPACITY + (opacity - FILM_OPACITY) s),    rgb = base sqrt(s) (1 - DEEP_DARKENING s),

base being the liquid's colour with the drawn concentrations m_k / h of its dyes mixed in
(``dye_mix``, below; a deep dyed pool looks its dye's colour): a thin film is a partly transparent glossy layer, deep
pools denser and darker. Exported frames (USD's ``displayOpacity``, ``liquid_opacity``) use

    alpha = max(1 - exp(-d / opacity_depth), MIN_OPACITY) where wet, 0 where dry,

opacity_depth being OPACITY_DEPTH (2 mm), or that of OPAQUE_DEPTHS for the liquid presets that
hide what is under them (paint, milk); their colour mixes the dyes in (``dye_mix``),
sum_k c_k colour_k + (1 - sum_k c_k) liquid colour. Blender's glass has alpha w: it is as
clear as its tint.

Droplets. A droplet of volume V is a sphere of radius (3 V / 4 pi)^(1/3) (``droplet_radii``)
drawn along its streak, from x - u SHUTTER to x (``streaks``): a camera's half-frame exposure,
so a falling stream reads as a stream, not as specks.

Blinking (``flicker``): the share of frame-to-frame change in a run of pictures that comes back
the next frame rather than staying (motion).
"""

from __future__ import annotations

import numpy as np

OBJECT_COLOR = (0.78, 0.76, 0.72)
FADE_DEPTHS = 2.0
FILM_OPACITY = 0.4
DEEP_DARKENING = 0.3
WET_DARKENING = 0.35
"""share of its colour a wet surface loses (w = 1): colour (1 - WET_DARKENING w). A water film
(n = 1.33) over a rough surface lets out only the light inside its 49 degree critical cone and
reflects the rest back down for more absorption (Lekner & Dorf 1988, "Why some things are darker
when wet", Appl. Opt. 27, 1278): a surface of moderate albedo reflects about 0.6 to 0.7 of its
dry light when wet."""
OPACITY_DEPTH = 2e-3
MIN_OPACITY = 0.15
OPAQUE_DEPTHS = {"paint": 5e-5, "milk": 1e-4}
"""opacity_depth (m) of the liquid presets that hide what is under them; the rest: OPACITY_DEPTH."""
DYE_DEPTH = 1e-4
"""depth (m) of fully dyed liquid that passes its dye's colour (Beer-Lambert): thinner films tint less."""
MIN_TRANSMITTANCE = 0.02
"""the least share of a channel a dye's colour passes through DYE_DEPTH (a black dye absorbs finitely)."""
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
        """``field`` (n,) or (n, c) averaged with the mean of its one-ring, (f + mean_ring f) / 2."""
        return 0.5 * (field + self(field))


class DisplayedFilm:
    """What is drawn of the film on the triangles ``faces`` (m, 3): its thickness, dye amounts
    and wetness per vertex, which follow the liquid without blinking (the module docstring)."""

    def __init__(self, faces: np.ndarray, n_vertices: int, dry_time: float):
        self.dry_time = dry_time
        self.ring_mean = RingMean(faces, n_vertices)
        self.wetness = np.zeros(n_vertices)
        self.thickness = np.zeros(n_vertices)
        self.reach = np.zeros(n_vertices)
        self.dye_amount = np.zeros((n_vertices, 0))
        self.time: float | None = None

    def update(self, depth: np.ndarray, dye: np.ndarray, min_depth: float, time: float | None) -> None:
        """Follow depth (n,) and dye concentrations (n, k) at simulated ``time``: sets
        ``thickness`` (n,), ``dye_amount`` (n, k) and ``wetness`` (n,); a time that goes back (a
        reset) or None (a single picture) starts afresh."""
        depth = np.maximum(np.asarray(depth, dtype=np.float64), 0.0)
        smoothed = self.ring_mean.smoothed
        reach = smoothed(depth)
        thickness = smoothed(reach)
        dye_amount = smoothed(smoothed(np.clip(dye, 0.0, 1.0) * depth[:, None]))
        fresh = (self.time is None or time is None or time < self.time
                 or self.dye_amount.shape != dye_amount.shape)
        if not fresh:
            keep = np.exp(-(time - self.time) / SETTLE_TIME)
            reach = reach + keep * (self.reach - reach)
            thickness = thickness + keep * (self.thickness - thickness)
            dye_amount = dye_amount + keep * (self.dye_amount - dye_amount)
        self.reach = reach
        target = wetness_target(reach, min_depth)
        if fresh or self.dry_time == 0.0:
            self.wetness = target
        else:
            self.wetness = np.maximum(target, self.wetness - (time - self.time) / self.dry_time)
        self.thickness, self.dye_amount, self.time = thickness, dye_amount, time

    def concentration(self) -> np.ndarray:
        """(n, k) the drawn dye concentrations m_k / h (0 where nothing is drawn)."""
        return self.dye_amount / np.maximum(self.thickness, 1e-300)[:, None]


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
