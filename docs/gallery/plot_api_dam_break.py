"""
A dam break against its exact solution
======================================

Ritter's dry dam break on a flat strip with both momentum schemes, compared with the exact
solution at t = 2 s: 5 mm of still water left of x = 5 m, dry to the right, released at rest.
The :doc:`validation page </validation>` runs the same case at the test resolutions.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

import surfflow as sf
from surfflow.io.procedural import plane

V, F = plane(size=(10.0, 0.2), resolution=(250, 5))          # (n, 3) metres, (m, 3)
geom = sf.precompute((V + (5.0, 0.1, 0.0), F), feature_size=0)
x = geom.vertices[:, 0]
g, depth0, dam, end = 9.81, 0.005, 5.0, 2.0

for scheme in ("momentum", "conservative"):
    sim = sf.Simulation(geom, sf.Params(gravity=(0, 0, -g), friction=0.0, max_dt=1.0, scheme=scheme))
    sim.set_depth(np.where(x < dam, depth0, 0.0))
    sim.advance(end)
    plt.plot(x, sim.depth * 1e3, ".", ms=2, label=f"surfflow, {scheme}")

# Ritter's solution: a rarefaction from the dam, the front at x0 + 2 c0 t.
c0 = np.sqrt(g * depth0)
line = np.linspace(0.0, 10.0, 1000)
exact = np.clip((2 * c0 - (line - dam) / end) / 3, 0, c0) ** 2 / g
plt.plot(line, exact * 1e3, "k-", label="exact (Ritter)")
plt.xlabel("x (m)")
plt.ylabel("depth (mm)")
plt.legend()
plt.show()
