"""Where liquid cannot stay on the film (SPEC §8): a pendant film thicker than surface tension
holds, and liquid that runs over a free edge. ``docs/guide/droplets.md`` gives the derivation.

With e = -g / |g| "up" and n_i the vertex normal, the gravity component pulling the film off
the surface is g_n,i = -|g| (e . n_i). Where g_n,i <= 0 (a face turned towards gravity, or a
vertical one) gravity presses the film onto the surface and nothing ever sheds, whatever the
depth. Where g_n,i > 0 the film hangs; a pendant drop of radius R (a spherical cap no deeper
than a hemisphere: deeper, it necks and pinches off) is held while its Laplace pressure 2 sigma
/ R balances the hydrostatic head across it, rho g_n R, so the deepest film a face can hold is

    h_p,i = sqrt(2 sigma / (rho max(g_n,i, |g| / 4)))  = sqrt(2) l_c / sqrt(max(cos psi, 1/4))

(l_c = sqrt(sigma / (rho |g|)) the capillary length, psi the angle between the normal and
gravity). The floor |g| / 4 bounds h_p at twice its value under a horizontal plate on faces
within 14.5 degrees of vertical, where a film runs down rather than hangs (a bound chosen, not
derived).

A cell wider than a drop holds drops, not a film h_p deep over all of it: a pendant film is
unstable (Rayleigh-Taylor) to every wavelength longer than lambda = 2 pi l_n,
l_n = sqrt(sigma / (rho g_n)) = h_p / sqrt(2), and gathers into drops, the largest a hemisphere
of radius h_p (volume 2 pi h_p^3 / 3), at least one to a cell and one to each lambda^2 of it,
hanging from the film a drip leaves (``keep_depth``, eps2). So the cell of area A_i holds at
most

    h_c,i = min(h_p, eps2 + 2 pi h_p^3 / (3 A_i) max(1, A_i / lambda^2))
          = min(h_p, eps2 + h_p max(2 pi h_p^2 / (3 A_i), 1 / (3 pi)))

deep on average: h_p on cells narrower than about 5.5 mm under a horizontal plate of water,
eps2 + h_p / (3 pi) = eps2 + 0.41 mm on cells wider than lambda = 17 mm. Deeper liquid leaves
down to eps2: as droplets when the simulation has them (``coupling.py``), otherwise it drips
out of the scene and is booked as ``dripped``
(:class:`Dripping`). sigma is the simulation's surface tension, or water's 0.072 N/m where it is
0 (tension off in the film's momentum does not make a pendant drop of water hold more).
"""

from __future__ import annotations

import numpy as np

from ..config import WATER_SURFACE_TENSION
from ..kernels._jit import serial_kernel
from ..terms.base import Term, Volumes

LEAST_NORMAL_PULL = 0.25
"""The floor on g_n / |g| in the pendant rule: h_p is at most twice its value under a plate."""


def shedding_sigma(params) -> float:
    """sigma (N/m) of the pendant rule: the simulation's, or water's where it is 0."""
    return params.surface_tension if params.surface_tension > 0.0 else WATER_SURFACE_TENSION


def pendant_depth(normal_rise, params, dual_areas=None) -> np.ndarray:
    """h_p (n,) in m, the deepest film each vertex holds (inf where the surface faces towards
    gravity or is vertical); normal_rise (n,) = e . n_i, e = -g / |g|. With the cells' areas
    dual_areas (n,) m^2, what each cell holds, h_c,i (module docstring).

    >>> import numpy as np, surfflow as sf
    >>> from surfflow.particles.shedding import pendant_depth
    >>> h = pendant_depth(np.array([1.0, 0.0, -1.0]), sf.Params(gravity=(0, 0, -9.81)))
    >>> h[0], h[1], round(float(h[2]) * 1e3, 3)   # mm of water under a horizontal plate
    (inf, inf, 3.831)
    """
    g = params.gravity_magnitude
    pull = -np.asarray(normal_rise, dtype=np.float64)
    depth = np.full(pull.shape, np.inf)
    hanging = pull > 0.0
    if g > 0.0:
        held = np.maximum(pull[hanging], LEAST_NORMAL_PULL) * g
        depth[hanging] = np.sqrt(2.0 * shedding_sigma(params) / (params.density * held))
    if dual_areas is not None:
        h = depth[hanging]
        area = np.asarray(dual_areas, dtype=np.float64)[hanging]
        drops = h * np.maximum(2.0 * np.pi * h * h / (3.0 * area), 1.0 / (3.0 * np.pi))
        depth[hanging] = np.minimum(h, params.keep_depth + drops)
    return depth


def up_direction(params) -> np.ndarray:
    """e = -g / |g| (zero without gravity)."""
    gravity = np.asarray(params.gravity, dtype=np.float64)
    magnitude = float(np.linalg.norm(gravity))
    return -gravity / magnitude if magnitude > 0.0 else np.zeros(3)


class Dripping(Term):
    """The shedding of a simulation without droplets: where the film is deeper than h_p (module
    docstring) the excess over ``keep_depth`` drips out of the scene, booked as ``dripped``."""

    name = "dripping"
    stages = ("exchange",)

    def __init__(self, geom, params):
        self.params = params
        self.use_geometry(geom)

    def use_geometry(self, geom) -> None:
        self.geometry = geom
        self.threshold = pendant_depth(geom.normals @ up_direction(self.params), self.params,
                                       geom.dual_areas)

    def exchange(self, geom, state, dt: float) -> Volumes:
        """Cut every vertex deeper than its h_p to keep_depth; returns the volume dripped."""
        return {"dripped": drip(state.depth, geom.dual_areas, self.threshold,
                                self.params.keep_depth)}


@serial_kernel
def drip(depth, dual_areas, threshold, keep_depth):
    """d_i = keep_depth where d_i > threshold_i; returns sum (d_i - keep_depth) A_i (m^3)."""
    dripped = 0.0
    for i in range(depth.shape[0]):
        if depth[i] > threshold[i]:
            dripped += (depth[i] - keep_depth) * dual_areas[i]
            depth[i] = keep_depth
    return dripped
