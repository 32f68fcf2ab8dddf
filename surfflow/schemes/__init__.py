"""The momentum scheme of ``Params(scheme="conservative")`` (SPEC §4, §10), the one scheme.

It declares the stages of the step it acts in (``stages``, the methods of
``surfflow/terms/base.py``'s table), and ``Simulation`` calls it there, before the terms. It acts
in one, ``transport`` (stage 6, ``conservative.py``): Heun (SSP-RK2) on d and d u with HLL
fluxes, well-balanced gravity, the terms' accelerations, walls and holds (the ``accelerate``,
``find_walls`` and ``hold`` stages, bound with ``bind``) and implicit friction in every
Runge-Kutta stage. It returns the volumes (m^3) that left ("outflow") and entered ("inflow")
through the boundary, for the ledger, and carries the dyes on its limited mass fluxes, second
order (``shared.carry_dyes``). ``segments``: the open boundary segments (``set_boundary``).
"""

from .conservative import ConservativeScheme
from .shared import friction_coefficients

__all__ = ["ConservativeScheme", "friction_coefficients", "make_scheme"]


def make_scheme(geom, params, n_dyes: int):
    """The scheme object ``params.scheme`` names."""
    return ConservativeScheme(geom, params, n_dyes)
