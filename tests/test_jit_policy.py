"""Every numba function in surfflow is compiled under the one policy of ``kernels/_jit.py``."""

import numba
from numba.core.caching import NullCache
from numba.core.registry import CPUDispatcher
from package_modules import needs_an_optional_engine, surfflow_modules

import pytest
from validation_harness import still_lake

from surfflow.kernels._jit import POLICY, SERIAL_BELOW, PackageStampedLocator, serial_when_small
from surfflow.terms.base import Term


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


class ThreadsSeen(Term):
    """numba's thread count in the last stage of each step (``record``)."""

    name = "threads_seen"
    stages = ("record",)

    def __init__(self):
        self.seen = []

    def record(self, geom, state, dt):
        self.seen.append(numba.get_num_threads())


def threads_of_steps(n_along: int, wet_length: float, steps: int = 4) -> tuple[int, list]:
    """(vertices, the thread count inside each of ``steps`` steps) of a still lake 2 cm deep over
    x < ``wet_length`` on a 10 m strip of (n_along + 1) x 5 vertices, numba on two threads."""
    sim, geom = still_lake(n_along, wet_length)
    seen = sim.add_term(ThreadsSeen())
    threads = numba.get_num_threads()
    numba.set_num_threads(2)
    try:
        for _ in range(steps):
            sim.step()
        assert numba.get_num_threads() == 2  # given back after each step
    finally:
        numba.set_num_threads(threads)
    return geom.n_vertices, seen.seen


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs 2 numba threads")
def test_a_step_runs_on_one_thread_while_the_film_is_small():
    n, seen = threads_of_steps(100, 10.0)  # 505 vertices, all wet
    assert n < SERIAL_BELOW and seen == [1, 1, 1, 1]
    n, seen = threads_of_steps(400, 10.0)  # 2005 vertices, all wet
    assert n >= SERIAL_BELOW and seen == [2, 2, 2, 2]
    # a puddle on the big strip: the first step moves every vertex (no active set yet), the
    # next ones only the puddle's (about 250 vertices) and their neighbours
    n, seen = threads_of_steps(400, 1.25)
    assert seen == [2, 1, 1, 1]
