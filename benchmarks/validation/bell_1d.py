"""The smooth dye bell's row in 1D, for linear schemes with no limiter: how much of a bell,
carried 49 cells at Courant number 0.368 (the strip's, tests/dye_cases.py), each keeps, as its
peak ratio and its shape's relative L1 error (VALIDATION.md's metric; targets >= 0.95 and
<= 0.05).

    python benchmarks/validation/bell_1d.py

Two bells: the test suite's Gaussian of sigma 2.5 cells (tests/dye_cases.py), and VALIDATION.md's
"5-cell cosine bell" read as c = (1 + cos(pi r / R)) / 2 for r < R = 5 cells (its half-maximum
width is 5 cells, that of a Gaussian of sigma 2.1). Five schemes on a periodic line of 300
cells: Fromm's (MUSCL-Hancock with the centred slope: the dyes' reconstruction with phi = 1),
Leonard's QUICKEST (third order in space and time), the fifth- and seventh-order upwind-biased
fluxes with the SSP Runge-Kutta 3 steps, and Yabe's CIP (the cubic Hermite profile of the value
and its slope, both carried along the characteristic: not conservative, but the least
dissipative compact scheme). The table it prints shows which order of accuracy each bell's
targets ask for.
"""

import numpy as np

TRAVEL, COURANT, CELLS, START = 49, 0.368, 300, 40.0
SIGMA = 2.5  # the Gaussian's, in cells
RADIUS = 5.0  # the cosine bell's, in cells


def fromm(c, nu):
    face = c + 0.25 * (np.roll(c, -1) - np.roll(c, 1)) * (1.0 - nu)
    return c - nu * (face - np.roll(face, 1))


def quickest(c, nu):
    right, left = np.roll(c, -1), np.roll(c, 1)
    face = 0.5 * (c + right) - 0.5 * nu * (right - c) - (1.0 - nu * nu) / 6.0 * (right - 2.0 * c + left)
    return c - nu * (face - np.roll(face, 1))


def ssp_rk3(rate, c, nu):
    """One step of the SSP Runge-Kutta 3 steps of dc/dt = rate(c), at Courant number nu."""
    first = c + nu * rate(c)
    second = 0.75 * c + 0.25 * (first + nu * rate(first))
    return c / 3.0 + 2.0 / 3.0 * (second + nu * rate(second))


def fifth_order(c, nu):
    def rate(v):
        face = (2 * np.roll(v, 2) - 13 * np.roll(v, 1) + 47 * v + 27 * np.roll(v, -1)
                - 3 * np.roll(v, -2)) / 60.0
        return -(face - np.roll(face, 1))

    return ssp_rk3(rate, c, nu)


def seventh_order(c, nu):
    def rate(v):
        face = (-3 * np.roll(v, 3) + 25 * np.roll(v, 2) - 101 * np.roll(v, 1) + 319 * v
                + 214 * np.roll(v, -1) - 38 * np.roll(v, -2) + 4 * np.roll(v, -3)) / 420.0
        return -(face - np.roll(face, 1))

    return ssp_rk3(rate, c, nu)


def cip(state, nu):
    """Yabe's CIP step on state (2, cells) = (c, dc/dx): the cubic through c and its slope at
    the cell and its upwind neighbour (one cell back), evaluated at the departure point x - nu."""
    c, slope = state
    upwind, upwind_slope = np.roll(c, 1), np.roll(slope, 1)
    cubic = (slope + upwind_slope) - 2.0 * (c - upwind)
    square = 3.0 * (upwind - c) + (2.0 * slope + upwind_slope)
    xi = -nu
    return np.stack([((cubic * xi + square) * xi + slope) * xi + c,
                     (3.0 * cubic * xi + 2.0 * square) * xi + slope])


def gaussian(r):
    return np.exp(-r ** 2 / (2 * SIGMA ** 2))


def cosine_bell(r):
    return np.where(np.abs(r) < RADIUS, 0.5 * (1.0 + np.cos(np.pi * r / RADIUS)), 0.0)


def carried(step, bell) -> tuple[float, float]:
    """(peak ratio, shape's relative L1 error) of ``bell`` (a function of the distance from its
    centre, in cells) carried by ``step``."""
    x = np.arange(CELLS, dtype=float)
    steps = int(round(TRAVEL / COURANT))
    nu = TRAVEL / steps
    c = bell(x - START)
    if step is cip:
        h = 1e-6
        c = np.stack([c, (bell(x - START + h) - bell(x - START - h)) / (2.0 * h)])
    for _ in range(steps):
        c = step(c, nu)
    c = c[0] if step is cip else c
    exact = bell(x - START - TRAVEL)
    return c.max() / exact.max(), np.abs(c - exact).sum() / exact.sum()


if __name__ == "__main__":
    print(f"{'bell':30s} {'scheme':14s} {'peak':>6s} {'shape rel. L1':>14s}")
    for label, bell in ((f"Gaussian, sigma {SIGMA} cells", gaussian),
                        (f"cosine bell, radius {RADIUS} cells", cosine_bell)):
        for name, step in (("Fromm", fromm), ("QUICKEST", quickest), ("fifth order", fifth_order),
                           ("seventh order", seventh_order), ("CIP", cip)):
            peak, shape = carried(step, bell)
            print(f"{label:30s} {name:14s} {peak:6.3f} {shape:14.3f}")
