"""The Coriolis force on a film whose velocity is measured relative to a turning surface (SPEC §9).

The film's velocity u is stored relative to the surface, in each vertex's tangent frame
(t0, t1, n = t0 x t1), and the frame moves with the mesh. In a frame turning at Omega the
relative velocity feels -Omega x (Omega x r) and -dOmega/dt x r, both part of the surface
point's acceleration a_i (``inertia.py``), and the Coriolis force -2 Omega x u, which this
kernel adds. Its tangential part is -2 (Omega . n) n x u: it turns u about the normal without
changing its length. Its rate is the sum of two turns about i's normal between the last two
moves (dt_m apart), equal for a rigid motion:

* the turn of i's tangent frame, which holds u (t0', t1' now, t0, t1 before), omega_frame =
  theta_f / dt_m with theta_f = atan2(t0' . t1 - t1' . t0, t0' . t0 + t1' . t1) (the frame
  follows the first ring edge, so it turns with a rigid motion exactly);
* the spin of the surface itself, the turn of the frame plus half the curl of the change of
  the ring's tangent coordinates c_ij (``neighbor_coords``) in the frame, from the one-ring
  fit (``ring_fit.py``, grad f_i = sum_j w_ij (f_j - f_i)):

      omega_spin = (theta_f + theta_r) / dt_m,  theta_r = 1/2 sum_j (w_ij,0 (c'_ij,1 - c_ij,1)
                                                                   - w_ij,1 (c'_ij,0 - c_ij,0)).

  A rigid motion leaves the ring's coordinates as they are (theta_r = 0).

Over the step dt the kernel solves du/dt = -(f omega_frame + s omega_spin) n x u exactly, a turn
of u by -(f omega_frame + s omega_spin) dt about n:

    u0' =  cos(phi) u0 + sin(phi) u1,   u1' = -sin(phi) u0 + cos(phi) u1,
    phi = (f theta_f + s (theta_f + theta_r)) dt / dt_m

(a rotation: stable for any dt, and it neither adds nor takes kinetic energy). f = s = 1 is the
Coriolis force: for a rigid motion both rates are Omega . n, exactly, and the force is
-2 Omega_n n x u. Where the momentum is carried in the world's frame (the momentum scheme's
continuity carries w = u + V, V the surface's velocity), the carried term -(u . grad) w holds
-(u . grad) V, which is the spin's turn -omega_spin n x u (and on a deforming surface the
strain rate too), so only the frame's turn is left to add, f = 1, s = 0: in two halves around
that scheme's push, a symmetric split of the frame's forces (``SurfaceMotion.half_turn`` before
it, ``SurfaceMotion.push`` after it). The normal part of the force, -2 (Omega_t x u) . n, is
left out. Dry vertices are skipped.
"""

import math

import numba

from ._jit import parallel_kernel, serial_kernel


@serial_kernel
def frame_turn(frames_before, frames_now, i):
    """The angle (rad) by which i's tangent frame turned about its normal between two moves;
    frames (n, 2, 3)."""
    cross = 0.0
    same = 0.0
    for axis in range(3):
        cross += (frames_now[i, 0, axis] * frames_before[i, 1, axis]
                  - frames_now[i, 1, axis] * frames_before[i, 0, axis])
        same += (frames_now[i, 0, axis] * frames_before[i, 0, axis]
                 + frames_now[i, 1, axis] * frames_before[i, 1, axis])
    return math.atan2(cross, same)


@serial_kernel
def ring_turn(offsets, fit_weights, coords_before, coords_now, i):
    """Half the curl of the change of i's ring in its own tangent coordinates between two moves,
    from the one-ring fit: the angle (rad) by which the surface turned about i's frame."""
    curl = 0.0
    for e in range(offsets[i], offsets[i + 1]):
        curl += (fit_weights[e, 0] * (coords_now[e, 1] - coords_before[e, 1])
                 - fit_weights[e, 1] * (coords_now[e, 0] - coords_before[e, 0]))
    return 0.5 * curl


@parallel_kernel
def apply_coriolis(offsets, fit_weights, frames, ring_coords, move_time, turns, depth, min_depth,
                   dt, velocity, also):
    """velocity (n, 2) turned in place by -(f omega_frame + s omega_spin) dt about each wet
    vertex's normal (the module docstring: f = s = 1 is the Coriolis force), and ``also`` (n, 2)
    by -(f' omega_frame + s' omega_spin) dt, or (0, 2): nothing else; turns = (f, s, f', s').

    offsets (n + 1,): CSR one-rings; fit_weights (nnz, 2); frames (2, n, 2, 3) and ring_coords
    (2, nnz, 2): the tangent frames and the ring's tangent coordinates (``neighbor_coords``) at
    the last two moves, oldest first, move_time (s) apart; depth (n,); velocity and also in each
    frame now. Writes only its own vertex.
    """
    turn_also = also.shape[0] > 0
    for i in numba.prange(0, depth.shape[0]):
        if depth[i] < min_depth:
            continue
        theta_f = frame_turn(frames[0], frames[1], i)
        theta_r = ring_turn(offsets, fit_weights, ring_coords[0], ring_coords[1], i)
        scale = dt / move_time
        angle = (turns[0] * theta_f + turns[1] * (theta_f + theta_r)) * scale
        rotate(velocity, i, math.cos(angle), math.sin(angle))
        if turn_also:
            angle = (turns[2] * theta_f + turns[3] * (theta_f + theta_r)) * scale
            rotate(also, i, math.cos(angle), math.sin(angle))


@serial_kernel
def rotate(velocity, i, cosine, sine):
    """velocity[i] (a row of (n, 2)) turned in place: u0' = c u0 + s u1, u1' = -s u0 + c u1."""
    u0 = velocity[i, 0]
    u1 = velocity[i, 1]
    velocity[i, 0] = cosine * u0 + sine * u1
    velocity[i, 1] = -sine * u0 + cosine * u1
