"""Adaptive time step from the CFL condition on the one-ring (SPEC §4).

    dt = min(max_dt, dt_flow, dt_capillary),
    dt_flow = cfl * min over wet i of r_i / (|u_i| + sqrt(|g| d_i)),
    dt_capillary = min over wet i of cfl r_i / (2 c_i)

r_i is the size of i's dual cell (``ring_spacing``, ``kernels/fields.dual_cell_size``): 4 A_i over
its perimeter, the finite-volume CFL length, equal to the edge length on equilateral triangles.
A sliver triangle or a short edge at i does not collapse it, so one bad triangle does not set
the pace of the whole run (tests/test_sliver_pace.py). c_i is the phase speed of the shortest
capillary wave under surface tension (``tension.capillary_speed``), limited in the same pass; the
factor 2 leaves room for gravity waves at their own limit. A surface with no wet vertex, or with
still water, no gravity and no surface tension, gets max_dt. The kernel returns the two limits
apart, each with the vertex that attains it (the caller takes max_dt and the terms' limits
too), so that what set the step, and where, can be told (``Simulation.step_limit``,
``Simulation.step_limit_vertex``): the capillary limit falls with the square of the cell, so on
a millimetre-sized mesh it rules, and the smallest dual cells (a pole's fan of thin triangles)
set the pace of an explicit step wherever they are wet.
"""

import math

from ._jit import serial_kernel
from .tension import capillary_speed


@serial_kernel
def cfl_time_step(depth, velocity, ring_spacing, gravity_magnitude, min_depth, cfl,
                  wetting_depth, sigma, cos_contact_angle, density):
    """The largest stable time steps of the flow and of surface tension.

    depth (n,), velocity (n, 2) in each vertex's frame, ring_spacing (n,) metres; with surface
    tension sigma > 0 (N/m; 0 for none) the capillary limit too, from wetting_depth (n,) (the
    contact-line depth eps_v, unread without tension), cos_contact_angle and density (kg/m^3).
    Returns (dt_flow, i_flow, dt_capillary, i_capillary): each limit (seconds; inf where nothing
    limits) and the vertex attaining it (the first of equals; -1 with inf). One thread: a parallel
    reduction compiles about 0.5 s longer on a cold start (the budget is 10 s) than this pass of
    tens of microseconds saves.
    """
    shortest, at_flow = math.inf, -1
    capillary, at_capillary = math.inf, -1
    for i in range(depth.shape[0]):
        d = depth[i]
        if d >= min_depth:
            flow = math.sqrt(velocity[i, 0] ** 2 + velocity[i, 1] ** 2)
            speed = flow + math.sqrt(gravity_magnitude * d)
            if speed > 0.0:
                crossing = ring_spacing[i] / speed
                if crossing < shortest:
                    shortest, at_flow = crossing, i
            if sigma > 0.0:
                wave = capillary_speed(d, ring_spacing[i], wetting_depth[i], sigma,
                                       cos_contact_angle, density)
                if wave > 0.0:
                    limit = cfl * ring_spacing[i] / (2.0 * wave)
                    if limit < capillary:
                        capillary, at_capillary = limit, i
    return cfl * shortest, at_flow, capillary, at_capillary
