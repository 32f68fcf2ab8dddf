"""What every test module shares: polyscope's global state is let go between modules, and
numba's threads are shared out between the suite's worker processes."""

import os

import numba
import pytest

from polyscope_state import release_polyscope


@pytest.fixture(autouse=True, scope="module")
def polyscope_released():
    """After each module, polyscope's callback, handles and structures let go
    (``release_polyscope``)."""
    yield
    release_polyscope()


def pytest_configure(config):
    """In each of pytest-xdist's workers (``-n``), numba's kernels run on the worker's share of
    the threads (one each when there are as many workers as cores), so that workers do not
    oversubscribe the cores. Results are the same bits on any thread count; the tests that
    compare thread counts set their own."""
    workers = os.environ.get("PYTEST_XDIST_WORKER_COUNT")
    if workers:
        numba.set_num_threads(max(1, numba.config.NUMBA_NUM_THREADS // int(workers)))
