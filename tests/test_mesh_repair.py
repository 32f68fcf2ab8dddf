"""Tests of the repairs load_mesh makes (surfflow.io.collapse, surfflow.io.sheets), units and up,
and `surfflow info`."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import trimesh

import surfflow as sf
from builders import MESHES
from mesh_defects import (icosphere_with_one_face_flipped, inject_defects, moebius_strip, square_with_a_zero_area_cap,
                          tetrahedron, three_faces_on_an_edge, two_tetrahedra_sharing_a_vertex)
from surfflow.cli import main
from surfflow.io import sheets
from surfflow.io.manifold import interior_edge_pairs, orientation_flips, vertex_fan_counts
from surfflow.io.mesh_report import mesh_report

REAL_MESHES = sorted(p.name for p in MESHES.iterdir() if p.suffix in (".obj", ".ply"))


def repaired(V, F, **kwargs):
    """validate_mesh's arrays and the texts of the MeshWarnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        V2, F2 = sf.validate_mesh(V, F, **kwargs)
    return V2, F2, [str(w.message) for w in caught if issubclass(w.category, sf.MeshWarning)]


def assert_manifold_and_oriented(V, F):
    """Every edge in at most two faces, one fan per vertex, every shared edge walked both ways."""
    pairs, crowded, _ = interior_edge_pairs(F, len(V))
    assert len(crowded) == 0
    assert (vertex_fan_counts(F, pairs, len(V)) == 1).all()
    flip, non_orientable = orientation_flips(F, pairs)
    assert not flip.any() and not non_orientable.any()


# --- pinched vertices ----------------------------------------------------------------------------

def test_pinched_vertex_becomes_two_vertices_at_one_place_and_the_second_fan_is_reindexed():
    V, F = two_tetrahedra_sharing_a_vertex()
    V2, F2, messages = repaired(V, F)
    assert len(V2) == 8 and np.array_equal(V2[:7], V) and np.array_equal(V2[7], V[0])
    assert np.array_equal(F2[:4], F[:4])  # the first fan keeps vertex 0
    expected = F[4:].copy()
    expected[expected == 0] = 7
    assert np.array_equal(F2[4:], expected)
    assert len(messages) == 1
    assert "split 1 pinched vertex" in messages[0] and "vertex 0 at (0.0, 0.0, 0.0) (2 fans)" in messages[0]
    assert "repair=False" in messages[0]
    assert_manifold_and_oriented(V2, F2)


def test_pinched_vertex_is_an_error_without_repair():
    V, F = two_tetrahedra_sharing_a_vertex()
    with pytest.raises(sf.MeshError, match=r"1 non-manifold vertex \(pinched.*: vertex 0 at"):
        sf.validate_mesh(V, F, repair=False)


# --- edges in three or more faces ----------------------------------------------------------------

def test_three_faces_on_an_edge_keep_the_flat_pair_joined_and_the_fin_gets_copies():
    V, F = three_faces_on_an_edge(fin_angle=90.0)
    V2, F2, messages = repaired(V, F)
    assert len(V2) == 7
    assert np.array_equal(F2[1:], F[1:])  # the flat sheet (faces 1 and 2) stays joined on (0, 1)
    assert sorted(F2[0].tolist()) == [4, 5, 6]  # the fin got copies of vertices 0 and 1
    assert np.array_equal(V2[F2[0]], V[F[0]])
    assert len(messages) == 1 and "cut 1 non-manifold edge" in messages[0]
    assert "edge (0, 1) in 3 faces" in messages[0]
    assert_manifold_and_oriented(V2, F2)


def test_the_smoothest_pair_is_chosen_by_geometry_not_by_face_order():
    V, F = three_faces_on_an_edge(fin_angle=170.0, tilt=30.0)  # the fin turns 10 degrees from
    V2, F2, _ = repaired(V, F)                                  # face 1, face 2 turns 30
    assert sorted(F2[2].tolist()) == [3, 5, 6]  # face 2 (the y < 0 half) is the odd one out
    assert np.array_equal(F2[:2], F[:2])
    assert_manifold_and_oriented(V2, F2)


