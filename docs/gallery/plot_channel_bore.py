"""
A bore in a channel
===================

A bore running down a 4 m channel: 2 cm of still water, then a discharge of 0.05 m^2/s
flows in at the left end and leaves through the open right end. The conservative scheme
(``[solver] scheme``) puts the bore's front where the jump conditions say; a red dye marks it.

The first 25 frames of the shipped example ``channel_bore``, rendered headless;
``surfflow render --example channel_bore`` renders the whole scene to PNG frames and an MP4,
``surfflow view --example channel_bore`` opens it in the live viewer.
"""

# %%
import matplotlib.pyplot as plt
from PIL import Image

import surfflow as sf
from surfflow.cli import EXAMPLES_DIR
from surfflow.viewer.render import render_scene

scene = sf.load_scene(EXAMPLES_DIR / "channel_bore.toml")
rendered = render_scene(scene, output_dir="render/channel_bore", frames=25, video=False)
print(f"{scene.name}: {len(rendered.images)} frames, t = {25 / scene.fps:.2f} s of {scene.duration} s")

# %%
# The last frame rendered:
plt.figure(figsize=(8, 6))
plt.imshow(Image.open(rendered.images[-1]))
plt.axis("off")
plt.show()
