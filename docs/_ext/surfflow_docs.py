"""A Sphinx extension that writes the pages generated from the code before the build lists them.

``docs/_generated/`` (not committed) receives ``scene_keys.md`` (from the scene schema),
``cli.md`` (from argparse), ``errors.md`` (every raise of every error class),
``validation.md`` with ``validation/*.png`` (the validation cases run at build time),
``anuga_ladders.md`` and ``anuga_bumps.md`` (the dam breaks on every strip, and the
transcritical bump on every channel, ANUGA was measured on) and ``scaling.md`` with
``scaling.png`` (the step's cost against mesh size); the hand-written pages include them.
``reference/api.rst`` (not committed either) lists ``surfflow.__all__`` for autosummary.
"""

from __future__ import annotations

import time
from pathlib import Path

from anuga_ladders import bump_page, ladders_page
from api_reference import api_reference
from cli_reference import cli_reference
from error_reference import error_reference
from performance_pages import scaling_page
from scene_reference import scene_reference
from sphinx.util import logging
from validation_pages import validation_page

LOG = logging.getLogger(__name__)


def _write(path: Path, text: str) -> None:
    """Write ``text`` only when it changed, so Sphinx does not reread an unchanged page."""
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def generate(app, config) -> None:
    docs = Path(app.srcdir)
    out = docs / "_generated"
    out.mkdir(exist_ok=True)
    cache = Path(app.outdir).parent / "cache"
    _write(docs / "reference" / "api.rst", api_reference())
    for name, make in (("scene_keys.md", scene_reference), ("cli.md", cli_reference),
                       ("errors.md", error_reference),
                       ("validation.md", lambda: validation_page(out / "validation", cache)),
                       ("anuga_ladders.md", lambda: ladders_page(cache)),
                       ("anuga_bumps.md", lambda: bump_page(cache)),
                       ("scaling.md", lambda: scaling_page(out, cache))):
        start = time.perf_counter()
        _write(out / name, make())
        LOG.info(f"surfflow docs: generated {name} in {time.perf_counter() - start:.1f} s")


def reset_polyscope(gallery_conf, fname) -> None:
    """Between gallery scripts: remove every polyscope structure the last one left behind."""
    import polyscope as ps

    if ps.is_initialized():
        ps.remove_all_structures()


def setup(app):
    app.connect("config-inited", generate)  # before Sphinx lists the sources (api.rst among them)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
