"""The artist's asset: UVs, material and texture survive loading and repair, and the "maps"
output bakes per-vertex fields onto the asset's own UVs (placement, seams, volume), into PNG
sequences and a USD stage."""

import dataclasses
import json
import warnings
from pathlib import Path

import numpy as np
import pytest
import trimesh
from mesh_defects import two_tetrahedra_sharing_a_vertex
from PIL import Image

import surfflow as sf
from surfflow.errors import MeshError, MeshWarning, ParameterError, SceneError
from surfflow.geometry.surface import SurfaceGeometry
from surfflow.io.maps import MapWriter, base_color_image
from surfflow.io.png16 import read_png16, write_png16
from surfflow.io.writers import make_writers
from surfflow.scene.scene import load_scene

RESOLUTION = 512


# ---- a textured OBJ written by hand -------------------------------------------------------

def write_obj(folder: Path, V, F, UV, FT, *, texture="tex.png", name="asset") -> Path:
    """An OBJ with ``vt`` lines (UV (t, 2)), faces F (m, 3) with UV indices FT (m, 3), and an
    MTL naming ``texture`` (a 4 x 4 PNG written when the name is "tex.png"; None: no map_Kd)."""
    folder = Path(folder)
    lines = [f"mtllib {name}.mtl", "usemtl paint"]
    lines += [f"v {x!r} {y!r} {z!r}" for x, y, z in np.asarray(V, dtype=float).tolist()]
    lines += [f"vt {u!r} {v!r}" for u, v in np.asarray(UV, dtype=float).tolist()]
    lines += ["f " + " ".join(f"{a + 1}/{t + 1}" for a, t in zip(f, ft)) for f, ft in zip(F, FT)]
    (folder / f"{name}.obj").write_text("\n".join(lines) + "\n")
    mtl = ["newmtl paint", "Kd 0.9 0.8 0.7"] + ([f"map_Kd {texture}"] if texture else [])
    (folder / f"{name}.mtl").write_text("\n".join(mtl) + "\n")
    if texture == "tex.png":
        pixels = np.arange(48, dtype=np.uint8).reshape(4, 4, 3) * 5
        Image.fromarray(pixels).save(folder / "tex.png")
    return folder / f"{name}.obj"


def grid(cells: int = 40, height=None):
    """A unit square in the xy-plane (z = height(x, y) if given) of cells x cells quads split
    along one diagonal: V ((cells + 1)^2, 3), F (2 cells^2, 3)."""
    t = np.linspace(0.0, 1.0, cells + 1)
    x, y = np.meshgrid(t, t, indexing="xy")
    z = np.zeros_like(x) if height is None else height(x, y)
    V = np.column_stack([x.ravel(), y.ravel(), z.ravel()])
    k = np.arange(cells + 1)
    corner = (k[:-1, None] * (cells + 1) + k[None, :-1]).ravel()
    a, b, c, d = corner, corner + 1, corner + cells + 2, corner + cells + 1
    F = np.concatenate([np.column_stack([a, b, c]), np.column_stack([a, c, d])])
    return V, F


def affine_uv(V, u=(0.1, 0.8), v=(0.15, 0.7)):
    """UVs u = u0 + u1 x, v = v0 + v1 y of the vertices V (n, 3)."""
    return np.column_stack([u[0] + u[1] * V[:, 0], v[0] + v[1] * V[:, 1]])


def uv_of_corners(path: Path) -> dict:
    """{position bytes of a corner of the file's face: UV} per face of the file, as sets keyed by
    the face's three positions, read straight from the OBJ text."""
    V, UV, faces = [], [], {}
    for line in path.read_text().splitlines():
        parts = line.split()
        if parts and parts[0] == "v":
            V.append([float(p) for p in parts[1:4]])
        elif parts and parts[0] == "vt":
            UV.append([float(p) for p in parts[1:3]])
        elif parts and parts[0] == "f":
            corners = [tuple(int(i) - 1 for i in p.split("/")) for p in parts[1:]]
            key = frozenset(tuple(V[a]) for a, _ in corners)
            faces[key] = {tuple(V[a]): tuple(UV[t]) for a, t in corners}
    return faces