def test_edge_in_four_faces_of_two_crossing_sheets_becomes_two_sheets():
    V = np.array([[0.0, 0, 0], [1, 0, 0], [0.5, 1, 0], [0.5, -1, 0], [0.5, 0, 1], [0.5, 0, -1]])
    F = np.array([[0, 1, 2], [1, 0, 3], [0, 1, 4], [1, 0, 5]])  # z = 0 sheet and y = 0 sheet
    V2, F2, _ = repaired(V, F)
    assert len(V2) == 8
    assert np.array_equal(F2[:2], F[:2])
    assert set(F2[2:].ravel().tolist()) == {4, 5, 6, 7}
    assert_manifold_and_oriented(V2, F2)


def test_faces_no_pairing_parts_are_cut_loose_on_the_edge(monkeypatch):
    monkeypatch.setattr(sheets, "MAX_PAIRINGS", 1)  # suzanne's seam needs the second pairing
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mesh = sf.load_mesh(MESHES / "suzanne.obj")
    cut = [str(w.message) for w in caught if "non-manifold edge" in str(w.message)]
    assert len(cut) == 1 and "1 face that no pairing parted from the others got vertices" in cut[0]
    assert_manifold_and_oriented(np.asarray(mesh.vertices), np.asarray(mesh.faces))


# --- degenerate faces ----------------------------------------------------------------------------

def test_zero_area_cap_is_collapsed_and_the_square_comes_back():
    V, F = square_with_a_zero_area_cap()
    V2, F2, messages = repaired(V, F)
    assert np.array_equal(V2, V[:5]) and np.array_equal(F2, F[:4])
    assert len(messages) == 1
    assert "collapsed the shortest edge of 1 degenerate face (face 4 (0, 5, 1))" in messages[0]


def test_zero_area_face_whose_collapse_would_fold_the_mesh_is_dropped():
    V = np.array([[0.0, 0, 0], [1, 0, 0], [0, 1, 0], [0.3, 0, 0]])  # vertex 3 on the edge (0, 1)
    F = np.array([[0, 2, 1], [0, 1, 3], [1, 2, 3], [2, 0, 3]])  # face 1 has no area
    V2, F2, messages = repaired(V, F)  # collapsing (3, 0) would leave two copies of one face
    assert np.array_equal(V2, V) and np.array_equal(F2, F[[0, 2, 3]])
    assert len(messages) == 1 and "dropped 1 degenerate face" in messages[0]
    assert "(face 1 (0, 1, 3))" in messages[0] and "collapsed" not in messages[0]
    assert_manifold_and_oriented(V2, F2)


def test_faces_with_a_repeated_vertex_are_dropped_and_counted():
    V, F = tetrahedron()
    V2, F2, messages = repaired(V, np.concatenate([F, [[0, 3, 3], [1, 1, 1]]]))
    assert np.array_equal(V2, V) and np.array_equal(F2, F)
    assert len(messages) == 1
    assert "dropped 2 degenerate faces" in messages[0] and "face 4 (0, 3, 3), 5 (1, 1, 1)" in messages[0]


def test_a_mesh_of_only_degenerate_faces_is_an_error():
    V = np.array([[0.0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0]])
    with pytest.raises(sf.MeshError, match=r"every face is degenerate .*2 faces"):
        sf.validate_mesh(V, [[0, 1, 2], [1, 2, 3]])


# --- orientation ---------------------------------------------------------------------------------

def test_flipped_face_is_oriented_like_its_neighbours():
    V, F, original = icosphere_with_one_face_flipped(face=7)
    V2, F2, messages = repaired(V, F)
    assert np.array_equal(F2, original)
    assert messages == [f"mesh: flipped 1 of {len(F)} faces to orient them consistently with their "
                        "neighbours: face 7"]


def test_moebius_strip_is_refused_naming_it():
    V, F = moebius_strip()
    with pytest.raises(sf.MeshError, match=r"24 faces in a non-orientable part \(like a Moebius strip\)"):
        sf.validate_mesh(V, F, where="strip")


# --- clean meshes pass untouched -----------------------------------------------------------------

@pytest.mark.parametrize("name", ["bunny.obj", "nut.ply"])
def test_clean_real_mesh_is_the_same_bit_for_bit_with_and_without_repair(name):
    with warnings.catch_warnings():
        warnings.simplefilter("error", sf.MeshWarning)
        mesh = sf.load_mesh(MESHES / name)
        strict = sf.load_mesh(MESHES / name, repair=False)
    assert mesh.metadata["repairs"] == []
    assert np.array_equal(mesh.vertices, strict.vertices) and np.array_equal(mesh.faces, strict.faces)
    assert mesh.vertices.tobytes() == strict.vertices.tobytes()


