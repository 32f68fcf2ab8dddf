"""Scene files: parsing, checking (key, line, allowed values) and building a Simulation."""

from pathlib import Path

import numpy as np
import pytest
import trimesh
from scene_helpers import TINY_SCENE, write_scene

from surfflow.cli import EXAMPLES_DIR
from surfflow.errors import MeshWarning, SceneError
from surfflow.scene.presets import LIQUID_PRESETS
from surfflow.scene.scene import load_scene, parse_scene
from surfflow.scene.scene_setup import initial_depth, scene_geometry, scene_mesh, scene_simulation
from surfflow.scene.toml_lines import key_lines
from surfflow.config import Params


def scene_error(text):
    with pytest.raises(SceneError) as info:
        parse_scene(text, "bad.toml")
    return str(info.value)


def test_tiny_scene_values():
    scene = parse_scene(TINY_SCENE, "dir/tiny.toml")
    assert scene.n_frames == 2
    assert scene.params.viscosity == LIQUID_PRESETS["water"]["viscosity"]
    assert scene.dye_colors == ((1.0, 0.0, 0.0),)
    assert scene.sources[0].stop == float("inf")
    assert scene.mesh.procedural_args == {"size": (0.2, 0.2), "resolution": (6.0, 6.0)}
    assert scene.output.directory == Path("output/tiny") and scene.render.directory == Path("render/tiny")


@pytest.mark.parametrize("name", ["bunny_pour", "bumpy_sphere_rain", "paint_grooves",
                                  "sugar_stripe_dissolving", "drop_in_wind", "tilting_tray",
                                  "waving_flag", "dripping_ceiling", "channel_bore", "toy_boats",
                                  "cork_tray", "pond", "jar_pour"])
def test_examples_parse(name):
    scene = load_scene(EXAMPLES_DIR / f"{name}.toml")
    assert scene.name == name and scene.n_frames > 10


def test_every_shipped_example_is_tested():
    shipped = {path.stem for path in EXAMPLES_DIR.glob("*.toml")}
    assert shipped == set(test_examples_parse.pytestmark[0].args[1])


def test_soluble_layer_is_painted_in_a_ball_and_turns_dissolution_on(tmp_path):
    text = TINY_SCENE + "\n[soluble_layer]\nthickness = 1e-4\ncenter = [0.0, 0.0, 0.0]\nradius = 0.05\n"
    scene = parse_scene(text, tmp_path / "tiny.toml")
    geom = scene_geometry(scene, *scene_mesh(scene.mesh), cache_dir=tmp_path)
    sim = scene_simulation(scene, geom)
    inside = np.linalg.norm(geom.vertices, axis=1) <= 0.05
    assert sim.term("dissolution") in sim.terms
    assert np.array_equal(sim.soluble_layer, np.where(inside, 1e-4, 0.0))
    assert parse_scene(TINY_SCENE, tmp_path / "tiny.toml").soluble_layer is None


def test_liquid_table_sets_the_contact_line_parameters():
    text = TINY_SCENE.replace('preset = "water"', 'preset = "water"\ncontact_angle_hysteresis = 5.0\n'
                              'contact_line_width = 2.0')
    params = parse_scene(text, "tiny.toml").params
    assert params.contact_angle_hysteresis == 5.0 and params.contact_line_width == 2.0
    message = scene_error(TINY_SCENE.replace('preset = "water"',
                                             'preset = "water"\ncontact_angle_hysteresis = 200'))
    assert "liquid.contact_angle_hysteresis" in message and "180" in message


def test_wind_grid_file_is_read_relative_to_the_scene(tmp_path):
    values = np.zeros((2, 2, 2, 3))
    values[..., 0] = 4.0
    np.savez(tmp_path / "gust.npz", origin=[-1.0, -1.0, -1.0], spacing=[2.0, 2.0, 2.0], values=values)
    scene = parse_scene(TINY_SCENE + '\n[wind]\nfile = "gust.npz"\ncoefficient = 0.5\n',
                        tmp_path / "tiny.toml")
    wind = np.empty((1, 3))
    scene.params.wind.sample(np.zeros((1, 3)), wind)
    assert np.allclose(wind, [[4.0, 0.0, 0.0]]) and scene.params.wind_coefficient == 0.5
    both = TINY_SCENE + '\n[wind]\nfile = "gust.npz"\nvelocity = [1.0, 0.0, 0.0]\n'
    assert "not both" in scene_error(both)
    missing = scene_error(TINY_SCENE + '\n[wind]\nfile = "nowhere.npz"\n')
    assert "wind.file" in missing and "nowhere.npz" in missing


def test_soluble_layer_region_errors_name_the_table():
    message = scene_error(TINY_SCENE + "\n[soluble_layer]\nthickness = 1e-4\nradius = 0.05\n")
    assert "soluble_layer" in message and "'center' and 'radius'" in message
    message = scene_error(TINY_SCENE + "\n[soluble_layer]\nthickness = -1.0\n")
    assert "soluble_layer.thickness" in message


