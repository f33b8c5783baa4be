"""Directories of files as a program's inputs and outputs (``dl2sql run``).

One file per relation, named after it (``a::b::R`` is ``a.b.R``) with the format as
extension: ``.csv`` (a header row of column names; scalar columns only), ``.json``
(JSON lines, one object per record keyed by column name) or ``.parquet``. Column
values follow the SQL layout of docs/sql-mapping.md, so struct, union and collection
values round-trip through JSON and Parquet. Outputs are written to a temporary
directory beside the target and moved into place only once all are complete.
"""
from __future__ import annotations

import errno
import os
import shutil
import tempfile
from pathlib import Path

from dl2sql.diagnostics import InputError
from dl2sql.engines import engine_of
from dl2sql.io.json_text import quote_non_finite
from dl2sql.types.model import TBigInt, TBit, TBool, TDouble, TFloat, TSigned, TString
from dl2sql.types.storage import extern_stored_in

FORMATS = ("csv", "json", "parquet")
_EXTENSIONS = {".csv": "csv", ".json": "json", ".jsonl": "json", ".parquet": "parquet"}


def file_stem(relation: str) -> str:
    """The file name (without extension) of ``relation``."""
    return relation.replace("::", ".")


def input_files(program, directory: str) -> dict[str, str]:
    """Input relation -> file in ``directory``; a file that names no input relation,
    or two files for one relation, is an InputError. Missing files: empty inputs."""
    return {rel: kinds[""] for rel, kinds in _files(program, directory, ("",)).items()}


# the kinds of change a file of a state update holds (``RELATION.KIND.ext``)
CHANGE_KINDS = ("insert", "delete", "insert_or_update")


def change_files(program, directory: str) -> dict[str, dict[str, str]]:
    """Input relation -> kind of change -> file in ``directory``, for ``dl2sql run
    --state``: ``R.insert.csv``, ``R.delete.csv``, ``R.insert_or_update.csv`` (any
    format); a plain ``R.csv`` holds insertions too."""
    found = _files(program, directory, ("",) + CHANGE_KINDS)
    for rel, kinds in found.items():
        if "" in kinds:
            if "insert" in kinds:
                raise InputError(f"{kinds['']}: relation `{rel}` has two files of "
                                 f"insertions ({Path(kinds['']).name} and "
                                 f"{Path(kinds['insert']).name})")
            kinds["insert"] = kinds.pop("")
        if "insert_or_update" in kinds and program.compiled.relations[rel].key is None:
            raise InputError(f"{kinds['insert_or_update']}: relation `{rel}` has no primary "
                             f"key, so no insert_or_update")
    return found


def _files(program, directory: str, kinds: tuple[str, ...]) -> dict[str, dict[str, str]]:
    root = Path(directory)
    if not root.is_dir():
        raise InputError(f"input directory `{directory}` does not exist")
    by_stem = {file_stem(r) + (f".{k}" if k else ""): (r, k) for r in program.compiled.relations
               for k in kinds}
    found: dict[str, dict[str, str]] = {}
    for entry in sorted(root.iterdir()):
        if entry.name.startswith((".", "_")):
            continue
        ext = entry.suffix.lower()
        if ext not in _EXTENSIONS:
            raise InputError(f"{entry}: unknown input format `{ext or entry.name}` "
                             f"(use .csv, .json or .parquet)")
        rel, kind = by_stem.get(entry.name[: -len(entry.suffix)], (None, None))
        if rel is None or program.compiled.relations[rel].role != "input":
            inputs = ", ".join(file_stem(r) for r in program.inputs) or "none"
            kinds_text = "" if kinds == ("",) else (
                f"; files of changes are named RELATION.{{{','.join(k for k in kinds if k)}}}"
                f".ext")
            raise InputError(f"{entry}: names no input relation of the program "
                             f"(input relations: {inputs}){kinds_text}")
        if kind in found.get(rel, {}):
            raise InputError(f"{entry}: relation `{rel}` has two input files "
                             f"({Path(found[rel][kind]).name} and {entry.name})")
        if _EXTENSIONS[ext] == "csv":
            require_scalar(program, rel, str(entry))
        found.setdefault(rel, {})[kind] = str(entry)
    return found


