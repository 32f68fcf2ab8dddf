"""The one decorator policy for every numba kernel in surfflow.

* ``fastmath=False``: results must be reproducible and NaN checks must see NaNs.
* ``cache=True``: compile once per machine, not once per process; the cached machine code is
  valid only while every kernel module is unchanged (``PackageStampedLocator``), since numba
  compiles a kernel's helpers from other modules into it.
* ``error_model="numpy"``: division by zero gives inf/NaN (caught by the NaN check), no exceptions
  inside parallel loops.

``parallel_kernel`` is for the outer loops (``numba.prange`` over vertices, each iteration
writing only its own vertex); ``serial_kernel`` is for helpers called from them and for the few
inherently serial passes. ``tests/test_jit_policy.py`` checks that every compiled function in the
package was made here.

One signature per helper (each one compiles on a cold start, ``benchmarks/cold_start.py``):

* ``numba.prange(0, n)``, not ``prange(n)``, where the loop index goes to a helper: numba types
  the loop once with a signed index and then makes the index of ``prange(n)`` unsigned, so the
  helper compiles for int64 and again for uint64;
* no literal constant as a helper's argument (``frame_row(frames, i, 0)``): numba compiles a
  version for each literal value; loop over the values or index in the helper instead;
* the same array layouts at every call (a slice ``a[:k, :m]`` is 'A', a fresh array 'C').

A helper called once per ring entry takes numbers, tuples of numbers and arrays, not records
(``records.py``), and reads no per-entry view (``a[e]`` of a 3D array): where LLVM does not
inline it, each call copies every array of every record it is given, which in a flux walk
costs more than the walk's arithmetic.
"""

import functools
import hashlib
import os
import types
from pathlib import Path

import numba
from numba.core import caching

from .tuning import PARALLEL_CHUNK, SERIAL_BELOW

# How long an OpenMP thread waits awake for the next parallel loop before it sleeps: about
# 1000 spins (tens of microseconds), enough to bridge the short gaps between a step's kernels,
# as a sleeping thread (and, in a virtual machine, its halted CPU) takes tens of microseconds to
# wake for each loop. Measured on bunny_pour, 2 cores, stepping alone: 2.1-2.2 ms a step
# asleep at once (OMP_WAIT_POLICY=PASSIVE, the former setting), 1.8-1.9 with 1000 spins; with
# one core taken by another process, 10-25 % more than asleep. The spin
# is bounded: libgomp's own default (300,000 spins) or an unbounded one stalls every launch
# when the cores are shared (measured: 41k-vertex step 100-200 ms spinning, 11 ms passive, on
# 2 loaded cores). Read by libgomp when numba first launches a parallel kernel; a
# user's own OMP_WAIT_POLICY or GOMP_SPINCOUNT wins.
if "OMP_WAIT_POLICY" not in os.environ:
    os.environ.setdefault("GOMP_SPINCOUNT", "1000")

PACKAGE = Path(__file__).resolve().parents[1]  # surfflow/
LOCATORS = getattr(getattr(caching, "CacheImpl", getattr(caching, "_CacheImpl", None)),
                   "_locator_classes", None)
"""numba's cache locators, tried in order for each cached function (``_CacheImpl`` before
numba 0.61); None if a numba to come moves them: its caches then work as numba's own, and
tests/test_jit_policy.py fails to say so."""


@functools.cache
def kernel_sources_digest() -> str:
    """sha256 of the text of every surfflow module that compiles kernels (imports this one's
    decorators) and of kernels/tuning.py, whose constants they freeze, with their paths: a
    kernel's cache is valid only for these sources."""
    digest = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_bytes()
        if path.name in ("_jit.py", "tuning.py") or b"_jit import" in text:
            digest.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0" + text)
    return digest.hexdigest()


