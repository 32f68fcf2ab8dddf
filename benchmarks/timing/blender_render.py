"""Seconds per frame of a Blender (Cycles, CPU) render of an example scene, and the README's pictures.

    python benchmarks/timing/blender_render.py [--example bunny_pour] [--frame 45] [--frames 3]
                                               [--quality draft] [--save docs/bunny_blender.png]

Runs the scene to ``--frame`` without drawing, then shows and renders ``--frames`` frames with
:class:`surfflow.blender.BlenderShot` and prints the median seconds per frame (building
the frame's meshes plus the Cycles render, the simulation not counted) with the CPU seconds
and the load average (the machine may be shared), the resolution, samples
and whether the denoiser ran. ``--save`` copies the first rendered frame there. Needs the extra
"blender" (bpy, Python 3.11).

Internals: ``BlenderShot`` (the renderer, fed one frame at a time so that the simulation is not
timed), ``UsdSettings`` and ``frame_fields`` are not public.
"""

import argparse
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import numba

import surfflow as sf
from surfflow.io import usd, writers
from surfflow.blender import BlenderShot

EXAMPLES = Path(__file__).resolve().parents[2] / "surfflow" / "examples"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--example", default="bunny_pour")
    parser.add_argument("--frame", type=int, default=45, help="first frame rendered")
    parser.add_argument("--frames", type=int, default=3, help="frames rendered")
    parser.add_argument("--quality", default="draft")
    parser.add_argument("--save", help="copy the first rendered frame to this PNG")
    args = parser.parse_args()
    scene = sf.load_scene(EXAMPLES / f"{args.example}.toml")
    with tempfile.TemporaryDirectory() as out:
        runner = sf.SceneRunner(scene, output_dir=out)
        while runner.frame < args.frame:
            runner.advance_frame()
        shot = BlenderShot(runner.geometry, usd.UsdSettings.from_scene(scene), scene.render, args.quality)
        seconds, cpu = [], []
        for k in range(args.frames):
            if k:
                runner.advance_frame()
            start, cpu_start = time.perf_counter(), time.process_time()
            shot.show(writers.frame_fields(runner.simulation))
            shot.render(Path(out) / f"frame_{runner.frame:05d}.png")
            seconds.append(time.perf_counter() - start)
            cpu.append(time.process_time() - cpu_start)
            if k == 0 and args.save:
                shutil.copy(Path(out) / f"frame_{runner.frame:05d}.png", args.save)
    render = shot.scene.render
    print(f"{args.example} frames {args.frame}..{runner.frame}, {render.resolution_x}x{render.resolution_y}, "
          f"{shot.scene.cycles.samples} samples, denoiser {shot.scene.cycles.use_denoising}, "
          f"numba threads {numba.get_num_threads()}")
    print(f"blender render {statistics.median(seconds):6.2f} s per frame (median of {len(seconds)}: "
          f"{', '.join(f'{s:.2f}' for s in seconds)}); {statistics.median(cpu):.2f} CPU s per frame "
          f"(all threads), load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
