"""Every tuning constant of surfflow/schemes/ and surfflow/kernels/ is named once, with its
reason, in kernels/tuning.py (or, for the modules others are changing, listed there as defined
elsewhere), and there are fewer than the 19 the code once had."""

import ast
import importlib
from pathlib import Path

import surfflow
from surfflow.kernels import tuning

PACKAGE = Path(surfflow.__file__).parent
FOLDERS = ("schemes", "kernels")
CODES = {"NO_BOUNDARY", "TRANSMISSIVE", "LEVEL", "DISCHARGE",  # riemann's boundary kinds
         "MOVING", "RESTING", "BORDER",  # kernels/active.py's vertex marks: names, not tuning
         "NO_UPSTREAM"}  # kernels/momentum_faces.py's empty sums: a starting value


def numeric(node) -> bool:
    """Whether an expression is a number or a tuple of numbers (a literal, signed or not)."""
    if isinstance(node, ast.UnaryOp):
        return numeric(node.operand)
    if isinstance(node, ast.Tuple):
        return all(numeric(item) for item in node.elts)
    return isinstance(node, ast.Constant) and isinstance(node.value, (int, float))


def module_constants():
    """{(module path, name)} of the module-level UPPER_CASE names bound to numeric literals."""
    found = set()
    for folder in FOLDERS:
        for path in sorted((PACKAGE / folder).glob("*.py")):
            for node in ast.parse(path.read_text()).body:
                if isinstance(node, ast.Assign) and numeric(node.value):
                    for target in node.targets:
                        names = target.elts if isinstance(target, ast.Tuple) else [target]
                        found |= {(path.relative_to(PACKAGE).as_posix(), name.id)
                                  for name in names if name.id.isupper()}
    return found


def test_every_numeric_constant_is_in_the_registry():
    registered = set(tuning.TUNING) | set(tuning.ELSEWHERE) | CODES
    defined = module_constants()
    assert {name for _, name in defined} <= registered, defined
    owners = {name: path for path, name in defined}
    for name in tuning.TUNING:  # defined once, in tuning.py, and read from there
        assert owners[name] == "kernels/tuning.py", (name, owners[name])
    for name, (module, _) in tuning.ELSEWHERE.items():
        assert owners[name] == module.removeprefix("surfflow.").replace(".", "/") + ".py"


def test_each_constant_has_its_value_and_a_reason():
    for name, (value, reason) in tuning.TUNING.items():
        assert value == getattr(tuning, name) and len(reason.split()) >= 8, name
    for name, (module, reason) in tuning.ELSEWHERE.items():
        assert isinstance(getattr(importlib.import_module(module), name), (int, float))
        assert len(reason.split()) >= 8, name


def test_fewer_tuning_constants_than_the_nineteen_of_before():
    assert len(tuning.TUNING) + len(tuning.ELSEWHERE) < 19
