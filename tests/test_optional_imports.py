"""surfflow imports, and every one of its modules loads, with none of the optional extras: their
engines (SPH, Blender, USD, Dask, ANUGA) are imported only where they are used. Each check runs
in a fresh interpreter, so that what the rest of the suite imported does not count."""

import json
import subprocess
import sys
from pathlib import Path

TESTS = str(Path(__file__).resolve().parent)

# Installs a finder in front of every other that answers "no such module" for the optional
# engines, as on a machine without the extras, then imports the whole package.
WITHOUT_EXTRAS = """
import importlib.abc, json, sys
sys.path.insert(0, {tests!r})


class WithoutExtras(importlib.abc.MetaPathFinder):
    def __init__(self, blocked):
        self.blocked = blocked

    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in self.blocked:
            raise ModuleNotFoundError(f"No module named {{name!r}} (blocked)", name=name)
        return None

from package_modules import OPTIONAL_ENGINES, surfflow_modules
sys.meta_path.insert(0, WithoutExtras(OPTIONAL_ENGINES))
failed = {{name: repr(m) for name, m in surfflow_modules() if isinstance(m, ImportError)}}
from surfflow.particles.splishsplash import SplishSplashDroplets
try:
    SplishSplashDroplets(capacity=10)
    sph = "constructed"
except ImportError as exc:
    sph = str(exc)
print(json.dumps({{"modules": len(surfflow_modules()), "failed": failed, "sph": sph}}))
"""

# Imports the whole package where the extras may be installed, and lists the engines it loaded.
LOADED_ENGINES = """
import json, sys
sys.path.insert(0, {tests!r})
from package_modules import OPTIONAL_ENGINES, surfflow_modules
failed = {{name: repr(m) for name, m in surfflow_modules() if isinstance(m, ImportError)}}
loaded = sorted({{name.partition(".")[0] for name in sys.modules}} & set(OPTIONAL_ENGINES))
print(json.dumps({{"failed": failed, "loaded": loaded}}))
"""


def run_python(script):
    """The JSON report printed last by script, run with this interpreter."""
    result = subprocess.run([sys.executable, "-c", script.format(tests=TESTS)],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_every_module_imports_without_the_optional_extras():
    report = run_python(WITHOUT_EXTRAS)
    assert report["failed"] == {}
    assert report["modules"] > 50
    # the SPH droplets say what is missing when they are made, not when their module imports
    assert "pysplishsplash" in report["sph"] and "surfflow[sph]" in report["sph"]


def test_importing_the_package_loads_no_optional_engine():
    report = run_python(LOADED_ENGINES)
    assert report["failed"] == {}
    assert report["loaded"] == []