def assert_corner_uvs_kept(path: Path, mesh) -> int:
    """Every face of the loaded mesh is a face of the file, and each of its corners has the UV
    the file gives that corner; returns how many faces were checked."""
    expected = uv_of_corners(path)
    asset = mesh.metadata["asset"]
    assert asset.corner_uv.shape == (len(mesh.faces), 3, 2)
    for f, face in enumerate(mesh.faces):
        positions = [tuple(mesh.vertices[v]) for v in face]
        corners = expected[frozenset(positions)]
        for k, position in enumerate(positions):
            assert tuple(asset.corner_uv[f, k]) == corners[position], (f, k)
    return len(mesh.faces)


def geometry_of(path: Path, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MeshWarning)
        return sf.precompute(path, feature_size=0, **options)


# ---- keeping the asset ---------------------------------------------------------------------

def test_loading_a_textured_obj_keeps_every_corner_uv_texture_and_material(tmp_path):
    V, F = grid(8)
    path = write_obj(tmp_path, V, F, affine_uv(V), F)
    mesh = sf.load_mesh(path)
    assert assert_corner_uvs_kept(path, mesh) == len(F)
    asset = mesh.metadata["asset"]
    assert asset.texture.shape == (4, 4, 3)
    assert np.array_equal(asset.texture, np.arange(48, dtype=np.uint8).reshape(4, 4, 3) * 5)
    assert asset.material_name == "paint"
    assert np.allclose(asset.base_color, (0.9, 0.8, 0.7, 1.0), atol=1 / 255)
    assert asset.source == str(path.resolve())


def test_a_uv_seam_is_welded_for_the_solver_and_kept_for_the_asset(tmp_path):
    """The left and right halves are separate UV islands: the file has two UVs at x = 0.5, the
    solver one vertex."""
    V, F = grid(8)
    UV, FT = seamed_uv(V, F)
    path = write_obj(tmp_path, V, F, UV, FT)
    mesh = sf.load_mesh(path)
    assert len(mesh.vertices) == len(V)
    assert assert_corner_uvs_kept(path, mesh) == len(F)


def test_repairs_carry_the_uvs_flipped_face_and_pinched_vertex(tmp_path):
    V, F = grid(6)
    F = F.copy()
    F[5] = F[5][::-1]                                 # one face against its neighbours
    UV = np.random.default_rng(1).random((len(F) * 3, 2))
    path = write_obj(tmp_path, V, F, UV, np.arange(len(F) * 3).reshape(-1, 3), name="flipped")
    with pytest.warns(MeshWarning, match="flipped 1 of"):
        mesh = sf.load_mesh(path)
    assert assert_corner_uvs_kept(path, mesh) == len(F)

    V, F = two_tetrahedra_sharing_a_vertex()
    UV = np.random.default_rng(2).random((len(F) * 3, 2))
    path = write_obj(tmp_path, V, F, UV, np.arange(len(F) * 3).reshape(-1, 3), name="pinched")
    with pytest.warns(MeshWarning, match="pinched"):
        mesh = sf.load_mesh(path)
    assert len(mesh.vertices) == len(V) + 1          # the pinched vertex split in two
    assert assert_corner_uvs_kept(path, mesh) == len(F)


def test_dropped_degenerate_and_duplicate_faces_drop_their_uv_rows(tmp_path):
    V, F = grid(4)
    F = np.concatenate([F, F[:1, [1, 2, 0]], [[0, 0, 1]]])   # a repeat and a repeated vertex
    UV = np.random.default_rng(3).random((len(F) * 3, 2))
    path = write_obj(tmp_path, V, F, UV, np.arange(len(F) * 3).reshape(-1, 3), name="dropped")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MeshWarning)
        mesh = sf.load_mesh(path)
    assert len(mesh.faces) == len(F) - 2
    # the kept faces are the file's first ones, in order, with their own UVs
    assert np.array_equal(mesh.metadata["asset"].corner_uv,
                          UV.reshape(-1, 3, 2)[:len(F) - 2])


