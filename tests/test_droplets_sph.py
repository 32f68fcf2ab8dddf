"""The SPH engine (SPlisHSPlasH through pysplishsplash, the [sph] extra) behind the Droplets
interface. It runs in a subprocess: one engine per process, and a broken install crashes
(segfaults) instead of raising. Skipped where pysplishsplash is not installed."""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(importlib.util.find_spec("pysplishsplash") is None,
                                reason="pysplishsplash (the [sph] extra) is not installed")

# The 5 mm film under a plate drips into the SPH engine, and the drops fall: the engine steps
# them, the ledger stays exact, the film keeps keep_depth. (Kept short: the engine's cost per
# step grows as the drops spread, see the note in splishsplash.py.)
SCRIPT = """
import json, sys
import numpy as np
sys.path.insert(0, {tests!r})
from builders import rectangle
import surfflow as sf
from surfflow.particles.splishsplash import SplishSplashDroplets
try:
    drops = SplishSplashDroplets(capacity=1000, bounds=((-1, -1, -1), (1, 1, 1)))
except ImportError as exc:  # the engine loads here; it may lack a system library
    print(json.dumps({{"skip": str(exc)}}))
    raise SystemExit
V, F = rectangle(0.0, 0.04, 0.0, 0.04, 8, 8, jitter=0.2)
geom = sf.precompute((V, F[:, ::-1]), smoothing_iterations=0)
sim = sf.Simulation(geom, sf.Params(gravity=(0.0, 0.0, -9.81), keep_depth=1e-4), particles=drops)
sim.set_depth(np.full(geom.n_vertices, 5e-3))
sim.step()
start = sim.particles.positions.copy()
t0 = sim.time
sim.advance(0.04)
fell = start[:, 2] - sim.particles.positions[:, 2]
book = sim.ledger()
print(json.dumps({{"count": [len(start), sim.particles.count], "fell": [float(fell.min()),
                   float(fell.max())], "seconds": sim.time - t0, "book": book,
                   "depth": [float(sim.depth.min()), float(sim.depth.max())]}}))
"""


def test_sph_engine_carries_the_drops_and_keeps_the_ledger(tmp_path):
    tests = str(Path(__file__).resolve().parent)
    result = subprocess.run([sys.executable, "-c", SCRIPT.format(tests=tests)], cwd=tmp_path,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    if "skip" in report:
        pytest.skip(report["skip"])
    book = report["book"]
    assert report["count"][0] == report["count"][1] > 100
    # drops released at rest fall g t^2 / 2 = 7.8 mm in 0.04 s, give or take the engine's
    # last step past the target and the pressure between neighbours
    ballistic = 0.5 * 9.81 * report["seconds"] ** 2
    assert 0.5 * ballistic < report["fell"][0] <= report["fell"][1] < 2.0 * ballistic
    assert book["emitted"] == pytest.approx(book["initial"] * (1.0 - 1e-4 / 5e-3), rel=1e-12)
    assert book["airborne"] == pytest.approx(book["emitted"], rel=1e-12) and book["lost"] == 0.0
    assert report["depth"] == pytest.approx([1e-4, 1e-4], rel=1e-12)
    assert abs(book["balance_error"]) < 1e-12 * book["initial"]
