"""Frames written beside the step: a writer thread fed through a bounded queue of frame copies.

    with FrameWriterThread(writers, directory) as output:
        output.put(frame, time, frame_fields(sim))    # copies; returns at once unless full
    output.summary()                                  # files, bytes, frames written

The step's thread hands over each frame's fields (:func:`surfflow.io.writers.frame_fields`
makes copies) and goes on; the writer thread runs every writer on them in order. At most
``max_pending`` frames wait (the step blocks when they do, so memory stays bounded). On Linux
the thread runs ``NICE`` steps nicer than the process (the lowest priority), so that on a
machine with few cores it writes in the moments the step leaves a core idle rather than slowing
its parallel loops. A write
that fails stops the thread, and the next :meth:`~FrameWriterThread.put` or the closing raises
:class:`surfflow.errors.OutputError` in the step's thread, naming the frame, the file and the
cause. Closing waits for every queued frame to be written.
"""

from __future__ import annotations

import contextlib
import os
import queue
import threading
import time
from pathlib import Path

from ..errors import OutputError

STOP = None
# The writer's niceness above the process's: the lowest priority (19, a weight of 15 against a
# normal thread's 1024), so the step's OpenMP threads, which spin awake between its parallel
# loops (kernels/_jit.py), keep their cores and the writer takes the idle moments. Measured with
# `benchmarks/realtime.py` (outputs on, 2 cores, alternated): bunny_pour 0.74-0.79 times real
# time at 5, 0.96-1.10 at 19 (the step waits more for the writer, but steps faster);
# paint_grooves 7.7-7.9 -> 8.6-9.8. SCHED_IDLE (1.11-1.13, 10.4-12.5) would starve the writer
# on a machine kept busy by other work, stalling the run.
NICE = 19


class FrameWriterThread:
    """Runs ``writers`` (each with ``write(frame, time, fields) -> path, list of paths or None``, and
    optionally ``written_once``: files written before the first frame, and ``close()``) on a
    thread.

    directory: the output folder, for the messages and :meth:`summary`.
    """

    def __init__(self, writers, directory: str | os.PathLike, max_pending: int = 3):
        self.writers, self.directory = list(writers), Path(directory)
        self.queue: queue.Queue = queue.Queue(maxsize=max_pending)
        self.error: OutputError | None = None
        self.files: dict[Path, int] = {Path(path): Path(path).stat().st_size  # e.g. mesh.npz
                                       for writer in self.writers
                                       for path in getattr(writer, "written_once", ())}
        self.frames = 0
        self.blocked = self.busy = 0.0  # s the step's thread waited; s of the writer's CPU
        self.thread = threading.Thread(target=self._work, name="surfflow-writer", daemon=True)
        self.thread.start()

    def __enter__(self) -> FrameWriterThread:
        return self

    def __exit__(self, kind, error, trace) -> None:
        self.close(raise_error=kind is None)

    def put(self, frame: int, time_: float, fields: dict) -> None:
        """Queue ``fields`` (copies: the thread keeps them) of ``frame`` at ``time_`` (s)."""
        self._raise()
        start = time.perf_counter()
        self.queue.put((frame, time_, fields))
        self.blocked += time.perf_counter() - start

    def flush(self) -> None:
        """Wait until every frame queued so far is written; raise the first write error if any."""
        start = time.perf_counter()
        self.queue.join()
        self.blocked += time.perf_counter() - start
        self._raise()

    def close(self, raise_error: bool = True) -> None:
        """Wait until every queued frame is written; raise the first write error if any."""
        if self.thread.is_alive():
            start = time.perf_counter()
            self.queue.put(STOP)
            self.thread.join()
            self.blocked += time.perf_counter() - start
            for writer in self.writers:
                if hasattr(writer, "close"):
                    writer.close()
            self.files = {path: path.stat().st_size for path in self.files if path.is_file()}
        if raise_error:
            self._raise()

    def summary(self) -> dict:
        """{"directory", "frames", "files", "bytes"} of what this run's writers wrote."""
        return {"directory": self.directory, "frames": self.frames, "files": len(self.files),
                "bytes": sum(self.files.values())}

    def _raise(self) -> None:
        if self.error is not None:
            raise self.error

    def _work(self) -> None:
        with contextlib.suppress(AttributeError, OSError):  # Linux: this thread's niceness
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(),
                           os.getpriority(os.PRIO_PROCESS, 0) + NICE)
        while (item := self.queue.get()) is not STOP:
            if self.error is None:
                self._write(*item)
            self.queue.task_done()
        self.queue.task_done()

    def _write(self, frame: int, time_: float, fields: dict) -> None:
        start = time.thread_time()
        for writer in self.writers:
            try:
                path = writer.write(frame, time_, fields)
            except Exception as exc:  # handed to the step's thread, which raises it
                self.error = OutputError(
                    f"writing frame {frame} with {type(writer).__name__} into {self.directory} "
                    f"failed: {exc}; the frames before it are written. Check that the folder is "
                    "writable and has space, or choose another with --output / [output] directory")
                self.error.__cause__ = exc
                return
            for written in [] if path is None else path if isinstance(path, list) else [path]:
                self.files[Path(written)] = Path(written).stat().st_size
        self.frames += 1
        self.busy += time.thread_time() - start
