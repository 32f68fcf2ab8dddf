"""
Rain on a bumpy sphere
======================

Rain on a bumpy sphere: the film collects in the dimples and runs off the underside.

The first 25 frames of the shipped example ``bumpy_sphere_rain``, rendered headless;
``surfflow render --example bumpy_sphere_rain`` renders the whole scene to PNG frames and an MP4,
``surfflow view --example bumpy_sphere_rain`` opens it in the live viewer.
"""

# %%
import matplotlib.pyplot as plt
from PIL import Image

import surfflow as sf
from surfflow.cli import EXAMPLES_DIR
from surfflow.viewer.render import render_scene

scene = sf.load_scene(EXAMPLES_DIR / "bumpy_sphere_rain.toml")
rendered = render_scene(scene, output_dir="render/bumpy_sphere_rain", frames=25, video=False)
print(f"{scene.name}: {len(rendered.images)} frames, t = {25 / scene.fps:.2f} s of {scene.duration} s")

# %%
# The last frame rendered:
plt.figure(figsize=(8, 6))
plt.imshow(Image.open(rendered.images[-1]))
plt.axis("off")
plt.show()
