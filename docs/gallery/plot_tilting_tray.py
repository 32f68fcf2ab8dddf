"""
A tilting tray
==============

Water in a pan that is tilted one way, then the other, then set down: the keyframed rigid
rotation accelerates the pan, the water feels gravity minus that acceleration and sloshes
from rim to rim.

The first 25 frames of the shipped example ``tilting_tray``, rendered headless;
``surfflow render --example tilting_tray`` renders the whole scene to PNG frames and an MP4,
``surfflow view --example tilting_tray`` opens it in the live viewer.
"""

# %%
import matplotlib.pyplot as plt
from PIL import Image

import surfflow as sf
from surfflow.cli import EXAMPLES_DIR
from surfflow.viewer.render import render_scene

scene = sf.load_scene(EXAMPLES_DIR / "tilting_tray.toml")
rendered = render_scene(scene, output_dir="render/tilting_tray", frames=25, video=False)
print(f"{scene.name}: {len(rendered.images)} frames, t = {25 / scene.fps:.2f} s of {scene.duration} s")

# %%
# The last frame rendered:
plt.figure(figsize=(8, 6))
plt.imshow(Image.open(rendered.images[-1]))
plt.axis("off")
plt.show()