def test_clean_procedural_mesh_comes_back_as_given():
    sphere = trimesh.creation.icosphere(subdivisions=3)
    V, F = np.array(sphere.vertices), np.array(sphere.faces, dtype=np.int64)
    V2, F2, messages = repaired(V, F)
    assert messages == [] and V2.tobytes() == V.tobytes() and F2.tobytes() == F.tobytes()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_sphere_with_many_defects_loads_manifold_and_oriented(seed):
    sphere = trimesh.creation.icosphere(subdivisions=3)
    V, F = inject_defects(np.array(sphere.vertices), np.array(sphere.faces, dtype=np.int64), 12, seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sf.MeshWarning)
        mesh = sf.load_mesh((V, F))
    counts = {r.kind: r.count for r in mesh.metadata["repairs"]}
    assert counts["pinched_vertices"] == 12 and counts["non_manifold_edges"] == 12
    assert counts["degenerate_faces"] == 12
    assert_manifold_and_oriented(np.asarray(mesh.vertices), np.asarray(mesh.faces))


# --- real meshes ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name", REAL_MESHES)
def test_every_real_mesh_loads_manifold_and_consistently_oriented(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sf.MeshWarning)
        mesh = sf.load_mesh(MESHES / name)
    assert_manifold_and_oriented(np.asarray(mesh.vertices), np.asarray(mesh.faces))


@pytest.mark.parametrize("name, kinds, error", [
    ("cow.obj", ["merged_vertices", "pinched_vertices"], "1 non-manifold vertex"),
    ("teapot.obj", ["merged_vertices", "pinched_vertices"], "1 non-manifold vertex"),
    ("suzanne.obj", ["merged_vertices", "duplicate_faces", "non_manifold_edges", "pinched_vertices"],
     "1 non-manifold edge"),
    ("beetle.obj", ["non_manifold_edges", "flipped_faces"], "47 non-manifold edges"),
    ("ogre_patches.obj", ["merged_vertices", "degenerate_faces"], "4 degenerate faces"),
])
def test_real_meshes_get_one_warning_per_repair_and_are_refused_without_repair(name, kinds, error):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mesh = sf.load_mesh(MESHES / name)
    assert [r.kind for r in mesh.metadata["repairs"]] == kinds
    assert [str(w.message) for w in caught] == [r.message for r in mesh.metadata["repairs"]]
    with pytest.raises(sf.MeshError, match=error), warnings.catch_warnings():
        warnings.simplefilter("ignore", sf.MeshWarning)
        sf.load_mesh(MESHES / name, repair=False)


def test_cow_pinch_is_split_where_the_old_loader_refused():
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        mesh = sf.load_mesh(MESHES / "cow.obj")
    pinch = mesh.metadata["repairs"][1]
    assert pinch.count == 1 and "vertex 44 at (0.004477, 0.279891, -0.719951) (2 fans)" in pinch.message
    assert np.allclose(mesh.vertices[-1], [0.004477, 0.279891, -0.719951], rtol=0, atol=5e-7)
    assert (np.all(mesh.vertices[:-1] == mesh.vertices[-1], axis=1)).sum() == 1  # the copy's twin


# --- units and up --------------------------------------------------------------------------------

def test_centimetres_are_scaled_by_a_hundredth():
    V, F = tetrahedron()
    mesh = sf.load_mesh((V * 100.0, F), units="cm")
    assert np.allclose(mesh.vertices, V, rtol=1e-15, atol=0)
    assert np.array_equal(sf.load_mesh((V, F), units="in").vertices, V * 0.0254)


def test_up_z_turns_the_files_z_onto_y():
    V, F = tetrahedron(apex=2.0)
    mesh = sf.load_mesh((V, F), up="z")
    assert np.array_equal(mesh.vertices[3], [0.2, 2.0, -0.2])  # (x, y, z) -> (x, z, -y)
    assert np.array_equal(mesh.faces, F)


@pytest.mark.parametrize("options, allowed", [({"units": "km"}, "'m', 'cm', 'mm', 'in'"),
                                              ({"up": "x"}, "'y', 'z'")])
