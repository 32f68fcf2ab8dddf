"""The protocol of a term of the step (SPEC §3, "The step as a list of terms").

A term is an optional piece of physics (surface tension, wind, dissolution, a moving surface,
the droplets' coupling, ...). It owns its buffers, names the stages it acts in (``stages``) and
has one method per stage, called with the arrays of the step; ``Simulation`` binds the methods
once when its terms change and calls each stage as a loop over them, in the order of
``Simulation.terms`` (the scheme's method first where the scheme acts too). A term that is
absent is not in the list, so it costs nothing.

===============  ===========================================  ==================  =============
stage            method                                       returns             step
===============  ===========================================  ==================  =============
move             move(geom, time)                             the moved geometry  0
max_time_step    max_time_step(state, fields)                 a limit on dt (s)   1
add_sources      add_sources(geom, state, dt)                 Volumes             2
advect           advect(geom, state, dt)                                          3
load_bottom      load_bottom(state)                           bottom (n,) (*)     4
push             push(geom, fields, state, bottom, dt)                            4
apply_friction   apply_friction(geom, state, dt)                                  5
transport        transport(geom, fields, state, bottom, dt)   Volumes             6
accelerate       accelerate(geom, fields, state, bottom,                          4 (SL) or
                 depth, velocity, acceleration)                                   each RK stage
find_walls       find_walls(geom, fields, bottom, depth,      walls (*)           6 (SL: once;
                 walls)                                                           else each RK)
hold             hold(geom, fields, depth, velocity, dt)                          4 (SL) or
                                                                                  each RK stage
exchange         exchange(geom, state, dt)                    Volumes             6
keep_volumes     keep_volumes(old_geom, new_geom, state)                          moves
airborne_volume  airborne_volume()                            m^3 off the film    ledger
record           record(geom, state, dt)                                          9
===============  ===========================================  ==================  =============

(*) one term decides: the last in the list that acts there, else the model's default (the
pressure sees the bottom b; dry ground above the free surface is a wall). ``push`` adds dt
times an acceleration to state.velocity (u += dt a) once per step, before the transport;
``keep_volumes`` runs when the surface moves, to keep what the term holds per vertex;
``airborne_volume`` counts in the ledger's balance; ``record`` reads the step's final film
(after the wet/dry cleanup and the NaN check) and changes nothing in it: what a term derives
from where the liquid is (the wetness; ``set_depth`` calls it too, with dt = 0).

The last three are called by the scheme (``schemes/__init__.py``). The momentum scheme
calls ``accelerate`` once, in its push on the step's depth and velocity (u += dt a), the holds
after it, and ``find_walls`` once before its transport. The conservative scheme calls them
inside its transport, once per Runge-Kutta stage, on that stage's
depth (n,) and velocity (n, 2) (not the state's): ``accelerate`` adds the term's acceleration a
(n, 2, m/s^2 in each vertex's frame) to ``acceleration``, so a force meets the friction in every
stage as gravity does. A term whose ``like_gravity`` is True (a moving surface's inertia) adds to
gravity's own array, applied in conservation form on the stage's old depth, so an accelerated
plate is exactly a tilted one (such a term also has ``acceleration`` (n, 3), the surface's
acceleration a_i in world space, whose normal part and potential the conservative scheme's HLL
wave speeds and mass jump feel: gravity g - a_i); the others' (tension, wind) act on the updated velocity,
u' += dt a, so a steady wind-driven film's speed is exact; then
``find_walls`` writes the wet/dry faces the stage's fluxes may not cross into ``walls``
(nnz,) bool (both schemes call it after ``accelerate``, on the same depth and bottom);
``hold`` runs after the stage's momentum update, before its friction (a static
friction that nothing may push past).

Who acts where, in this order within a stage:

=================================  ==========================================================
scheme "momentum"                  push (gravity-pressure, then the terms'
                                   accelerate once and the holds), apply_friction, transport
                                   (the find_walls once, then the continuity on d and d u)
scheme "conservative"              transport (it covers 3 to 6: ``schemes/conservative.py``)
motion (``motion/``)               move (following a motion), max_time_step, accelerate
                                   (inertia)
tension (``tension.py``)           accelerate, find_walls, hold (with hysteresis); its
                                   time-step limit is in the step's CFL pass
wind (``wind.py``)                 max_time_step, accelerate
dissolution (``dissolution.py``)   advect, load_bottom, push, apply_friction, transport,
                                   keep_volumes
droplets (``particles/``)          exchange, airborne_volume
wetness (``wetness.py``)           record (always on)
=================================  ==========================================================

A term whose ``presses`` is True puts a pressure on the free surface: its ``pressure`` (n,) in
Pa, written by its ``accelerate`` in each stage (which also adds its push, -grad p / rho, for
both schemes). The conservative scheme's fluxes see the sum of all these pressures (their mass
jump levels g H + p / rho, so a pressed surface at rest stays at rest); surface tension and the
floating bodies (``surfflow/bodies``) press.

Every term also has ``name`` (``Simulation.term(name)`` finds it), ``use_geometry(geom)``
(called whenever the surface is replaced or moved) and ``state_dict()`` /
``load_state_dict(data)`` (numpy values, merged into the simulation's state dict).

The step's active set ``state.active`` (``schemes/active.py``) lists the vertices that are wet
or have a wet neighbour in the ``depth`` a term's ``accelerate`` gets (``moving``), the others
(``resting``: dry, with dry neighbours) and the resting ones next to a moving one (``border``).
The momentum scheme rebuilds it each step before the friction shares; the conservative one
leaves every vertex moving (its stages' depths differ from the step's). A term may loop over
``moving`` alone where nothing happens on dry ground away from the liquid (surface tension
does; ``friction_share`` is written at the moving vertices only).

Volumes moved in or out are returned, never booked by the term: a dict of ledger entries
(``state.LEDGER_ENTRIES``: "poured", "outflow", "absorbed", ...) to m^3, which the simulation
adds to its ledger.
"""

from __future__ import annotations

STAGES = ("move", "max_time_step", "add_sources", "advect", "load_bottom", "push",
          "apply_friction", "transport", "accelerate", "find_walls", "hold", "exchange",
          "keep_volumes", "airborne_volume", "record")
RUNGE_KUTTA_STAGES = ("accelerate", "find_walls", "hold")  # the scheme calls these, per RK stage

Volumes = dict  # ledger entry -> m^3 moved in (or out) during the stage


class Term:
    """A term of the step: no stages, nothing to keep; subclasses name their ``stages`` and
    define those methods (see the module docstring for their signatures)."""

    name = "term"
    stages: tuple[str, ...] = ()
    like_gravity = False  # accelerate: with gravity, on the old depth (see the module docstring)
    presses = False       # a ``pressure`` (n,) on the free surface the fluxes see

    def use_geometry(self, geom) -> None:
        """Follow a new or moved surface (nothing derived from it is kept here)."""

    def state_dict(self) -> dict:
        """What to save to continue bit-identically (numpy values; nothing here)."""
        return {}

    def load_state_dict(self, data: dict) -> None:
        """Restore what :meth:`state_dict` wrote (nothing here)."""
