"""
Sugar dissolving
================

Water running down a tilted panel over a patch of sugar (a soluble layer 20 micrometres
thick): the flow dissolves it, carries it downstream and deposits it where the film thins out.

The first 30 frames of the shipped example ``sugar_stripe_dissolving``, rendered headless;
``surfflow render --example sugar_stripe_dissolving`` renders the whole scene to PNG frames and an MP4,
``surfflow view --example sugar_stripe_dissolving`` opens it in the live viewer.
"""

# %%
import matplotlib.pyplot as plt
from PIL import Image

import surfflow as sf
from surfflow.cli import EXAMPLES_DIR
from surfflow.viewer.render import render_scene

scene = sf.load_scene(EXAMPLES_DIR / "sugar_stripe_dissolving.toml")
rendered = render_scene(scene, output_dir="render/sugar_stripe_dissolving", frames=30, video=False)
print(f"{scene.name}: {len(rendered.images)} frames, t = {30 / scene.fps:.2f} s of {scene.duration} s")

# %%
# The last frame rendered:
plt.figure(figsize=(8, 6))
plt.imshow(Image.open(rendered.images[-1]))
plt.axis("off")
plt.show()
