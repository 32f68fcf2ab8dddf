"""Measure how far the regression summaries move when only the processor's arithmetic changes,
the figure ``tests/test_regression.py``'s cross-machine tolerance is derived from.

    python tests/regression/measure_spread.py [NAME ...]

Each example is run (``make_references.example_simulation``) in a fresh process under each
arithmetic this processor can be switched to: numpy's SIMD dispatch narrowed (to AVX2, to its
baseline), numba compiling for a generic processor (in a numba cache of its own), OpenBLAS on its
oldest kernels, and all three. The
spread of a summary is the largest ``|a - b| / scale`` between any of those runs and the native
one; the script prints it per example and writes ``spread.json`` beside itself.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from make_references import SUMMARY, example_names  # noqa: E402
from machine import OTHER_BLAS_CORE  # noqa: E402


def numpy_dispatch_above(levels: int) -> str:
    """NPY_DISABLE_CPU_FEATURES that keeps only the first ``levels`` dispatch targets."""
    from machine import numpy_simd_targets

    return " ".join(numpy_simd_targets()[levels:])


OTHER_BLAS = {"OPENBLAS_CORETYPE": OTHER_BLAS_CORE}


def arithmetics(cache_root: Path) -> dict[str, dict]:
    """The environments to run under, by name (the native one first)."""
    generic = {"NUMBA_CPU_NAME": "generic", "NUMBA_CACHE_DIR": str(cache_root / "generic")}
    baseline = {"NPY_DISABLE_CPU_FEATURES": numpy_dispatch_above(0)}
    return {
        "native": {},
        "numpy AVX2": {"NPY_DISABLE_CPU_FEATURES": numpy_dispatch_above(1)},
        "numpy baseline": baseline,
        "numba generic": generic,
        "OpenBLAS Prescott": OTHER_BLAS,
        "all three narrowed": {**baseline, **generic, **OTHER_BLAS},
    }


def run(names: list[str], env: dict, into: Path) -> None:
    command = [sys.executable, str(HERE / "make_references.py"), "--into", str(into), *names]
    subprocess.run(command, env={**os.environ, **env}, check=True, stdout=subprocess.DEVNULL)


def spread(a: Path, b: Path) -> tuple[float, str]:
    """The largest |a - b| / scale over the summaries of two reference files, and its name."""
    fa, fb = np.load(a), np.load(b)
    worst, where = 0.0, ""
    for key in (k for k in fa.files if k.startswith(SUMMARY)):
        (va, scale), (vb, _) = fa[key], fb[key]
        distance = abs(va - vb) / scale
        if distance > worst:
            worst, where = float(distance), key[len(SUMMARY):]
    return worst, where


def main(names: list[str]) -> None:
    names = names or example_names()
    table = {}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for label, env in arithmetics(root).items():
            run(names, env, root / label)
            if label == "native":
                continue
            for name in names:
                table.setdefault(name, {})[label] = spread(root / "native" / f"{name}.npz",
                                                           root / label / f"{name}.npz")
    for name, row in table.items():
        worst = max(row.values())
        print(f"{name:26s} largest spread {worst[0]:.3g} ({worst[1] or '-'}; "
              f"{max(row, key=row.get)})")
    largest = max(value for row in table.values() for value, _ in row.values())
    print(f"largest spread over all examples: {largest:.3g}")
    (HERE / "spread.json").write_text(json.dumps(
        {"largest": largest,
         "by_example": {n: {k: v[0] for k, v in row.items()} for n, row in table.items()}},
        indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
