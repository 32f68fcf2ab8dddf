"""
Checkpoints: a restart continues bit for bit
============================================

``state_dict()`` holds everything a simulation needs to go on; ``load_state_dict`` puts it back.
A run stopped at a frame and resumed from its saved state gives the same bits as the run that
never stopped (the same holds for ``surfflow run --resume output/.../checkpoint.npz``).
"""

# %%
import numpy as np
import trimesh

import surfflow as sf

sphere = trimesh.creation.icosphere(subdivisions=3, radius=0.2)
geom = sf.precompute(sf.load_mesh(sphere), feature_size=0)


def poured() -> sf.Simulation:
    sim = sf.Simulation(geom, sf.Params(gravity=(0.0, -9.81, 0.0)))
    sim.add_source(center=(0.0, 0.2, 0.0), radius=0.04, rate=1e-5, stop=0.3)
    return sim


straight = poured()                             # the run that never stops
straight.advance(0.25)
straight.advance(0.35)

first = poured()
first.advance(0.25)
saved = first.state_dict()                      # or a checkpoint file on disk
second = poured()
second.load_state_dict(saved)
second.advance(0.35)

print("same time:", second.time == straight.time)
print("same depth, bit for bit:", np.array_equal(second.depth, straight.depth))
print("same velocity, bit for bit:", np.array_equal(second.velocity, straight.velocity))