def require_scalar(program, relation: str, where: str) -> None:
    """CSV holds only relations whose columns are numbers, strings or booleans."""
    scalar = (TBool, TString, TBit, TSigned, TBigInt, TFloat, TDouble)
    for name, t in program.compiled.layouts[relation].columns:
        if not isinstance(t, scalar):
            raise InputError(f"{where}: relation `{relation}` has column `{name}` of type "
                             f"`{t}`, which CSV cannot hold; use --format json or parquet")


def require_record_form(compiled, relation: str, where: str) -> None:
    """Files and DataFrames hold a column's stored form, which for a Uuid (hex digits)
    or a Url (text, unparsed on input) is not the form DDlog reads and writes: such
    columns are refused until they are converted."""
    for name, t in compiled.layouts[relation].columns:
        found = extern_stored_in(t, compiled.type_env)
        if found is not None:
            raise InputError(f"{where}: relation `{relation}` has column `{name}` holding "
                             f"`{found}` values, which files and DataFrames cannot hold "
                             f"yet; use rows of Python values or a .dat file")


def check_output_format(program, directory: str, fmt: str) -> None:
    """That every output relation can be written as ``fmt``: checked before a run, so
    that a run is not wasted on outputs that cannot be written."""
    if fmt not in FORMATS:
        raise InputError(f"unknown output format `{fmt}` (use {', '.join(FORMATS)})")
    for rel in program.outputs:
        require_record_form(program.compiled, rel, directory)
        if fmt == "csv":
            require_scalar(program, rel, directory)


def unnamed_inputs(program, files: dict) -> list[str]:
    """The input relations that neither a file of ``files`` nor a ``#[source]``
    provides: they will be empty."""
    rels = program.compiled.relations
    return [r for r in program.inputs if r not in files and not rels[r].source]


def write_outputs(program, runner, directory: str, fmt: str,
                  tables: dict | None = None) -> list[str]:
    """Write every output relation (or each relation's table of ``tables``) into
    ``directory`` as ``fmt``; returns the files.
    Nothing in ``directory`` changes unless every file was written; then the files of
    the same relations in the other formats, left by earlier runs, are removed, so
    that the directory holds exactly this run's outputs."""
    check_output_format(program, directory, fmt)
    target = Path(directory).resolve()
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.tmp-", dir=target.parent))
    if tables is None:
        plan = program.last_compiled.plan_for(runner.engine)  # the last run's tables
        tables = {rel: plan.relations[rel] for rel in program.outputs}
    try:
        names = []
        for rel, table in tables.items():
            name = f"{file_stem(rel)}.{fmt}"
            engine_of(runner).writer(runner, table, str(staging / name), fmt)
            if fmt == "json":
                quote_non_finite(str(staging / name))
            names.append(name)
        target.mkdir(parents=True, exist_ok=True)
        _place(staging, target, names)
        for rel in tables:
            for other in FORMATS:
                stale = target / f"{file_stem(rel)}.{other}"
                if other != fmt and stale.is_file():
                    stale.unlink()
        return [str(target / n) for n in names]
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _place(staging: Path, target: Path, names: list[str]) -> None:
    """Move the files ``names`` from ``staging`` into ``target``, all or none: a file
    they replace is set aside first and put back, and the ones already moved are
    removed, when a later move fails (a run that fails leaves the folder as it was)."""
    for name in names:  # what is sure to fail, before anything moves
        if (target / name).is_dir():
            raise OSError(errno.EISDIR, "a directory is in the way of the output file",
                          str(target / name))
    aside = staging / ".replaced"
    aside.mkdir()
    saved: list[str] = []
    placed: list[str] = []
    try:
        for name in names:
            if (target / name).exists():
                os.replace(target / name, aside / name)
                saved.append(name)
            os.replace(staging / name, target / name)
            placed.append(name)
    except BaseException:
        for name in placed:
            (target / name).unlink(missing_ok=True)
        for name in saved:
            os.replace(aside / name, target / name)
        raise

