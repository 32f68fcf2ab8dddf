"""The two momentum schemes of ``Params(scheme=...)`` (SPEC §4, §10), chosen once per simulation.

A scheme declares the stages of the step it acts in (``stages``, the methods of
``surfflow/terms/base.py``'s table), and ``Simulation`` calls it there, before the terms:

================  ==========================================  ====================================
stage             "momentum" (momentum.py, the default)       "conservative" (conservative.py)
================  ==========================================  ====================================
3 advect          (in 6: the mass fluxes carry d u)           (in 6: the momentum fluxes carry d u)
4 push            u += dt a, a = -|g| grad H; then the        (in 6: a joins every RK stage)
                  terms' ``accelerate`` once, u += dt a;
                  then the ``hold``s
5 apply_friction  friction and damping, implicit              (in 6: after every RK stage)
6 transport       the ``find_walls`` once, then the           Heun (SSP-RK2) on d and d u, HLL
                  continuity on d and d u, one pass           fluxes, well-balanced gravity; in
                  (kernels/continuity.py)                     every RK stage the terms'
                                                              ``accelerate``, ``find_walls`` and,
                                                              after the update, ``hold``
================  ==========================================  ====================================

The terms' ``accelerate``, ``find_walls`` and ``hold`` (``terms/base.py``) are handed to the
scheme by ``bind(accelerations, find_walls, holds, tension)`` (``model._bind_stages``), which
calls them where the table says. ``transport`` returns the volumes (m^3) that left ("outflow")
and entered ("inflow") through the boundary, for the ledger. Both carry the dyes on their limited
mass fluxes, second order (``shared.carry_dyes``). ``segments``: the open boundary segments (only
the conservative scheme takes them, ``set_boundary``).
"""

from .conservative import ConservativeScheme
from .momentum import MomentumScheme
from .shared import friction_coefficients

__all__ = ["ConservativeScheme", "MomentumScheme", "friction_coefficients", "make_scheme"]


def make_scheme(geom, params, n_dyes: int):
    """The scheme object ``params.scheme`` names."""
    scheme = ConservativeScheme if params.scheme == "conservative" else MomentumScheme
    return scheme(geom, params, n_dyes)
