"""Known answers of the validation cases (VALIDATION.md), as plain numpy functions.

Each function takes positions or coordinates as arrays and returns arrays of the same shape.
Depths are metres along the surface normal, times in seconds, g = 9.81 m/s^2 unless given.
"""

from __future__ import annotations

import numpy as np

G = 9.81


def bump_bottom(x: np.ndarray) -> np.ndarray:
    """The lake-at-rest bump b(x) = max(0, 0.2 - 0.05 (x - 10)^2) of SWASHES/ANUGA, (n,) -> (n,)."""
    return np.maximum(0.0, 0.2 - 0.05 * (x - 10.0) ** 2)


def lake_depth(vertices: np.ndarray, normals: np.ndarray, gravity: np.ndarray,
               level: float) -> np.ndarray:
    """Depth d_i >= 0 along n_i that puts the free-surface point x_i + d_i n_i at height ``level``.

    Height is H = -(g/|g|) . P. Where the surface already stands above the level the vertex is
    dry (d = 0). vertices, normals (n, 3); gravity (3,). Returns (n,).
    """
    up = -np.asarray(gravity, dtype=np.float64) / np.linalg.norm(gravity)
    height = vertices @ up
    rise_per_depth = normals @ up
    with np.errstate(divide="ignore", invalid="ignore"):
        depth = (level - height) / rise_per_depth
    return np.where((height < level) & (rise_per_depth > 0), depth, 0.0)


def ritter_depth(x: np.ndarray, t: float, x0: float, left_depth: float, g: float = G) -> np.ndarray:
    """Ritter's dam break on a dry bed (SWASHES 4.1.2), (n,) -> (n,).

    d = d_l for x < x0 - c t; d = 4/(9g) (c - (x - x0)/(2t))^2 for x0 - c t <= x <= x0 + 2 c t;
    d = 0 beyond, with c = sqrt(g d_l).
    """
    c = np.sqrt(g * left_depth)
    fan = 4.0 / (9.0 * g) * (c - (x - x0) / (2.0 * t)) ** 2
    return np.where(x < x0 - c * t, left_depth, np.where(x <= x0 + 2.0 * c * t, fan, 0.0))


def stoker_middle_depth(left_depth: float, right_depth: float, g: float = G) -> float:
    """The depth h_m between the rarefaction and the bore of Stoker's wet dam break: the root of
    2 (sqrt(g h_l) - sqrt(g h_m)) = (h_m - h_r) sqrt(g (h_m + h_r) / (2 h_m h_r)) (SWASHES 4.1.1),
    by bisection (the left side falls, the right side rises with h_m)."""
    low, high = right_depth, left_depth
    for _ in range(200):
        middle = 0.5 * (low + high)
        rarefaction = 2.0 * (np.sqrt(g * left_depth) - np.sqrt(g * middle))
        bore = (middle - right_depth) * np.sqrt(g * (middle + right_depth) / (2.0 * middle * right_depth))
        low, high = (middle, high) if rarefaction > bore else (low, middle)
    return 0.5 * (low + high)


def stoker_depth(x: np.ndarray, t: float, x0: float, left_depth: float, right_depth: float,
                 g: float = G) -> np.ndarray:
    """Stoker's dam break on a wet bed (SWASHES 4.1.1), (n,) -> (n,): h_l, the rarefaction
    4/(9g) (c_l - (x - x0)/(2t))^2, the middle state h_m, then h_r beyond the bore at
    x0 + s t, s = h_m u_m / (h_m - h_r), u_m = 2 (c_l - c_m)."""
    middle = stoker_middle_depth(left_depth, right_depth, g)
    head, tail = stoker_fan(t, x0, left_depth, right_depth, g)
    shock = stoker_shock(t, x0, left_depth, right_depth, g)
    fan = 4.0 / (9.0 * g) * (np.sqrt(g * left_depth) - (x - x0) / (2.0 * t)) ** 2
    return np.where(x < head, left_depth,
                    np.where(x <= tail, fan, np.where(x <= shock, middle, right_depth)))


