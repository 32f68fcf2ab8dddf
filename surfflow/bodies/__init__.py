"""Floating rigid bodies, coupled both ways with the liquid (docs/guide/bodies.md).

``RigidBody`` (``rigid_body.py``: box, sphere or closed mesh, mass properties, pose), its shapes
(``shapes.py``), orientations (``rotation.py``), the term ``BodyCoupling`` that joins the step
(``coupling.py``: the pressure on the free surface, ``press.py``; the drag; the forces back),
contacts (``contacts.py``) and the semi-implicit integrator with added mass (``dynamics.py``).
``Simulation.add_body`` adds a body.
"""

from .coupling import BodyCoupling
from .rigid_body import RigidBody

__all__ = ["BodyCoupling", "RigidBody"]
