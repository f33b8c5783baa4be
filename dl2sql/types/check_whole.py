"""Whole-program checking of functions: every function with a body is type-checked
once, whether or not a rule reaches it, as DDlog does.

Monomorphisation (:mod:`dl2sql.types.check_functions`) checks only the instances the
rules call, with concrete types. Here each function is checked on its own, its type
parameters rigid (``'A`` equals only itself), so an error in a function nothing calls
is still reported, and so is a body that only type-checks for some instantiations.
"""
from __future__ import annotations

from pathlib import Path

from dl2sql.ast import nodes as A
from dl2sql.diagnostics import Diagnostics
from dl2sql.types.check_flow import signature_tvars
from dl2sql.types.check_rules import RuleChecker
from dl2sql.types.model import UNIT, TVar
from dl2sql.types.symbols import FunctionSym, Symbols

STDLIB_DIR = Path(__file__).parents[1] / "stdlib"


def foreign_libraries(modules: list[A.Module], main_path: str,
                      lib_dirs: tuple[str, ...]) -> frozenset[str]:
    """The modules found in a library directory (``-L``) rather than beside the main
    file or in dl2sql's own library: someone else's code (DDlog's ``lib``, say), which
    may use what dl2sql cannot type yet, so only the functions a rule reaches are
    checked there. The user's modules and dl2sql's library are checked whole."""
    main_dir = (Path(main_path).parent if main_path and not main_path.startswith("<")
                else Path.cwd()).resolve()
    libs = [Path(d).resolve() for d in lib_dirs]
    out = set()
    for m in modules:
        f = Path(m.span.file).resolve()
        if not m.name or _under(f, STDLIB_DIR.resolve()) or _under(f, main_dir):
            continue
        if any(_under(f, d) for d in libs):
            out.add(m.name)
    return frozenset(out)


def is_own_library(m: A.Module) -> bool:
    """Whether ``m`` is a module of dl2sql's own library (``dl2sql/stdlib``)."""
    return _under(Path(m.span.file).resolve(), STDLIB_DIR.resolve())


def _under(f: Path, d: Path) -> bool:
    return f == d or d in f.parents


def check_every_function(syms: Symbols, diags: Diagnostics,
                         libraries: frozenset[str] = frozenset()) -> None:
    """Type-check the body of every function declared in the program, generically,
    except those of the modules in ``libraries`` (:func:`foreign_libraries`)."""
    for overloads in syms.functions.values():
        for sym in overloads:
            if sym.decl.body is not None and sym.module not in libraries:
                check_generic(sym, syms, diags)


def check_generic(sym: FunctionSym, syms: Symbols, diags: Diagnostics) -> None:
    """Check ``sym``'s body with its type variables standing for themselves."""
    mapping = {n: TVar(n) for n in signature_tvars(sym.decl)}
    checker = RuleChecker(syms, sym.module, diags)
    params = {p.name: syms.to_type(p.type, sym.module, mapping, diags)
              for p in sym.decl.params}
    ret = syms.to_type(sym.decl.ret, sym.module, mapping, diags) if sym.decl.ret else UNIT
    checker.ret_type = ret
    checker.tparams = mapping
    checker.mutable = frozenset(p.name for p in sym.decl.params if p.mutable)
    checker.expr(sym.decl.body, params, ret)
    checker.inf.default_literals()

