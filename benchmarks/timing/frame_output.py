"""Cost of writing one frame (npz, VTU + PVD, USD when usd-core is installed) and one
checkpoint, on the bunny.

    python benchmarks/timing/frame_output.py [MESH]

Prints the median of several runs of each, in milliseconds, and the file sizes. The USD line is
the cost of one more frame in a stage that already holds frames (samples, then an incremental
save of run.usdc), with two dyes on the liquid, and the stage's growth per frame.

Internals, in one import: the frame writers, ``frame_fields``, ``save_checkpoint`` and
``UsdSettings`` are not public (``sf.SceneRunner`` drives them); this times them one by one.
"""

import sys
import tempfile
from pathlib import Path

import numpy as np

from medians import median_ms

import surfflow as sf
from surfflow.io import checkpoint, usd, writers

REPEATS = 5


def main(mesh_path: str) -> None:
    cache = Path(tempfile.gettempdir()) / "surfflow_bench_cache"
    geom = sf.precompute(mesh_path, sf.PrecomputeParams(), cache_dir=cache)
    sim = sf.Simulation(geom, sf.Params(), n_dyes=2)
    sim.set_depth(np.full(geom.n_vertices, 1e-3))
    with tempfile.TemporaryDirectory() as out:
        out = Path(out)
        npz, vtu = writers.NpzFrameWriter(out, geom), writers.VtuSeriesWriter(out, geom)
        fields = writers.frame_fields(sim)
        print(f"{geom.n_vertices} vertices, fields {sorted(fields)}")
        print(f"frame_fields  {median_ms(lambda: writers.frame_fields(sim), REPEATS):8.1f} ms")
        print(f"npz frame     {median_ms(lambda: npz.write(0, 0.0, fields), REPEATS):8.1f} ms, "
              f"{(out / 'frame_00000.npz').stat().st_size / 1e6:.2f} MB")
        print(f"vtu frame+pvd {median_ms(lambda: vtu.write(0, 0.0, fields), REPEATS):8.1f} ms, "
              f"{(out / 'frame_00000.vtu').stat().st_size / 1e6:.2f} MB")
        usd_frame(out, geom, fields)
        path = out / "checkpoint.npz"
        print(f"checkpoint    {median_ms(lambda: checkpoint.save_checkpoint(path, sim, 0), REPEATS):8.1f} ms, "
              f"{path.stat().st_size / 1e6:.2f} MB")


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
    main(sys.argv[1] if len(sys.argv) > 1 else str(Path(__file__).resolve().parents[2] / "meshes" / "bunny.obj"))
