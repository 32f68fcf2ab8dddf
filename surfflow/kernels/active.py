"""Split the vertices into those the continuity moves and those at rest (dry ground).

A vertex is *moving* when it or a neighbour is wet (d >= d_min): only then can a flux cross
one of its dual edges (kernels/continuity.py sends nothing between two dry vertices). The
others are *at rest*: their fluxes are zero, so the continuity and the dyes leave them as they
are. The heavy vertex loops run over the moving list alone (``numba.prange`` over the list,
which also shares the wet vertices evenly between the threads, where a range over all vertices
leaves a thread idle on a dry part of the mesh) and write the no-flux result at the resting
ones.
"""

from ._jit import serial_kernel


@serial_kernel
def split_vertices(offsets, indices, depth, min_depth, marked, moving, resting):
    """Fill the vertex lists moving (the wet vertices and their neighbours) and resting (the
    others), each in increasing order from the front; returns how many are moving.

    offsets (n + 1,), indices (nnz,); depth (n,); marked (n,) bool scratch; moving, resting
    (n,) int64. Serial: a scatter from the wet vertices, then one compaction (measured on
    bunny_pour's 28k vertices: 0.04 ms, where a parallel gather over every ring took 0.2 ms).
    """
    marked[:] = False
    for i in range(depth.shape[0]):
        if depth[i] >= min_depth:
            marked[i] = True
            for e in range(offsets[i], offsets[i + 1]):
                marked[indices[e]] = True
    count = 0
    for i in range(depth.shape[0]):
        if marked[i]:
            moving[count] = i
            count += 1
        else:
            resting[i - count] = i
    return count
