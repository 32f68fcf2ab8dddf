"""Known answers for topology, control areas, frames and transport (SPEC §2 items 2-4, 6)."""

import numpy as np
import pytest
import trimesh
from hypothesis import given, settings
from hypothesis import strategies as st

import surfflow as sf
from surfflow.geometry.precompute import update_positions
from surfflow.geometry.topology import build_topology


def flat_patch(nx=9, ny=7, jitter=0.3, seed=0):
    """An irregular triangulation of [0, 1] x [0, 0.8] in the plane z = 0: (V, F)."""
    rng = np.random.default_rng(seed)
    x, y = np.meshgrid(np.linspace(0, 1, nx), np.linspace(0, 0.8, ny), indexing="ij")
    V = np.column_stack([x.ravel(), y.ravel(), np.zeros(x.size)])
    inner = (x.ravel() > 0) & (x.ravel() < 1) & (y.ravel() > 0) & (y.ravel() < 0.8)
    V[inner, :2] += rng.uniform(-jitter, jitter, (inner.sum(), 2)) * [1 / (nx - 1), 0.8 / (ny - 1)]
    F = []
    for i in range(nx - 1):
        for j in range(ny - 1):
            a, b, c, d = i * ny + j, (i + 1) * ny + j, (i + 1) * ny + j + 1, i * ny + j + 1
            F += [[a, b, c], [a, c, d]] if rng.random() < 0.5 else [[a, b, d], [b, c, d]]
    return V, np.array(F)


def sphere(subdivisions, radius=1.0):
    m = trimesh.creation.icosphere(subdivisions=subdivisions, radius=radius)
    return np.array(m.vertices), np.array(m.faces)


def geometry(V, F, **kw):
    kw.setdefault("smoothing_iterations", 0)
    return sf.precompute((V, F), **kw)


def rows(geom):
    return np.repeat(np.arange(geom.n_vertices), np.diff(geom.neighbor_offsets))


def rotation(axis, angle):
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    K = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + np.sin(angle) * K + (1 - np.cos(angle)) * K @ K


# --- topology ---------------------------------------------------------------------------------

def test_rings_are_ordered_fans_of_faces():
    V, F = flat_patch()
    g = geometry(V, F)
    faces = {tuple(np.roll(f, -np.argmin(f))) for f in F}
    for i in range(g.n_vertices):
        ring = g.neighbor_indices[g.neighbor_offsets[i]:g.neighbor_offsets[i + 1]]
        n_tri = len(ring) - 1 if g.is_boundary[i] else len(ring)
        for t in range(n_tri):
            tri = (i, ring[t], ring[(t + 1) % len(ring)])
            assert tuple(np.roll(tri, -np.argmin(tri))) in faces
        assert n_tri == sum(i in f for f in F)


def test_a_vertex_of_two_fans_is_named():
    """A bow tie (two triangles meeting at vertex 2 alone): its rings chain, but vertex 2's walk
    stops after its first fan."""
    F = np.array([[0, 1, 2], [2, 3, 4]])
    with pytest.raises(sf.MeshError, match=r"^vertex 2 is non-manifold"):
        build_topology(F, 5)
    rings = build_topology(F[:1], 3)
    assert rings.neighbor_indices.tolist() == [1, 2, 2, 0, 0, 1]
    assert rings.is_boundary.all()


def test_boundary_flags_reverse_edges_and_components():
    V, F = flat_patch(5, 4)
    V2, F2 = sphere(1)
    g = geometry(np.vstack([V, V2 + 5.0]), np.vstack([F, F2 + len(V)]))
    x, y = V[:, 0], V[:, 1]
    on_edge = np.isclose(x, 0) | np.isclose(x, 1) | np.isclose(y, 0) | np.isclose(y, 0.8)
    assert np.array_equal(g.is_boundary[:len(V)], on_edge)
    assert not g.is_boundary[len(V):].any()
    r = rows(g)
    assert np.array_equal(g.neighbor_indices[g.reverse_edges], r)
    assert np.array_equal(r[g.reverse_edges], g.neighbor_indices)
    assert len(np.unique(g.components)) == 2
    assert g.n_edges == len(trimesh.Trimesh(np.vstack([V, V2]), np.vstack([F, F2 + len(V)]),
                                            process=False).edges_unique)


# --- control areas ----------------------------------------------------------------------------

@settings(max_examples=15, deadline=None)
@given(st.integers(3, 9), st.integers(3, 9), st.floats(0.0, 0.45), st.integers(0, 10_000),
       st.floats(-0.3, 0.3))