def test_a_collapsed_degenerate_face_leaves_every_other_face_its_uvs(tmp_path):
    """Vertex 7 moved onto the diagonal (6, 12) makes face (6, 7, 12) of zero area: its shortest
    edge collapses, vertex 7 merging into a neighbour, and it and the face across that edge go.
    Every face left is an input face, in input order, each corner with its own UV, at its own
    vertex's position (the merged vertex's corners at the position of the one it merged into)."""
    V, F = grid(4)
    V[7] = 0.5 * (V[6] + V[12])
    UV = np.random.default_rng(5).random((len(F) * 3, 2))          # one UV per corner
    path = write_obj(tmp_path, V, F, UV, np.arange(len(F) * 3).reshape(-1, 3), name="collapse")
    with pytest.warns(MeshWarning, match="collapsed the shortest edge of 1 degenerate face"):
        mesh = sf.load_mesh(path)
    rows = UV.reshape(-1, 3, 2)
    face_of = {frozenset(map(tuple, row)): g for g, row in enumerate(rows)}
    asset, kept = mesh.metadata["asset"], []
    for f, face in enumerate(mesh.faces):
        g = face_of[frozenset(map(tuple, asset.corner_uv[f]))]
        kept.append(g)
        for k in range(3):
            j = [tuple(uv) for uv in rows[g]].index(tuple(asset.corner_uv[f, k]))
            if F[g, j] != 7:
                assert np.array_equal(mesh.vertices[face[k]], V[F[g, j]])
            else:
                assert any(np.array_equal(mesh.vertices[face[k]], V[u]) for u in (6, 12))
    assert len(kept) == len(F) - 2 and kept == sorted(kept) and 5 not in kept


def test_a_mesh_without_uvs_has_no_asset_and_runs_as_before():
    mesh = sf.load_mesh(trimesh.creation.icosphere(1))
    assert mesh.metadata["asset"] is None
    assert sf.precompute(mesh, feature_size=0).asset is None


def test_geometry_cache_keeps_the_asset(tmp_path):
    V, F = grid(6)
    path = write_obj(tmp_path, V, F, affine_uv(V), F)
    geom = geometry_of(path, cache_dir=tmp_path / "cache")
    again = geometry_of(path, cache_dir=tmp_path / "cache")     # from the cache file
    plain = sf.precompute((geom.original_vertices, geom.faces), feature_size=0)
    assert geom.key == again.key == plain.key                     # the asset is no part of the key
    for loaded in (again, SurfaceGeometry.load(next((tmp_path / "cache").iterdir()))):
        assert np.array_equal(loaded.asset.corner_uv, geom.asset.corner_uv)
        assert np.array_equal(loaded.asset.texture, geom.asset.texture)
        assert loaded.asset.base_color == geom.asset.base_color
        assert loaded.asset.material_name == "paint"


# ---- bad input -----------------------------------------------------------------------------

@pytest.mark.parametrize("texture", ["missing.png", "garbled.png"])
def test_a_missing_or_unreadable_texture_warns_and_keeps_the_uvs(tmp_path, texture):
    (tmp_path / "garbled.png").write_bytes(b"not a png at all")
    V, F = grid(4)
    path = write_obj(tmp_path, V, F, affine_uv(V), F, texture=texture)
    with pytest.warns(MeshWarning, match=f"texture .*{texture}.* cannot be read"):
        mesh = sf.load_mesh(path)
    assert mesh.metadata["asset"].texture is None
    assert assert_corner_uvs_kept(path, mesh) == len(F)


def test_uvs_outside_the_unit_square_are_wrapped_and_said_once(tmp_path):
    V, F = grid(4)
    UV = affine_uv(V) + np.array([2.0, -1.0])       # the whole layout two tiles right, one down
    path = write_obj(tmp_path, V, F, UV, F)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mesh = sf.load_mesh(path)
    said = [w for w in caught if "outside [0, 1]" in str(w.message)]
    assert len(said) == 1 and issubclass(said[0].category, MeshWarning)
    assert np.allclose(mesh.metadata["asset"].corner_uv, affine_uv(V)[F])


@pytest.mark.parametrize("resolution", [0, -3, 2.5, "1024", True])
def test_a_map_resolution_must_be_a_positive_whole_number(tmp_path, resolution):
    V, F = grid(2)
    geom = geometry_of(write_obj(tmp_path, V, F, affine_uv(V), F))
    with pytest.raises(ParameterError, match="map_resolution must be a positive whole number"):
        MapWriter(tmp_path / "out", geom, resolution=resolution)