def test_unknown_units_or_up_list_the_allowed_ones(options, allowed):
    with pytest.raises(sf.MeshError, match=allowed):
        sf.load_mesh(tetrahedron(), **options)


def write_obj(path, V, F):
    path.write_text("".join(f"v {x:.17g} {y:.17g} {z:.17g}\n" for x, y, z in V)
                    + "".join(f"f {a + 1} {b + 1} {c + 1}\n" for a, b, c in F))
    return path


def test_a_mesh_1015_units_across_warns_naming_units(tmp_path):
    V, F = tetrahedron()
    V = V / np.linalg.norm(V.max(0) - V.min(0)) * 1015.0
    path = write_obj(tmp_path / "big.obj", V, F)
    with pytest.warns(sf.MeshWarning, match=r"big\.obj: the mesh is 1015 m across .*units"):
        sf.load_mesh(path)
    with warnings.catch_warnings():
        warnings.simplefilter("error", sf.MeshWarning)
        sf.load_mesh(path, units="mm")


def test_scene_mesh_table_takes_units_and_up(tmp_path):
    from scene_helpers import TINY_SCENE

    from surfflow.scene.scene import parse_scene
    from surfflow.scene.scene_setup import scene_mesh
    V, F = tetrahedron()
    write_obj(tmp_path / "tet.obj", V * 100.0, F)
    text = TINY_SCENE.replace('procedural = "plane"\nsize = [0.2, 0.2]\nresolution = [6, 6]\n'
                              'rotation = [-90.0, 0.0, 0.0]',
                              'path = "tet.obj"\nunits = "cm"\nup = "z"')
    scene = parse_scene(text, tmp_path / "tiny.toml")
    assert (scene.mesh.units, scene.mesh.up) == ("cm", "z")
    V2, F2 = scene_mesh(scene.mesh)
    expected = sf.load_mesh(tmp_path / "tet.obj", units="cm", up="z")
    assert np.array_equal(V2, expected.vertices) and np.array_equal(F2, expected.faces)
    assert np.allclose(V2[3], [0.2, 1.0, -0.2], rtol=0, atol=1e-14)


# --- surfflow info -------------------------------------------------------------------------------

def test_info_lists_the_size_components_and_repairs(capsys):
    assert main(["info", str(MESHES / "cow.obj")]) == 0
    out = capsys.readouterr().out
    assert "vertices: 2904" in out and "faces: 5804" in out
    assert "components: 1 (1 closed, 0 open)" in out
    assert "repairs: merged_vertices (1), pinched_vertices (1)" in out
    assert "split 1 pinched vertex" in out and "vertex 44 at" in out


def test_mesh_report_counts_components_and_open_edges():
    V, F = three_faces_on_an_edge()
    report = mesh_report((V, F))
    assert report.n_vertices == 7 and report.n_faces == 3
    assert [(c.faces, c.boundary_edges) for c in report.components] == [(2, 4), (1, 3)]
    assert [r.kind for r in report.repairs] == ["non_manifold_edges"]


def test_info_without_repair_refuses_and_keeps_the_warnings_before_the_error(capsys):
    assert main(["info", str(MESHES / "teapot.obj"), "--no-repair"]) == 1
    err = capsys.readouterr().err
    assert "warning: " in err and "merged 403 duplicate vertices" in err
    assert "error: " in err and "1 non-manifold vertex" in err


def test_info_takes_units_and_up(capsys):
    assert main(["info", str(MESHES / "cow.obj"), "--units", "cm", "--up", "z"]) == 0
    out = capsys.readouterr().out
    assert "diagonal: 0.0213627 m" in out
    assert "bounding box: [-0.0028, -0.0088, -0.0046] to [0.0029, 0.0088, 0.0062] m" in out


@pytest.mark.parametrize("name", ["cow.obj", "teapot.obj", "suzanne.obj", "beetle.obj"])
def test_a_repaired_mesh_checked_again_comes_back_unchanged_and_silent(name):
    """Its split copies are merged and split again into the same arrays: no warning (a scene
    places the loaded mesh and precompute validates it again)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mesh = sf.load_mesh(MESHES / name)
    assert mesh.metadata["repairs"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        again = sf.load_mesh((mesh.vertices, mesh.faces))
    assert np.array_equal(again.vertices, mesh.vertices) and np.array_equal(again.faces, mesh.faces)
    assert again.metadata["repairs"] == []
