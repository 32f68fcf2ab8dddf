"""The Dask cluster a sweep runs on: an existing one by address, or a LocalCluster here.

The LocalCluster's workers are separate processes started with ``spawn`` (numba's OpenMP layer
breaks in a forked child), one Dask thread each, and ``NUMBA_NUM_THREADS`` numba threads each
(1 unless asked otherwise), so N workers keep N cores busy without oversubscribing them.
Dask distributed is the optional extra ``cluster``; without it :func:`dask_client` raises an
error that says how to install it.
"""

from __future__ import annotations

import logging
import os
from contextlib import contextmanager

from ..errors import SurfflowError

SCHEDULER_VARIABLE = "SURFFLOW_SCHEDULER"


class ClusterError(SurfflowError, RuntimeError):
    """Dask distributed is missing, or the cluster cannot be reached."""


def import_distributed():
    """The ``distributed`` module, or a ClusterError naming the extra that provides it."""
    try:
        import distributed
    except ImportError as exc:
        raise ClusterError(f"sweeps run on Dask distributed, which is not installed ({exc}); "
                           "install the extra: pip install \"surfflow[cluster]\" "
                           "(from a checkout: pip install -e \".[cluster]\")") from None
    return distributed


def start_local_cluster(workers: int, numba_threads: int = 1):
    """A LocalCluster of ``workers`` spawned processes, one task and ``numba_threads`` each."""
    import dask
    distributed = import_distributed()
    with dask.config.set({"distributed.worker.multiprocessing-method": "spawn"}):
        return distributed.LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0",
            env={"NUMBA_NUM_THREADS": str(numba_threads)}, silence_logs=logging.CRITICAL)


@contextmanager
def dask_client(scheduler: str | None = None, workers: int = 1, numba_threads: int = 1):
    """A Client of the cluster at ``scheduler`` (or $SURFFLOW_SCHEDULER), else of a new
    LocalCluster (closed on exit)."""
    distributed = import_distributed()
    address = scheduler or os.environ.get(SCHEDULER_VARIABLE)
    if address:
        try:
            client = distributed.Client(address, timeout="20s")
        except OSError as exc:
            raise ClusterError(f"cannot reach the Dask scheduler at {address!r} ({exc}); check the "
                               f"address (--scheduler or ${SCHEDULER_VARIABLE})") from None
        with client:
            yield client
        return
    with start_local_cluster(workers, numba_threads) as cluster, distributed.Client(cluster) as client:
        yield client
