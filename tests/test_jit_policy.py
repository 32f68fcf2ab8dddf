"""Every numba function in surfflow is compiled under the one policy of ``kernels/_jit.py``."""

import numba
from numba.core.caching import NullCache
from numba.core.registry import CPUDispatcher
from package_modules import needs_an_optional_engine, surfflow_modules

from surfflow.kernels._jit import POLICY, SERIAL_BELOW, PackageStampedLocator, serial_when_small


def compiled_functions():
    """(module name, function name, dispatcher) for every numba function defined in surfflow.
    A module that cannot import because an optional engine is missing is left out here (it is
    test_optional_imports.py's failure to report); any other import error fails the test."""
    found = []
    for module_name, module in surfflow_modules():
        if isinstance(module, ImportError):
            if needs_an_optional_engine(module):
                continue
            raise module
        for name, obj in vars(module).items():
            if isinstance(obj, CPUDispatcher) and obj.py_func.__module__ == module_name:
                found.append((module_name, name, obj))
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
        # valid only for the package's present kernel sources (tests/test_kernel_cache.py)
        assert isinstance(dispatcher._cache._impl.locator, PackageStampedLocator), where


def test_small_loops_run_on_one_thread_and_the_count_comes_back():
    threads = numba.get_num_threads()
    with serial_when_small(SERIAL_BELOW - 1):
        assert numba.get_num_threads() == 1
    assert numba.get_num_threads() == threads
    with serial_when_small(SERIAL_BELOW):
        assert numba.get_num_threads() == threads
