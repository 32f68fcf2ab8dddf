"""How the liquid is displayed (no drawing): wetness that does not blink, opacity and colour by
depth, the water material's formulas, default camera framing and real-time pacing."""

import math
from types import SimpleNamespace

import numpy as np
import pytest
from builders import icosphere
from scene_helpers import TINY_SCENE

from surfflow.errors import SceneError
from surfflow.look import (DYE_DEPTH, FILM_OPACITY, SHUTTER, DisplayedFilm, RingMean, depth_tint,
                           display_opacity, droplet_radii, dye_absorbance, flicker, streaks,
                           transmittance, wet_object_colors, wetness_target)
from surfflow.scene.scene import parse_scene
from surfflow.scene.scene_setup import scene_geometry, scene_mesh, scene_simulation
from surfflow.viewer.camera import action_points, framing_view
from surfflow.viewer.matcap import KEY_LIGHT, matcap_normals, water_terms, write_hdr
from surfflow.viewer.pace import RateMeter, RealTimePacer

DRAINING_FILM = """\
name = "film"
duration = 1.5
fps = 30

[mesh]
procedural = "plane"
size = [0.2, 0.2]
resolution = [16, 16]
rotation = [-60.0, 0.0, 0.0]

[precompute]
smoothing_iterations = 0

[liquid]
preset = "water"

[solver]
boundary = "outflow"

[initial]
depth = 0.002
center = [0.0, 0.05, -0.03]
radius = 0.05
"""
"""A 2 mm cap of water on a plate tilted 60 degrees, draining off its lower edge."""


@pytest.fixture(scope="module")
def film(tmp_path_factory):
    """(faces, depth frames (n_frames + 1, n), min_depth, fps) of the draining film."""
    scene = parse_scene(DRAINING_FILM, "film.toml")
    geometry = scene_geometry(scene, *scene_mesh(scene.mesh), tmp_path_factory.mktemp("cache"))
    sim = scene_simulation(scene, geometry)
    frames = [sim.depth]
    for _ in range(scene.n_frames):
        sim.advance(1.0 / scene.fps)
        frames.append(sim.depth)
    return geometry.faces, np.array(frames), sim.params.min_depth, scene.fps


def display_jumps(wetness_frames: np.ndarray) -> tuple[int, int]:
    """(vertex-frames whose displayed wetness changes by 1/2 or more from the frame before,
    vertices ever shown)."""
    jumps = int(np.sum(np.abs(np.diff(wetness_frames, axis=0)) >= 0.5))
    return jumps, int(np.sum(np.any(wetness_frames > 0.0, axis=0)))


def test_draining_film_does_not_blink(film):
    """The old display (shown iff d >= d_min) jumps on and off more than once per vertex as the
    film drains (447 jumps over 242 vertices shown, measured; 2.2 per vertex before the
    continuity's flux went upwind where the thin film runs supercritical); the drawn film at
    most once per vertex (when the liquid arrives)."""
    faces, depths, min_depth, fps = film
    old_jumps, old_shown = display_jumps((depths >= min_depth).astype(float))
    display = DisplayedFilm(faces, depths.shape[1], dry_time=0.5)
    shown = []
    for k, depth in enumerate(depths):
        display.update(depth, np.zeros((len(depth), 0)), min_depth, k / fps)
        shown.append(display.wetness.copy())
    new_jumps, new_shown = display_jumps(np.array(shown))
    assert old_jumps > old_shown, (old_jumps, old_shown)
    assert new_jumps <= new_shown, (new_jumps, new_shown)
    assert np.all(np.diff(shown, axis=0) > -1.0 / (fps * 0.5) - 1e-12)  # drying only fades


def test_wetness_fades_in_with_depth_and_out_with_time():
    faces = np.array([[0, 1, 2], [1, 3, 2]])
    assert np.allclose(wetness_target(np.array([0.0, 1e-6, 2e-6, 1.0]), 1e-6), [0, 0.5, 1, 1])
    display = DisplayedFilm(faces, 4, dry_time=0.4)
    no_dye = np.zeros((4, 0))
    wet, dry = np.full(4, 2e-6), np.zeros(4)  # a film of FADE_DEPTHS d_min, evenly spread
    display.update(wet, no_dye, 1e-6, 0.0)
    assert np.allclose(display.wetness, 1.0) and np.allclose(display.thickness, 2e-6)
    for time, shown in ((0.1, 0.75), (0.3, 0.25), (0.35, 1.0), (0.0, 0.0)):  # 0.0: a reset
        display.update(np.full(4, 1e-5) if shown == 1.0 else dry, no_dye, 1e-6, time)
        assert np.allclose(display.wetness, shown), (time, display.wetness)