def stoker_fan(t: float, x0: float, left_depth: float, right_depth: float,
               g: float = G) -> tuple:
    """The rarefaction's head x0 - c_l t and tail x0 + (u_m - c_m) t (m) of
    :func:`stoker_depth`."""
    middle = stoker_middle_depth(left_depth, right_depth, g)
    c_left, c_middle = np.sqrt(g * left_depth), np.sqrt(g * middle)
    u_middle = 2.0 * (c_left - c_middle)
    return float(x0 - c_left * t), float(x0 + (u_middle - c_middle) * t)


def stoker_shock(t: float, x0: float, left_depth: float, right_depth: float, g: float = G) -> float:
    """The bore's position x0 + s t (m) of :func:`stoker_depth`."""
    middle = stoker_middle_depth(left_depth, right_depth, g)
    u_middle = 2.0 * (np.sqrt(g * left_depth) - np.sqrt(g * middle))
    return float(x0 + t * middle * u_middle / (middle - right_depth))


def bernoulli_depth(energy: float, bottom: float, discharge: float, supercritical: bool,
                    g: float = G) -> float:
    """The depth h with q^2 / (2 g h^2) + h + b = ``energy`` on the sub- or supercritical branch
    (bisection on either side of the critical depth (q^2 / g)^(1/3)); the critical depth where
    the energy is below the branch's minimum."""
    critical = (discharge ** 2 / g) ** (1.0 / 3.0)
    low, high = (1e-9, critical) if supercritical else (critical, 10.0 * energy + critical)
    head = lambda h: discharge ** 2 / (2.0 * g * h * h) + h + bottom - energy  # noqa: E731
    if head(critical) >= 0.0:
        return critical
    for _ in range(200):
        middle = 0.5 * (low + high)
        # the head falls towards the critical depth on both branches
        if (head(middle) > 0.0) == supercritical:
            low = middle
        else:
            high = middle
    return 0.5 * (low + high)


def crest_head(discharge: float = 0.18, g: float = G) -> float:
    """The energy head (m) the bump's crest (b = 0.2 m, ``bump_bottom``) passes a discharge q
    on at its critical depth h_c = (q^2 / g)^(1/3): 1.5 h_c + 0.2."""
    return 1.5 * (discharge ** 2 / g) ** (1.0 / 3.0) + 0.2


def transcritical_bump(x: np.ndarray, discharge: float = 0.18, outflow_depth: float = 0.33,
                       g: float = G) -> tuple[np.ndarray, float]:
    """SWASHES' steady transcritical flow with a hydraulic jump over ``bump_bottom``: subcritical
    upstream at the energy of the critical depth on the crest (x = 10), supercritical downstream
    of it, a jump at x_s back to the subcritical branch of the outflow's energy, where the two
    depths are conjugate (h_2 = h_1 (sqrt(1 + 8 Fr_1^2) - 1) / 2). Returns (depth (n,), x_s)."""
    crest_energy = crest_head(discharge, g)
    outflow_energy = discharge ** 2 / (2.0 * g * outflow_depth ** 2) + outflow_depth

    def jump_mismatch(position: float) -> float:
        b = float(bump_bottom(np.array([position]))[0])
        h1 = bernoulli_depth(crest_energy, b, discharge, True, g)
        h2 = bernoulli_depth(outflow_energy, b, discharge, False, g)
        froude = discharge / np.sqrt(g * h1 ** 3)
        return 0.5 * h1 * (np.sqrt(1.0 + 8.0 * froude ** 2) - 1.0) - h2

    low, high = 10.5, 12.0  # the conjugate depth is above the subcritical one at 10.5, below at 12
    for _ in range(100):
        middle = 0.5 * (low + high)
        low, high = (low, middle) if jump_mismatch(middle) < 0.0 else (middle, high)
    shock = 0.5 * (low + high)
    depth = np.empty_like(x, dtype=np.float64)
    for k, (xk, bk) in enumerate(zip(x, bump_bottom(x))):
        if xk <= 10.0:
            depth[k] = bernoulli_depth(crest_energy, bk, discharge, False, g)
        elif xk < shock:
            depth[k] = bernoulli_depth(crest_energy, bk, discharge, True, g)
        else:
            depth[k] = bernoulli_depth(outflow_energy, bk, discharge, False, g)
    return depth, shock


