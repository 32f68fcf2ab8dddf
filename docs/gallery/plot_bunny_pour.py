"""
Water poured on the bunny
=========================

Water poured on the Stanford bunny from two spouts, one dyed red and one yellow. Where it
piles up under the bunny it drips off as droplets, which land on the bunny or fall past the
floor.

The first 15 frames of the shipped example ``bunny_pour``, rendered headless;
``surfflow render --example bunny_pour`` renders the whole scene to PNG frames and an MP4,
``surfflow view --example bunny_pour`` opens it in the live viewer.
"""

# %%
import matplotlib.pyplot as plt
from PIL import Image

import surfflow as sf
from surfflow.cli import EXAMPLES_DIR
from surfflow.viewer.render import render_scene

scene = sf.load_scene(EXAMPLES_DIR / "bunny_pour.toml")
rendered = render_scene(scene, output_dir="render/bunny_pour", frames=15, video=False)
print(f"{scene.name}: {len(rendered.images)} frames, t = {15 / scene.fps:.2f} s of {scene.duration} s")

# %%
# The last frame rendered:
plt.figure(figsize=(8, 6))
plt.imshow(Image.open(rendered.images[-1]))
plt.axis("off")
plt.show()
