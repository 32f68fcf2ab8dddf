"""The droplets' budget: how many particles may fly at once, and how big each one is.

Memory. A particle costs ``BYTES_PER_PARTICLE`` bytes in the embedded system (positions,
velocities, the previous positions, the interaction's shift and velocity change, the volume,
the hash grid's entries, the collision query's hit and weights). ``Droplets(max_particles=N)``
holds at most N particles, so the droplets never take more than N times that: the default N is
what an eighth of the memory available when the droplets are made holds, at most
``DEFAULT_MAX_PARTICLES``. A budget the machine cannot hold fails at set-up.

Size. A film cell i of area A_i sheds its excess E_i = (d_i - eps2) A_i as particles of volume
V_i = max(V_drop, pi/6 A_i^(3/2)): drops as large as a pendant water drop (V_drop,
``Droplets.max_volume``, 0.05 mL, 4.6 mm across) where the cells are narrower than such a drop,
and parcels as wide as their cell (a sphere of diameter sqrt(A_i)) where they are wider. A
parcel stands for the spray the cell sheds (a cloud of drops), and its flight is that of the
spray's centre of mass: the film resolves nothing finer than its cells, so neither do the
particles it feeds. The count a cell sheds in a step is then at most
ceil(6 / pi (d_i - eps2) / sqrt(A_i)), whatever the mesh's scale.

Budget. A step emits at most half the budget: past that, every emitting vertex's count is cut
in proportion (at least one particle each; they carry more volume). When the new particles do
not fit beside those in flight, airborne particles are merged in pairs (``merge_pairs``:
volume summed, position and velocity volume-weighted, so volume and momentum are kept) until
they do. Nothing is dropped: the ledger sees the same volume in fewer, larger particles.
"""

from __future__ import annotations

import os

from ..errors import ParameterError, SimulationError

BYTES_PER_PARTICLE = 5 * 24 + 2 * 8 + 3 * 8 + 1 + 8 + 24 + 4 * 8
"""the embedded system's arrays per particle (``Droplets._allocate``), its hash table included
(up to four entries per particle); 8 more per dye the particles carry."""
DEFAULT_MAX_PARTICLES = 1_000_000
"""the default budget's cap: a million particles take 0.2 GB and ~0.3 s per coupling step on
two cores."""
MEMORY_SHARE = 8
"""the default budget takes at most 1 / MEMORY_SHARE of the memory available."""


def available_memory() -> int:
    """Bytes of memory available to a new allocation now (Linux: ``MemAvailable``; elsewhere
    the free physical pages)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 2**32


def default_max_particles() -> int:
    """The default budget: what 1 / MEMORY_SHARE of the available memory holds, at most
    ``DEFAULT_MAX_PARTICLES`` and at least 1,000."""
    fits = available_memory() // (MEMORY_SHARE * BYTES_PER_PARTICLE)
    return int(max(1000, min(DEFAULT_MAX_PARTICLES, fits)))


def check_max_particles(max_particles) -> int:
    """``max_particles`` as an int >= 2 that the machine's memory holds, or an error naming it."""
    if (isinstance(max_particles, bool) or not isinstance(max_particles, (int, float))
            or max_particles != int(max_particles) or max_particles < 2):
        raise ParameterError(f"max_particles={max_particles!r} must be a whole number >= 2")
    max_particles = int(max_particles)
    need, have = max_particles * BYTES_PER_PARTICLE, available_memory()
    if need > have // 2:
        raise SimulationError(
            f"Droplets(max_particles={max_particles}) needs {need / 2**30:.3g} GiB for its "
            f"particles, more than half the {have / 2**30:.3g} GiB available; lower max_particles "
            f"(at most {have // (2 * BYTES_PER_PARTICLE)} here) or leave it at its default")
    return max_particles


def check_budget_fits_mesh(max_particles: int, n_vertices: int, default: bool) -> int:
    """The budget for a film of ``n_vertices``: at least two particles per vertex (every vertex
    may emit in one step, with as many in flight). A default budget is raised to that (if the
    memory holds it); one the user set and that is smaller is an error naming it."""
    least = 2 * n_vertices
    if max_particles >= least:
        return max_particles
    if not default:
        raise ParameterError(
            f"Droplets(max_particles={max_particles}) is below two particles per vertex of this "
            f"{n_vertices}-vertex mesh: every vertex must be able to emit in one step; raise "
            f"max_particles to at least {least} or leave it at its default")
    return check_max_particles(least)

