"""
Paint on a waving flag
======================

Red paint poured on a hanging flag that waves in the wind: a travelling-wave deformer, pinned
at the pole, moves the mesh; the paint runs down the moving cloth, is thrown about by its
acceleration and drips off the bottom edge (booked as outflow).

The first 25 frames of the shipped example ``waving_flag``, rendered headless;
``surfflow render --example waving_flag`` renders the whole scene to PNG frames and an MP4,
``surfflow view --example waving_flag`` opens it in the live viewer.
"""

# %%
import matplotlib.pyplot as plt
from PIL import Image

import surfflow as sf
from surfflow.cli import EXAMPLES_DIR
from surfflow.viewer.render import render_scene

scene = sf.load_scene(EXAMPLES_DIR / "waving_flag.toml")
rendered = render_scene(scene, output_dir="render/waving_flag", frames=25, video=False)
print(f"{scene.name}: {len(rendered.images)} frames, t = {25 / scene.fps:.2f} s of {scene.duration} s")

# %%
# The last frame rendered:
plt.figure(figsize=(8, 6))
plt.imshow(Image.open(rendered.images[-1]))
plt.axis("off")
plt.show()
