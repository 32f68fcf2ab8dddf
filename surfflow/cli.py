"""The ``surfflow`` command line; each subcommand maps onto library calls.

    surfflow run SCENE.toml            run with a progress bar, write frames and a checkpoint
    surfflow run MESH.obj              run the default scene on a bare mesh (any format trimesh reads)
    surfflow run --example bunny_pour  run a scene that ships with surfflow
    surfflow view SCENE.toml|MESH      interactive polyscope viewer
    surfflow render SCENE.toml|MESH    headless PNG frames and an MP4 (--engine blender: Cycles)
    surfflow new MESH -o SCENE.toml    write a mesh's default scene as a commented file to edit
    surfflow export-usd RUN_DIR        a USD stage of a finished run (optional extra "usd")
    surfflow precompute MESH           write the geometry cache
    surfflow info FILE                 describe a mesh, scene, geometry, checkpoint or output
    surfflow examples                  list the shipped example scenes
    surfflow sweep SWEEP.toml -o DIR   run a parameter sweep on Dask (one folder per case)

Errors print as one line on stderr with exit code 1 (a traceback only with ``--debug``);
Ctrl-C during ``run`` writes a checkpoint and exits with code 130.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
import warnings
from pathlib import Path

from .errors import SceneError, SurfflowError

EXAMPLES_DIR = Path(__file__).resolve().parent / "examples"


def example_names() -> list[str]:
    return sorted(p.stem for p in EXAMPLES_DIR.glob("*.toml"))


def scene_path(args) -> Path:
    """The scene file named by SCENE or --example NAME."""
    if args.example is None:
        if args.scene is None:
            raise SceneError("give a scene file (.toml), a mesh file (OBJ, PLY, STL, ...) or --example NAME "
                             "(see `surfflow examples`)")
        return Path(args.scene)
    path = EXAMPLES_DIR / f"{args.example}.toml"
    if not path.is_file():
        raise SceneError(f"no example {args.example!r}; the examples are {', '.join(example_names())}")
    return path


def load_args_scene(args, write_into: str | None = None):
    """The scene named by SCENE or --example NAME, its duration replaced by --duration. A bare
    mesh gets its default scene (``scene_input.mesh_scene``), printed, and written as scene.toml
    into the folder of ``write_into`` ("output", "render"; -o where given)."""
    from .scene.scene import load_scene
    from .scene.scene_input import input_kind, mesh_scene, with_duration

    path = scene_path(args)
    if input_kind(path) == "scene":
        if args.up or args.units:
            raise SceneError(f"--up and --units are for a bare mesh; {path} is a scene: set 'up' "
                             "and 'units' in its [mesh] table")
        return with_duration(load_scene(path), args.duration)
    scene, lines = mesh_scene(path, args.units or "m", args.up or "y", args.duration, write_into,
                              getattr(args, "output", None) if write_into else None)
    print(f"{path} is a mesh: running the default scene on it "
          f"(`surfflow new {path} -o FILE` writes it to edit)")
    for line in lines:
        print(f"  {line}")
    return scene


def command_run(args) -> int:
    from tqdm import tqdm

    from .scene.runner import SceneRunner
    from .step_limits import cells_report, last_step_limit

    started = time.perf_counter()
    scene = load_args_scene(args, "output")
    runner = SceneRunner(scene, output_dir=args.output, cache_dir=args.cache_dir, resume=args.resume)
    tally = getattr(runner.simulation, "step_limits", None)   # a ripple run has none
    if tally is not None:
        print(cells_report(runner.simulation.fields.ring_spacing))
    bar = tqdm(total=scene.n_frames, initial=runner.frame, unit="frame", disable=args.quiet,
               desc=scene.name, dynamic_ncols=True)
    clock = {"wall": time.perf_counter(), "steps": runner.steps_taken}

    def on_frame(r):
        now, steps = time.perf_counter(), r.steps_taken
        rate = (steps - clock["steps"]) / max(now - clock["wall"], 1e-9)
        clock.update(wall=now, steps=steps)
        bar.set_postfix_str(f"t={r.simulation.time:.3f}s, {rate:.0f} steps/s, step set by "
                            f"{last_step_limit(r.simulation)}", refresh=False)
        bar.update(1)

    def stop_softly(signum, frame):
        runner.request_stop()
        signal.signal(signal.SIGINT, signal.default_int_handler)

    previous = signal.signal(signal.SIGINT, stop_softly)
    try:
        finished = runner.run(on_frame)
    finally:
        signal.signal(signal.SIGINT, previous)
        bar.close()
    volume = runner.simulation.total_volume()
    if not finished:
        print(f"stopped at frame {runner.frame}; checkpoint written to {runner.checkpoint_path} "
              f"(continue with --resume {runner.checkpoint_path})", file=sys.stderr)
        return 130
    print(f"wrote {scene.n_frames + 1} frames to {runner.output_dir}; {volume_words(runner.simulation)} "
          f"{volume:.6g} m^3")
    print(output_summary(runner.output, time.perf_counter() - started))
    if tally is not None:
        for line in tally.report(runner.simulation.fields.ring_spacing):
            print(line)
    return 0


def volume_words(simulation) -> str:
    """What ``total_volume()`` measures: the liquid on the surface, or, in ripple mode (a height
    field about a rest level), the water raised above that level, negative where floating bodies
    press it down."""
    from .ripples.model import Ripples

    return "water raised above the rest level" if isinstance(simulation, Ripples) else "liquid volume"


def output_summary(output, wall: float) -> str:
    """One line: where a run's outputs are, how large they are, and what writing them cost."""
    done = output.summary()
    megabytes = done["bytes"] / 1e6
    return (f"outputs: {done['files']} files, {megabytes:.1f} MB in {done['directory']} "
            f"({megabytes / max(done['frames'], 1):.2f} MB per frame); the writer thread took "
            f"{output.busy:.1f} s of CPU beside the run's {wall:.1f} s, which waited "
            f"{output.blocked:.1f} s for it")


