"""Tests of surfflow.io.mesh: load_mesh, validate_mesh and their errors and repairs."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import trimesh

import surfflow as sf
from builders import MESHES
from mesh_defects import moebius_strip
from surfflow.io.manifold import interior_edge_pairs, orientation_flips, vertex_fan_counts

TETRA_V = np.array([[0.0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])
TETRA_F = np.array([[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]])


def flat_grid(nx: int = 4, ny: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """A flat, consistently oriented (nx + 1) x (ny + 1) vertex grid of 2 nx ny triangles."""
    x, y = np.meshgrid(np.arange(nx + 1.0), np.arange(ny + 1.0), indexing="ij")
    V = np.column_stack([x.ravel(), y.ravel(), np.zeros(x.size)])
    i, j = np.meshgrid(np.arange(nx), np.arange(ny), indexing="ij")
    v00 = (i * (ny + 1) + j).ravel()
    v10, v01, v11 = v00 + ny + 1, v00 + 1, v00 + ny + 2
    F = np.concatenate([np.column_stack([v00, v10, v11]), np.column_stack([v00, v11, v01])])
    return V, F


def validate_quietly(V, F, **kwargs):
    """validate_mesh, failing the test if it warns."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return sf.validate_mesh(V, F, **kwargs)


# --- exact small cases of the manifold helpers -------------------------------------------------

def test_two_triangles_share_one_interior_edge():
    F = np.array([[0, 1, 2], [2, 1, 3]])
    pairs, crowded, counts = interior_edge_pairs(F, 4)
    assert pairs.tolist() == [[1, 3]]  # half-edge 1 (1->2, face 0) and half-edge 3 (2->1, face 1)
    assert len(crowded) == 0 and len(counts) == 0


def test_bowtie_vertex_has_two_fans():
    F = np.array([[0, 1, 2], [0, 3, 4]])
    pairs, _, _ = interior_edge_pairs(F, 5)
    assert vertex_fan_counts(F, pairs, 5).tolist() == [2, 1, 1, 1, 1]


def test_one_flipped_face_of_three_is_the_one_to_flip():
    F = np.array([[0, 1, 2], [2, 1, 3], [3, 1, 4]])
    F[1] = F[1, ::-1]
    pairs, _, _ = interior_edge_pairs(F, 5)
    flip, non_orientable = orientation_flips(F, pairs)
    assert flip.tolist() == [False, True, False]
    assert not non_orientable.any()


def naive_fan_counts(F: np.ndarray, n: int) -> list[int]:
    """Fans per vertex by a slow walk: faces at v are joined when they share an edge at v."""
    counts = []
    for v in range(n):
        faces = [set(face) for face in F.tolist() if v in face]
        unvisited, fans = list(range(len(faces))), 0
        while unvisited:
            fans += 1
            stack = [unvisited.pop()]
            while stack:
                f = stack.pop()
                joined = [g for g in unvisited if len(faces[f] & faces[g]) == 2]
                unvisited = [g for g in unvisited if g not in joined]
                stack += joined
        counts.append(fans)
    return counts


@pytest.mark.parametrize("seed", range(3))
def test_fan_counts_match_a_slow_walk_on_spheres_with_faces_removed(seed):
    sphere = trimesh.creation.icosphere(subdivisions=1)
    keep = np.random.default_rng(seed).random(len(sphere.faces)) < 0.6
    F = sphere.faces[keep]
    pairs, _, _ = interior_edge_pairs(F, len(sphere.vertices))
    fans = vertex_fan_counts(F, pairs, len(sphere.vertices))
    assert fans.tolist() == naive_fan_counts(F, len(sphere.vertices))
    assert fans.max() > 1  # the removal pinched some vertex, so the test can fail


@pytest.mark.parametrize("seed", range(3))
def test_orientation_flips_make_every_shared_edge_run_both_ways(seed):
    rng = np.random.default_rng(seed)
    sphere = trimesh.creation.icosphere(subdivisions=2)
    F = sphere.faces[rng.random(len(sphere.faces)) < 0.8]
    scrambled = rng.random(len(F)) < 0.3
    F[scrambled] = F[scrambled][:, ::-1]
    pairs, _, _ = interior_edge_pairs(F, len(sphere.vertices))
    flip, non_orientable = orientation_flips(F, pairs)
    assert not non_orientable.any()
    F[flip] = F[flip][:, ::-1]
    pairs, _, _ = interior_edge_pairs(F, len(sphere.vertices))
    start = F.ravel()
    assert (start[pairs[:, 0]] != start[pairs[:, 1]]).all()
    assert flip.sum() <= scrambled.sum()  # the minority of each component is flipped

# --- valid meshes -------------------------------------------------------------------------------

