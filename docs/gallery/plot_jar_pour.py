"""
Water poured on a textured jar
==============================

Water poured on the shoulder of a glazed ceramic jar that has its own UV layout and tile
texture (``meshes/jar.obj``, ``jar.mtl``, ``jar.png``, made by ``meshes/make_textured_asset.py``).
The film runs down the body and drips off under the belly. The jar is drawn with its texture,
darker where the water has been: the surface's wetness dries over ``drying_time`` (a minute),
so the trail stays dark after the film has drained.

The first 45 frames of the shipped example ``jar_pour``, rendered headless;
``surfflow render --example jar_pour`` renders the whole scene to PNG frames and an MP4,
``surfflow view --example jar_pour`` opens it in the live viewer.
"""

# %%
import matplotlib.pyplot as plt
from PIL import Image

import surfflow as sf
from surfflow.cli import EXAMPLES_DIR
from surfflow.viewer.render import render_scene

scene = sf.load_scene(EXAMPLES_DIR / "jar_pour.toml")
rendered = render_scene(scene, output_dir="render/jar_pour", frames=45, video=False)
print(f"{scene.name}: {len(rendered.images)} frames, t = {45 / scene.fps:.2f} s of {scene.duration} s")

# %%
# The last frame rendered:
plt.figure(figsize=(8, 6))
plt.imshow(Image.open(rendered.images[-1]))
plt.axis("off")
plt.show()
