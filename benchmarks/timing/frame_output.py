"""Cost of writing a frame in each format (npz, VTKHDF, VTU + PVD, USD when usd-core is
installed) and of a checkpoint, on ``bunny_pour`` once its film has spread.

    python benchmarks/timing/frame_output.py [SECONDS]

Advances the example to SECONDS (default 1.5: both spouts pour and the film covers most of what
it will, so its frames are among the run's largest), takes FRAMES frames 1/fps apart and writes
them in each format in turn, as the writer thread would. Prints the median milliseconds per
frame and the bytes per frame: the frame files' sizes, or for the VTKHDF files their growth per
frame, with what each format writes once (mesh.npz, the VTKHDF's mesh) shared over the scene's
frames. The USD line is the cost of one more frame in a stage that already holds frames.

Internals, in one import: the frame writers, ``frame_fields``, ``save_checkpoint`` and
``UsdSettings`` are not public (``sf.SceneRunner`` drives them); this times them one by one.
"""

import statistics
import sys
import tempfile
import time
from pathlib import Path

from medians import median_ms

import surfflow as sf
from surfflow.cli import EXAMPLES_DIR
from surfflow.io import checkpoint, usd, writers

FRAMES = 5
REPEATS = 5


def main(seconds: float) -> None:
    scene = sf.load_scene(EXAMPLES_DIR / "bunny_pour.toml")
    cache = Path(tempfile.gettempdir()) / "surfflow_bench_cache"
    with tempfile.TemporaryDirectory() as out:
        out = Path(out)
        runner = sf.SceneRunner(scene, output_dir=out / "setup", cache_dir=cache)
        sim = runner.simulation
        sim.advance(seconds)
        frames = []
        for _ in range(FRAMES):
            frames.append((sim.time, writers.frame_fields(sim)))
            sim.advance(1.0 / scene.fps)
        fields = frames[0][1]
        print(f"bunny_pour at {seconds} s: {sim.geometry.n_vertices} vertices, fields {sorted(fields)}")
        print(f"frame_fields  {median_ms(lambda: writers.frame_fields(sim), REPEATS):8.1f} ms")
        shared = scene.n_frames + 1
        for name in ("npz", "vtkhdf", "vtu"):
            folder = out / name
            ms, growth, once = write_frames(writers.make_writers(folder, [name], sim.geometry),
                                            folder, frames)
            print(f"{name:7s} frame {ms:8.1f} ms, {(growth + once / shared) / 1e6:.2f} MB per frame "
                  f"({growth / 1e6:.2f} MB, and {once / 1e6:.2f} MB once)")
        usd_frame(out, sim.geometry, fields)
        path = out / "checkpoint.npz"
        print(f"checkpoint    {median_ms(lambda: checkpoint.save_checkpoint(path, sim, 0), REPEATS):8.1f} ms, "
              f"{path.stat().st_size / 1e6:.2f} MB")


def write_frames(frame_writers: list, folder: Path, frames: list) -> tuple[float, float, float]:
    """Median ms per frame of ``frame_writers`` writing ``frames`` one after the other, the bytes
    the folder grows by per frame, and what the first frame and the writers' setup wrote beyond
    that (the mesh)."""
    ms, sizes = [], []
    for frame, (time_, fields) in enumerate(frames):
        start = time.perf_counter()
        for writer in frame_writers:
            writer.write(frame, time_, fields)
        ms.append(1e3 * (time.perf_counter() - start))
        sizes.append(folder_bytes(folder))
    for writer in frame_writers:
        if hasattr(writer, "close"):
            writer.close()
    growth = (folder_bytes(folder) - sizes[0]) / (len(frames) - 1)
    return statistics.median(ms), growth, sizes[0] - growth


def folder_bytes(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.iterdir() if path.is_file())


def usd_frame(out: Path, geom, fields: dict) -> None:
    try:
        writer = sf.UsdWriter(out, geom, usd.UsdSettings(dye_colors=((1.0, 0.0, 0.0), (1.0, 1.0, 0.0))))
    except sf.SurfflowError as exc:
        print(f"usd frame     skipped: {exc}")
        return
    frames = iter(range(10**6))
    writer.write(next(frames), 0.0, fields)
    size = writer.path.stat().st_size
    ms = median_ms(lambda: writer.write(next(frames), 0.0, fields), REPEATS)
    growth = (writer.path.stat().st_size - size) / (REPEATS + 1)
    print(f"usd frame     {ms:8.1f} ms, {growth / 1e6:.2f} MB per frame")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 1.5)