def test_bunny_loads_with_the_expected_counts():
    mesh = sf.load_mesh(MESHES / "bunny.obj")
    assert isinstance(mesh, trimesh.Trimesh)
    assert mesh.vertices.shape == (28088, 3) and mesh.faces.shape == (56172, 3)
    assert mesh.vertices.dtype == np.float64 and mesh.faces.dtype == np.int64
    assert mesh.is_watertight and mesh.is_winding_consistent


def test_nut_of_genus_one_loads():
    mesh = sf.load_mesh(str(MESHES / "nut.ply"))
    assert mesh.vertices.shape == (523, 3) and mesh.faces.shape == (1046, 3)
    assert mesh.euler_number == 0  # genus 1: V - E + F = 2 - 2g


def test_vertex_face_pair_and_trimesh_inputs_give_the_same_arrays():
    sphere = trimesh.creation.icosphere(subdivisions=2)
    from_pair = sf.load_mesh((sphere.vertices.tolist(), sphere.faces.tolist()))
    from_trimesh = sf.load_mesh(sphere)
    for mesh in (from_pair, from_trimesh):
        np.testing.assert_array_equal(mesh.vertices, sphere.vertices)
        np.testing.assert_array_equal(mesh.faces, sphere.faces)
        assert mesh.vertices.dtype == np.float64 and mesh.faces.dtype == np.int64


def test_open_flat_grid_is_valid_and_unchanged():
    V, F = flat_grid()
    V_out, F_out = validate_quietly(V, F)
    np.testing.assert_array_equal(V_out, V)
    np.testing.assert_array_equal(F_out, F)


def test_two_components_one_inside_out_are_both_kept_as_given():
    V, F = flat_grid()
    F_inside_out = F[:, ::-1] + len(V)
    V_out, F_out = validate_quietly(np.concatenate([V, V + [0, 0, 5]]), np.concatenate([F, F_inside_out]))
    assert len(V_out) == 2 * len(V)
    np.testing.assert_array_equal(F_out, np.concatenate([F, F_inside_out]))


def test_scene_of_two_objects_in_a_file_is_concatenated(tmp_path):
    path = tmp_path / "two.obj"
    path.write_text("o a\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"
                    "o b\nv 0 0 1\nv 1 0 1\nv 0 1 1\nf 4 5 6\n")
    mesh = sf.load_mesh(path)
    assert mesh.vertices.shape == (6, 3) and mesh.faces.shape == (2, 3)


def test_scene_input_is_concatenated():
    scene = trimesh.Scene([trimesh.creation.box(), trimesh.creation.box().apply_translation([3, 0, 0])])
    mesh = sf.load_mesh(scene)
    assert mesh.vertices.shape == (16, 3) and mesh.faces.shape == (24, 3)
    assert mesh.body_count == 2


def test_obj_texture_seams_weld_keeping_the_file_order_and_quads_are_triangulated(tmp_path):
    path = tmp_path / "seams.obj"
    path.write_text("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0.5 -1 0\n"
                    "vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nvt 0.5 0.5\n"
                    "f 1/1 2/2 3/3 4/4\nf 2/5 1/1 5/5\n")  # vertex 2 has two texture coordinates
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mesh = sf.load_mesh(path)
    np.testing.assert_array_equal(mesh.vertices, [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0.5, -1, 0]])
    assert mesh.faces.tolist() == [[0, 1, 2], [2, 3, 0], [1, 0, 4]]


# --- repairs, each with a MeshWarning -------------------------------------------------------------

def grid_split_down_the_middle():
    """A 2 x 1 grid whose right half uses copies 6, 7 of the middle vertices 2, 3; and the grid."""
    V, F = flat_grid(2, 1)  # vertex (i, j) is 2 i + j; faces 1 and 3 lie right of x = 1
    to_copy = np.arange(8)
    to_copy[[2, 3]] = [6, 7]
    F_split = F.copy()
    F_split[[1, 3]] = to_copy[F[[1, 3]]]
    return np.concatenate([V, V[[2, 3]]]), F_split, V, F


def test_duplicate_vertices_are_merged_keeping_the_vertex_order():
    V_split, F_split, V, F = grid_split_down_the_middle()
    with pytest.warns(sf.MeshWarning, match="merged 2 duplicate vertices"):
        V_out, F_out = sf.validate_mesh(V_split, F_split)
    np.testing.assert_array_equal(V_out, V)
    np.testing.assert_array_equal(F_out, F)


def test_without_processing_duplicates_the_seam_stays_open():
    V_split, F_split, _, _ = grid_split_down_the_middle()
    V_out, F_out = validate_quietly(V_split, F_split, process_duplicates=False)
    np.testing.assert_array_equal(V_out, V_split)
    np.testing.assert_array_equal(F_out, F_split)