def test_dual_areas_sum_to_surface_area(nx, ny, jitter, seed, bend):
    V, F = flat_patch(nx, ny, jitter, seed)
    V[:, 2] = bend * np.sin(3 * V[:, 0]) * np.cos(2 * V[:, 1])
    g = geometry(V, F)
    area = trimesh.Trimesh(V, F, process=False).area
    assert abs(g.dual_areas.sum() - area) <= 1e-13 * area
    assert np.all(g.dual_areas > 0)


def test_dual_area_of_a_regular_vertex_is_a_third_of_its_triangles():
    V = np.array([[0, 0, 0], [1, 0, 0], [0.5, 1, 0]], float)
    g = geometry(V, np.array([[0, 1, 2]]))
    assert np.allclose(g.dual_areas, 0.5 / 3)


# --- normals and frames -----------------------------------------------------------------------

def test_frames_are_orthonormal_and_right_handed():
    g = geometry(*sphere(3))
    t1, t2, n = g.tangent_frames[:, 0], g.tangent_frames[:, 1], g.normals
    assert np.allclose(np.linalg.norm(n, axis=1), 1, atol=1e-14)
    assert np.allclose(np.einsum("ij,ij->i", t1, t2), 0, atol=1e-14)
    assert np.allclose(np.einsum("ij,ij->i", t1, n), 0, atol=1e-14)
    assert np.allclose(np.cross(t1, t2), n, atol=1e-14)
    # on a sphere the vertex normal is the radial direction
    assert np.abs(n - g.vertices / np.linalg.norm(g.vertices, axis=1, keepdims=True)).max() < 0.02


# --- transport --------------------------------------------------------------------------------

def test_transports_are_rotations_and_inverse_of_each_other():
    g = geometry(*sphere(3))
    M = g.edge_transforms
    assert np.allclose(np.einsum("nab,ncb->nac", M, M), np.eye(2), atol=1e-13)
    assert np.allclose(np.linalg.det(M), 1.0, atol=1e-13)
    assert np.allclose(M[g.reverse_edges], M.transpose(0, 2, 1), atol=1e-13)


def test_transport_carries_the_edge_direction_along_the_edge():
    errors = []
    for level in (2, 3, 4):
        g = geometry(*sphere(level))
        c = g.neighbor_coords
        forward = c / np.linalg.norm(c, axis=1, keepdims=True)          # i -> j, seen at i
        back = -c[g.reverse_edges] / np.linalg.norm(c, axis=1, keepdims=True)  # i -> j, seen at j
        carried = np.einsum("nab,nb->na", g.edge_transforms, back)
        errors.append(np.abs(carried - forward).max())
    assert errors[0] < 0.05 and errors[2] < errors[1] < errors[0]


def test_flat_transport_is_in_plane_rotation_without_holonomy():
    V, F = flat_patch()
    g = geometry(V, F)
    M = g.edge_transforms
    assert np.allclose(np.einsum("nab,ncb->nac", M, M), np.eye(2), atol=1e-14)
    c = g.neighbor_coords
    back = -c[g.reverse_edges]
    assert np.allclose(np.einsum("nab,nb->na", M, back), c, atol=1e-14)
    for i in np.flatnonzero(~g.is_boundary):
        ring = list(g.neighbor_indices[g.neighbor_offsets[i]:g.neighbor_offsets[i + 1]])
        assert abs(loop_holonomy(g, ring + ring[:1])) < 1e-13


def cap_loop(g, z0):
    """The boundary loop of the faces above z = z0, counter-clockwise seen from +z, and their area."""
    inside = g.vertices[:, 2] > z0
    cap = trimesh.Trimesh(g.vertices, g.faces[inside[g.faces].all(axis=1)], process=False)
    edges = cap.edges[trimesh.grouping.group_rows(cap.edges_sorted, require_count=1)]
    following = dict(edges)
    loop = [edges[0][0]]
    while len(loop) <= len(edges):
        loop.append(following[loop[-1]])
    assert loop[0] == loop[-1]
    return loop, cap.area


def loop_holonomy(g, loop):
    """Angle by which transport along the closed vertex loop rotates a vector."""
    total = np.eye(2)
    for a, b in zip(loop[:-1], loop[1:]):
        ring = list(g.neighbor_indices[g.neighbor_offsets[b]:g.neighbor_offsets[b + 1]])
        total = g.edge_transforms[g.neighbor_offsets[b] + ring.index(a)] @ total
    return np.arctan2(total[1, 0], total[0, 0])


def test_holonomy_on_a_sphere_is_the_enclosed_area():
    radius = 2.0
    relative_errors = []
    for level in (3, 4, 5):
        g = geometry(*sphere(level, radius))
        loop, area = cap_loop(g, 0.8 * radius)
        expected = area / radius**2
        relative_errors.append(abs(loop_holonomy(g, loop) - expected) / expected)
    assert max(relative_errors) < 0.01
    assert relative_errors[2] < relative_errors[1] < relative_errors[0]


