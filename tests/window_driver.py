"""Drive `surfflow view` in a real X window; run under xvfb-run by test_viewer_window.py.

    python window_driver.py SCENE OUT_DIR
    python window_driver.py --watch FILE OUT_DIR [VIEW ARGS...]

Starts `python -m surfflow view SCENE --play`, waits for its window, photographs the X screen
(Pillow's ImageGrab) once the panel is drawn, shift-clicks the middle of the window with xdotool
(holding shift until the viewer reports the pour: a software renderer draws about one frame a
second, and imgui takes one input event per frame), then photographs it twice more as the
liquid spreads. Writes before.png, poured.png, later.png and report.json into OUT_DIR.
``--watch`` only watches: `python -m surfflow view FILE --play VIEW ARGS...` (a bare mesh pours
from its own spout), photographed once the panel is drawn (first.png) and WATCH_SECONDS later
(later.png).
"""

import contextlib
import json
import subprocess
import sys
import time
from pathlib import Path

from PIL import ImageGrab


def xdotool(*args: str) -> str:
    return subprocess.run(["xdotool", *args], capture_output=True, text=True, timeout=60).stdout


def wait_for(condition, timeout: float, poll: float = 0.25):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(poll)
    return None


def panel_drawn() -> bool:
    """Whether the screen shows a good deal of the control panel's grey (76, 76, 76)."""
    colors = ImageGrab.grab().getcolors(1 << 24) or []
    return any(color == (76, 76, 76) and count > 10000 for count, color in colors)


@contextlib.contextmanager
def viewer_window(target: str, out: Path, view_args: list[str]):
    """Start `python -u -m surfflow view TARGET --play VIEW_ARGS` logging to OUT/viewer.log and
    wait for its window; yields (window id, report dict with the window's place, log path, start
    time). On the way out the viewer stops and the report, with its log, goes to report.json."""
    out.mkdir(parents=True, exist_ok=True)
    log = out / "viewer.log"
    start = time.monotonic()
    with open(log, "w") as stream:
        viewer = subprocess.Popen([sys.executable, "-u", "-m", "surfflow", "view", target, "--play",
                                   *view_args], stdout=stream, stderr=subprocess.STDOUT)
    report = {}
    try:
        window = xdotool("search", "--sync", "--name", "surfflow").split()[0]
        geometry = xdotool("getwindowgeometry", "--shell", window)
        place = dict(line.split("=") for line in geometry.split())
        report["window"] = {key: int(place[key]) for key in ("X", "Y", "WIDTH", "HEIGHT")}
        yield window, report, log, start
        report["total_seconds"] = time.monotonic() - start
    finally:
        viewer.terminate()
        viewer.wait(timeout=30)
        report["log"] = log.read_text()
        (out / "report.json").write_text(json.dumps(report, indent=1))


def main(scene: str, out: Path) -> None:
    with viewer_window(scene, out, []) as (window, report, log, start):
        report["window_seconds"] = time.monotonic() - start
        wait_for(panel_drawn, 60)
        time.sleep(1.0)
        ImageGrab.grab().save(out / "before.png")
        w, h = report["window"]["WIDTH"], report["window"]["HEIGHT"]
        xdotool("mousemove", "--window", window, str(w // 2), str(h // 2))
        xdotool("keydown", "shift")
        time.sleep(0.5)
        xdotool("mousedown", "1")
        time.sleep(0.5)
        xdotool("mouseup", "1")
        poured = wait_for(lambda: "pouring" in log.read_text(), 30)
        xdotool("keyup", "shift")
        report["poured"] = bool(poured)
        report["pour_seconds"] = time.monotonic() - start
        time.sleep(3.0)
        ImageGrab.grab().save(out / "poured.png")
        time.sleep(3.0)
        ImageGrab.grab().save(out / "later.png")


WATCH_SECONDS = 20.0


def watch(target: str, out: Path, view_args: list[str]) -> None:
    with viewer_window(target, out, view_args):
        wait_for(panel_drawn, 60)
        ImageGrab.grab().save(out / "first.png")
        time.sleep(WATCH_SECONDS)
        ImageGrab.grab().save(out / "later.png")


if __name__ == "__main__":
    if sys.argv[1] == "--watch":
        watch(sys.argv[2], Path(sys.argv[3]), sys.argv[4:])
    else:
        main(sys.argv[1], Path(sys.argv[2]))