def test_duplicate_face_is_dropped_with_its_index():
    with pytest.warns(sf.MeshWarning, match=r"dropped 1 duplicate face .*face 4"):
        V, F = sf.validate_mesh(TETRA_V, np.concatenate([TETRA_F, TETRA_F[2:3, ::-1]]))
    np.testing.assert_array_equal(F, TETRA_F)


def test_duplicate_face_is_an_error_without_processing_duplicates():
    with pytest.raises(sf.MeshError, match=r"1 face repeating the vertices of an earlier face: face 4"):
        sf.validate_mesh(TETRA_V, np.concatenate([TETRA_F, TETRA_F[:1]]), process_duplicates=False)


def test_unreferenced_vertex_is_removed():
    V = np.concatenate([TETRA_V[:2], [[9.0, 9, 9]], TETRA_V[2:]])
    F = np.where(TETRA_F >= 2, TETRA_F + 1, TETRA_F)
    with pytest.warns(sf.MeshWarning, match=r"removed 1 vertex no face uses: vertex 2"):
        V_out, F_out = sf.validate_mesh(V, F)
    np.testing.assert_array_equal(V_out, TETRA_V)
    np.testing.assert_array_equal(F_out, TETRA_F)


def test_flipped_faces_are_fixed_and_end_consistently_oriented():
    sphere = trimesh.creation.icosphere(subdivisions=2)
    F = sphere.faces.copy()
    F[[3, 50, 51, 200]] = F[[3, 50, 51, 200]][:, [0, 2, 1]]
    with pytest.warns(sf.MeshWarning, match=r"flipped 4 of 320 faces.*face 3, 50, 51, 200"):
        mesh = sf.load_mesh((sphere.vertices, F))
    assert mesh.is_winding_consistent and mesh.volume > 0
    np.testing.assert_array_equal(mesh.faces, sphere.faces)