def test_neighbor_coords_keep_edge_lengths():
    g = geometry(*sphere(3))
    lengths = np.linalg.norm(g.vertices[g.neighbor_indices] - g.vertices[rows(g)], axis=1)
    assert np.allclose(np.linalg.norm(g.neighbor_coords, axis=1), lengths, rtol=1e-13)


def test_dual_cells_close_on_a_flat_mesh():
    V, F = flat_patch()
    g = geometry(V, F)
    closure = np.add.reduceat(g.dual_edge_vectors, g.neighbor_offsets[:-1]) + g.boundary_normals
    assert np.abs(closure).max() < 1e-15
    assert np.abs(g.boundary_normals[~g.is_boundary]).max() == 0.0
    # boundary normals point out of the unit patch with length half the two boundary edges
    bottom = np.flatnonzero(np.isclose(V[:, 1], 0) & (V[:, 0] > 0) & (V[:, 0] < 1))
    world = np.einsum("na,nai->ni", g.boundary_normals, g.tangent_frames)
    assert np.allclose(world[bottom] / np.linalg.norm(world[bottom], axis=1, keepdims=True), [0, -1, 0])


def test_green_gauss_gradient_is_exact_for_linear_fields():
    V, F = flat_patch(12, 10, 0.35, seed=3)
    g = geometry(V, F)
    f = 2.0 * V[:, 0] - 3.0 * V[:, 1] + 1.0
    diff = 0.5 * (f[g.neighbor_indices] - f[rows(g)])[:, None] * g.dual_edge_vectors
    grad = np.add.reduceat(diff, g.neighbor_offsets[:-1]) / g.dual_areas[:, None]
    world = np.einsum("na,nai->ni", grad, g.tangent_frames)
    assert np.allclose(world[~g.is_boundary], [2.0, -3.0, 0.0], atol=1e-12)


# --- invariance, deformation and caching ------------------------------------------------------

def test_precompute_is_invariant_under_rotation():
    V, F = sphere(2)
    V = V * [1.0, 0.7, 1.3]
    R = rotation([1, 2, 3], 0.7)
    # a feature size in metres (tests/test_rotation_invariance.py: a percentage, and translations)
    a, b = (geometry(W, F, smoothing_iterations=3, feature_size=0.2) for W in (V, V @ R.T))
    assert np.allclose(b.vertices, a.vertices @ R.T, atol=1e-12)
    for name in ("dual_areas", "bottom", "edge_transforms", "neighbor_coords", "dual_edge_vectors",
                 "friction_tensors"):
        assert np.allclose(getattr(a, name), getattr(b, name), atol=1e-11), name


def test_update_positions_matches_a_fresh_precompute():
    V, F = sphere(3)
    g = geometry(V, F)
    moved = V * [1.2, 0.9, 1.0]
    updated, fresh = update_positions(g, moved), geometry(moved, F)
    for name in ("normals", "dual_areas", "tangent_frames", "edge_transforms", "neighbor_coords",
                 "dual_edge_vectors"):
        assert np.allclose(getattr(updated, name), getattr(fresh, name), atol=1e-13), name
    assert np.array_equal(update_positions(g, V).edge_transforms, g.edge_transforms)
    with pytest.raises(sf.ParameterError, match="shape"):
        update_positions(g, V[:-1])


def bumpy_ellipsoid():
    V, F = sphere(3)
    V = V * [1.0, 0.7, 1.3]
    return V * (1 + 0.03 * np.sin(9 * V[:, 0]) * np.sin(7 * V[:, 2]))[:, None], F


POSITION_FIELDS = ("vertices", "normals", "dual_areas", "tangent_frames", "edge_transforms",
                   "neighbor_coords", "dual_edge_vectors", "boundary_normals", "bottom",
                   "friction_tensors")


def test_moving_the_smoothed_surface_equals_a_fresh_precompute_of_the_moved_mesh():
    """A similarity (rotation, translation, scale by 2.5, with the feature size scaled too)
    commutes with smoothing: update_positions of the moved smoothed vertices and scaled bottom
    heights gives what precompute gives for the moved input mesh, friction tensors included."""
    V, F = bumpy_ellipsoid()
    R, scale, shift = rotation([1, 2, 3], 0.7), 2.5, np.array([0.3, -1.0, 2.0])
    g = sf.precompute((V, F), feature_size=0.3)
    updated = update_positions(g, scale * g.vertices @ R.T + shift, bottom=scale * g.bottom)
    fresh = sf.precompute((scale * V @ R.T + shift, F), feature_size=0.3 * scale)
    units = {"vertices": scale, "dual_areas": scale ** 2, "neighbor_coords": scale,
             "dual_edge_vectors": scale, "boundary_normals": scale, "bottom": scale}
    for name in POSITION_FIELDS:
        assert np.allclose(getattr(updated, name), getattr(fresh, name), rtol=0,
                           atol=1e-12 * units.get(name, 1.0)), name
    assert np.abs(g.friction_tensors - np.eye(2)).max() > 0.05          # the bumps are felt
    # the detail surface x + b n is the input mesh to the normal-line adjustment's tolerance
    assert np.abs(updated.original_vertices - fresh.original_vertices).max() < 1e-9 * scale   # measured 4e-12


