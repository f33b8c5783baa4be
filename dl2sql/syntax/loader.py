"""Finding and parsing the modules of a program: the main file, the built-in standard
library and every module reached through ``import`` (``a::b`` is ``a/b.dl`` under the
main file's directory, a ``-L`` directory, or dl2sql's own library)."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from dl2sql.ast import nodes as A
from dl2sql.diagnostics import CompileError, Diagnostic, Diagnostics, read_source
from dl2sql.syntax.parser import parse_module

STDLIB_DIR = Path(__file__).parents[1] / "stdlib"
# modules whose contents dl2sql's prelude (ddlog_std) holds, as DDlog imports them into
# every program: dl2sql's own file is taken even where a library directory has one
# (upstream's would declare a second `Intern` type, with externs nothing implements)
PRELUDE_MODULES = ("internment",)
_PARSE_CACHE: dict[tuple[str, str], A.Module] = {}


def _parse_cached(text: str, path: str, name: str) -> A.Module:
    key = (path, text)
    if key not in _PARSE_CACHE:
        _PARSE_CACHE[key] = parse_module(text, path, name)
    return _PARSE_CACHE[key]


def load_modules(text: str, path: str, lib_dirs: tuple[str, ...] = ()) -> list[A.Module]:
    """Parse the main module ``text`` (from ``path``) and everything it imports.

    The standard library module ``ddlog_std`` is always loaded first. Errors from all
    modules are collected and raised together as one :class:`CompileError`.
    """
    roots = [Path(path).parent if path and not path.startswith("<") else Path.cwd()]
    roots += [Path(d) for d in lib_dirs] + [STDLIB_DIR]
    errors: list[Diagnostic] = []
    std_path = STDLIB_DIR / "ddlog_std.dl"
    modules = [_parse_cached(std_path.read_text(), str(std_path), "ddlog_std")]
    try:
        main = parse_module(text, path, "")
    except CompileError as e:
        raise CompileError(e.diagnostics) from None
    modules.append(main)
    seen = {"ddlog_std", ""}
    queue = [main]
    while queue:
        mod = queue.pop(0)
        diags = Diagnostics()
        imported: set[str] = set()
        for d in mod.decls:
            if not isinstance(d, A.Import):
                continue
            if d.path in imported:
                diags.error(d.span, f"module `{d.path}` is imported twice")
            imported.add(d.path)
            if d.path in seen:
                continue
            found = _find_module(d.path, [STDLIB_DIR] + roots if d.path in PRELUDE_MODULES
                                 else roots)
            if found is None:
                diags.error(d.span, f"cannot find module `{d.path}` (looked for "
                                    f"`{d.path.replace('::', '/')}.dl` in "
                                    + ", ".join(str(r) for r in roots) + ")")
                continue
            seen.add(d.path)
            try:
                sub = parse_module(read_source(str(found)), str(found), d.path)
            except CompileError as e:
                errors.extend(e.diagnostics)
                continue
            modules.append(sub)
            queue.append(sub)
        errors.extend(diags.items)
    if errors:
        raise CompileError(errors)
    return modules


def _find_module(name: str, roots: list[Path]) -> Optional[Path]:
    rel = Path(*name.split("::")).with_suffix(".dl")
    for root in roots:
        cand = root / rel
        if cand.is_file():
            return cand
    return None
