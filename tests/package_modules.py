"""Every module of surfflow, imported, for the tests that walk the whole package
(``test_jit_policy.py``, ``test_optional_imports.py``)."""

import importlib
import pkgutil

# The optional extras' engines (sph, blender, usd, cluster, compare): no module may need them
# to import; each is imported where it is used.
OPTIONAL_ENGINES = ("pysplishsplash", "bpy", "pxr", "dask", "distributed", "anuga")


def surfflow_modules():
    """(name, module or the ImportError its import raised) for every module of surfflow, the
    polyscope viewer included (polyscope is a core dependency); ``surfflow.__main__`` is left
    out, since importing it runs the command line. (surfflow is imported here, not above, so
    that a caller can block modules before it loads.)"""
    import surfflow

    found = [("surfflow", surfflow)]
    for info in pkgutil.walk_packages(surfflow.__path__, "surfflow."):
        if info.name == "surfflow.__main__":
            continue
        try:
            found.append((info.name, importlib.import_module(info.name)))
        except ImportError as exc:
            found.append((info.name, exc))
    return found


def needs_an_optional_engine(error):
    """Whether an ImportError says that one of OPTIONAL_ENGINES is missing."""
    return (error.name or "").partition(".")[0] in OPTIONAL_ENGINES