def test_the_scene_key_map_resolution_is_checked(tmp_path):
    from scene_helpers import TINY_SCENE, write_scene
    text = TINY_SCENE.replace('formats = ["npz", "vtu"]', 'formats = ["maps"]\nmap_resolution = 0')
    with pytest.raises(SceneError, match="map_resolution"):
        load_scene(write_scene(tmp_path, text))


def test_maps_for_a_mesh_without_uvs_name_the_fix(tmp_path):
    geom = sf.precompute(trimesh.creation.icosphere(1), feature_size=0)
    with pytest.raises(MeshError, match="UV-unwrap"):
        make_writers(tmp_path, ("maps",), geom)


# ---- baking --------------------------------------------------------------------------------

def seamed_uv(V, F):
    """Two UV islands: faces left of x = 0.5 at u = 0.05 + 0.4 x, faces right of it mirrored at
    u = 0.95 - 0.4 (x - 0.5) (so a film crossing x = 0.5 crosses a seam); v = 0.1 + 0.8 y.
    Returns UV (2n, 2) (first n: left island, next n: right) and FT (m, 3)."""
    left = np.column_stack([0.05 + 0.4 * V[:, 0], 0.1 + 0.8 * V[:, 1]])
    right = np.column_stack([0.95 - 0.4 * (V[:, 0] - 0.5), 0.1 + 0.8 * V[:, 1]])
    on_right = V[F].mean(axis=1)[:, 0] > 0.5
    FT = np.where(on_right[:, None], F + len(V), F)
    return np.concatenate([left, right]), FT


