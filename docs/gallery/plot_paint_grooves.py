"""
Paint on a grooved panel
========================

Red paint running down an inclined panel with diagonal grooves: the feature-based friction
tensor brakes flow across the grooves more than along them, so the paint veers sideways.

The first 30 frames of the shipped example ``paint_grooves``, rendered headless;
``surfflow render --example paint_grooves`` renders the whole scene to PNG frames and an MP4,
``surfflow view --example paint_grooves`` opens it in the live viewer.
"""

# %%
import matplotlib.pyplot as plt
from PIL import Image

import surfflow as sf
from surfflow.cli import EXAMPLES_DIR
from surfflow.viewer.render import render_scene

scene = sf.load_scene(EXAMPLES_DIR / "paint_grooves.toml")
rendered = render_scene(scene, output_dir="render/paint_grooves", frames=30, video=False)
print(f"{scene.name}: {len(rendered.images)} frames, t = {30 / scene.fps:.2f} s of {scene.duration} s")

# %%
# The last frame rendered:
plt.figure(figsize=(8, 6))
plt.imshow(Image.open(rendered.images[-1]))
plt.axis("off")
plt.show()
