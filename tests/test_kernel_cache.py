"""A kernel's cached machine code is not reused once a helper it calls has changed in another
module (kernels/_jit.py ``PackageStampedLocator``): end to end, in fresh processes running a copy
of the package with their own numba cache."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import surfflow

# continuity.dry_stands_above calls pressure.free_surface_height: is the dry vertex 1 (height 1)
# above the wet vertex 0's free surface (height 0)?
PROBE = """
import sys
import numpy as np
import surfflow
from surfflow.kernels.continuity import dry_stands_above
assert surfflow.__file__.startswith(sys.argv[1]), surfflow.__file__
flat = np.zeros(2)
print(dry_stands_above(0, 1, np.array([0.0, 1.0]), np.ones(2), flat, flat))
"""
HEIGHT = "return vertex_height[i] + (bottom[i] + depth[i]) * normal_rise[i]"


def run_probe(source: Path, cache: Path) -> str:
    env = {**os.environ, "PYTHONPATH": str(source), "NUMBA_CACHE_DIR": str(cache)}
    done = subprocess.run([sys.executable, "-c", PROBE, str(source)], env=env, cwd=source,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_helper_changed_in_another_module_recompiles_its_callers(tmp_path):
    source, cache = tmp_path / "source", tmp_path / "cache"
    shutil.copytree(Path(surfflow.__file__).parent, source / "surfflow",
                    ignore=shutil.ignore_patterns("__pycache__"))
    assert run_probe(source, cache) == "True"
    assert any(cache.rglob("continuity.dry_stands_above*.nbi"))  # it was cached
    helper = source / "surfflow" / "kernels" / "pressure.py"
    text = helper.read_text()
    assert HEIGHT in text
    helper.write_text(text.replace(HEIGHT, "return -(" + HEIGHT[len("return "):] + ")"))
    # the heights negated: the dry vertex now stands below, though continuity.py is unchanged
    assert run_probe(source, cache) == "False"