def test_unknown_key_names_line_and_allowed_keys():
    message = scene_error(TINY_SCENE.replace('preset = "water"', 'preset = "water"\nviscosty = 1e-3'))
    assert "bad.toml, line 16" in message
    assert "liquid.viscosty" in message and "did you mean 'viscosity'" in message
    assert "surface_tension" in message


def test_unknown_table_is_reported():
    message = scene_error(TINY_SCENE + "\n[liquids]\npreset = 'water'\n")
    assert "line 27" in message and "liquids" in message and "sources" in message


def test_bad_preset_lists_presets():
    message = scene_error(TINY_SCENE.replace('"water"', '"ketchup"'))
    assert "line 15" in message and "'ketchup'" in message and "'honey'" in message


def test_out_of_range_value_is_caught_by_params():
    message = scene_error(TINY_SCENE.replace('preset = "water"', 'preset = "water"\ncontact_angle = 200'))
    assert "line 16" in message and "liquid.contact_angle" in message and "180" in message


def test_wrong_type_in_a_source_names_its_index():
    message = scene_error(TINY_SCENE.replace("rate = 1.0e-6", 'rate = "fast"'))
    assert "line 21" in message and "sources[0].rate" in message and "number" in message


def test_toml_syntax_error_gives_line():
    assert "line 5" in scene_error(TINY_SCENE.replace("[mesh]", "[mesh"))


def test_mesh_needs_exactly_one_source():
    both = TINY_SCENE.replace('procedural = "plane"', 'path = "a.obj"\nprocedural = "plane"')
    assert "exactly one of 'path'" in scene_error(both)
    message = scene_error(TINY_SCENE.replace("resolution = [6, 6]", "subdivisions = 2"))
    assert "mesh.subdivisions" in message and "takes only size, resolution" in message


def test_rain_region_needs_center_and_radius():
    rain = TINY_SCENE.replace('type = "pour"', 'type = "rain"').replace("radius = 0.05\n", "")
    assert "sources[0]" in scene_error(rain) and "both 'center' and 'radius'" in scene_error(rain)


def test_source_stop_before_start():
    message = scene_error(TINY_SCENE.replace("rate = 1.0e-6", "rate = 1.0e-6\nstart = 2.0\nstop = 1.0"))
    assert "sources[0].stop" in message and "later than 'start'" in message


def test_key_lines_of_array_tables():
    lines = key_lines("a = 1\n[[s]]\nx = [1,\n 2]\ny = 2\n[[s]]\nx = 3\n[t.u]\nv = {w = 1}\n")
    assert lines[("a",)] == 1 and lines[("s", 0)] == 2 and lines[("s", 0, "y")] == 5
    assert lines[("s", 1, "x")] == 7 and lines[("t", "u", "v")] == 9


def test_every_preset_is_valid_params():
    for name, values in LIQUID_PRESETS.items():
        physical = {k: v for k, v in values.items() if k != "color"}
        params = Params(**physical)  # raises ParameterError on an out-of-range preset value
        assert all(getattr(params, k) == v for k, v in physical.items()), name


def test_missing_mesh_file_lists_search_path(tmp_path):
    path = write_scene(tmp_path, TINY_SCENE.replace('procedural = "plane"\nsize = [0.2, 0.2]\n'
                                                    'resolution = [6, 6]', 'path = "nowhere.obj"'))
    with pytest.raises(SceneError, match="nowhere.obj.*not found.*SURFFLOW_MESH_PATH"):
        scene_mesh(load_scene(path).mesh)


def test_a_mesh_reached_through_other_folders_is_named_by_its_own_path(tmp_path):
    """A scene written into an output folder reaches the mesh by a relative path
    (``output/cow/../../meshes/cow.obj``); the loader's repair warning names the file itself,
    absolute, with no ``..`` in it."""
    meshes, output = tmp_path / "meshes", tmp_path / "output" / "cow"
    meshes.mkdir()
    output.mkdir(parents=True)
    mesh = trimesh.creation.icosphere(subdivisions=1)
    vertices = np.vstack([mesh.vertices, mesh.vertices[:1]])  # a duplicate, merged at load
    faces = mesh.faces.copy()
    faces[0, 0] = len(vertices) - 1
    trimesh.Trimesh(vertices, faces, process=False).export(meshes / "ball.obj")
    scene = load_scene(write_scene(output, TINY_SCENE.replace(
        'procedural = "plane"\nsize = [0.2, 0.2]\nresolution = [6, 6]',
        'path = "../../meshes/ball.obj"')))
    with pytest.warns(MeshWarning) as caught:
        scene_mesh(scene.mesh)
    named = str((meshes / "ball.obj").resolve())
    assert all(named in str(w.message) and ".." not in str(w.message) for w in caught), [
        str(w.message) for w in caught]


