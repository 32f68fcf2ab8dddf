"""The optional terms of the step, each behind the protocol of ``base.py`` (SPEC §3).

``tension.py``: surface tension with the contact angle; ``wind.py``: wind drag;
``dissolution.py``: the soluble layer, the dissolved material and its transport; ``wetness.py``:
where the liquid has been, drying over ``drying_time`` (always on). The moving
surface (``surfflow.motion``) and the droplets' coupling (``surfflow.particles``) are terms too.
"""

from .base import STAGES, Term, Volumes
from .dissolution import Dissolution
from .tension import SurfaceTension
from .wetness import Wetness
from .wind import Wind

__all__ = ["STAGES", "Dissolution", "SurfaceTension", "Term", "Volumes", "Wetness", "Wind"]
