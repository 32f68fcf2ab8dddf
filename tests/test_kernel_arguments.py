"""No numba kernel of surfflow takes more than 12 arguments: what a kernel reads is grouped into
records of arrays (kernels/records.py, particles/records.py), STYLE habit 11."""

import ast
from pathlib import Path

import surfflow

PACKAGE = Path(surfflow.__file__).parent
MOST = 12
DECORATORS = {"parallel_kernel", "serial_kernel", "njit", "jit"}


def decorator_name(node) -> str:
    """The name of a decorator expression: ``numba.njit(...)`` -> "njit"."""
    node = node.func if isinstance(node, ast.Call) else node
    return node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")


def kernels():
    """{(module, name): argument count} of every numba-compiled function of the package."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.FunctionDef)
                    and any(decorator_name(d) in DECORATORS for d in node.decorator_list)):
                key = (path.relative_to(PACKAGE).as_posix(), node.name)
                found[key] = len(node.args.args)
    return found


def test_kernels_are_found():
    found = kernels()
    assert ("kernels/continuity.py", "edge_fluxes") in found and len(found) > 50
    assert ("particles/coupling.py", "emit_particles") in found


def test_no_kernel_takes_more_than_twelve_arguments():
    over = {key: count for key, count in kernels().items() if count > MOST}
    assert not over, over
