"""
Water dripping off a ceiling
============================

Water seeping onto the underside of a grooved ceiling tilted 30 degrees from horizontal: it
runs down the grooves, and where the pendant film is deeper than surface tension holds
(sqrt(2 sigma / (rho g_n)), 4.1 mm of water on this tilt) it drips; the drops fall to the floor.

The first 24 frames of the shipped example ``dripping_ceiling``, rendered headless;
``surfflow render --example dripping_ceiling`` renders the whole scene to PNG frames and an MP4,
``surfflow view --example dripping_ceiling`` opens it in the live viewer.
"""

# %%
import matplotlib.pyplot as plt
from PIL import Image

import surfflow as sf
from surfflow.cli import EXAMPLES_DIR
from surfflow.viewer.render import render_scene

scene = sf.load_scene(EXAMPLES_DIR / "dripping_ceiling.toml")
rendered = render_scene(scene, output_dir="render/dripping_ceiling", frames=24, video=False)
print(f"{scene.name}: {len(rendered.images)} frames, t = {24 / scene.fps:.2f} s of {scene.duration} s")

# %%
# The last frame rendered:
plt.figure(figsize=(8, 6))
plt.imshow(Image.open(rendered.images[-1]))
plt.axis("off")
plt.show()