def test_placement_and_initial_region(tmp_path):
    text = TINY_SCENE.replace("[output]", "[initial]\ndepth = 0.002\ncenter = [0.05, 0.0, 0.0]\n"
                                          "radius = 0.04\n\n[output]")
    scene = parse_scene(text, tmp_path / "tiny.toml")
    V, F = scene_mesh(scene.mesh)
    assert np.allclose(V[:, 1], 0.0) and np.isclose(np.ptp(V[:, 0]), 0.2)
    geom = scene_geometry(scene, V, F, cache_dir=tmp_path / "cache")
    assert np.allclose(geom.normals, [0.0, 1.0, 0.0])
    depth = initial_depth(scene.initial, geom)
    inside = np.linalg.norm(geom.vertices - [0.05, 0.0, 0.0], axis=1) <= 0.04
    assert np.all(depth[inside] == 0.002) and np.all(depth[~inside] == 0.0) and inside.sum() >= 3
    sim = scene_simulation(scene, geom)
    assert sim.n_dyes == 1 and len(sim.sources) == 1
    assert np.isclose(sim.total_volume(), np.sum(geom.dual_areas * depth))


def with_friction(table: str) -> str:
    """The tiny scene with a [friction] table of the given lines."""
    return TINY_SCENE.replace("[[sources]]", f"[friction]\n{table}\n\n[[sources]]")


def test_friction_tensor_sources(tmp_path):
    field = np.linspace(0.0, 1.0, 49)
    np.save(tmp_path / "field.npy", field)
    np.save(tmp_path / "short.npy", field[:10])
    tensors = {}
    for source, extra in (("isotropic", ""), ("field", 'file = "field.npy"')):
        scene = parse_scene(with_friction(f'tensor = "{source}"\n{extra}'), tmp_path / "tiny.toml")
        geom = scene_geometry(scene, *scene_mesh(scene.mesh), tmp_path / "c")
        tensors[source] = geom.friction_tensors
    assert np.array_equal(tensors["isotropic"], np.tile(np.eye(2), (49, 1, 1)))
    assert np.all(tensors["field"][:, 0, 0] + tensors["field"][:, 1, 1] > 2.0 + 1e-9)
    bad = parse_scene(with_friction('tensor = "field"\nfile = "short.npy"'), tmp_path / "tiny.toml")
    with pytest.raises(SceneError, match=r"short.npy.*\(10,\).*\(49,\)"):
        scene_geometry(bad, *scene_mesh(bad.mesh), tmp_path / "c")
    assert "'file' is required" in scene_error(with_friction('tensor = "field"'))


def test_render_engine_and_usd_output_are_scene_keys():
    text = TINY_SCENE.replace('formats = ["npz", "vtu"]', 'formats = ["npz", "usd"]')
    scene = parse_scene(text + '\n[render]\nengine = "blender"\n')
    assert scene.output.formats == ("npz", "usd") and scene.render.engine == "blender"
    assert parse_scene(TINY_SCENE).render.engine == "polyscope"
    with pytest.raises(SceneError, match=r"render\.engine: 'cycles' is not allowed; use one of 'polyscope', 'blender'"):
        parse_scene(TINY_SCENE + '\n[render]\nengine = "cycles"\n')


BOUNDARY_SCENE = """
[mesh]
procedural = "plane"
size = [1.0, 0.2]
resolution = [20, 4]
[solver]
scheme = "conservative"
[initial]
depth = 0.01
[[boundaries]]
type = "inflow"
discharge = 0.02
point = [-0.5, 0.0, 0.0]
normal = [-1.0, 0.0, 0.0]
"""


@pytest.mark.parametrize("scheme", ["conservative", "momentum"])
def test_boundary_segments_reach_the_simulation(tmp_path, scheme):
    text = BOUNDARY_SCENE.replace('scheme = "conservative"', f'scheme = "{scheme}"')
    scene = parse_scene(text, tmp_path / "channel.toml")
    assert scene.params.scheme == scheme
    assert scene.boundaries[0].kind == "inflow" and scene.boundaries[0].discharge == 0.02
    geom = scene_geometry(scene, *scene_mesh(scene.mesh), cache_dir=tmp_path)
    sim = scene_simulation(scene, geom)
    sim.advance(0.1)
    assert sim.ledger()["inflow"] == pytest.approx(0.02 * 0.2 * 0.1, rel=1e-12)


@pytest.mark.parametrize("change, message", [
    (("discharge = 0.02", "level = 0.02"), "takes 'discharge' only"),
    (("point = [-0.5, 0.0, 0.0]\n", ""), "'point'"),
    (('type = "inflow"', 'type = "drain"'), "not allowed"),
])
def test_bad_boundary_tables_are_named(tmp_path, change, message):
    with pytest.raises(SceneError, match=message):
        parse_scene(BOUNDARY_SCENE.replace(*change), tmp_path / "channel.toml")
