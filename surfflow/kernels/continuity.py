"""The mass equation dd/dt + div_S(d u) = 0 on the barycentric dual cells (SPEC §4).

Flux through the dual edge of the CSR entry (i, j), N the ``dual_edge_vectors`` and (j, i) the
reverse entry:

    s_ij = 0.5 (u_i . N_ij - u_j . N_ji),   F_ij = d_up s_ij,   d_up = d_i if s_ij > 0 else d_j

Computed from j's side the same expression gives exactly -F_ij, so what leaves i enters j. A dry
donor (d < d_min) sends nothing. Open boundaries with outflow let F_b,i = d_i max(0, u_i . Nb_i)
leave (Nb zero for walls). Outflow limiting keeps depth non-negative:

    alpha_i = min(1, A_i d_i / (dt (sum_j max(F_ij, 0) + F_b,i)))

and every flux is scaled by its donor's alpha (the same donor seen from both sides). Then

    A_i d_i' = A_i d_i - dt (sum_j alpha_donor F_ij + alpha_i F_b,i)

Dye volumes A d c ride on the same limited fluxes with the donor's concentration; the new
concentration is clamped to [0, 1] (a cell drained to round-off has no meaningful one). Two passes:
``edge_fluxes`` then ``update_depth``, each gathering only.
"""

import numba

from ._jit import parallel_kernel


@parallel_kernel
def edge_fluxes(offsets, indices, reverse_edges, dual_edge_vectors, boundary_outflow_normals,
                dual_areas, depth, velocity, min_depth, dt, edge_flux, boundary_flux, outflow_factor):
    """Pass 1: unlimited fluxes F_ij (m^3/s), boundary outflow F_b,i and the limiter alpha_i.

    offsets (n + 1,), indices, reverse_edges (nnz,); dual_edge_vectors (nnz, 2);
    boundary_outflow_normals (n, 2), zero where the boundary is a wall; dual_areas, depth (n,);
    velocity (n, 2). Writes edge_flux (nnz,), boundary_flux (n,), outflow_factor (n,).
    """
    for i in numba.prange(depth.shape[0]):
        wet_i = depth[i] >= min_depth
        outgoing = 0.0
        for e in range(offsets[i], offsets[i + 1]):
            j = indices[e]
            r = reverse_edges[e]
            normal_i = velocity[i, 0] * dual_edge_vectors[e, 0] + velocity[i, 1] * dual_edge_vectors[e, 1]
            normal_j = velocity[j, 0] * dual_edge_vectors[r, 0] + velocity[j, 1] * dual_edge_vectors[r, 1]
            speed = 0.5 * (normal_i - normal_j)
            if speed > 0.0:
                flux = speed * depth[i] if wet_i else 0.0
            else:
                flux = speed * depth[j] if depth[j] >= min_depth else 0.0
            edge_flux[e] = flux
            if flux > 0.0:
                outgoing += flux
        leaving = 0.0
        if wet_i:
            normal_b = (velocity[i, 0] * boundary_outflow_normals[i, 0]
                        + velocity[i, 1] * boundary_outflow_normals[i, 1])
            leaving = depth[i] * max(0.0, normal_b)
        boundary_flux[i] = leaving
        outgoing += leaving
        volume = dual_areas[i] * depth[i]
        outflow_factor[i] = volume / (dt * outgoing) if dt * outgoing > volume else 1.0


@parallel_kernel
def update_depth(offsets, indices, dual_areas, depth, dye, edge_flux, boundary_flux,
                 outflow_factor, dt, depth_out, dye_out, outflow_volume):
    """Pass 2: apply the limited fluxes to depth and dye.

    depth (n,), dye (n, n_dyes) concentrations read; depth_out, dye_out written;
    outflow_volume (n,) receives the volume that left through the boundary (m^3).
    """
    n_dyes = dye.shape[1]
    for i in numba.prange(depth.shape[0]):
        alpha_i = outflow_factor[i]
        net = 0.0
        for e in range(offsets[i], offsets[i + 1]):
            flux = edge_flux[e]
            net += flux * alpha_i if flux > 0.0 else flux * outflow_factor[indices[e]]
        leaving = alpha_i * boundary_flux[i]
        old_volume = dual_areas[i] * depth[i]
        volume = max(0.0, old_volume - dt * (net + leaving))
        depth_out[i] = volume / dual_areas[i]
        outflow_volume[i] = dt * leaving
        for k in range(n_dyes):
            dye_net = 0.0
            for e in range(offsets[i], offsets[i + 1]):
                flux = edge_flux[e]
                if flux > 0.0:
                    dye_net += flux * alpha_i * dye[i, k]
                else:
                    j = indices[e]
                    dye_net += flux * outflow_factor[j] * dye[j, k]
            dye_volume = old_volume * dye[i, k] - dt * (dye_net + leaving * dye[i, k])
            concentration = dye_volume / volume if volume > 0.0 else 0.0
            dye_out[i, k] = min(1.0, max(0.0, concentration))