class PackageStampedLocator:
    """numba's cache locator for a surfflow kernel, whose cached machine code stays valid only
    while every kernel module is unchanged.

    numba keys a cached kernel on the text of its own file alone, but compiles the helpers it
    calls from other modules into it: a change to a helper's module (kernels/shocks.py, say) left
    its callers (kernels/pressure.py) running the old helper from the cache, in a checkout
    updated in place. This locator is the one numba's own chain picks (``NUMBA_CACHE_DIR``, the
    ``__pycache__`` beside the module, the user-wide folder) with ``kernel_sources_digest``
    joined to its source stamp, so any change to a kernel module recompiles every kernel once.
    A constant a kernel reads must live in a kernel module or in kernels/tuning.py for the same
    reason (numba freezes globals into the machine code)."""

    def __init__(self, inner):
        self._inner = inner

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def get_source_stamp(self):
        return self._inner.get_source_stamp(), kernel_sources_digest()

    @classmethod
    def from_function(cls, py_func, py_file):
        if not Path(py_file).resolve().is_relative_to(PACKAGE):
            return None
        for locator_class in LOCATORS:
            if locator_class is not cls:
                inner = locator_class.from_function(py_func, py_file)
                if inner is not None:
                    return cls(inner)
        return None


if LOCATORS is not None and PackageStampedLocator not in LOCATORS:  # numba tries it first
    LOCATORS.insert(0, PackageStampedLocator)

POLICY = {"fastmath": False, "error_model": "numpy", "cache": True}


def parallel_kernel(fn):
    """Compile ``fn`` as a parallel numba kernel under the project policy."""
    return numba.njit(parallel=True, **POLICY)(fn)


def serial_kernel(fn):
    """Compile ``fn`` as a serial numba function under the project policy."""
    return numba.njit(parallel=False, **POLICY)(fn)


def serial_twin(kernel):
    """A serial compile of the parallel ``kernel``'s Python function, for a still surface's
    one-off precompute and field set-up: a parallel loop compiles 1.5-3x slower than the same loop
    serial (0.2-0.8 s more a kernel; 3.3 s of bunny_pour's cold start,
    ``benchmarks/cold_start.py``). The trade, measured on 2 cores when eight set-up kernels had
    twins: 26 ms serial against 12 ms parallel on the bunny (28k vertices), 2.1 s both on a
    2M-vertex sphere; with more cores a big mesh's set-up pays up to their number times the
    serial share. Four remain (frames, transport, the feature friction's two); the others' still
    fills are numpy now (``ring_fit.ring_fit_weights_numpy``, ``fields.*_numpy``).
    Same numbers: every parallel kernel's iterations are independent. A copy of the function
    named ``<name>_serial``, so numba's cache (keyed by the function's name, not by
    ``parallel``) keeps the two apart."""
    fn = getattr(kernel, "py_func", kernel)  # a plain function with NUMBA_DISABLE_JIT=1
    twin = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__ + "_serial",
                              fn.__defaults__, fn.__closure__)
    twin.__qualname__ = fn.__qualname__ + "_serial"
    twin.__doc__ = fn.__doc__
    return serial_kernel(twin)


def balance_loops() -> None:
    """Hand the parallel loops launched from this thread out in chunks of ``PARALLEL_CHUNK``
    iterations, each thread taking the next chunk when it is done, instead of one equal share a
    thread. A step's work per vertex is uneven (the wet ones fit rings, the dry ones are copied)
    and a virtual machine's cores are not always equally fast, so with equal shares each loop
    waits for the slower thread. Measured on ``bunny_pour`` (``benchmarks/realtime.py
    --no-outputs``, six alternated pairs on the 2-core machine): 1.17, 1.31, 1.24, 1.02, 1.07,
    0.99 times real time against 1.16, 1.10, 1.18, 0.85, 0.86, 0.91 with equal shares (chunks of
    128: about the same as 256), in an hour when the machine ran slow; in a faster hour, 1.15,
    1.19, 1.36 against 1.15, 1.17, 1.38: no cost when the cores keep pace. Same numbers: every
    iteration of every parallel kernel writes only its own outputs and no loop reduces across
    iterations. Called before each step (numba keeps the setting per thread and starts its
    threads on the first call)."""
    numba.set_parallel_chunksize(PARALLEL_CHUNK)


class serial_when_small:
    """``with serial_when_small(count):`` the parallel kernels called inside run on this thread
    alone when ``count`` (their loops' length) is below SERIAL_BELOW. Every parallel kernel
    gives the same numbers for any thread count, so only the time changes."""

    __slots__ = ("count", "threads")

    def __init__(self, count: int):
        self.count = count
        self.threads = 0

    def __enter__(self):
        if self.count < SERIAL_BELOW:
            self.threads = numba.get_num_threads()
            numba.set_num_threads(1)

    def __exit__(self, *exception):
        if self.threads:
            numba.set_num_threads(self.threads)