def command_view(args) -> int:
    from .viewer.app import view_scene
    from .viewer.ripple_app import view_ripples
    scene = load_args_scene(args)
    view = view_ripples if scene.mode == "ripples" else view_scene
    view(scene, cache_dir=args.cache_dir, play=args.play)
    return 0


def command_render(args) -> int:
    scene = load_args_scene(args, "render")
    options = {"output_dir": args.output, "cache_dir": args.cache_dir, "frames": args.frames,
               "video": not args.no_video, "resume": args.resume}
    if (args.engine or scene.render.engine) == "blender":
        from .blender import render_scene_blender
        result = render_scene_blender(scene, quality=args.quality, **options)
    else:
        from .viewer.render import render_scene
        result = render_scene(scene, **options)
    print(f"rendered {len(result.images)} frames to {result.directory}"
          + (f"; video {result.video}" if result.video else ""))
    return 0


def command_export_usd(args) -> int:
    from tqdm import tqdm

    from .scene.scene import load_scene
    from .scene.scene_input import require_scene
    from .scene.usd_export import export_run

    if args.scene:
        require_scene(args.scene, "export-usd --scene", "the scene file (.toml) that made the run")
    scene = load_scene(args.scene) if args.scene else None
    output = Path(args.output or Path(args.run_dir) / "run.usdc")
    path = export_run(args.run_dir, output, scene,
                      progress=lambda files: tqdm(files, unit="frame", disable=args.quiet))
    print(f"wrote {path}")
    return 0


def command_precompute(args) -> int:
    from .config import PrecomputeParams
    from .geometry.precompute import precompute
    from .scene.scene_input import require_mesh
    from .step_limits import cells_report, dual_cell_sizes

    require_mesh(args.mesh, "precompute")
    smoothing = {"feature_size": feature_size_argument(args.feature_size)} if args.feature_size else {}
    if args.smoothing_iterations is not None:
        smoothing["smoothing_iterations"] = args.smoothing_iterations
    params = PrecomputeParams(**smoothing)
    start = time.perf_counter()
    geom = precompute(args.mesh, params, cache_dir=args.cache_dir)
    output = Path(args.output or f"{Path(args.mesh).stem}.geom.npz")
    geom.save(output)
    print(f"wrote {output}: {geom.n_vertices} vertices, {geom.n_faces} faces, "
          f"area {geom.area:.6g} m^2, key {geom.key} ({time.perf_counter() - start:.1f} s)")
    print(cells_report(dual_cell_sizes(geom)))
    return 0


def feature_size_argument(text: str) -> float | str:
    """--feature-size as PrecomputeParams takes it: metres as a float, a percentage as text."""
    try:
        return float(text)
    except ValueError:
        return text


