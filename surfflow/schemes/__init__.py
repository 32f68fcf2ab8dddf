"""The two momentum schemes of ``Params(scheme=...)`` (SPEC §4, §10), chosen once per simulation.

A scheme declares the stages of the step it acts in (``stages``, the methods of
``surfflow/terms/base.py``'s table), and ``Simulation`` calls it there, before the terms:

================  ==========================================  ====================================
stage             "semi_lagrangian" (semi_lagrangian.py)      "conservative" (conservative.py)
================  ==========================================  ====================================
3 advect          back-trace u (kernels/advection.py)         (in 6: the momentum fluxes carry d u)
4 push            u += dt a, a = -|g| grad H                  (in 6: a joins every RK stage)
5 apply_friction  friction and damping, implicit              (in 6: after every RK stage)
6 transport       continuity on d with u fixed                Heun (SSP-RK2) on d and d u, HLL
                  (kernels/continuity.py)                     fluxes, well-balanced gravity
================  ==========================================  ====================================

``transport`` returns the volumes (m^3) that left ("outflow") and entered ("inflow") through the
boundary, for the ledger. Both carry the dyes on their limited mass fluxes, second order
(``shared.carry_dyes``). ``segments``: the open boundary segments (only the conservative scheme
takes them, ``set_boundary``).
"""

from .conservative import ConservativeScheme
from .semi_lagrangian import SemiLagrangianScheme
from .shared import friction_coefficients

__all__ = ["ConservativeScheme", "SemiLagrangianScheme", "friction_coefficients", "make_scheme"]


def make_scheme(geom, params, n_dyes: int):
    """The scheme object ``params.scheme`` names."""
    scheme = ConservativeScheme if params.scheme == "conservative" else SemiLagrangianScheme
    return scheme(geom, params, n_dyes)