def test_quads_of_vertex_face_input_are_fan_triangulated():
    V = np.array([[0.0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [2, 0, 0]])
    with pytest.warns(sf.MeshWarning, match="fan-triangulated 1 face with more than 3 vertices"):
        _, F = sf.validate_mesh(V, [[0, 1, 2, 3], [1, 4, 2]])
    assert F.tolist() == [[0, 1, 2], [0, 2, 3], [1, 4, 2]]


@pytest.mark.parametrize("call", [
    lambda V, F: sf.validate_mesh(V, F),
    lambda V, F: sf.load_mesh((V, F)),
])
def test_repair_warnings_point_at_the_callers_line(call):
    with pytest.warns(sf.MeshWarning) as record:
        call(TETRA_V, np.concatenate([TETRA_F, TETRA_F[:1]]))
    assert record[0].filename == __file__

# --- errors: each names the problem and where it is -----------------------------------------------

def test_missing_file_is_a_file_error_naming_the_path(tmp_path):
    with pytest.raises(sf.MeshFileError, match=r"nowhere\.obj: no such file"):
        sf.load_mesh(tmp_path / "nowhere.obj")


@pytest.mark.parametrize("name, content", [
    ("garbled.obj", b"this is not an obj\nv 1 2\nf a b c\n"),
    ("noise.ply", bytes(range(256)) * 3),
    ("mesh.unknownformat", b"v 0 0 0\n"),
])
def test_unreadable_file_is_a_file_error_naming_the_file(tmp_path, name, content):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(sf.MeshFileError, match=rf"{name}: cannot be read as a mesh"):
        sf.load_mesh(path)


def test_empty_file_is_an_empty_mesh_error(tmp_path):
    path = tmp_path / "empty.obj"
    path.write_text("# nothing here\n")
    with pytest.raises(sf.MeshError, match=r"empty\.obj: the mesh is empty \(0 vertices, 0 faces\)") as excinfo:
        sf.load_mesh(path)
    assert excinfo.type is sf.MeshError  # the file was read; it holds no mesh


def test_vertices_without_faces_are_an_empty_mesh():
    with pytest.raises(sf.MeshError, match=r"test-mesh: the mesh is empty \(4 vertices, 0 faces\)"):
        sf.validate_mesh(TETRA_V, np.zeros((0, 3), dtype=int), where="test-mesh")


@pytest.mark.parametrize("faces, message", [
    (np.array([[0, 1], [1, 2]]), r"faces of shape \(2, 2\) cannot be triangulated"),
    ([[0, 1, 2], [0, 1], [1, 2, 3, 0]], r"1 face with fewer than 3 vertices.*: face 1;"),
    ([[0, 1.5, 2]], r"1 face with vertex indices that are not whole numbers: face 0 \(0.0, 1.5, 2.0\)"),
])
def test_faces_that_are_not_triangles_are_errors(faces, message):
    with pytest.raises(sf.MeshError, match=message):
        sf.validate_mesh(TETRA_V, faces)


def test_flat_vertex_array_gets_a_hint():
    with pytest.raises(sf.MeshError, match=r"\(n, 3\) array .*shape \(4, 2\); add a zero z column"):
        sf.validate_mesh(TETRA_V[:, :2], TETRA_F)


@pytest.mark.parametrize("bad_face", [[0, 1, 4], [0, -1, 2]])
def test_face_index_out_of_range_names_the_face(bad_face):
    F = TETRA_F.copy()
    F[2] = bad_face
    with pytest.raises(sf.MeshError, match=r"1 face referring to vertices that do not exist .*0\.\.3\): face 2 "):
        sf.validate_mesh(TETRA_V, F)


@pytest.mark.parametrize("value", [np.nan, np.inf])
def test_non_finite_coordinates_name_the_vertex(value):
    V = TETRA_V.copy()
    V[3, 1] = value
    with pytest.raises(sf.MeshError, match=r"1 vertex with NaN or infinite coordinates: vertex 3;"):
        sf.validate_mesh(V, TETRA_F)


@pytest.mark.parametrize("value", [1e300, -1e76])
def test_huge_coordinates_name_the_vertex_and_the_fix(value):
    V = TETRA_V.copy()
    V[2, 0] = value
    with pytest.raises(sf.MeshError, match=r"1 vertex with coordinates beyond \+-1e\+75, too large .*"
                                           r"overflow\): vertex 2 at \(.*\); scale the mesh to metres"):
        sf.validate_mesh(V, TETRA_F)


def test_a_mesh_just_inside_the_coordinate_limit_precomputes_as_at_unit_scale():
    scale = 1e75
    sphere = trimesh.creation.icosphere(subdivisions=2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        geom = sf.precompute((sphere.vertices * scale, sphere.faces))
    for name in ("vertices", "bottom", "dual_areas", "friction_tensors"):
        assert np.all(np.isfinite(getattr(geom, name))), name
    unit = sf.precompute((sphere.vertices, sphere.faces))
    assert np.allclose(geom.vertices / scale, unit.vertices, rtol=0, atol=1e-12)
    assert geom.area == pytest.approx(scale ** 2 * unit.area, rel=1e-12)


def test_zero_area_face_is_degenerate_without_repair():
    V = np.concatenate([TETRA_V, [[0.5, 0.5, 0.0]]])  # on the edge from vertex 1 to vertex 2
    F = np.concatenate([TETRA_F, [[1, 4, 2]]])
    with pytest.raises(sf.MeshError, match=r"1 degenerate face \(zero area.*: face 4 \(1, 4, 2\);"):
        sf.validate_mesh(V, F, repair=False)


def test_repeated_index_face_is_degenerate_without_repair():
    F = np.concatenate([TETRA_F, [[0, 3, 3], [1, 1, 1]]])
    with pytest.raises(sf.MeshError, match=r"2 degenerate faces .*: face 4 \(0, 3, 3\), 5 \(1, 1, 1\);"):
        sf.validate_mesh(TETRA_V, F, repair=False)


def test_edge_in_three_faces_is_non_manifold_without_repair():
    V = np.array([[0.0, 0, 0], [1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1]])
    F = np.array([[0, 1, 2], [1, 0, 3], [0, 1, 4]])
    message = r"1 non-manifold edge \(shared by more than 2 faces\): edge \(0, 1\) in 3 faces"
    with pytest.raises(sf.MeshError, match=message):
        sf.validate_mesh(V, F, repair=False)


def test_bowtie_vertex_is_non_manifold_without_repair():
    V = np.array([[0.0, 0, 0], [1, 0, 0], [1, 1, 0], [-1, 0, 0], [-1, -1, 0]])
    with pytest.raises(sf.MeshError, match=r"bowtie: 1 non-manifold vertex \(pinched.*: vertex 0 at"):
        sf.validate_mesh(V, [[0, 1, 2], [0, 3, 4]], where="bowtie", repair=False)


def test_cow_pinched_vertex_is_reported_by_index_without_repair():
    with pytest.raises(sf.MeshError, match=r"cow\.obj: 1 non-manifold vertex .*: vertex 44 at"), \
            pytest.warns(sf.MeshWarning, match="merged 1 duplicate vertex "):
        sf.load_mesh(MESHES / "cow.obj", repair=False)


def test_moebius_strip_is_not_orientable():
    V, F = moebius_strip()
    with pytest.raises(sf.MeshError, match=r"24 faces in a non-orientable part .*: face 0, 1, 2, 3, 4 \(and 19 more\)"):
        sf.validate_mesh(V, F)


def test_unsupported_source_type_is_an_error():
    with pytest.raises(sf.MeshError, match="cannot make a mesh from a int"):
        sf.load_mesh(3)

