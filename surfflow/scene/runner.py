"""``SceneRunner``: runs a scene frame by frame, writes its outputs and checkpoints.

    runner = SceneRunner(load_scene("pour.toml"))
    runner.run(on_frame=lambda runner: print(runner.frame, runner.simulation.time))

Frame k is the state at time k / fps; frame 0 is the initial condition, the last frame
(``scene.n_frames``) is at the duration, also when the duration is not a whole number of
frames. After every frame the runner hands a copy of its fields to the writer thread (npz
and/or VTU+PVD, written beside the next frame's steps; ``runner.output`` then says what was
written) and keeps a copy of its state, the last good one. It writes ``checkpoint.npz`` into
the output directory every ``checkpoint_every`` frames, at the end and when stopped, and at the
end ``step_limits.json``: what set the run's time steps (a resumed run's from its start) and the
vertices that set the most (a ripple run writes none). ``request_stop()`` (what Ctrl-C calls)
makes the run stop after the current frame; a KeyboardInterrupt inside a frame or a
SimulationError checkpoints the last good state. A resumed run continues bit-identically.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..errors import SimulationError
from ..io.checkpoint import restore_checkpoint, save_checkpoint
from ..io.writer_thread import FrameWriterThread
from ..io.writers import frame_fields, make_writers
from .compile_ahead import compile_ahead
from .scene_setup import scene_asset_mesh, scene_geometry, scene_simulation

CHECKPOINT_NAME = "checkpoint.npz"
STEP_LIMITS_NAME = "step_limits.json"


class SceneRunner:
    """Builds the geometry and Simulation of ``scene`` and advances it frame by frame.

    Frame k is the state at time k / fps. :meth:`run` writes every frame in the scene's
    ``[output] formats`` and ``checkpoint.npz`` (every ``checkpoint_every`` frames, at the end and
    when stopped); a run resumed from a checkpoint continues bit for bit.

    Parameters
    ----------
    scene : Scene
        a scene from :func:`load_scene`.
    output_dir : str or PathLike, optional
        overrides the scene's ``[output] directory``.
    cache_dir : str or PathLike, optional
        the geometry cache folder (default: the scene's).
    resume : str or PathLike, optional
        a checkpoint file to continue from.

    Examples
    --------
    >>> import surfflow as sf
    >>> from surfflow.cli import EXAMPLES_DIR
    >>> runner = sf.SceneRunner(sf.load_scene(EXAMPLES_DIR / "drop_in_wind.toml"), output_dir="out")
    >>> runner.advance_frame()                       # or runner.run() for the whole scene
    >>> runner.frame, runner.simulation.time        # frame 1 at 1 / fps seconds
    (1, 0.04)
    """

    def __init__(self, scene, output_dir: str | os.PathLike | None = None,
                 cache_dir: str | os.PathLike | None = None,
                 resume: str | os.PathLike | None = None):
        self.scene = scene
        self.output_dir = Path(output_dir or scene.output.directory)
        ahead = compile_ahead(scene)  # a cold start: the step's kernels compile beside this
        V, F, asset = scene_asset_mesh(scene.mesh)
        self.geometry = scene_geometry(scene, V, F, cache_dir, asset=asset)
        self.simulation = scene_simulation(scene, self.geometry, crash_dir=self.output_dir)
        if ahead is not None:
            ahead.wait()
        self.frame = 0
        self.resumed = resume is not None
        if resume is not None:
            self.frame = restore_checkpoint(self.simulation, resume).frame
        self._last_good = (self.frame, self.simulation.state_dict())
        self._stop_requested = False
        self.output: FrameWriterThread | None = None

    @property
    def checkpoint_path(self) -> Path:
        return self.output_dir / CHECKPOINT_NAME

    @property
    def steps_taken(self) -> int:
        """Time steps since the start of the run (counted across a resume)."""
        return int(self.simulation.state.step_count)

    def request_stop(self) -> None:
        """Stop after the current frame, writing a checkpoint."""
        self._stop_requested = True

    def write_checkpoint(self, last_good: bool = False) -> Path:
        """Write the current state, or that of the last frame written, as ``checkpoint.npz``."""
        frame, state = self._last_good if last_good else (self.frame, None)
        if self.output is not None:
            self.output.flush()  # the frames on disk reach the checkpoint's
        meta = {"scene": self.scene.path.resolve(), "fps": self.scene.fps}
        return save_checkpoint(self.checkpoint_path, self.simulation, frame, meta, state=state)

    def run(self, on_frame=None) -> bool:
        """Advance to the last frame, writing each; returns True if it finished, False if stopped.

        on_frame: called as ``on_frame(runner)`` after every frame, once it is queued for writing.
        """
        scene = self.scene
        writers = make_writers(self.output_dir, scene.output.formats, self.geometry,
                               first_frame=self.frame + 1 if self.resumed else 0, scene=scene)
        with FrameWriterThread(writers, self.output_dir) as self.output:
            if not self.resumed:
                self._write_frame()
            try:
                while self.frame < scene.n_frames and not self._stop_requested:
                    self.advance_frame()
                    self._write_frame()
                    if on_frame is not None:
                        on_frame(self)
                    every = scene.output.checkpoint_every
                    if every and self.frame % every == 0:
                        self.write_checkpoint()
            except KeyboardInterrupt:
                self.write_checkpoint(last_good=True)
                raise
        self.write_checkpoint()
        self.write_step_limits()
        return self.frame >= scene.n_frames

    def write_step_limits(self) -> Path | None:
        """Write ``step_limits.json``: the tally of what set the steps this runner took and
        where (``StepLimits.summary``, :mod:`surfflow.step_limits`); None for a model without
        one."""
        tally = getattr(self.simulation, "step_limits", None)
        if tally is None:
            return None
        path = self.output_dir / STEP_LIMITS_NAME
        path.write_text(json.dumps(tally.summary(self.simulation.fields.ring_spacing), indent=1)
                        + "\n")
        return path

    def advance_frame(self) -> None:
        """Advance to the next frame's time; on a SimulationError write the last good frame."""
        target = self.scene.frame_time(self.frame + 1)
        try:
            self.simulation.advance(max(0.0, target - self.simulation.time))
        except SimulationError as exc:
            path = self.write_checkpoint(last_good=True)
            raise SimulationError(f"{exc}; frame {self.frame}, the last good one, is in {path}") from None
        self.frame += 1

    def _write_frame(self) -> None:
        self.output.put(self.frame, self.simulation.time, frame_fields(self.simulation))
        self._last_good = (self.frame, self.simulation.state_dict())
