"""The outflow limiter, which keeps the depth non-negative (SPEC §4).

A vertex i may not send more than it holds within the step:

    alpha_i = min(1, A_i d_i / (dt O_i)),   O_i = sum_j max(F_ij, 0) + max(F_b,i, 0)

with A_i (m^2) its dual area, d_i (m) its depth, F_ij (m^3/s) the fluxes of its CSR entries and
F_b,i its boundary flux (< 0 an inflow, never limited). Every flux is then scaled by its
donor's alpha (the vertex it leaves), so d_i' = d_i - dt (sum_j alpha_donor F_ij
+ alpha_i F_b,i) / A_i >= 0. ``limit_outflow`` is the formula; each caller sums O_i in its own
loop (kernels/continuity.py, kernels/riemann.py) or calls ``outflow_factors_at``.
"""

import numba

from ._jit import parallel_kernel, serial_kernel


@serial_kernel
def limit_outflow(volume, dt, outgoing):
    """alpha = min(1, volume / (dt outgoing)): volume A_i d_i (m^3), outgoing O_i (m^3/s)."""
    return volume / (dt * outgoing) if dt * outgoing > volume else 1.0


@parallel_kernel
def outflow_factors_at(vertices, offsets, dual_areas, depth, edge_flux, boundary_flux, dt,
                       alpha):
    """alpha (n,) written at ``vertices`` (m,) int64, O_i summed over i's entries in CSR order,
    then its boundary outflow (the order of ``continuity.edge_fluxes``). offsets (n + 1,);
    dual_areas, depth (n,); edge_flux (nnz,); boundary_flux (n,)."""
    for k in numba.prange(0, vertices.shape[0]):
        i = vertices[k]
        outgoing = 0.0
        for e in range(offsets[i], offsets[i + 1]):
            if edge_flux[e] > 0.0:
                outgoing += edge_flux[e]
        outgoing += max(0.0, boundary_flux[i])
        alpha[i] = limit_outflow(dual_areas[i] * depth[i], dt, outgoing)
