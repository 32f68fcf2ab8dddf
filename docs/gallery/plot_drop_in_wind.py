"""
A drop in the wind
==================

A water drop on a level plate with a 70 degree contact angle, pushed by a 3 m/s breeze:
surface tension holds it together as a cap while the wind drags it across the plate.

The first 25 frames of the shipped example ``drop_in_wind``, rendered headless;
``surfflow render --example drop_in_wind`` renders the whole scene to PNG frames and an MP4,
``surfflow view --example drop_in_wind`` opens it in the live viewer.
"""

# %%
import matplotlib.pyplot as plt
from PIL import Image

import surfflow as sf
from surfflow.cli import EXAMPLES_DIR
from surfflow.viewer.render import render_scene

scene = sf.load_scene(EXAMPLES_DIR / "drop_in_wind.toml")
rendered = render_scene(scene, output_dir="render/drop_in_wind", frames=25, video=False)
print(f"{scene.name}: {len(rendered.images)} frames, t = {25 / scene.fps:.2f} s of {scene.duration} s")

# %%
# The last frame rendered:
plt.figure(figsize=(8, 6))
plt.imshow(Image.open(rendered.images[-1]))
plt.axis("off")
plt.show()
