"""Optional engines stay in their rooms: polyscope only in ``viewer/``, Blender (bpy) only in
``blender/``, USD (pxr) only in ``io/usd.py``, Dask only in ``batch/``; and importing the package,
its scenes, the USD writer or the Blender renderer loads none of them."""

import ast
import subprocess
import sys
from pathlib import Path

import surfflow

PACKAGE = Path(surfflow.__file__).resolve().parent
ENGINES = {"polyscope": "viewer", "bpy": "blender", "mathutils": "blender", "_cycles": "blender",
           "pxr": "io/usd.py", "dask": "batch", "distributed": "batch"}


def imported_names(path: Path) -> set[str]:
    """Top-level names of the modules ``path`` imports, anywhere in the file."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


def test_each_engine_is_imported_only_in_its_room():
    strays = [f"{path.relative_to(PACKAGE)} imports {name}"
              for path in sorted(PACKAGE.rglob("*.py"))
              for name in imported_names(path) & ENGINES.keys()
              if not path.relative_to(PACKAGE).as_posix().startswith(ENGINES[name])]
    assert strays == []


def test_importing_the_package_and_its_headless_rooms_loads_no_engine():
    code = ("import sys, surfflow, surfflow.scene, surfflow.scene.runner, surfflow.scene.usd_export, "
            "surfflow.io.usd, surfflow.blender, surfflow.batch; "
            "print(sorted({'polyscope', 'bpy', 'pxr', 'dask', 'distributed'} & set(sys.modules)))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_the_checker_sees_a_stray_import(tmp_path):
    stray = tmp_path / "stray.py"
    stray.write_text("def f():\n    import polyscope.imgui as psim\n    from pxr import Usd\n")
    assert imported_names(stray) == {"polyscope", "pxr"}


def test_the_look_is_pure_numpy():
    assert imported_names(PACKAGE / "look.py") <= {"__future__", "numpy"}
