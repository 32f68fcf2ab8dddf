"""
Toy boats
=========

Three wooden blocks are dropped into a tray while a spout pours water in: they splash, make waves,
float at their density's draft and drift on the pour's flow (floating bodies,
:class:`surfflow.RigidBody`).

The first 25 frames of the shipped example ``toy_boats``, rendered headless;
``surfflow render --example toy_boats`` renders the whole scene to PNG frames and an MP4,
``surfflow view --example toy_boats`` opens it in the live viewer.
"""

# %%
import matplotlib.pyplot as plt
from PIL import Image

import surfflow as sf
from surfflow.cli import EXAMPLES_DIR
from surfflow.viewer.render import render_scene

scene = sf.load_scene(EXAMPLES_DIR / "toy_boats.toml")
rendered = render_scene(scene, output_dir="render/toy_boats", frames=25, video=False)
print(f"{scene.name}: {len(rendered.images)} frames, t = {25 / scene.fps:.2f} s of {scene.duration} s")

# %%
# The last frame rendered:
plt.figure(figsize=(8, 6))
plt.imshow(Image.open(rendered.images[-1]))
plt.axis("off")
plt.show()