def bilinear(image: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """A renderer's bilinear lookup of image (r, r) at UVs (k,) (texel centres at (j + 1/2) / r)."""
    r = image.shape[0]
    x, y = u * r - 0.5, (1.0 - v) * r - 0.5
    j, i = np.floor(x).astype(int), np.floor(y).astype(int)
    s, t = x - j, y - i
    return ((1 - s) * (1 - t) * image[i, j] + s * (1 - t) * image[i, j + 1]
            + (1 - s) * t * image[i + 1, j] + s * t * image[i + 1, j + 1])


def thickness_map(writer: MapWriter, frame: int) -> np.ndarray:
    """thickness_N.png read back, in metres, with maps.json's scale."""
    info = json.loads((writer.directory / "maps.json").read_text())
    levels = read_png16(writer.directory / f"thickness_{frame:05d}.png")[0] * 65535.0
    return levels * info["thickness_metres_per_unit"]


def test_a_film_appears_at_the_texels_its_region_maps_to(tmp_path):
    """The film covers x <= 0.4 and y >= 0.6 of the square, 1 mm deep, falling to 0 over the next
    cell (h = 1/40); UVs u = 0.1 + 0.8 x, v = 0.15 + 0.7 y. Its half-depth edge lies at x = 0.4 +
    h / 2 and y = 0.6 - h / 2: in the map, where the thickness crosses 0.5 mm along a row
    through the film and along a column through it."""
    cells = 40
    V, F = grid(cells)
    geom = geometry_of(write_obj(tmp_path, V, F, affine_uv(V), F))
    X = geom.original_vertices
    depth = np.where((X[:, 0] <= 0.4 + 1e-9) & (X[:, 1] >= 0.6 - 1e-9), 1e-3, 0.0)
    writer = MapWriter(tmp_path / "out", geom, resolution=RESOLUTION)
    writer.write(0, 0.0, {"depth": depth})
    image = thickness_map(writer, 0)
    h, r = 1.0 / cells, RESOLUTION
    row = int((1.0 - (0.15 + 0.7 * 0.8)) * r)             # through y = 0.8
    column = int((0.1 + 0.8 * 0.2) * r)                   # through x = 0.2
    edge_u = (0.1 + 0.8 * (0.4 + h / 2)) * r - 0.5        # expected, in texel-centre units
    edge_row = (1.0 - (0.15 + 0.7 * (0.6 - h / 2))) * r - 0.5
    found_u = column + crossing(image[row, column:], 0.5e-3)      # from inside the film outwards
    found_row = row + crossing(image[row:, column], 0.5e-3)
    error = max(abs(found_u - edge_u), abs(found_row - edge_row))
    print(f"placement error: {abs(found_u - edge_u):.2e} texels in u, "
          f"{abs(found_row - edge_row):.2e} in v")
    assert error < 0.05      # one texel is the promise; a twentieth catches a half-texel slip
    assert image[row, int((0.1 + 0.8 * 0.6) * r)] == 0.0   # dry at x = 0.6
    assert image[int((1 - (0.15 + 0.7 * 0.3)) * r), column] == 0.0   # dry at y = 0.3


def crossing(profile: np.ndarray, level: float) -> float:
    """Where ``profile`` (k,) first crosses ``level`` between texel centres (linear), coming from
    the side above it."""
    above = profile >= level
    k = np.flatnonzero(above[:-1] != above[1:])
    assert len(k) == 1, "the film should have one edge along the line"
    k = k[0]
    return k + (profile[k] - level) / (profile[k] - profile[k + 1])


def test_a_uv_seam_across_the_film_shows_no_seam(tmp_path):
    """A film over the whole square, d = 1 mm (1 + x + y^2), crosses the seam at x = 0.5
    (seamed_uv): looked up bilinearly at the two UVs of each point on the seam, the map gives
    the same thickness on both sides, within 1 %."""
    V, F = grid(40)
    UV, FT = seamed_uv(V, F)
    geom = geometry_of(write_obj(tmp_path, V, F, UV, FT))
    X = geom.original_vertices
    depth = 1e-3 * (1.0 + X[:, 0] + X[:, 1] ** 2)
    writer = MapWriter(tmp_path / "out", geom, resolution=RESOLUTION)
    writer.write(0, 0.0, {"depth": depth})
    image = thickness_map(writer, 0)
    y = np.linspace(0.02, 0.98, 200)
    v = 0.1 + 0.8 * y
    left, right = bilinear(image, np.full_like(v, 0.25), v), bilinear(image, np.full_like(v, 0.95), v)
    exact = 1e-3 * (1.5 + y ** 2)
    difference = np.abs(left - right) / exact
    off = max(np.abs(left - exact).max(), np.abs(right - exact).max()) / exact.min()
    print(f"seam: largest difference across it {difference.max():.3%}, "
          f"largest error against the field {off:.3%}")
    assert difference.max() < 0.01
    assert off < 0.01
    coverage = np.asarray(Image.open(writer.directory / "coverage.png")) > 0
    assert not coverage[:, int(0.5 * RESOLUTION)].any()     # between the islands: transparent
    assert coverage[int(0.5 * RESOLUTION), int(0.25 * RESOLUTION) + 2]   # the gutter


def test_the_thickness_map_integrates_to_the_films_volume(tmp_path):
    """On a bumpy surface z = 0.1 sin(2 pi x) sin(2 pi y) (so the area Jacobian varies), the
    thickness map summed over the texels inside the UV triangles, each times its face's
    3D-to-UV area ratio and the texel's UV area, gives the film's volume sum A_i d_i within 1 %."""
    V, F = grid(40, lambda x, y: 0.1 * np.sin(2 * np.pi * x) * np.sin(2 * np.pi * y))
    geom = geometry_of(write_obj(tmp_path, V, F, affine_uv(V, u=(0.05, 0.9), v=(0.1, 0.6)), F))
    X = geom.original_vertices
    depth = 1e-3 * np.exp(-((X[:, 0] - 0.4) ** 2 + (X[:, 1] - 0.5) ** 2) / 0.05)
    writer = MapWriter(tmp_path / "out", geom, resolution=RESOLUTION)
    writer.write(0, 0.0, {"depth": depth})
    image = thickness_map(writer, 0).ravel()
    table = writer.table
    inside, face = table.texels[:table.n_inside], table.faces[:table.n_inside]
    P, uv = X[geom.faces], geom.asset.corner_uv
    area_3d = 0.5 * np.linalg.norm(np.cross(P[:, 1] - P[:, 0], P[:, 2] - P[:, 0]), axis=1)
    e1, e2 = uv[:, 1] - uv[:, 0], uv[:, 2] - uv[:, 0]
    area_uv = 0.5 * np.abs(e1[:, 0] * e2[:, 1] - e1[:, 1] * e2[:, 0])
    mapped = np.sum(image[inside] * (area_3d / area_uv)[face]) / RESOLUTION ** 2
    volume = float(np.sum(geom.dual_areas * depth))
    print(f"volume from the map {mapped:.6e} m^3, sum A_i d_i {volume:.6e} m^3, "
          f"error {abs(mapped / volume - 1):.3%}")
    assert abs(mapped / volume - 1.0) < 0.01


def test_wetness_and_dye_maps(tmp_path):
    """Wetness (a frame field) baked as 16 bits; a red dye over the left half of the film gives
    red texels of alpha = its concentration there and none where it is dry."""
    V, F = grid(20)
    geom = geometry_of(write_obj(tmp_path, V, F, affine_uv(V), F))
    X = geom.original_vertices
    depth = np.where(X[:, 1] >= 0.5, 1e-3, 0.0)
    wetness = (depth > 0).astype(float)
    dye = np.where(X[:, 0] <= 0.5, 0.5, 0.0)[:, None]
    writer = MapWriter(tmp_path / "out", geom, resolution=128, dye_colors=((1.0, 0.0, 0.0),))
    paths = writer.write(3, 0.1, {"depth": depth, "wetness": wetness, "dye": dye})
    assert sorted(p.name for p in paths) == ["color_00003.png", "dye_00003.png",
                                             "thickness_00003.png", "wetness_00003.png"]
    wet, alpha = read_png16(writer.directory / "wetness_00003.png")
    rgba = np.asarray(Image.open(writer.directory / "dye_00003.png"))
    r = 128
    at = (int((1 - (0.15 + 0.7 * 0.8)) * r), int((0.1 + 0.8 * 0.2) * r))     # x 0.2, y 0.8
    dry = (int((1 - (0.15 + 0.7 * 0.2)) * r), int((0.1 + 0.8 * 0.2) * r))    # x 0.2, y 0.2
    clear = (int((1 - (0.15 + 0.7 * 0.8)) * r), int((0.1 + 0.8 * 0.8) * r))  # x 0.8, y 0.8
    assert wet[at] == 1.0 and wet[dry] == 0.0
    assert tuple(rgba[at]) == (255, 0, 0, 128)
    assert rgba[dry][3] == 0 and rgba[clear][3] == 0
    # the base colour darkened where wet: B (1 - 0.35 w), B the texture times Kd
    assert np.array_equal(alpha, writer.coverage.astype(float))  # transparent off the layout
    assert 0 < writer.coverage.mean() < 1
    color = np.asarray(Image.open(writer.directory / "color_00003.png"), dtype=float)[..., :3] / 255.0
    assert np.allclose(color[at], 0.65 * writer.base_color[at], atol=0.5 / 255)
    assert np.allclose(color[dry], writer.base_color[dry], atol=0.5 / 255)


def test_the_base_colour_map_is_the_texture_times_the_material_colour(tmp_path):
    """A uniform texture (200, 100, 50) under Kd (0.9, 0.8, 0.7, as trimesh reads it: to 8 bits)
    reads (200, 100, 50) / 255 times Kd at every texel; without a texture, Kd alone."""
    V, F = grid(4)
    asset = geometry_of(write_obj(tmp_path, V, F, affine_uv(V), F)).asset
    kd = np.asarray(asset.base_color[:3])
    assert np.allclose(kd, [0.9, 0.8, 0.7], atol=0.5 / 255)
    uniform = dataclasses.replace(asset, texture=np.tile(np.uint8([200, 100, 50]), (8, 8, 1)))
    expected = np.array([200, 100, 50]) / 255.0 * kd
    assert np.allclose(base_color_image(uniform, 16), expected, atol=1e-6)
    plain = dataclasses.replace(asset, texture=None)
    assert np.allclose(base_color_image(plain, 16), kd, atol=1e-6)


# ---- scenes and USD ------------------------------------------------------------------------

def textured_scene(tmp_path: Path, formats: str) -> Path:
    V, F = grid(12)
    write_obj(tmp_path, 0.2 * V[:, [0, 2, 1]], F[:, [0, 2, 1]], affine_uv(V), F[:, [0, 2, 1]])
    text = f"""\
name = "textured"
duration = 0.2
fps = 10

[mesh]
path = "asset.obj"

[precompute]
smoothing_iterations = 0

[liquid]
preset = "water"

[[sources]]
type = "pour"
center = [0.1, 0.0, 0.1]
radius = 0.05
rate = 1.0e-6
color = [1.0, 0.0, 0.0]

[output]
formats = {formats}
map_resolution = 64
"""
    path = tmp_path / "textured.toml"
    path.write_text(text)
    return path


def test_a_scene_writes_one_map_per_frame(tmp_path):
    scene = load_scene(textured_scene(tmp_path, '["maps"]'))
    runner = sf.SceneRunner(scene, output_dir=tmp_path / "out", cache_dir=tmp_path / "cache")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MeshWarning)
        runner.run()
    maps = tmp_path / "out" / "maps"
    assert sorted(p.name for p in maps.glob("thickness_*.png")) == [
        f"thickness_{k:05d}.png" for k in range(3)]
    assert len(list(maps.glob("dye_*.png"))) == 3
    last = read_png16(maps / "thickness_00002.png")[0]
    assert last.shape == (64, 64) and last.max() > 0