def command_new(args) -> int:
    from .scene import default_scene as default
    from .scene.scene_input import require_mesh

    require_mesh(args.mesh, "new")
    output = Path(args.output or f"{Path(args.mesh).stem}.toml")
    if output.exists() and not args.force:
        raise SceneError(f"{output} exists; give another -o FILE, or --force to overwrite it")
    size = default.measure_mesh(args.mesh, args.units, args.up)
    tables = default.default_scene(args.mesh, args.units, args.up, size)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(default.scene_text(tables, size, output), encoding="utf-8")
    print(f"wrote {output}: the default scene for {args.mesh}")
    for line in default.summary(tables, size):
        print(f"  {line}")
    print(f"edit it, then `surfflow run {output}` (or view, render)")
    return 0


def command_info(args) -> int:
    from .scene.describe import describe_file
    mesh_options = {"units": args.units, "up": args.up, "repair": not args.no_repair}
    for key, value in describe_file(args.file, **mesh_options).items():
        print(f"{key}: {value}")
    return 0


def command_examples(args) -> int:
    for name in example_names():
        print(name)
    return 0


def command_sweep(args) -> int:
    from .batch import sweep
    from .scene.scene_input import require_scene

    require_scene(args.sweep, "sweep", "a sweep file (.toml)")
    rows = sweep(args.sweep, args.output, workers=args.workers, scheduler=args.scheduler,
                 resume=args.resume, numba_threads=args.numba_threads, cache_dir=args.cache_dir,
                 progress=not args.quiet)
    failed = [row for row in rows if row["status"] != "ok"]
    for row in failed:
        print(f"case {row['case']} failed: {row['error']}", file=sys.stderr)
    print(f"{len(rows) - len(failed)} of {len(rows)} cases ok; results in {Path(args.output) / 'results.csv'}")
    return 1 if failed else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="surfflow", description="Thin liquid flow over triangle meshes.")
    parser.add_argument("--debug", action="store_true", help="show the full traceback on errors")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def scene_command(name, handler, help_text):
        sub = commands.add_parser(name, help=help_text, description=help_text + (
            "; a mesh file instead of a scene runs the default scene on it (see `surfflow new`)"))
        sub.add_argument("scene", nargs="?", help="scene file (.toml), or a mesh file (OBJ, PLY, "
                         "STL, ...: its default scene)")
        sub.add_argument("--example", metavar="NAME", help="a shipped example scene instead of a file")
        sub.add_argument("--cache-dir", help="geometry cache folder (default: the scene's)")
        sub.add_argument("--duration", type=positive_seconds, metavar="SECONDS",
                         help="simulated seconds, instead of the scene's duration")
        mesh_options(sub, None, None)
        sub.set_defaults(handler=handler)
        return sub

    run = scene_command("run", command_run, "run a scene, writing frames and a checkpoint")
    run.add_argument("-o", "--output", help="output folder (default: the scene's [output] directory)")
    run.add_argument("--resume", metavar="CHECKPOINT", help="continue from a checkpoint file")
    run.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    view = scene_command("view", command_view, "open the interactive polyscope viewer on a scene")
    view.add_argument("--play", action="store_true", help="start playing at once")
    render = scene_command("render", command_render, "render a scene headless to PNG frames and an MP4")
    render.add_argument("-o", "--output", help="image folder (default: the scene's [render] directory)")
    render.add_argument("--frames", type=int, help="render only N frames after the first")
    render.add_argument("--resume", metavar="CHECKPOINT", help="start from a checkpoint's frame")
    render.add_argument("--no-video", action="store_true", help="write PNG frames only")
    render.add_argument("--engine", choices=("polyscope", "blender"),
                        help="renderer (default: the scene's [render] engine, else polyscope)")
    render.add_argument("--quality", choices=("draft", "high"), default="draft",
                        help="Blender: draft (half size, 16 samples) or high (full size, 128)")

    usd = commands.add_parser("export-usd", help="write a USD stage of a finished run",
                              description="write a USD stage (.usdc/.usda) of a run's npz frames")
    usd.add_argument("run_dir", help="the run's output folder (mesh.npz, frame_NNNNN.npz)")
    usd.add_argument("-o", "--output", help="stage file (default: RUN_DIR/run.usdc)")
    usd.add_argument("--scene", help="the scene that made the run (default: the one its checkpoint names)")
    usd.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    usd.set_defaults(handler=command_export_usd)

    pre = commands.add_parser("precompute", help="precompute a mesh's geometry and save it",
                              description="precompute a mesh's geometry and save it (.geom.npz)")
    pre.add_argument("mesh", help="mesh file (OBJ, PLY, STL, ...)")
    pre.add_argument("-o", "--output", help="output file (default: MESH_STEM.geom.npz)")
    pre.add_argument("--cache-dir", help="also keep it in this cache folder")
    pre.add_argument("--feature-size", help="narrowest shape the smoothed surface keeps: metres "
                     "(0.005) or a percentage of the mesh's diameter (2%%, the default); "
                     "0 keeps the input mesh")
    pre.add_argument("--smoothing-iterations", type=int, help="heat-flow steps (expert; default 4)")
    pre.set_defaults(handler=command_precompute)

    info = commands.add_parser("info", help="describe a file", description=(
        "describe a mesh, scene, geometry cache, checkpoint or output frame/series"))
    info.add_argument("file")
    mesh_options(info, "m", "y")
    info.add_argument("--no-repair", action="store_true",
                      help="refuse a mesh's defects instead of repairing them, as load_mesh(repair=False)")
    info.set_defaults(handler=command_info)
    examples = commands.add_parser("examples", help="list the example scenes",
                                   description="list the example scenes shipped with surfflow")
    examples.set_defaults(handler=command_examples)
    new = commands.add_parser("new", help="write a mesh's default scene to edit", description=(
        "write the default scene of a mesh (water poured from a spout above its highest point, "
        "droplets on, 3 s) as a commented scene file to edit; `surfflow run MESH` runs the same"))
    new.add_argument("mesh", help="mesh file (OBJ, PLY, STL, ...)")
    new.add_argument("-o", "--output", help="scene file to write (default: MESH_STEM.toml here)")
    mesh_options(new, "m", "y")
    new.add_argument("--force", action="store_true", help="overwrite the scene file if it exists")
    new.set_defaults(handler=command_new)
    sweep = commands.add_parser("sweep", help="run a parameter sweep on Dask", description=(
        "run a base scene over parameter axes on Dask distributed (a local cluster unless "
        "--scheduler or SURFFLOW_SCHEDULER names one); needs the extra: pip install \"surfflow[cluster]\""))
    sweep.add_argument("sweep", help="sweep file (.toml)")
    sweep.add_argument("-o", "--output", required=True, help="folder for the cases and results.csv")
    sweep.add_argument("--workers", type=int, help="local worker processes (default: one per core)")
    sweep.add_argument("--scheduler", metavar="ADDR", help="an existing Dask scheduler, tcp://host:port")
    sweep.add_argument("--numba-threads", type=int, default=1, help="numba threads per local worker")
    sweep.add_argument("--cache-dir", help="geometry cache folder (default: the scene's)")
    sweep.add_argument("--resume", action="store_true", help="skip the cases that finished ok")
    sweep.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    sweep.set_defaults(handler=command_sweep)
    return parser


