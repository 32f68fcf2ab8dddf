"""Records of arrays the kernels of the continuity, the HLL stage, surface tension and the
tracers read (numba takes named tuples of arrays as one argument each). n vertices, nnz CSR
entries; an entry e = (i, j) is stored at i's row, its reverse at j's (``reverse_edges``).
"""

from collections import namedtuple

import numpy as np

Rings = namedtuple("Rings", ["offsets", "indices", "reverse_edges", "dual_edge_vectors",
                             "reverse_dual_edge_vectors", "edge_transforms", "neighbor_coords",
                             "fit_weights", "dual_areas"])
Rings.__doc__ = """The one-rings: offsets (n + 1,) and indices (nnz,) the CSR rows,
reverse_edges (nnz,) the entry (j, i) of each (i, j), dual_edge_vectors N_ij and
reverse_dual_edge_vectors N_ji (nnz, 2), both in i's frame at the entry (i, j), edge_transforms
M_ij (nnz, 2, 2) carrying j's tangent vectors into i's frame, neighbor_coords c_ij (nnz, 2),
fit_weights (nnz, 2) the ring fit's gradient weights (kernels/ring_fit.py), dual_areas A_i
(n,)."""

FluxInputs = namedtuple("FluxInputs", ["wall", "head", "wave_stiffness", "normal_gravity",
                                       "sensor", "outflow_normals", "open_flux"])
FluxInputs.__doc__ = """What the continuity's flux reads besides the flow (kernels/continuity.py):
wall (nnz,) bool, True where the dry end of a wet/dry entry is a wall (the same for (i, j) and
(j, i)); head L (n,) m; wave_stiffness K (n,) m/s^2 (c^2 = K d); normal_gravity g_n (n,) m/s^2,
the felt normal gravity; sensor s (n,) the shock sensor (kernels/shocks.py; zeros: no Landshoff
term); outflow_normals Nb (n, 2), zero where the boundary is a wall or an open segment; open_flux
(n,) the open segments' F_b (< 0 an inflow; zeros without segments)."""

ContinuityFluxes = namedtuple("ContinuityFluxes", ["edge_flux", "boundary_flux",
                                                   "outflow_factor", "slopes", "excess",
                                                   "surface_velocity", "frames", "normals"])
ContinuityFluxes.__doc__ = """The continuity's first pass, read by its second: edge_flux F_ij
(nnz,) m^3/s, boundary_flux F_b (n,), outflow_factor alpha (n,), and the momentum faces' slopes
S (n, 2, 2) and excess sum_out F_ij (w_f,ij - w_i) (n, 2) (kernels/momentum_faces.py) of the
carried velocity w, the film's in the world, w = u + V: surface_velocity (n, 3) m/s, a moving
surface's velocity V less its area-weighted mean (any uniform velocity carries nothing), its two
components in each vertex's frame and its normal one (zero rows for a still surface: w = u),
and the tangent frames (n, 2, 3) and normals (n, 3) with which i reads the normal component of
its neighbours' (``momentum_faces.surface_part``, ``SurfaceMotion.frame_velocity``)."""
STILL_SURFACE = np.zeros((0, 3))  # ContinuityFluxes.surface_velocity of a surface at rest

EnergyHead = namedtuple("EnergyHead", ["wave_stiffness", "potential", "inflows"])
EnergyHead.__doc__ = """What the continuity's second pass reads to carry the energy head where the flow
expands (kernels/continuity.py ``update_depth``): wave_stiffness K (n,) m/s^2 of
``expansion_share`` and the potential |g| L (n,) m^2/s^2, the head L of ``FluxInputs`` times the
felt gravity; inflows (nnz, 5), the pass's own rows for each expanding inflow e = (i, j): its
spare weight w - h (m^3/s, 0 on every other entry), the energy it makes at h and how fast
raising h removes it (``inflow_energy``), and the velocity it brings (2,) in i's frame. All
three with no rows ((0,), (0,), (0, 5)): momentum carried on every edge."""


def energy_head(wave_stiffness, potential, nnz: int) -> EnergyHead:
    """An ``EnergyHead`` with its rows for nnz CSR entries."""
    return EnergyHead(wave_stiffness, potential, np.zeros((nnz, 5)))


NO_ENERGY_HEAD = EnergyHead(np.zeros(0), np.zeros(0), np.zeros((0, 5)))  # momentum everywhere

DepthUpdate = namedtuple("DepthUpdate", ["depth", "velocity", "outflow_volume"])
DepthUpdate.__doc__ = """The continuity's second pass writes: depth d' (n,), velocity u' (n, 2)
and outflow_volume (n,) m^3, what left through the boundary."""


def rings_of(geom, fields) -> Rings:
    """The ``Rings`` of a mesh's geometry and its derived fields (``reverse_dual_edge_vectors``,
    ``fit_weights``)."""
    return Rings(geom.neighbor_offsets, geom.neighbor_indices, geom.reverse_edges,
                 geom.dual_edge_vectors, fields.reverse_dual_edge_vectors, geom.edge_transforms,
                 geom.neighbor_coords, fields.fit_weights, geom.dual_areas)