def test_the_usd_stage_carries_texture_uvs_primvars_and_one_wetness_map_per_frame(tmp_path):
    Usd = pytest.importorskip("pxr.Usd", reason="usd-core (the extra 'usd') is not installed")
    from pxr import UsdGeom, UsdShade
    V, F = grid(10)
    geom = geometry_of(write_obj(tmp_path, V, F, affine_uv(V), F))
    out = tmp_path / "out"
    writers = make_writers(out, ("maps", "usd"), geom)
    X = geom.original_vertices
    for frame in range(3):
        depth = np.where(X[:, 0] <= 0.3 * (frame + 1), 1e-3, 0.0)
        fields = {"depth": depth, "wetness": (depth > 0).astype(float),
                  "velocity": np.zeros((len(X), 3)), "free_surface": depth[:, None] * geom.normals}
        for writer in writers:
            writer.write(frame, frame / 30, fields)
    stage = Usd.Stage.Open(str(out / "run.usdc"))
    obj = stage.GetPrimAtPath("/surfflow/object")
    primvars = UsdGeom.PrimvarsAPI(obj)
    st = primvars.GetPrimvar("st")
    assert st.GetInterpolation() == UsdGeom.Tokens.faceVarying
    assert np.allclose(np.array(st.Get()), geom.asset.corner_uv.reshape(-1, 2), atol=1e-7)
    wet = primvars.GetPrimvar("wetness")
    assert wet.GetInterpolation() == UsdGeom.Tokens.vertex
    assert wet.GetAttr().GetTimeSamples() == [0.0, 1.0, 2.0]
    assert np.array_equal(np.array(wet.Get(1)), (X[:, 0] <= 0.6).astype(np.float32))
    material = UsdShade.MaterialBindingAPI(obj).ComputeBoundMaterial()[0]
    assert material.GetPath() == "/surfflow/materials/object"
    base = UsdShade.Shader(stage.GetPrimAtPath("/surfflow/materials/object/base_color"))
    texture_file = out / base.GetInput("file").Get().path
    assert np.array_equal(np.asarray(Image.open(texture_file)), geom.asset.texture)
    wetness = UsdShade.Shader(stage.GetPrimAtPath("/surfflow/materials/object/wetness"))
    files = wetness.GetInput("file")
    assert files.GetAttr().GetTimeSamples() == [0.0, 1.0, 2.0]
    for frame in range(3):
        path = out / files.Get(frame).path
        assert path.name == f"wetness_{frame:05d}.png" and path.is_file()
    surface = UsdShade.Shader(stage.GetPrimAtPath("/surfflow/materials/object/surface"))
    assert surface.GetInput("roughness").GetConnectedSource()[0].GetPath() == wetness.GetPath()
    wet_color = UsdShade.Shader(stage.GetPrimAtPath("/surfflow/materials/object/wet_color"))
    assert surface.GetInput("diffuseColor").GetConnectedSource()[0].GetPath() == wet_color.GetPath()
    colors = wet_color.GetInput("file")
    for frame in range(3):
        path = out / colors.Get(frame).path
        assert path.name == f"color_{frame:05d}.png" and path.is_file()


