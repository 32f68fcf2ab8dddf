"""The polyscope viewer: live (``app``), headless rendering (``render``), the drawing of the
object and its liquid (``liquid_view``, with droplets and boundaries) and polyscope's materials
(``materials``, ``matcap``).

Polyscope is imported only by these modules, and ``import surfflow`` never imports them. The
viewer reads a Simulation's state and never owns it. How the liquid looks is
:mod:`surfflow.look`, shared with the USD writer and Blender (``surfflow.blender``, a renderer
beside this one; neither imports the other).
"""
