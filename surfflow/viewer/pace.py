"""Pacing the live viewer: measured rates, and advancing in real time.

``RateMeter`` gives the steps per wall second and the simulated seconds per wall second over the
last ``window`` seconds of wall time. ``RealTimePacer`` says how much simulated time a drawn
frame advances so that simulated time follows wall-clock time: the wall time since the previous
frame, so frames are dropped (each covers more simulated time) rather than time slowed, but at
most ``max_advance`` per frame so a slow machine still draws; it then falls behind, which the
meter shows (simulated seconds per wall second below ``KEEPING_UP``).
"""

from __future__ import annotations

from collections import deque

KEEPING_UP = 0.95
"""simulated seconds per wall second above which real time counts as kept."""


class RateMeter:
    """Rates over a sliding window of (wall time, simulated time, step count) samples."""

    def __init__(self, window: float = 1.0):
        self.window = window
        self.samples: deque = deque()

    def record(self, wall: float, sim_time: float, steps: int) -> None:
        self.samples.append((wall, sim_time, steps))
        while len(self.samples) > 2 and wall - self.samples[1][0] >= self.window:
            self.samples.popleft()

    def reset(self) -> None:
        self.samples.clear()

    def rates(self) -> tuple[float, float]:
        """(steps per wall second, simulated seconds per wall second); zeros before two samples."""
        if len(self.samples) < 2:
            return 0.0, 0.0
        (wall0, sim0, steps0), (wall1, sim1, steps1) = self.samples[0], self.samples[-1]
        elapsed = max(wall1 - wall0, 1e-12)
        return (steps1 - steps0) / elapsed, (sim1 - sim0) / elapsed


class RealTimePacer:
    """The simulated time each drawn frame should cover to keep up with the wall clock."""

    def __init__(self, max_advance: float = 0.25):
        self.max_advance = max_advance
        self.last_wall: float | None = None

    def advance_for(self, wall: float) -> float:
        """Seconds to advance for a frame drawn at ``wall``: the wall time since the previous
        one (0 for the first), at most ``max_advance``."""
        elapsed = 0.0 if self.last_wall is None else min(wall - self.last_wall, self.max_advance)
        self.last_wall = wall
        return max(elapsed, 0.0)

    def stop(self) -> None:
        """Forget the previous frame (paused, or real time switched off)."""
        self.last_wall = None
