"""Moving and deforming surfaces (SPEC §9).

A motion is any callable ``motion(rest_vertices, t) -> vertices``: rest_vertices (n, 3) are the
smoothed positions the simulation started from, the result (n, 3) where they are at time t (s).
The ones built in:

* :class:`Keyframes`: rigid translation and rotation, interpolated (linear, slerp);
* :class:`Bend`, :class:`Twist`, :class:`Pulse`, :class:`Wave`: procedural deformers;
* :class:`MeshSequence`: one OBJ file per frame, interpolated linearly between frames.

``Simulation(geom, motion=m)`` or ``sim.set_motion(m)`` moves the mesh at the start of every step
(``sim.move_to``); :class:`SurfaceMotion`, the term ``sim.term("motion")``, fills the moved
geometry in place, keeps the last positions, derives the surface's acceleration from them and
applies the inertial force it causes (``kernels/inertia.py``).
"""

from .deformers import Bend, Pulse, Twist, Wave
from .keyframes import Keyframes
from .sequence import MeshSequence
from .surface_motion import BoundMotion, SurfaceMotion

__all__ = ["Bend", "BoundMotion", "Keyframes", "MeshSequence", "Pulse", "SurfaceMotion", "Twist",
           "Wave"]
