"""The shock sensor of the continuity's Landshoff term (kernels/continuity.py).

For a vertex i whose whole one-ring is wet, with r_ij = d_j - d_i the depth differences over
the ring, G_i = P_i sum_j w_ij r_ij the ring fit's gradient (``ring_fit.py``) and c_ij the
neighbours' coordinates:

    nu_i = |sum_j (r_ij - G_i . c_ij)| / (sum_j |r_ij| + |G_i . sum_j c_ij| + SENSOR_ROUND_OFF d_i)

the share of the ring's depth differences that the fitted plane does not explain: 0 for a
linear depth (the fit is exact, on an irregular ring too), O(h / l) in smooth flow of length
scale l, 1 at a step (a bore) or a grid-scale ripple; within [0, 1] by the triangle inequality.
P_i is the wall's slip projection (``state.wall_projections``: the identity off walls, zero at
a wall's corner): a wall mirrors the flow, so the fitted plane has no slope across it, as the
conservative scheme's reconstruction has none (``reconstruction.along_wall``). A wall vertex's
ring lies on one side of it, and its fit, exactly determined at best, extrapolates a slope
across the wall that the next step's round-off swings: read whole, it would set the sensor,
and the Landshoff term with it, by round-off in smooth water. Across a wall the plane leaves the
depth's change unexplained (a depth sloping into a wall, over a bed sloping there); the
Landshoff term it sets acts on the head's drop, which a surface level across the wall does not
have.
The ``SENSOR_ROUND_OFF`` term reads a still, even depth as smooth. The sensor is

    s_i = ((nu_i - nu_0)+ / (1 - nu_0))^p,  nu_0 = ``SENSOR_SMOOTH``, p = ``SENSOR_POWER``

the power leaving smooth flow nearly untouched and nu_0 skipping it outright (kernels/tuning.py). The depth, not the
head, is read: a lake at rest has u = 0 and no Landshoff term whatever its shape, and on a
uniformly accelerating surface the depth is what matches the tilted one it equals
(tests/test_motion.py). It is summed in the gravity push's own walk over the ring
(kernels/pressure.py), which reads every neighbour's depth anyway.
"""

from ._jit import serial_kernel

from .tuning import SENSOR_POWER, SENSOR_ROUND_OFF, SENSOR_SMOOTH


@serial_kernel
def shock_sensor(rises, spread, explained, depth_i):
    """s_i from the ring's sums: rises = sum_j r_ij, spread = sum_j |r_ij|, explained =
    G_i . sum_j c_ij, and d_i (see the module docstring)."""
    nu = abs(rises - explained) / (spread + abs(explained) + SENSOR_ROUND_OFF * depth_i)
    if nu <= SENSOR_SMOOTH:
        return 0.0
    rough = (nu - SENSOR_SMOOTH) / (1.0 - SENSOR_SMOOTH)
    sensor = rough
    for _ in range(SENSOR_POWER - 1):
        sensor *= rough
    return sensor
