"""Every numba function in surfflow is compiled under the one policy of ``kernels/_jit.py``."""

import importlib
import pkgutil

from numba.core.caching import NullCache
from numba.core.registry import CPUDispatcher

import surfflow
from surfflow.kernels._jit import POLICY


def compiled_functions():
    """(module name, function name, dispatcher) for every numba function defined in surfflow."""
    found = []
    for info in pkgutil.walk_packages(surfflow.__path__, "surfflow."):
        if info.name.startswith("surfflow.viewer") or info.name == "surfflow.__main__":
            continue  # the viewer imports polyscope and holds no kernels; __main__ runs the CLI
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if isinstance(obj, CPUDispatcher) and obj.py_func.__module__ == info.name:
                found.append((info.name, name, obj))
    return found


def test_the_package_has_kernels():
    modules = {module for module, _, _ in compiled_functions()}
    assert {"surfflow.geometry.frames", "surfflow.geometry.transport"} <= modules


def test_every_kernel_follows_the_policy():
    for module, name, dispatcher in compiled_functions():
        options = dispatcher.targetoptions
        where = f"{module}.{name}"
        assert options.get("fastmath", False) is POLICY["fastmath"], where
        assert options.get("error_model") == POLICY["error_model"], where
        assert not isinstance(dispatcher._cache, NullCache), f"{where} is not cached"
