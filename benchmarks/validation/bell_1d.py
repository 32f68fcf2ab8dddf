"""The smooth dye bell's row in 1D, for linear schemes with no limiter: how much of a Gaussian of
sigma 2.5 cells, carried 49 cells at Courant number 0.368 (the strip's, tests/dye_cases.py),
each keeps, as its peak ratio and its shape's relative L1 error (VALIDATION.md's metric).

    python benchmarks/validation/bell_1d.py

Fromm's scheme (MUSCL-Hancock with the centred slope: the dyes' reconstruction with phi = 1),
Leonard's QUICKEST (third order in space and time) and the fifth-order upwind-biased flux with
the SSP Runge-Kutta 3 steps, on a periodic line of 300 cells. Measured: Fromm 0.88 / 0.14,
QUICKEST 0.88 / 0.13, fifth order 0.97 / 0.037: the row's targets (>= 0.95, <= 0.05) ask
for the fifth.
"""

import numpy as np

SIGMA, TRAVEL, COURANT, CELLS, START = 2.5, 49, 0.368, 300, 40.0


def fromm(c, nu):
    face = c + 0.25 * (np.roll(c, -1) - np.roll(c, 1)) * (1.0 - nu)
    return c - nu * (face - np.roll(face, 1))


def quickest(c, nu):
    right, left = np.roll(c, -1), np.roll(c, 1)
    face = 0.5 * (c + right) - 0.5 * nu * (right - c) - (1.0 - nu * nu) / 6.0 * (right - 2.0 * c + left)
    return c - nu * (face - np.roll(face, 1))


def fifth_order(c, nu):
    def rate(v):
        face = (2 * np.roll(v, 2) - 13 * np.roll(v, 1) + 47 * v + 27 * np.roll(v, -1)
                - 3 * np.roll(v, -2)) / 60.0
        return -(face - np.roll(face, 1))

    first = c + nu * rate(c)
    second = 0.75 * c + 0.25 * (first + nu * rate(first))
    return c / 3.0 + 2.0 / 3.0 * (second + nu * rate(second))


def carried(step) -> tuple[float, float]:
    """(peak ratio, shape's relative L1 error) of the bell carried by ``step``."""
    x = np.arange(CELLS, dtype=float)
    steps = int(round(TRAVEL / COURANT))
    nu = TRAVEL / steps
    c = np.exp(-(x - START) ** 2 / (2 * SIGMA ** 2))
    for _ in range(steps):
        c = step(c, nu)
    exact = np.exp(-(x - START - TRAVEL) ** 2 / (2 * SIGMA ** 2))
    return c.max() / exact.max(), np.abs(c - exact).sum() / exact.sum()


if __name__ == "__main__":
    for name, step in (("Fromm", fromm), ("QUICKEST", quickest), ("fifth order", fifth_order)):
        peak, shape = carried(step)
        print(f"{name:12s} peak {peak:.3f}  shape rel. L1 {shape:.3f}")
