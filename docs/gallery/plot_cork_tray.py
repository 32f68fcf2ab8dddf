"""
A cork in the tilting tray
==========================

A cork (a sphere of density 240) floats in the tilting tray: the pan tilts one way, then the
other, then is set down; the water sloshes from rim to rim and the cork rides the slosh,
pushed by the water's pressure and drag (floating bodies, :class:`surfflow.RigidBody`).

The first 25 frames of the shipped example ``cork_tray``, rendered headless;
``surfflow render --example cork_tray`` renders the whole scene to PNG frames and an MP4,
``surfflow view --example cork_tray`` opens it in the live viewer.
"""

# %%
import matplotlib.pyplot as plt
from PIL import Image

import surfflow as sf
from surfflow.cli import EXAMPLES_DIR
from surfflow.viewer.render import render_scene

scene = sf.load_scene(EXAMPLES_DIR / "cork_tray.toml")
rendered = render_scene(scene, output_dir="render/cork_tray", frames=25, video=False)
print(f"{scene.name}: {len(rendered.images)} frames, t = {25 / scene.fps:.2f} s of {scene.duration} s")

# %%
# The last frame rendered:
plt.figure(figsize=(8, 6))
plt.imshow(Image.open(rendered.images[-1]))
plt.axis("off")
plt.show()
