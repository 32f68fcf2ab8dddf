"""
The library in a minute: a pour on a sphere
===========================================

The API without a scene file: a mesh, its precomputed geometry, a simulation with a pour, a
run of half a second, and the volume ledger. The picture is drawn by polyscope without a
window (EGL): ``ps.set_allow_headless_backends(True)`` before ``ps.init()``, a few frames
drawn with ``ps.show(forFrames=N)``, then a screenshot.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np
import polyscope as ps
import trimesh

import surfflow as sf

sphere = trimesh.creation.icosphere(subdivisions=4, radius=0.2)        # 2,562 vertices
geom = sf.precompute(sf.load_mesh(sphere), feature_size=0)             # (n, 3) vertices, ...
sim = sf.Simulation(geom, sf.Params(gravity=(0.0, -9.81, 0.0)), n_dyes=1)
sim.add_source(center=(0.0, 0.2, 0.0), radius=0.03, rate=2e-5, stop=0.4, dye=0)  # m^3/s
sim.advance(0.5)                                                       # lands on t = 0.5 s
print(f"t = {sim.time} s, volume {sim.total_volume():.3e} m^3")
print({name: f"{volume:.3e}" for name, volume in sim.ledger().items() if volume})   # m^3

# %%
# The depth on the sphere, drawn headless by polyscope on a log scale (the film is a few
# micrometres thin where it runs down the sides, millimetres under the pour):
ps.set_allow_headless_backends(True)
ps.init()
ps.set_window_size(640, 480)
ps.set_ground_plane_mode("shadow_only")
mesh = ps.register_surface_mesh("sphere", geom.vertices, geom.faces)
log_depth = np.log10(np.maximum(sim.depth, 1e-7))                    # (n,), log10 of metres
mesh.add_scalar_quantity("log10 depth (m)", log_depth, enabled=True, cmap="viridis",
                         vminmax=(-7.0, -3.0))
ps.look_at((0.45, 0.35, 0.45), (0.0, 0.0, 0.0))
ps.show(forFrames=2)
image = ps.screenshot_to_buffer(transparent_bg=False)
ps.remove_all_structures()

plt.figure(figsize=(6.4, 4.8))
plt.imshow(image)
plt.axis("off")
plt.show()
