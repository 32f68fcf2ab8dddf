"""Split the vertices into those the continuity moves and those at rest (dry ground).

A vertex is *moving* when it or a neighbour is wet (d >= d_min): only then can a flux cross
one of its dual edges (kernels/continuity.py sends nothing between two dry vertices). The
others are *at rest*: their fluxes are zero, so the continuity and the dyes leave them as they
are. The heavy vertex loops run over the moving list alone (``numba.prange`` over the list,
which also shares the wet vertices evenly between the threads, where a range over all vertices
leaves a thread idle on a dry half of the mesh) and write the no-flux result at the resting
ones.
"""

import numba

from ._jit import parallel_kernel, serial_kernel


@parallel_kernel
def mark_moving(offsets, indices, depth, min_depth, moving):
    """moving[i] = whether i or a neighbour of i is wet (depth >= min_depth).

    offsets (n + 1,), indices (nnz,); depth (n,); moving (n,) bool is written.
    """
    for i in numba.prange(0, depth.shape[0]):
        wet = depth[i] >= min_depth
        for e in range(offsets[i], offsets[i + 1]):
            wet |= depth[indices[e]] >= min_depth
        moving[i] = wet


@serial_kernel
def split_vertices(marked, moving, resting):
    """Compact ``marked`` (n,) bool into the vertex lists moving and resting (both (n,) int64,
    filled from the front in increasing order); returns how many are moving."""
    count = 0
    for i in range(marked.shape[0]):
        if marked[i]:
            moving[count] = i
            count += 1
        else:
            resting[i - count] = i
    return count
