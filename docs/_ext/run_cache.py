"""The generated pages' runs, kept between builds: a rebuild without a code change loads them."""

from __future__ import annotations

import pickle
from pathlib import Path


def cached(cache: Path, name: str, key: str, run):
    """``run()``'s result, stored as ``cache/<name>-<key>.pickle`` (``key`` a hash of the
    source the runs depend on) and loaded from there when it exists."""
    cache.mkdir(parents=True, exist_ok=True)
    stored = cache / f"{name}-{key}.pickle"
    if stored.exists():
        return pickle.loads(stored.read_bytes())
    results = run()
    stored.write_bytes(pickle.dumps(results))
    return results
