"""Volume sources and sinks q of the mass equation dd/dt + div_S(d u) = q (SPEC §3).

Per vertex, for one time step dt:

    d' = d + dt q_in                     (pour and rain, m/s of depth)
    u' = u d / d'                        (the momentum d u kept: the new liquid arrives at rest)
    c' = (c d + dt q_dye) / d'           (dye concentrations mixed by volume)
    removed = min(d', dt q_sink)         (a sink never takes more than is there)
    d'' = d' - removed                   (the liquid it takes leaves at u', which stays)

Poured liquid and rain arrive at rest on the surface: they add mass but no momentum, as the
shallow-water equations' mass source does, so d u is unchanged and u is diluted by volume, as a
dye is. The film pays for the new liquid's acceleration: at a pour on a steep face the liquid at
the pour's vertices runs no faster than a fall from the pour.
"""

import numba

from ._jit import parallel_kernel, serial_kernel


@parallel_kernel
def apply_sources(inflow_rate, sink_rate, dye_inflow_rate, dt, depth, velocity, dye,
                  removed_depth):
    """Add inflow at rest, mix dyes, remove sinks, in place.

    inflow_rate, sink_rate (n,) m/s of depth; dye_inflow_rate (n, n_dyes) m/s of pure dye;
    depth (n,), velocity (n, 2) and dye (n, n_dyes) concentrations are updated in place;
    removed_depth (n,) receives the depth each sink took (the caller books sum A_i removed_i).
    """
    for i in numba.prange(0, depth.shape[0]):
        old = depth[i]
        poured = old + dt * inflow_rate[i]
        if poured > old:
            kept = old / poured
            velocity[i, 0] *= kept
            velocity[i, 1] *= kept
        if poured > 0.0:
            for k in range(dye.shape[1]):
                dye[i, k] = (dye[i, k] * old + dt * dye_inflow_rate[i, k]) / poured
        removed = min(poured, dt * sink_rate[i])
        removed_depth[i] = removed
        depth[i] = poured - removed


@serial_kernel
def add_footprint(vertices, weights, scale, rate):
    """rate[vertices[k]] += scale * weights[k] for every k, in order (no temporary arrays).

    vertices (m,) int64, weights (m,), rate (n,) (or a column of an (n, n_dyes) array).
    """
    for k in range(vertices.shape[0]):
        rate[vertices[k]] += scale * weights[k]