HllRings = namedtuple("HllRings", ["offsets", "indices", "reverse_edges", "neighbor_coords",
                                   "reverse_coords", "dual_edge_vectors",
                                   "reverse_dual_edge_vectors", "dual_edge_lengths",
                                   "reverse_dual_edge_lengths", "edge_transforms"])
HllRings.__doc__ = """The one-rings as the HLL fluxes read them (kernels/riemann.py): offsets,
indices, reverse_edges as in ``Rings``; neighbor_coords c_ij (i's frame) and reverse_coords c_ji
(j's frame) (nnz, 2); dual_edge_vectors N_ij and reverse_dual_edge_vectors N_ji (nnz, 2) and
their lengths dual_edge_lengths, reverse_dual_edge_lengths (nnz,), all at the entry (i, j);
edge_transforms M_ij (nnz, 2, 2)."""

Levels = namedtuple("Levels", ["vertex_height", "normal_rise", "bottom", "gravity_magnitude"])
Levels.__doc__ = """What the free-surface height H = e . x + (b + d) (e . n) reads besides the
depth (kernels/pressure.py): vertex_height e . x, normal_rise e . n, bottom b (n,) each, and
|g| (m/s^2)."""

SurfaceMotion = namedtuple("SurfaceMotion", ["acceleration", "moving", "vertices", "normals"])
SurfaceMotion.__doc__ = """A moving surface's acceleration a_i (n, 3) in world space (zeros when
nothing moves), moving False when it is all zeros (its terms are skipped), vertices and normals
(n, 3)."""

Reconstruction = namedtuple("Reconstruction", ["depth", "velocity", "grad_depth",
                                               "grad_velocity"])
Reconstruction.__doc__ = """A stage's state and its limited gradients: depth (n,), velocity
(n, 2), grad_depth (n, 2), grad_velocity (n, 2, 2) (kernels/reconstruction.py)."""

Pressing = namedtuple("Pressing", ["pressure", "sigma_over_density", "inverse_density"])
Pressing.__doc__ = """The surface pressure p_s (n,) (Pa; zeros without pressing terms),
sigma / rho (m^3/s^2; 0 without surface tension) and 1 / rho."""

StageFluxes = namedtuple("StageFluxes", ["mass_flux", "momentum_flux", "boundary_mass",
                                         "boundary_momentum", "outflow_factor"])
StageFluxes.__doc__ = """An HLL stage's fluxes: mass_flux F_ij (nnz,), momentum_flux G_ij
(nnz, 2) in i's frame, boundary_mass F_b (n,), boundary_momentum G_b (n, 2), outflow_factor
alpha (n,)."""

StageUpdate = namedtuple("StageUpdate", ["depth", "velocity", "outflow_volume",
                                         "inflow_volume"])
StageUpdate.__doc__ = """An HLL stage writes: depth (n,), velocity (n, 2), and the volumes
(m^3) that left and entered through the boundary, outflow_volume and inflow_volume (n,)."""

Openings = namedtuple("Openings", ["kind", "value", "normals", "vertices"])
Openings.__doc__ = """The open boundary segments (schemes/segments.py): kind (n,) int64
(kernels/riemann.py's NO_BOUNDARY, TRANSMISSIVE, LEVEL, DISCHARGE), value (n,) and the
segments' N_b (n, 2), length times outward normal in each vertex's frame; vertices (m,) int64
those with a kind, in increasing order."""

Capillarity = namedtuple("Capillarity", ["wetting_depth", "sigma", "cos_contact_angle",
                                         "ramp_tension"])
Capillarity.__doc__ = """What the surface energy weighs (kernels/tension.py): wetting_depth
eps_v (n,) m, the depth over which a cell becomes wet (``tension.contact_line_depth``); sigma the
surface tension (N/m); cos_contact_angle cos theta_c; ramp_tension J sin theta_c, the wetting
ramp's line tension per sigma eps (``tension.ramp_line_tension``)."""

CapillarySurface = namedtuple("CapillarySurface", ["lifted", "level", "ramp_level", "pressure",
                                                   "near_liquid"])
CapillarySurface.__doc__ = """The free surface as the capillary kernels share it
(kernels/tension.py): lifted P_i = x_i + (b_i + d_i) n_i (n, 3) m and level H_i (n,) m, its
points and their heights along gravity, and ramp_level f(phi(d_i)) (n,), the wetting ramp's
level (``tension.lift_free_surface``, ``tension.line_level``); pressure p_s (n,) Pa and
near_liquid (n,) bool, whether the vertex or a neighbour is wet (``tension.surface_pressure``)."""

CarrierFluxes = namedtuple("CarrierFluxes", ["flux", "boundary", "outflow_factor"])
CarrierFluxes.__doc__ = """The fluxes that carry a tracer through one step or stage
(kernels/tracers.py): flux F_ij (nnz,) and boundary F_b (n,) (> 0 an outflow), m^3/s for the
liquid, m^2/s for the area the dissolved material's velocity sweeps; outflow_factor alpha (n,),
the donor's limiter."""

TracerUpdate = namedtuple("TracerUpdate", ["values", "outflow_volume"])
TracerUpdate.__doc__ = """``tracers.carry`` writes: values c' (n, k), the k tracers after the
step, and outflow_volume (n, k) m^3, the tracer volume that left through the boundary."""