def mesh_options(parser, units, up) -> None:
    """--units and --up, the [mesh] table's keys, for a command that takes a bare mesh."""
    from .io.units import UNITS, UP_AXES
    parser.add_argument("--units", choices=tuple(UNITS), default=units,
                        help="a bare mesh's length unit (default m)")
    parser.add_argument("--up", choices=UP_AXES, default=up,
                        help="a bare mesh's up axis, turned onto +y, gravity's up (default y)")


def positive_seconds(text: str) -> float:
    """--duration: a number of seconds > 0."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0.0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds > 0")
    return value


def _show_one_line(message, category, filename, lineno, file=None, line=None):
    print(f"surfflow: warning: {message}", file=sys.stderr)


def main(argv=None) -> int:
    """Entry point of the ``surfflow`` console script; returns the exit code."""
    args = build_parser().parse_args(argv)
    try:
        with warnings.catch_warnings():
            if not args.debug:
                warnings.showwarning = _show_one_line
            return args.handler(args)
    except Exception as exc:
        if args.debug:
            raise
        known = isinstance(exc, (SurfflowError, OSError))
        message = str(exc) if known else f"{type(exc).__name__}: {exc} (run with --debug for the traceback)"
        print(f"surfflow: error: {message}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        if args.debug:
            raise
        print("surfflow: interrupted", file=sys.stderr)
        return 130