def test_a_dry_vertex_inside_a_film_is_drawn_wet_with_its_neighbours_dye():
    faces = np.array([[0, 1, 2], [0, 2, 3], [0, 3, 4], [0, 4, 1]])  # vertex 0 in a ring of 4
    display = DisplayedFilm(faces, 5, dry_time=0.0)
    depth = np.array([0.0, 1e-3, 1e-3, 1e-3, 1e-3])
    dye = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, 1.0]])
    display.update(depth, dye, 1e-6, 0.0)
    assert display.wetness[0] == 1.0 and display.thickness[0] > 1e-4
    red, blue = display.dye_amount[0]
    assert red == pytest.approx(blue) and red > 0.0


def test_the_drawn_film_follows_the_liquid_within_a_frame_and_settles_on_it():
    """A film that keeps its depth is drawn at that depth (after two ring means, unchanged on an
    even film); a new depth is followed to within exp(-1 / (30 SETTLE_TIME)) in a 30 fps frame."""
    V, F = icosphere(1.0, 2)
    display = DisplayedFilm(F, len(V), dry_time=0.5)
    dye = np.full((len(V), 1), 0.5)
    for k in range(3):
        display.update(np.full(len(V), 1e-4), dye, 1e-6, k / 30)
    assert np.allclose(display.thickness, 1e-4) and np.allclose(display.dye_amount, 5e-5)
    display.update(np.full(len(V), 2e-4), dye, 1e-6, 3 / 30)
    assert np.all((display.thickness > 1.5e-4) & (display.thickness < 2e-4))


def test_ring_mean_averages_each_vertex_over_its_one_ring_neighbours():
    V, F = icosphere(1.0, 2)
    field = np.random.default_rng(3).random((len(V), 3))
    neighbours = [set() for _ in V]
    for a, b, c in F:
        neighbours[a] |= {b, c}
        neighbours[b] |= {a, c}
        neighbours[c] |= {a, b}
    naive = np.array([field[sorted(ring)].mean(axis=0) for ring in neighbours])
    ring_mean = RingMean(F, len(V))
    assert np.allclose(ring_mean(field), naive, rtol=1e-14, atol=0.0)
    assert np.allclose(ring_mean(field[:, 0]), naive[:, 0], rtol=1e-14, atol=0.0)
    assert np.array_equal(RingMean(np.zeros((0, 3), dtype=np.int64), 2)(np.ones(2)), np.zeros(2))


def test_thin_films_are_clear_and_dark_deep_pools_dense_and_coloured():
    depth = np.array([0.0, 1e-7, 5e-5, 1.0])
    alpha = display_opacity(np.ones(4), depth, 5e-5, 0.8)
    assert alpha[0] == pytest.approx(FILM_OPACITY) and alpha[-1] == pytest.approx(0.8)
    assert np.all(np.diff(alpha) > 0)
    assert np.allclose(display_opacity(np.zeros(4), depth, 5e-5, 0.8), 0.0)
    colors = depth_tint(np.tile([0.2, 0.4, 0.8], (4, 1)), depth, 5e-5)
    assert np.allclose(colors[0], 0.0)  # a film of no depth adds only highlights
    assert colors[1, 2] < colors[2, 2] and colors[-1, 2] < 0.8
    assert np.allclose(wet_object_colors((1.0, 0.5, 0.5), np.array([0.0, 1.0]))[0], [1.0, 0.5, 0.5])