def thacker_omega(h0: float, a: float, g: float = G) -> float:
    """Angular frequency omega = sqrt(8 g h0) / a of Thacker's radial paraboloid."""
    return float(np.sqrt(8.0 * g * h0) / a)


def thacker_bottom(r: np.ndarray, h0: float, a: float) -> np.ndarray:
    """Paraboloid bottom z = h0 (r^2 / a^2 - 1), (n,) -> (n,)."""
    return h0 * (r ** 2 / a ** 2 - 1.0)


def thacker_free_surface(r: np.ndarray, t: float, h0: float, a: float, r0: float,
                         g: float = G) -> np.ndarray:
    """Thacker's free surface (SWASHES 4.2.2), (n,) -> (n,); meaningful where above the bottom.

    eta = h0 (sqrt(1 - A^2) / (1 - A cos wt) - 1 - r^2/a^2 ((1 - A^2) / (1 - A cos wt)^2 - 1)),
    A = (a^2 - r0^2) / (a^2 + r0^2).
    """
    A = (a ** 2 - r0 ** 2) / (a ** 2 + r0 ** 2)
    q = 1.0 - A * np.cos(thacker_omega(h0, a, g) * t)
    stretch = (1.0 - A ** 2) / q ** 2 - 1.0
    return h0 * (np.sqrt(1.0 - A ** 2) / q - 1.0 - r ** 2 / a ** 2 * stretch)


def thacker_depth(r: np.ndarray, t: float, h0: float, a: float, r0: float,
                  g: float = G) -> np.ndarray:
    """Thacker's depth max(0, eta - z), (n,) -> (n,)."""
    return np.maximum(0.0, thacker_free_surface(r, t, h0, a, r0, g) - thacker_bottom(r, h0, a))


def thacker_radial_velocity(r: np.ndarray, t: float, h0: float, a: float, r0: float,
                            g: float = G) -> np.ndarray:
    """Thacker's radial velocity u = omega r A sin(wt) / (2 (1 - A cos wt)), (n,) -> (n,)."""
    A = (a ** 2 - r0 ** 2) / (a ** 2 + r0 ** 2)
    w = thacker_omega(h0, a, g)
    return w * r * A * np.sin(w * t) / (2.0 * (1.0 - A * np.cos(w * t)))


def nusselt_depth(flux_per_width: float, viscosity: float, angle: float, g: float = G) -> float:
    """Steady laminar film on an incline: d = (3 nu q / (g sin beta))^(1/3) (m)."""
    return float((3.0 * viscosity * flux_per_width / (g * np.sin(angle))) ** (1.0 / 3.0))


def nusselt_flux(depth: float, viscosity: float, angle: float, g: float = G) -> float:
    """Flux per width q = g sin(beta) d^3 / (3 nu) (m^2/s) of a Nusselt film of the given depth."""
    return float(g * np.sin(angle) * depth ** 3 / (3.0 * viscosity))


def draining_film_depth(t: np.ndarray, initial_depth: float, viscosity: float, radius: float,
                        g: float = G) -> np.ndarray:
    """Film depth at the top of a sphere, d = (d0^-2 + 4 g t / (3 nu R))^(-1/2) (Takagi and
    Huppert), t scalar or (k,)."""
    return (initial_depth ** -2 + 4.0 * g * np.asarray(t) / (3.0 * viscosity * radius)) ** -0.5


def gaussian_hump(x: np.ndarray, center: float, amplitude: float, width: float) -> np.ndarray:
    """a exp(-(x - x_c)^2 / (2 sigma^2)), (n,) -> (n,)."""
    return amplitude * np.exp(-0.5 * ((x - center) / width) ** 2)


def linear_wave_surface(x: np.ndarray, t: float, center: float, amplitude: float, width: float,
                        still_depth: float, g: float = G) -> np.ndarray:
    """Linear 1D answer to a Gaussian hump released from rest: two halves moving at
    +-sqrt(g d0) (d'Alembert), surface perturbation (n,) -> (n,)."""
    c = np.sqrt(g * still_depth)
    return 0.5 * (gaussian_hump(x - c * t, center, amplitude, width)
                  + gaussian_hump(x + c * t, center, amplitude, width))
