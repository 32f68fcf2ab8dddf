"""The one decorator policy for every numba kernel in surfflow.

* ``fastmath=False``: results must be reproducible and NaN checks must see NaNs.
* ``cache=True``: compile once per machine, not once per process.
* ``error_model="numpy"``: division by zero gives inf/NaN (caught by the NaN check), no exceptions
  inside parallel loops.

``parallel_kernel`` is for the outer loops (``numba.prange`` over vertices, each iteration
writing only its own vertex); ``serial_kernel`` is for helpers called from them and for the few
inherently serial passes. ``tests/test_jit_policy.py`` checks that every compiled function in the
package was made here.
"""

import numba

POLICY = {"fastmath": False, "error_model": "numpy", "cache": True}


def parallel_kernel(fn):
    """Compile ``fn`` as a parallel numba kernel under the project policy."""
    return numba.njit(parallel=True, **POLICY)(fn)


def serial_kernel(fn):
    """Compile ``fn`` as a serial numba function under the project policy."""
    return numba.njit(parallel=False, **POLICY)(fn)