def test_dyes_tint_the_object_seen_through_the_film_by_beer_lambert():
    """A fully dyed film DYE_DEPTH deep passes the dye's colour once, its square down to the
    object and back; a thinner one tints less, and a blue object under a thin red film stays
    blue (bluest channel) where red paint over it would hide it."""
    red = (0.9, 0.15, 0.1)
    absorbance = dye_absorbance([red])
    assert np.allclose(transmittance(np.array([[DYE_DEPTH]]), absorbance), [red])
    assert np.allclose(transmittance(np.zeros((1, 1)), absorbance), 1.0)
    blue = (0.2, 0.4, 0.9)
    for depth in (DYE_DEPTH / 4, DYE_DEPTH):
        passed = transmittance(np.array([[depth]]), absorbance)
        seen = wet_object_colors(blue, np.zeros(1), passed)[0]
        assert np.allclose(seen, np.array(blue) * passed[0] ** 2)
    thin = wet_object_colors(blue, np.zeros(1), transmittance(np.array([[DYE_DEPTH / 4]]), absorbance))[0]
    assert np.argmax(thin) == 2


def test_flicker_tells_blinking_from_motion():
    """A bar sliding across the picture is all motion (0); a pixel that goes on and off every
    frame is all blinking (the change that comes back); noise within FLICKER_NOISE is neither."""
    frames = np.zeros((8, 4, 12))
    for t in range(8):
        frames[t, :, t:t + 3] = 200.0
    assert flicker(frames) == 0.0
    blinking = frames.copy()
    blinking[::2, 0, 11] = 255.0
    assert flicker(blinking) > flicker(frames)
    alternating = np.zeros((8, 1, 1))
    alternating[::2] = 100.0
    assert flicker(alternating) > 10.0
    assert flicker(frames + np.random.default_rng(0).uniform(-1, 1, frames.shape)) == 0.0


def test_water_material_has_bright_highlights_on_a_tinted_body(tmp_path):
    normals = matcap_normals(64)
    assert np.allclose(np.linalg.norm(normals, axis=-1), 1.0)
    diffuse, reflection = water_terms(normals)
    key = np.array(KEY_LIGHT) / np.linalg.norm(KEY_LIGHT)
    half = (key + [0, 0, 1]) / np.linalg.norm(key + [0, 0, 1])
    brightest = np.unravel_index(np.argmax(reflection), reflection.shape)
    assert np.dot(normals[brightest], half) > 0.99
    assert reflection.max() > 2.0 and np.median(reflection) < 0.5
    assert diffuse.min() >= 0.3 and diffuse.max() <= 1.0
    image = np.stack([diffuse, reflection, diffuse + reflection], axis=-1)
    write_hdr(tmp_path / "m.hdr", image)
    raw = (tmp_path / "m.hdr").read_bytes()
    header, pixels = raw.split(b"-Y 64 +X 64\n")
    rgbe = np.frombuffer(pixels, dtype=np.uint8).reshape(64, 64, 4).astype(float)
    decoded = np.where(rgbe[..., 3:] > 0, rgbe[..., :3] * 2.0 ** (rgbe[..., 3:] - 136.0), 0.0)
    assert header.startswith(b"#?RADIANCE")
    step = image.max(axis=-1, keepdims=True) / 128.0  # RGBE keeps 8 bits under the largest channel
    assert np.all(decoded <= image) and np.all(image - decoded <= step)


def test_default_camera_faces_the_side_the_liquid_runs_down():
    scene = parse_scene(TINY_SCENE, "tiny.toml")
    assert np.allclose(action_points(scene), [[0.0, 0.0, 0.0]])
    square = np.array([[-1, 0, -1], [1, 0, -1], [1, 0, 1], [-1, 0, 1.0]])
    up = np.tile([0.0, 1.0, 0.0], (4, 1))
    eye, target = framing_view(square, up, np.zeros((1, 3)), (0.0, -9.81, 0.0))
    assert np.allclose(target, 0.0)
    elevation = math.degrees(math.asin(eye[1] / np.linalg.norm(eye)))
    assert elevation == pytest.approx(25.0)
    assert np.linalg.norm(eye) > math.sqrt(2) / math.sin(math.radians(22.5))  # it all fits
    tilted = np.tile([0.0, 0.5, -0.866], (4, 1))  # facing up and towards -z
    eye, _ = framing_view(square, tilted, np.zeros((1, 3)), (0.0, -9.81, 0.0))
    assert eye[2] < 0 and abs(eye[0]) < 1e-12


