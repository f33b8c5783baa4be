"""The structure docs/architecture.md describes: each folder of dl2sql imports only the
folders before it in the pipeline, no two files import each other (directly or in a
loop), and imports inside functions only defer a heavy dependency or run on Spark's
workers, each saying so."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).parents[2]

# folders (and root modules) in import order: each may import only those before it
LAYERS = [
    ["diagnostics"],
    ["ast", "stdlib", "syntax"],
    ["types"],
    ["runtime"],
    ["udfs"],
    ["passes"],
    ["ra"],
    ["plan"],
    ["incremental"],
    ["engines"],
    ["sqlgen"],
    ["runner"],
    ["io"],
    ["replay"],
    ["compiler"],
    ["api"],
    ["cli"],
]
RANK = {part: i for i, layer in enumerate(LAYERS) for part in layer}
HEAVY = ("pyspark", "duckdb", "rich", "IPython", "py4j")


def _modules() -> dict[str, Path]:
    out = {}
    for base, prefix in ((ROOT / "dl2sql", "dl2sql"), (ROOT / "udfs", "dl2sql.udfs")):
        for path in base.rglob("*.py"):
            parts = list(path.relative_to(base).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join([prefix, *parts])] = path
    return out


MODULES = _modules()


def _resolve(name: str) -> str | None:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str, path: Path):
    """(imported dl2sql module or external name, line, inside a function, line text)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = path.read_text(encoding="utf-8").splitlines()
    parents = {c: p for p in ast.walk(tree) for c in ast.iter_child_nodes(p)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                package = module if path.name == "__init__.py" else module.rpartition(".")[0]
                for _ in range(node.level - 1):
                    package = package.rpartition(".")[0]
                base = package + ("." + node.module if node.module else "")
            else:
                base = node.module or ""
            names = [f"{base}.{a.name}" for a in node.names] + [base]
        else:
            continue
        inside, up = False, node
        while up in parents:
            up = parents[up]
            if isinstance(up, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inside = True
            if isinstance(up, ast.If) and "TYPE_CHECKING" in ast.unparse(up.test):
                break
        else:
            targets = {_resolve(n) for n in names} - {None, module}
            external = {n.split(".")[0] for n in names if not n.startswith("dl2sql")}
            text = lines[node.lineno - 1]
            for t in targets or external:
                yield t, node.lineno, inside, text


def _part(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_folders_import_only_earlier_folders() -> None:
    wrong = []
    for module, path in MODULES.items():
        mine = _part(module)
        if mine not in RANK:  # dl2sql/__init__.py and __main__.py sit above everything
            continue
        for target, line, _, _ in _imports(module, path):
            theirs = _part(target) if target in MODULES else None
            if theirs in RANK and theirs != mine and RANK[theirs] > RANK[mine]:
                wrong.append(f"{path.relative_to(ROOT)}:{line}: {mine} imports {target}")
    assert not wrong, "\n".join(wrong)


def test_every_folder_is_placed() -> None:
    parts = {_part(m) for m in MODULES} - {"", "__main__"}
    assert parts <= set(RANK), parts - set(RANK)


def test_no_files_import_each_other() -> None:
    graph = {m: {t for t, *_ in _imports(m, p) if t in MODULES} for m, p in MODULES.items()}
    # a module imports its package's __init__ when it imports a sibling: not a loop
    for m in graph:
        graph[m].discard(m.rpartition(".")[0])
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    loops = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                loops.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    assert not loops, loops


def test_imports_inside_functions_defer_heavy_dependencies_and_say_why() -> None:
    unexplained = []
    for module, path in MODULES.items():
        lines = path.read_text(encoding="utf-8").splitlines()
        for target, line, inside, text in _imports(module, path):
            if not inside:
                continue
            said = "#" in text or "#" in lines[line - 2]
            heavy = target.split(".")[0] in HEAVY
            if not said or not (heavy or "worker" in text + lines[line - 2]
                                or "deferred" in text + lines[line - 2]):
                unexplained.append(f"{path.relative_to(ROOT)}:{line}: {text.strip()}")
    assert not unexplained, "\n".join(unexplained)
