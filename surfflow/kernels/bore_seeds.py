"""The seeds of the bore patch (schemes/bores.py): wet vertices at a bore or a dry-bed front,
each with a strength sigma_i in [0, 1].

A vertex i can seed where it is wet (d_i >= d_min), ruled by gravity (``ruled``) and inertial
(friction share k_i < ``INERTIAL_SHARE``); sigma_i is the largest over its CSR entries
e = (i, j) of

- at a bore, j likewise wet, ruled and inertial, the product of three ramps,

      ramp(s_i / BORE_SENSOR) ramp((a + b) / (BORE_CLOSING |N| c))
          max(ramp(|N| c_i / |a|), ramp(|N| c_j / |b|))

  (the shock sensor s_i, kernels/shocks.py; the two ends closing on each other; the flow
  subcritical at one end at least, as a hydraulic jump leaves it: where both ends are
  supercritical the continuity's flux is upwind already, as HLL's is. Each end's own Froude
  number, not the edge's mean: across a standing jump the mean hovers about 1),

- at a dry-bed front, j dry (d_j < d_min) and not behind a shoreline wall (a bank above i's
  level, which no flux crosses) and i's flow running into it with inertia,

      ramp(a / (BORE_CLOSING |N| c_i)),

with ramp(x) = clamp(2 x - 1, 0, 1): 1 where the rule's ratio passes 1 (the seeds of a switched
rule), 0 below a half, linear between, so that the patch's weight (schemes/bores.py) is
continuous in the state and a rule that hovers at its threshold does not switch the patch's
fluxes on and off step after step. a = u_i . N_ij, b = u_j . N_ji, |N|^2 the mean of |N_ij|^2
and |N_ji|^2, c^2 = K d with K and d the two ends' means (K the wave stiffness, negative where
the surface falls away: then c = 0), and c_i^2 = K_i d_i, c_j^2 = K_j d_j.
"""

import math

import numba

from ._jit import parallel_kernel, serial_kernel
from .continuity import mean_size2, normal_speeds
from .tuning import BORE_CLOSING, BORE_SENSOR, INERTIAL_SHARE


@serial_kernel
def flowing(i, depth, ruled, friction_share, min_depth):
    """Whether i is wet, ruled by gravity and inertial."""
    return ruled[i] and depth[i] >= min_depth and friction_share[i] < INERTIAL_SHARE


@serial_kernel
def ramp(ratio):
    """clamp(2 ratio - 1, 0, 1): 0 up to half a rule's threshold, 1 from the threshold on."""
    return min(1.0, max(0.0, 2.0 * ratio - 1.0))


@serial_kernel
def exceeds(value, threshold):
    """ramp(value / threshold) for threshold >= 0: 1 for any positive value over a zero one."""
    if threshold > 0.0:
        return ramp(value / threshold)
    return 1.0 if value > 0.0 else 0.0


@serial_kernel
def own_celerity(k, wave_stiffness, depth):
    """c_k = (K_k d_k)^(1/2) at vertex k, 0 where the surface falls away (K_k < 0)."""
    return math.sqrt(max(wave_stiffness[k] * depth[k], 0.0))


@parallel_kernel
def mark_seeds(moving, rings, depth, velocity, ruled, friction_share, sensor, wave_stiffness,
               wall, min_depth, strength):
    """strength[i] = sigma_i (module docstring), written at the ``moving`` vertices (int64 list,
    every wet vertex among them; the others are left as they are).

    rings: ``records.Rings``; depth, friction_share, sensor, wave_stiffness (n,); velocity
    (n, 2); ruled (n,) bool; wall (nnz,) bool, the shoreline walls (``continuity.edge_fluxes``':
    no mass crosses them, so a dry neighbour behind one is no front); strength (n,) float.
    """
    offsets, indices = rings.offsets, rings.indices
    forward, backward = rings.dual_edge_vectors, rings.reverse_dual_edge_vectors
    for k in numba.prange(0, moving.shape[0]):
        i = moving[k]
        sigma = 0.0
        if flowing(i, depth, ruled, friction_share, min_depth):
            sensed = exceeds(sensor[i], BORE_SENSOR)
            for e in range(offsets[i], offsets[i + 1]):
                j = indices[e]
                front = depth[j] < min_depth and not wall[e]
                if not (front or (sensed > 0.0 and flowing(j, depth, ruled, friction_share,
                                                           min_depth))):
                    continue  # a wet neighbour, and no bore at i to close on
                a, b = normal_speeds(e, i, j, rings, velocity)
                size = math.sqrt(mean_size2(forward, backward, e))
                if front:
                    celerity = own_celerity(i, wave_stiffness, depth)
                    sigma = max(sigma, exceeds(a, BORE_CLOSING * size * celerity))
                else:
                    stiffness = max(wave_stiffness[i] + wave_stiffness[j], 0.0)
                    wave = size * math.sqrt(0.25 * stiffness * (depth[i] + depth[j]))
                    wave_i = size * own_celerity(i, wave_stiffness, depth)
                    wave_j = size * own_celerity(j, wave_stiffness, depth)
                    sigma = max(sigma, sensed * exceeds(a + b, BORE_CLOSING * wave)
                                * max(exceeds(wave_i, abs(a)), exceeds(wave_j, abs(b))))
                if sigma == 1.0:
                    break
        strength[i] = sigma
