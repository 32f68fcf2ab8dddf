"""
Rain on a pond
==============

Drops dent the calm surface of a 4 m pond and their rings spread, cross and fade on a sloping
beach all round. The pond runs in ripple mode (``mode = "ripples"``: the damped wave equation
on the mesh, :class:`surfflow.Ripples`), coloured by the ripples' height (blue below the rest
level, red above).

The first 25 frames of the shipped example ``pond``, rendered headless;
``surfflow render --example pond`` renders the whole scene to PNG frames and an MP4,
``surfflow view --example pond`` opens it in the live viewer (shift-click drops a drop).
"""

# %%
import matplotlib.pyplot as plt
from PIL import Image

import surfflow as sf
from surfflow.cli import EXAMPLES_DIR
from surfflow.viewer.render import render_scene

scene = sf.load_scene(EXAMPLES_DIR / "pond.toml")
rendered = render_scene(scene, output_dir="render/pond", frames=25, video=False)
print(f"{scene.name}: {len(rendered.images)} frames, t = {25 / scene.fps:.2f} s of {scene.duration} s")

# %%
# The last frame rendered:
plt.figure(figsize=(8, 6))
plt.imshow(Image.open(rendered.images[-1]))
plt.axis("off")
plt.show()
