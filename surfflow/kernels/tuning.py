"""Every tuning constant of the schemes (surfflow/schemes/) and kernels (surfflow/kernels/),
each named once with its reason.

The code reads the constants from here (``from ..kernels.tuning import BORE_SENSOR``); the
three of kernels/tracers.py and the one of kernels/tension.py are still defined in those
modules and listed in ``ELSEWHERE`` with their reasons. ``TUNING`` maps each name defined here
to (value, reason). tests/test_tuning_constants.py checks that every module-level numeric
constant of schemes/ and kernels/ is listed, and counts them. docs/model.md gives the physics
behind each.
"""

# The bore patch (schemes/bores.py): where the momentum scheme takes Heun's HLL fluxes.
BORE_SENSOR = 0.1
BORE_CLOSING = 0.3
BORE_RINGS = 2
INERTIAL_SHARE = 0.5
GRAVITY_SHARE = 0.5

# The continuity's flux (kernels/continuity.py) and its shock sensor (kernels/shocks.py).
FROUDE_RAMP = 1.0
EXPANSION_RAMP = 1e-3
SENSOR_SMOOTH = 0.1
SENSOR_POWER = 3
SENSOR_ROUND_OFF = 1e-12

# The ring fits (kernels/ring_fit.py, and the upwind-weighted one of kernels/momentum_faces.py).
PIVOT_FLOOR = 1e-9

# Speed alone, never results (kernels/_jit.py, kernels/ring_fit.py).
SERIAL_BELOW = 1024
PARALLEL_CHUNK = 256
RING_FIT_BLOCK = 256

TUNING = {
    "BORE_SENSOR": (BORE_SENSOR, "a bore's seed has the shock sensor s_i above this: a step in "
                    "the depth that the ring's fitted plane does not explain"),
    "BORE_CLOSING": (BORE_CLOSING, "a seed's neighbour closes on it at a + b > this share of "
                     "|N| c: a converging front, not a standing step; or its flow runs onto dry "
                     "ground at a > this share: a front with inertia, not a film at rest"),
    "BORE_RINGS": (BORE_RINGS, "rings around the seeds whose edges take Heun's HLL fluxes: the "
                   "width over which the continuity's compression flux spreads a bore"),
    "INERTIAL_SHARE": (INERTIAL_SHARE, "a vertex's flow is inertial where its friction share "
                       "min(1, dt k) is below this: friction does not slave the velocity, so a "
                       "bore can stand"),
    "GRAVITY_SHARE": (GRAVITY_SHARE, "a vertex is ruled by gravity where g_n is at least this "
                      "share of the wave stiffness K = g_n + (sigma / rho) (pi / s)^2: "
                      "capillarity does not rule its shortest wave"),
    "FROUDE_RAMP": (FROUDE_RAMP, "the width in Froude number over which the continuity's flux "
                    "turns from centred (Fr <= 1) to upwind (Fr >= 1 + this): a continuous flux "
                    "of the state"),
    "EXPANSION_RAMP": (EXPANSION_RAMP, "the opening -(a + b) of a dual edge, as a share of its "
                       "speed scale |N| (c^2 + |u|^2)^(1/2), over which the velocity update "
                       "turns from momentum to energy head (and, closing, the Landshoff term "
                       "turns on): continuous in the state, so round-off cannot pick the "
                       "branch; the momentum form's loss below it, (du)^2 / 2g, is under 1e-6 "
                       "of the edge's head. Also the share of the energy made below which the "
                       "energy-stable weight's raise tapers, and of the ring's largest outflow "
                       "below which a face's say in the momentum faces' limiter fades, and a "
                       "dye's face fades to first order; and of the ring's largest "
                       "reconstructed change below which an entry's say in the limiter of the HLL "
                       "stages' reconstruction (the conservative scheme's and the bore patch's) "
                       "fades"),
    "SENSOR_SMOOTH": (SENSOR_SMOOTH, "nu_0: a ring whose unexplained share nu reads below this "
                      "is smooth flow and gets no Landshoff term"),
    "SENSOR_POWER": (SENSOR_POWER, "the sensor s = ((nu - nu_0)+ / (1 - nu_0))^p: a high power "
                     "leaves smooth flow nearly untouched"),
    "SENSOR_ROUND_OFF": (SENSOR_ROUND_OFF, "depth differences this small relative to d are "
                         "round-off: a still, even depth reads as smooth"),
    "PIVOT_FLOOR": (PIVOT_FLOOR, "the ring fit drops to the linear fit where a pivot of B^T B "
                    "falls below this share of its largest diagonal: an undetermined quadratic; "
                    "the momentum faces' upwind-weighted fit counts as singular the same way"),
    "SERIAL_BELOW": (SERIAL_BELOW, "a parallel loop over fewer items (a step's moving "
                     "vertices, the droplets' particles) runs on one thread: waking the others "
                     "costs more than the work"),
    "PARALLEL_CHUNK": (PARALLEL_CHUNK, "iterations a thread takes at a time in a parallel "
                       "loop: uneven work per vertex is balanced"),
    "RING_FIT_BLOCK": (RING_FIT_BLOCK, "vertices per block of ring_fit_weights: one scratch "
                       "allocation per block"),
}

ELSEWHERE = {  # name: (module that defines it, reason)
    "COMPRESSION": ("surfflow.kernels.tracers", "the cap of the dyes' slope limiter phi at a "
                    "jump (Barth and Jespersen's is 1): keeps a dye front sharp"),
    "SMOOTH_MISFIT": ("surfflow.kernels.tracers", "the ring's misfit share below which the dyes' "
                      "cap stays 1 (smooth dye)"),
    "JUMP_MISFIT": ("surfflow.kernels.tracers", "the misfit share from which the dyes' cap is "
                    "COMPRESSION (a dye front)"),
    "MAX_CONTACT_SLOPE": ("surfflow.kernels.tension", "the contact-line depth's slope "
                          "min(tan theta_c, this): a steep contact angle wets over a bounded "
                          "depth"),
}