def test_editing_the_bottom_equals_a_fresh_precompute_with_that_bottom():
    """A flat geometry given the bottom heights that smoothing finds for a grooved plane is that
    grooved plane's geometry, friction tensors included."""
    V, F = flat_patch(24, 20, jitter=0.2)
    V[:, 2] = 0.01 * np.sin(2 * np.pi * (V[:, 0] + 0.5 * V[:, 1]) / 0.2)
    grooved = sf.precompute((V, F), feature_size=0.15)
    flat = geometry(grooved.vertices, F)
    assert np.array_equal(flat.bottom, np.zeros(len(V)))
    edited = update_positions(flat, flat.vertices, bottom=grooved.bottom)
    for name in POSITION_FIELDS:
        assert np.allclose(getattr(edited, name), getattr(grooved, name), rtol=0, atol=1e-13), name
    assert np.abs(edited.friction_tensors - flat.friction_tensors).max() > 0.1


@pytest.mark.parametrize("bottom, message", [(np.zeros(5), r"shape \(5,\).*shape \(63,\)"),
                                             (np.r_[np.zeros(62), np.nan], "vertex 62 is nan")])
def test_bad_new_bottom_heights_are_rejected(bottom, message):
    g = geometry(*flat_patch())
    with pytest.raises(sf.ParameterError, match=message):
        update_positions(g, g.vertices, bottom=bottom)


def test_update_positions_keeps_friction_attached_to_the_material(tmp_path):
    V, F = sphere(2)
    T = np.tile(np.diag([3.0, 1.0]), (len(V), 1, 1))
    g = geometry(V, F, friction_tensors=T)
    R = rotation([0, 0, 1], 0.4)
    moved = update_positions(g, V @ R.T)
    assert np.allclose(moved.friction_tensors, g.friction_tensors, atol=1e-12)
    assert g.feature_gains is None
    g.save(tmp_path / "given.geom.npz")
    assert sf.SurfaceGeometry.load(tmp_path / "given.geom.npz").feature_gains is None


def test_save_load_round_trips_and_cache_skips_work(tmp_path, monkeypatch):
    V, F = sphere(2)
    g = sf.precompute((V, F), smoothing_iterations=2, cache_dir=tmp_path)
    files = list(tmp_path.glob("*.geom.npz"))
    assert len(files) == 1 and g.key in files[0].name
    loaded = sf.SurfaceGeometry.load(files[0])
    for name in sf.geometry.surface._FIELD_DTYPES:
        assert np.array_equal(getattr(loaded, name), getattr(g, name)), name
    assert loaded.key == g.key
    assert (loaded.normal_weighting, loaded.feature_gains) == ("area", (1.0, 1.0))

    import surfflow.geometry.precompute as pre

    def fail(*args, **kw):
        raise AssertionError("precompute ran although the cache holds the result")
    monkeypatch.setattr(pre, "build_topology", fail)
    again = sf.precompute((V, F), smoothing_iterations=2, cache_dir=tmp_path)
    assert np.array_equal(again.bottom, g.bottom)
    with pytest.raises(AssertionError):
        sf.precompute((V, F), smoothing_iterations=3, cache_dir=tmp_path)
    with pytest.raises(AssertionError):
        sf.precompute((V, F), smoothing_iterations=2, feature_size="3%", cache_dir=tmp_path)


def test_geometry_is_frozen_and_bad_cache_files_fail_clearly(tmp_path):
    g = geometry(*sphere(1))
    with pytest.raises(ValueError):
        g.dual_areas[0] = 1.0
    with pytest.raises(AttributeError):
        g.key = "x"
    with pytest.raises(sf.CacheError, match="does not exist"):
        sf.SurfaceGeometry.load(tmp_path / "missing.npz")
    (tmp_path / "junk.npz").write_bytes(b"not an npz")
    with pytest.raises(sf.CacheError, match="cannot be read"):
        sf.SurfaceGeometry.load(tmp_path / "junk.npz")
