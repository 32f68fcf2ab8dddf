"""Liquid in flight: droplet systems behind one small interface, and their coupling to the film.

``Droplets`` (the embedded numba system) is the default; ``ParticleCoupling`` emits particles
from the film and absorbs them back (SPEC §8); ``Nozzle`` and ``Rain`` pour liquid into the
scene as particles where it comes from (``emitters.py``).
"""

from .coupling import ParticleCoupling
from .droplets import Droplets
from .emitters import Nozzle, Rain

__all__ = ["Droplets", "Nozzle", "ParticleCoupling", "Rain"]
