"""Tiny scenes shared by the scene, CLI, writer, checkpoint and viewer tests."""

from pathlib import Path

from surfflow.scene.runner import SceneRunner

TINY_SCENE = """\
name = "tiny"
duration = 0.2
fps = 10

[mesh]
procedural = "plane"
size = [0.2, 0.2]
resolution = [6, 6]
rotation = [-90.0, 0.0, 0.0]

[precompute]
smoothing_iterations = 0

[liquid]
preset = "water"

[[sources]]
type = "pour"
center = [0.0, 0.0, 0.0]
radius = 0.05
rate = 1.0e-6
color = [1.0, 0.0, 0.0]

[output]
formats = ["npz", "vtu"]
"""
"""A horizontal 0.2 m square (normal +y, gravity -y) with one dyed pour of 1e-6 m^3/s at its
centre: 2 frames of 0.1 s, 2e-7 m^3 poured in all."""

POURED_VOLUME = 2.0e-7


def write_scene(directory: Path, text: str = TINY_SCENE, name: str = "tiny.toml") -> Path:
    path = Path(directory) / name
    path.write_text(text)
    return path


def straight_and_resumed(scene, directory: Path, stop: int = 2):
    """The scene run straight into DIRECTORY/straight, and run into DIRECTORY/split stopped
    after frame ``stop`` then resumed from its checkpoint to the end (one geometry cache):
    (straight runner, resumed runner), each checked to have run to the end."""
    directory = Path(directory)
    cache = directory / "cache"
    straight = SceneRunner(scene, output_dir=directory / "straight", cache_dir=cache)
    assert straight.run()
    stopped = SceneRunner(scene, output_dir=directory / "split", cache_dir=cache)
    stopped.run(on_frame=lambda r: r.request_stop() if r.frame == stop else None)
    assert stopped.frame == stop
    resumed = SceneRunner(scene, output_dir=directory / "split", cache_dir=cache,
                          resume=stopped.checkpoint_path)
    assert resumed.frame == stop and resumed.run()
    return straight, resumed
