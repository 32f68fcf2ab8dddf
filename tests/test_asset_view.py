"""The object drawn with the asset's own texture in polyscope (EGL), measured on pixels:
dry texels show the texture's colours, wet ones theirs darkened by WET_DARKENING (the texture
has four colours, one a quadrant: a texture drawn turned or flipped fails); a mesh
without a texture keeps the neutral object colour, darkened alike. ``asset_renders.py``
draws a two-colour textured square whose lower half is wet after its film has drained."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from surfflow.look import OBJECT_COLOR, WET_DARKENING

pytest.importorskip("polyscope")


@pytest.fixture(scope="module")
def pixels(tmp_path_factory):
    out = tmp_path_factory.mktemp("asset_renders")
    result = subprocess.run([sys.executable, str(Path(__file__).with_name("asset_renders.py")), str(out)],
                            capture_output=True, text=True, timeout=180)
    if result.returncode != 0 and "EGL" in result.stderr:
        pytest.skip("no EGL to render with")
    assert result.returncode == 0, result.stderr
    return json.loads((out / "pixels.json").read_text())


def test_dry_texels_show_the_textures_colours(pixels):
    from asset_renders import TEXTURE_LEFT, TEXTURE_RIGHT
    drawn = pixels["textured"]
    assert drawn["textured"] and not drawn["wet_colors"]
    for side, color in (("left", TEXTURE_LEFT), ("right", TEXTURE_RIGHT)):
        assert np.allclose(drawn["pixels"][f"{side}_dry"], color, atol=3), side


def test_wet_texels_are_the_texture_darkened_by_the_wet_rule(pixels):
    from asset_renders import LOWER_LEFT, LOWER_RIGHT
    found = pixels["textured"]["pixels"]
    for side, color in (("left", LOWER_LEFT), ("right", LOWER_RIGHT)):
        expected = (1.0 - WET_DARKENING) * np.asarray(color, dtype=float)
        assert np.allclose(found[f"{side}_wet"], expected, atol=3), side


def test_a_mesh_without_a_texture_keeps_the_neutral_colour_darkened_where_wet(pixels):
    drawn = pixels["plain"]
    assert not drawn["textured"] and drawn["wet_colors"]
    neutral = 255.0 * np.asarray(OBJECT_COLOR)
    for side in ("left", "right"):
        assert np.allclose(drawn["pixels"][f"{side}_dry"], neutral, atol=3), side
        assert np.allclose(drawn["pixels"][f"{side}_wet"], (1.0 - WET_DARKENING) * neutral, atol=3), side


def test_the_jar_pour_example_runs_on_its_textured_asset(tmp_path):
    """The shipped jar_pour loads its jar with the UVs and texture of meshes/jar.obj and, half a
    second into its pour, has water on the jar and a wet patch there (wetness 1 under the film)."""
    from PIL import Image

    from surfflow.cli import EXAMPLES_DIR
    from surfflow.scene.scene import load_scene
    from surfflow.scene.scene_setup import scene_asset_mesh, scene_geometry, scene_simulation

    scene = load_scene(EXAMPLES_DIR / "jar_pour.toml")
    V, F, asset = scene_asset_mesh(scene.mesh)
    geometry = scene_geometry(scene, V, F, tmp_path / "cache", asset=asset)
    texture = np.asarray(Image.open(Path(geometry.asset.source).with_name("jar.png")).convert("RGB"))
    assert geometry.n_vertices < 20_000 and np.array_equal(geometry.asset.texture, texture)
    sim = scene_simulation(scene, geometry)
    sim.advance(0.5)
    wet = sim.wetness == 1.0
    assert sim.total_volume() > 0 and wet.any() and not wet.all()
    assert sim.depth[wet].max() >= sim.params.min_depth and np.all(sim.depth[~wet] < sim.params.min_depth)