def test_a_stage_exported_from_npz_frames_keeps_the_asset(tmp_path):
    pytest.importorskip("pxr.Usd", reason="usd-core (the extra 'usd') is not installed")
    from pxr import Usd, UsdGeom

    from surfflow.scene.usd_export import export_run
    V, F = grid(6)
    geom = geometry_of(write_obj(tmp_path, V, F, affine_uv(V), F))
    (npz,) = make_writers(tmp_path / "run", ("npz",), geom)
    depth = np.full(geom.n_vertices, 1e-4)
    npz.write(0, 0.0, {"depth": depth, "velocity": np.zeros((len(depth), 3)),
                       "bottom": np.zeros(len(depth)), "free_surface": depth[:, None] * geom.normals})
    stage = Usd.Stage.Open(str(export_run(tmp_path / "run", tmp_path / "run.usda")))
    st = UsdGeom.PrimvarsAPI(stage.GetPrimAtPath("/surfflow/object")).GetPrimvar("st")
    assert np.allclose(np.array(st.Get()), geom.asset.corner_uv.reshape(-1, 2), atol=1e-7)
    assert (tmp_path / "textures" / "base_color.png").is_file()


def test_the_scene_key_uv_atlas_gives_a_mesh_without_uvs_an_atlas(tmp_path):
    pytest.importorskip("xatlas", reason="the extra 'uv' (xatlas) is not installed")
    from scene_helpers import TINY_SCENE, write_scene

    from surfflow.scene.scene_setup import scene_asset_mesh
    plain = load_scene(write_scene(tmp_path, TINY_SCENE))
    assert scene_asset_mesh(plain.mesh)[2] is None
    text = TINY_SCENE.replace('rotation = [-90.0, 0.0, 0.0]', 'rotation = [-90.0, 0.0, 0.0]\nuv_atlas = true')
    V, F, asset = scene_asset_mesh(load_scene(write_scene(tmp_path, text, "atlas.toml")).mesh)
    assert asset.corner_uv.shape == (len(F), 3, 2)
    assert asset.corner_uv.min() >= 0.0 and asset.corner_uv.max() <= 1.0
    # each face keeps its shape in the atlas: UV edge lengths in proportion to the 3D ones
    P, uv = V[F], asset.corner_uv
    ratio = np.linalg.norm(uv[:, 1] - uv[:, 0], axis=1) / np.linalg.norm(P[:, 1] - P[:, 0], axis=1)
    assert np.allclose(ratio, ratio.mean(), rtol=0.05)


