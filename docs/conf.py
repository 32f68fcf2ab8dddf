"""Sphinx configuration of the surfflow documentation site.

Build from the repository root with ``python -m sphinx -W -b html docs docs/_build/html``
(the ``docs`` extra installs what it needs). Pages are MyST Markdown; the scene-file, CLI and
validation pages are generated at build time by ``docs/_ext`` from the code, and the gallery is
run by sphinx-gallery from ``docs/gallery``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(DOCS / "_ext"))
# The gallery scripts and the validation plots run surfflow in subprocesses too.
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
os.environ.setdefault("MPLBACKEND", "Agg")

import surfflow  # noqa: E402

project = "surfflow"
author = "the surfflow developers"
copyright = "surfflow developers"
release = version = surfflow.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
    "surfflow_docs",
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
# _generated/ holds pieces the pages include, not pages of their own.
exclude_patterns = ["_build", "_generated", "sg_execution_times.rst"]
myst_enable_extensions = ["colon_fence", "dollarmath", "amsmath", "deflist"]
myst_heading_anchors = 3

# API reference: numpydoc renders the sections; autosummary writes one page per public name.
autosummary_generate = True
autodoc_default_options = {"members": True, "inherited-members": False, "show-inheritance": True}
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_validation_checks = set()


sphinx_gallery_conf = {
    "examples_dirs": str(DOCS / "gallery"),
    "gallery_dirs": str(DOCS / "auto_examples"),
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    "image_scrapers": ("matplotlib",),
    "reset_modules": ("matplotlib", "surfflow_docs.reset_polyscope"),
    "abort_on_example_error": True,
    "show_memory": False,
    "min_reported_time": 1,
}

html_theme = "pydata_sphinx_theme"
html_title = "surfflow"
html_static_path: list[str] = []
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "header_links_before_dropdown": 8,
}
html_sidebars = {"index": []}
