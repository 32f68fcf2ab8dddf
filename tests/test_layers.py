"""The drawing of the house: surfflow's rooms stand on floors, and imports only run down.

A room is a subpackage or a top-level module of ``surfflow``. A module may import from its own
room, from rooms on its floor that do not import it back, and from lower floors; never up. The
README's Layout section draws the same floors. A new room must be given a floor here.
"""

import ast
from pathlib import Path

import surfflow

FLOORS = [
    # 0: leaves: exceptions, frozen configuration, argument checks, the liquid's look
    {"errors", "config", "checks", "look"},
    # 1: numba kernels, arrays in and out
    {"kernels"},
    # 2: mesh input and the frame writers (npz, VTU, USD, checkpoints)
    {"io"},
    # 3: precompute: pure functions of (V, F) and the frozen SurfaceGeometry
    {"geometry"},
    # 4: what the step is made of: state, sources, schemes, terms and their rooms; the tally of
    # what set its length
    {"state", "sources", "schemes", "terms", "boundaries", "motion", "particles",
     "ripples", "bodies", "step_limits"},
    # 5: the model: the surface, the state, the scheme and the terms, with the state in and out
    {"model"},
    # 6: the clock, the order and the ledger
    {"simulation"},
    # 7: the scene language, assembling a simulation from a scene, running it; sweeps
    {"scene", "batch"},
    # 8: renderers, side by side
    {"viewer", "blender"},
    # 9: the doors: command line and the public API
    {"cli", "__main__", "__init__"},
]
FLOOR = {room: level for level, rooms in enumerate(FLOORS) for room in rooms}
PACKAGE = Path(surfflow.__file__).resolve().parent


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def room(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def imports_of(path: Path) -> set[str]:
    """The surfflow modules (or packages) that ``path`` imports, anywhere in the file."""
    module = module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "surfflow"}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            elif node.module and node.module.split(".")[0] == "surfflow":
                target = node.module
            else:
                continue
            found.add(target)
            if not node.module:  # from . import x: x is a module of that package
                found |= {f"{target}.{a.name}" for a in node.names}
    return found


def import_graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    return {m: {t for t in imports_of(p) if t in modules and t != m} for m, p in modules.items()}


def test_every_room_has_a_floor():
    rooms = {room(m) for m in import_graph()}
    assert rooms - FLOOR.keys() == set(), "give these rooms a floor in FLOORS"


def test_no_import_runs_up_a_floor():
    upward = [f"{m} -> {t}" for m, targets in import_graph().items() for t in targets
              if room(t) != "__init__" and FLOOR[room(t)] > FLOOR[room(m)]]
    assert upward == []


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle per strongly connected component of more than one node (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_circle_between_rooms():
    rooms: dict[str, set[str]] = {}
    for m, targets in import_graph().items():
        rooms.setdefault(room(m), set()).update(room(t) for t in targets if room(t) != room(m))
    assert cycles(rooms) == []


def test_no_circle_between_modules():
    graph = import_graph()
    # a package's __init__ re-exports its modules; importing the package is importing them
    assert cycles(graph) == []


def test_the_checker_sees_an_upward_import_and_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert "surfflow.errors" in imports_of(PACKAGE / "simulation.py")
