"""Ripple mode: the damped wave equation z_tt = c^2 Lap(z + p / (rho g)) - mu z_t on any mesh,
for large calm water surfaces at a fraction of the full model's cost (SPEC §11).

``model.py`` holds :class:`Ripples` (the equation, its stability bound, edges and shores),
``laplacian.py`` the cotangent Laplacian and its largest eigenvalue, ``disturbances.py`` drops
and rain, ``shores.py`` a sloping beach along the edge; the step's kernel is ``kernels/ripples.py``.
"""

from .disturbances import Rain, gaussian_dent
from .model import EDGES, Ripples
from .shores import shore_band

__all__ = ["EDGES", "Rain", "Ripples", "gaussian_dent", "shore_band"]
