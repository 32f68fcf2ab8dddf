"""Which arithmetic a run's bits depend on: the fingerprint a regression reference is made with.

Two runs of surfflow give the same bits when they run the same code with the same arithmetic.
What decides the arithmetic, besides the code:

* numpy's SIMD dispatch: the targets numpy found on this processor and may use (exp, log, cbrt,
  power, arccos have AVX-512 kernels whose last bit differs from the AVX2 and baseline ones);
  ``NPY_DISABLE_CPU_FEATURES`` narrows them;
* numba's target: the processor name and features LLVM compiles for (``NUMBA_CPU_NAME``,
  ``NUMBA_CPU_FEATURES``), and the llvmlite that compiles;
* OpenBLAS's kernels, which numpy's and scipy's builds pick for the processor at load
  (``OPENBLAS_CORETYPE`` overrides them): the mesh smoothing's sparse LU (scipy's SuperLU) and
  numpy's matrix products run on them, and their sums' order differs between a Zen and a
  Skylake-X kernel;
* the versions of numpy and numba, the C library (libm) and the processor's architecture.

A reference made under the same fingerprint is compared bit for bit; under another, within the
stated tolerance (``tests/test_regression.py``).
"""

from __future__ import annotations

import json
import platform


def numpy_simd_targets() -> list[str]:
    """The dispatch targets numpy uses here (found on the processor and not disabled)."""
    try:
        from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
    except ImportError:  # numpy < 2
        from numpy.core._multiarray_umath import __cpu_dispatch__, __cpu_features__
    return [target for target in __cpu_dispatch__ if __cpu_features__.get(target)]


def numba_target() -> tuple[str, str]:
    """(processor name, features) numba compiles for: its configured ones, else the host's."""
    import numba
    from llvmlite import binding

    name = numba.config.CPU_NAME or binding.get_host_cpu_name()
    features = numba.config.CPU_FEATURES
    if features is None:
        features = "" if name == "generic" else binding.get_host_cpu_features().flatten()
    return name, features


OTHER_BLAS_CORE = "Prescott"
"""OpenBLAS's oldest x86-64 kernels (``OPENBLAS_CORETYPE``): another processor's sums' order,
under which ``measure_spread.py`` measures and CI's "another processor" pass runs."""


def blas_cores() -> dict[str, str]:
    """The OpenBLAS kernel family ("Zen", "SkylakeX", "Prescott", ...) numpy's and scipy's
    bundled OpenBLAS picked, by package; "unknown" where the library or its query is not found
    (another BLAS, another platform's file names)."""
    import ctypes
    import glob
    import os

    import numpy
    import scipy

    cores = {}
    for package in (numpy, scipy):
        root = os.path.dirname(os.path.dirname(package.__file__))
        name = package.__name__
        core = "unknown"
        for path in sorted(glob.glob(os.path.join(root, f"{name}.libs", "libscipy_openblas*"))):
            library = ctypes.CDLL(path)
            for symbol in ("scipy_openblas_get_corename64_", "scipy_openblas_get_corename"):
                query = getattr(library, symbol, None)
                if query is not None:
                    query.restype = ctypes.c_char_p
                    core = query().decode()
                    break
        cores[name] = core
    return cores


def fingerprint() -> str:
    """A JSON string naming everything the bits of a run depend on besides the code."""
    import llvmlite
    import numba
    import numpy

    name, features = numba_target()
    return json.dumps({
        "architecture": platform.machine(),
        "libc": " ".join(platform.libc_ver()),
        "numpy": numpy.__version__,
        "numpy_simd": numpy_simd_targets(),
        "openblas": blas_cores(),
        "numba": numba.__version__,
        "llvmlite": llvmlite.__version__,
        "numba_cpu": name,
        "numba_cpu_features": features,
    }, sort_keys=True)
