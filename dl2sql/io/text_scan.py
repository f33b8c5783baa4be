"""Where a text input file breaks its relation's declaration: header, line, column.

The engines check every value as they read (:mod:`dl2sql.sqlgen.text_columns`), but
neither can say on which line of a file a row was: only that some row was bad and
what it held. When a read fails, dl2sql reads the file once more here, in Python, up
to its first problem, and reports that with its line number, in the same words on
both engines. This is the error path only, and only for files on this machine; a
file elsewhere (HDFS, S3) keeps the engine's message, which has all but the line.

The header and key checks (:func:`header_problem`) run before the engines read
anything, on the header each engine read.
"""
from __future__ import annotations

import csv
import json
import os
import re
from typing import Optional

from dl2sql.diagnostics import suggest
from dl2sql.types import text_values as tv
from dl2sql.types.model import TBigInt, TBit, TBool, TDouble, TFloat, TSigned, TString, Type
from dl2sql.types.wide_ints import is_wide


def header_problem(path: str, relation: str, header: list[str],
                   fields: list[str], what: str = "the header") -> Optional[str]:
    """What is wrong with the column names ``header`` of file ``path`` for
    ``relation`` (fields ``fields``), or None: a name twice, a name that is not a
    field (with the closest field if one is missing), a field without a column."""
    expected = ", ".join(fields)
    seen = set()
    for name in header:
        if name in seen:
            return f"{path}: column `{name}` appears twice in {what}"
        seen.add(name)
    missing = [f for f in fields if f not in seen]
    for name in header:
        if name not in fields:
            hint = suggest(name, missing) if missing else ""
            return (f"{path}: column `{name}` in {what} is not a field of input relation "
                    f"`{relation}`{hint} (fields: {expected})")
    if missing:
        return (f"{path}: {what} has no column `{missing[0]}` of input relation "
                f"`{relation}` (fields: {expected}; {what} has: {', '.join(header) or 'none'})")
    return None


def is_local(path: str) -> bool:
    """Whether ``path`` is a file on this machine (not a URI of another file system)."""
    return "://" not in path.replace("file://", "", 1) and os.path.isfile(
        path.replace("file://", "", 1))


def csv_problem(path: str, relation: str, columns: list[tuple[str, Type]]) -> Optional[str]:
    """The first problem of local CSV file ``path`` as input of ``relation``, with its
    line number, or None."""
    types = dict(columns)
    with open(path, newline="", encoding="utf-8-sig") as f:
        reader = csv.reader(f)
        header = next(reader, None)
        if header is None:
            return (f"{path}: the file is empty; a CSV input starts with a header row "
                    f"naming the fields ({', '.join(types)})")
        found = header_problem(path, relation, header, list(types))
        if found:
            return found
        line = reader.line_num + 1
        for record in reader:
            start, line = line, reader.line_num + 1
            if not record:
                continue  # a blank line holds no record, as on both engines
            if len(record) != len(header):
                return (f"{path}:{start}: {len(record)} field(s), but the header has "
                        f"{len(header)} ({', '.join(header)})")
            for name, text in zip(header, record):
                wrong = tv.problem(types[name], text)
                if wrong:
                    return (f"{path}:{start}: input relation `{relation}`, column `{name}` "
                            f"({types[name]}): {wrong}")
    return None


def json_problem(path: str, relation: str, columns: list[tuple[str, Type]]) -> Optional[str]:
    """The first problem of local JSON-lines file ``path`` as input of ``relation``
    (a line that is not a JSON object, a missing or unknown key, a scalar value of the
    wrong kind), with its line number, or None. Values of struct, union and collection
    columns are left to the engines' checks."""
    types = dict(columns)
    with open(path, encoding="utf-8-sig") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError as e:
                return f"{path}:{number}: not a JSON object: {e}"
            if not isinstance(record, dict):
                return f"{path}:{number}: not a JSON object: {line.strip()[:80]}"
            found = header_problem(f"{path}:{number}", relation, list(record), list(types),
                                   "the object")
            if found:
                return found
            for name, t in types.items():
                wrong = _json_scalar_problem(t, record[name])
                if wrong:
                    return (f"{path}:{number}: input relation `{relation}`, column `{name}` "
                            f"({t}): {wrong}")
    return None


NON_FINITE = ("NaN", "Infinity", "-Infinity")


def _json_scalar_problem(t: Type, value) -> Optional[str]:
    shown = json.dumps(value)
    if value is None:
        return "is null, and a value is required"
    if isinstance(t, TString):
        return None if isinstance(value, str) else f"`{shown}` is not a string"
    if isinstance(t, TBool):
        return None if isinstance(value, bool) else f"`{shown}` is not true or false"
    if isinstance(t, (TBit, TSigned, TBigInt)):
        if is_wide(t) and isinstance(value, str) and re.fullmatch(tv.INTEGER, value):
            value = int(value)  # wide integers are read from their text too
        if isinstance(value, bool) or not isinstance(value, int):
            return f"`{shown}` is not an integer"
        wrong = tv.out_of_range(t, value)
        return f"`{shown}` {wrong}" if wrong else None
    if isinstance(t, (TFloat, TDouble)):
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        # the strings dl2sql's JSON output gives the floats JSON has no number for
        return None if number or value in NON_FINITE else f"`{shown}` is not a number"
    return None


def in_file(source, message: Optional[str]) -> Optional[str]:
    """``message`` about a value of an input read from ``source``, naming the file
    where the source is one (a Parquet file's rows have no lines to point at)."""
    if message is None or not isinstance(source, str):
        return message
    return f"{source}: {message}"


def file_problem(relation: str, source, columns) -> Optional[str]:
    """The first problem, with its line, of input file ``source`` (a local ``.csv`` or
    ``.json`` file; anything else gives None)."""
    if not isinstance(source, str) or not is_local(source):
        return None
    path = source.replace("file://", "", 1)
    lower = path.lower()
    try:
        if lower.endswith(".csv"):
            return csv_problem(path, relation, list(columns))
        if lower.endswith((".json", ".jsonl")):
            return json_problem(path, relation, list(columns))
    except (OSError, UnicodeDecodeError) as e:
        return f"{path}: cannot read the file: {e}"
    return None
