"""Liquid in flight: droplet systems behind one small interface, and their coupling to the film.

``Droplets`` (the embedded numba system) is the default; ``ParticleCoupling`` emits particles
from the film and absorbs them back (SPEC §8).
"""

from .coupling import ParticleCoupling
from .droplets import Droplets

__all__ = ["Droplets", "ParticleCoupling"]
