"""The polyscope viewer: live (``app``), headless rendering (``render``), and the drawing of the
object and its liquid (``liquid_view``).

Polyscope is imported only by these modules, and ``import surfflow`` never imports them. The
viewer reads a Simulation's state and never owns it.
"""
