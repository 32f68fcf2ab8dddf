"""Records of arrays the droplet kernels read (numba takes named tuples as one argument each).
n vertices, p particle slots (the buffers' capacity), m shedding vertices."""

from collections import namedtuple

ParticleBuffers = namedtuple("ParticleBuffers", ["positions", "previous", "velocities",
                                                 "volumes", "dyes"])
ParticleBuffers.__doc__ = """The droplets' full-capacity arrays: positions, previous (the
positions at the step's start) and velocities (p, 3) m and m/s, volumes (p,) m^3, dyes
(p, n_dyes); rows past the droplets' count are unused."""

NeighbourGrid = namedtuple("NeighbourGrid", ["cell", "table_mask", "bucket_start",
                                             "sorted_particles", "level", "n_levels", "wide",
                                             "n_wide"])
NeighbourGrid.__doc__ = """The interaction's hashed grids (particles/dynamics.py): the cell (m)
of level 0 (level L's is cell 2^L), table_mask (the hash table's size less one), bucket_start
(buckets + 1,) and sorted_particles (p,) the counting sort, level (p,) each particle's grid,
n_levels the levels searched, and the wide particles past them listed apart, wide[:n_wide]."""

Emissions = namedtuple("Emissions", ["vertices", "counts", "volumes", "offsets"])
Emissions.__doc__ = """What the shedding vertices emit (particles/coupling.py): vertices (n,)
the shedding ones in vertices[:m], ascending; counts (n,) how many particles each emits;
volumes (n,) m^3 the volume it sheds; offsets (n + 1,) the counts' prefix sum (each one's
first slot, offsets[m] the total)."""

ShedSurface = namedtuple("ShedSurface", ["vertices", "normals", "tangent_frames", "velocity",
                                         "bottom"])
ShedSurface.__doc__ = """Where a shedding vertex places its particles: vertices x and normals n
(n, 3), tangent_frames T (n, 2, 3), the surface's velocity V (n, 3) m/s, bottom b (n,) m (the
particles start at x + (b + d) n)."""

Film = namedtuple("Film", ["depth", "velocity", "dye"])
Film.__doc__ = """The film the particles leave: depth d (n,) m, velocity u (n, 2) m/s in each
vertex's frame, dye (n, n_dyes)."""