def test_precompute_takes_an_asset_for_arrays_or_a_mesh():
    mesh = sf.load_mesh(trimesh.creation.icosphere(1))
    uv = np.random.default_rng(4).random((len(mesh.faces), 3, 2))
    from surfflow.io.asset import Asset
    for given in (mesh, (mesh.vertices, mesh.faces)):
        geom = sf.precompute(given, feature_size=0, asset=Asset(uv))
        assert np.array_equal(geom.asset.corner_uv, uv)


def test_a_16_bit_map_with_alpha_round_trips_and_reads_elsewhere(tmp_path):
    """png16 keeps 65535 levels and the alpha; Pillow, an independent decoder, reads the same
    file (to 8 bits: the high byte of each sample)."""
    rng = np.random.default_rng(3)
    gray, alpha = rng.random((9, 13)), (rng.random((9, 13)) > 0.3).astype(float)
    write_png16(tmp_path / "map.png", gray, alpha)
    back, back_alpha = read_png16(tmp_path / "map.png")
    assert np.array_equal(back, np.round(gray * 65535.0) / 65535.0)
    assert np.array_equal(back_alpha, alpha)
    with Image.open(tmp_path / "map.png") as image:
        pillow = np.asarray(image.convert("LA"), dtype=int)
    assert np.array_equal(pillow[..., 0], np.round(gray * 65535.0).astype(int) >> 8)
    assert np.array_equal(pillow[..., 1], (alpha * 255).astype(int))