def test_real_time_pacing_follows_the_wall_clock_up_to_a_cap():
    pacer, meter = RealTimePacer(max_advance=0.25), RateMeter(window=1.0)
    wall = sim_time = 0.0
    assert pacer.advance_for(wall) == 0.0
    for step in range(40):
        wall += 0.05
        sim_time += pacer.advance_for(wall)
        meter.record(wall, sim_time, step)
    assert sim_time == pytest.approx(wall) and meter.rates()[1] == pytest.approx(1.0)
    assert meter.rates()[0] == pytest.approx(20.0)
    for step in range(40, 60):  # a slow machine: 0.5 s per frame, capped at 0.25 s of flow
        wall += 0.5
        sim_time += pacer.advance_for(wall)
        meter.record(wall, sim_time, step)
    assert meter.rates()[1] == pytest.approx(0.5)
    pacer.stop()
    assert pacer.advance_for(wall + 10.0) == 0.0


def test_scene_render_keys_of_the_look():
    scene = parse_scene(TINY_SCENE + '\n[render]\nmaterial = "candy"\nopacity = 1.0\ntint_depth = 1e-3\n'
                        'dry_time = 0.0\nground = "tile_reflection"\n', "tiny.toml")
    spec = scene.render
    assert (spec.material, spec.opacity, spec.tint_depth, spec.dry_time, spec.ground) == (
        "candy", 1.0, 1e-3, 0.0, "tile_reflection")
    defaults = parse_scene(TINY_SCENE, "tiny.toml").render
    assert (defaults.material, defaults.opacity, defaults.ground) == ("water", 0.8, "shadow_only")
    for line, expected in (('material = "glass"', "'water', 'wax', 'candy', 'clay', 'flat'"),
                           ("opacity = 1.5", "out of range"), ("tint_depth = 0.0", "out of range"),
                           ('ground = "grass"', "'shadow_only'")):
        with pytest.raises(SceneError) as info:
            parse_scene(TINY_SCENE + f"\n[render]\n{line}\n", "bad.toml")
        assert "render." + line.split()[0] in str(info.value) and expected in str(info.value)


def test_a_fast_droplet_draws_longer_than_a_slow_one():
    """Streaks run from x - u SHUTTER to x: their length is the speed times SHUTTER, so a fast
    drop draws longer than a slow one and a resting one is a point (a sphere when drawn)."""
    positions = np.array([[0.0, 1.0, 0.0], [0.5, 1.0, 0.0], [1.0, 1.0, 0.0]])
    velocities = np.array([[0.0, -4.0, 0.0], [0.0, -0.5, 0.0], [0.0, 0.0, 0.0]])
    points = streaks(positions, velocities, samples=3)
    assert np.allclose(points[:, -1], positions) and np.allclose(points[:, 1], positions + 0.5 * SHUTTER * -velocities)
    lengths = np.linalg.norm(points[:, -1] - points[:, 0], axis=1)
    assert np.allclose(lengths, [4.0 * SHUTTER, 0.5 * SHUTTER, 0.0])
    assert np.allclose(droplet_radii(4.0 / 3.0 * np.pi * np.array([1e-3, 8e-3]) ** 3), [1e-3, 8e-3])


def test_the_viewer_draws_droplets_as_streaks_of_their_radius():
    import polyscope as ps

    from surfflow.viewer.droplet_view import DROPLETS_NAME, STREAKS_NAME, draw_droplets

    ps.init("openGL_mock")
    drops = SimpleNamespace(positions=np.array([[0.0, 1.0, 0.0], [0.5, 1.0, 0.0]]),
                            velocities=np.array([[0.0, -4.0, 0.0], [0.0, 0.0, 0.0]]),
                            volumes=4.0 / 3.0 * np.pi * np.array([1e-3, 2e-3]) ** 3)
    draw_droplets(drops, (0.2, 0.4, 0.9))
    assert ps.has_curve_network(STREAKS_NAME) and ps.has_point_cloud(DROPLETS_NAME)
    assert ps.get_curve_network(STREAKS_NAME).n_nodes() == 4
    draw_droplets(SimpleNamespace(positions=np.zeros((0, 3)), velocities=np.zeros((0, 3)),
                                  volumes=np.zeros(0)), (0.2, 0.4, 0.9))
    assert not ps.has_curve_network(STREAKS_NAME) and not ps.has_point_cloud(DROPLETS_NAME)
