"""A maintained program's state in a directory, so that a later process (a daily job)
applies its changes to what an earlier one left.

Layout: a folder ``DIR/vN/`` per version holding one Parquet file per relation (every
relation: the compiler's helpers and internal ones too; a stream or multiset with a
row per unit of weight), one per table of the history that delayed relations (``R-1``)
read, and ``manifest.json`` (the program's fingerprint, each relation's file, columns
and rows, and the history's files). Saving writes a new
version beside the current one and then commits it in one atomic step
(:mod:`dl2sql.api.state_store`: a ``CURRENT`` marker in a POSIX directory, the
manifest's rename at a Hadoop URL such as ``s3a://``): a save that fails part-way
leaves the state as it was, and a reader sees the old version or the new one, never a
mix. Older versions are deleted after the switch, but for those a savepoint names
(``dl2sql run --state DIR --savepoint NAME``, :mod:`dl2sql.api.state_store`).
"""
from __future__ import annotations

import datetime
import hashlib
import json
from dataclasses import dataclass
from typing import Optional

from dl2sql.diagnostics import InputError
from dl2sql.engines import engine as get_engine
from dl2sql.api.state_store import MANIFEST, store_for
from dl2sql.io.files import file_stem
from dl2sql.passes.bags import is_bag
from dl2sql.types.model import WIDE

FORMAT = 1


def fingerprint(compiled) -> str:
    """What a state depends on: every relation's columns and types, and the rules
    (as relational algebra, without source positions)."""
    h = hashlib.sha256()
    for rel in sorted(compiled.layouts):
        h.update(repr((rel, compiled.layouts[rel].columns)).encode())
        info = compiled.relations.get(rel)
        if info is not None and is_bag(info):  # (a set's fingerprint stays what it was)
            h.update(f"{rel} is a {info.kind}".encode())
    for rel in sorted(compiled.blocks):
        for b in compiled.blocks[rel]:
            h.update(_without_spans(repr(b)).encode())
    return h.hexdigest()


def _without_spans(text: str) -> str:
    out, i = [], 0
    while True:
        j = text.find("span=Span(", i)
        if j < 0:
            return "".join(out) + text[i:]
        out.append(text[i:j])
        i = text.index(")", j) + 1


def current(directory: str, spark=None, engine: str = "spark") -> Optional["Version"]:
    """The current version of the state in ``directory`` (a path, or a Hadoop URL
    reached through ``spark`` on the Spark engine), or None when no state was saved
    there."""
    store = store_for(directory, spark, engine)
    name = store.current()
    return Version(store, name) if name is not None else None


@dataclass(frozen=True)
class Version:
    """A saved version of a state: its store and folder name."""

    store: object
    name: str

    def location(self, file: str) -> str:
        """Where file ``file`` of this version is."""
        return self.store.location(self.name, file)


def read_manifest(version: Version, compiled, directory: str) -> dict:
    """The manifest of a saved version, checked against ``compiled``: a program whose
    relations or rules differ from the saving one is refused, saying how."""
    try:
        manifest = json.loads(version.store.read(version.name, MANIFEST))
    except (ValueError, UnicodeDecodeError) as e:  # json's errors are ValueErrors
        raise _damaged(directory, f"{MANIFEST} is not JSON: {e}") from None
    if not isinstance(manifest, dict):
        raise _damaged(directory, f"{MANIFEST} holds no object")
    if manifest.get("format") != FORMAT:
        raise InputError(f"state directory `{directory}` has format "
                         f"{manifest.get('format')}, this dl2sql reads format {FORMAT}")
    missing = [key for key in ("fingerprint", "relations") if key not in manifest]
    if missing:
        raise _damaged(directory, f"{MANIFEST} has no {' and no '.join(missing)}")
    if manifest["fingerprint"] == fingerprint(compiled):
        files = [(rel, entry.get("file")) for rel, entry in manifest["relations"].items()]
        files += [(entry.get("relation"), entry.get("file"))
                  for entry in manifest.get("history", {}).values()]
        lost = [f"the file of relation `{rel}` ({file}) is missing" for rel, file in files
                if not file or not version.store.exists(version.name, file)]
        if lost:
            raise _damaged(directory, "; ".join(lost))
        return manifest
    saved = {r: [tuple(c) for c in v["columns"]] for r, v in manifest["relations"].items()}
    now = {r: [(n, str(t)) for n, t in lay.columns] for r, lay in compiled.layouts.items()}
    problems = [f"relation `{r}` is not in the program" for r in sorted(set(saved) - set(now))]
    problems += [f"relation `{r}` is not in the state" for r in sorted(set(now) - set(saved))]
    problems += [f"relation `{r}` has columns {_cols(now[r])}, the state {_cols(saved[r])}"
                 for r in sorted(set(now) & set(saved)) if now[r] != saved[r]]
    if not problems:
        problems = ["the rules differ"]
    raise InputError(f"state directory `{directory}` was saved by a different program "
                     f"(saved from {manifest.get('program', '?')}): {'; '.join(problems)}; "
                     f"start a new state directory for this program")


def _damaged(directory: str, what: str) -> InputError:
    return InputError(f"state directory `{directory}` is damaged: {what}; restore it from "
                      f"a copy, or start a new state directory")


def _cols(columns) -> str:
    return "(" + ", ".join(f"{n}: {t}" for n, t in columns) + ")"


def save(maintained, directory: str) -> str:
    """Write every relation of ``maintained`` as a new version of the state in
    ``directory`` and make it current; returns the version's name."""
    compiled, runner = maintained.compiled, maintained.runner
    store = store_for(directory, getattr(runner, "spark", None), runner.engine)
    relations, history = {}, {}
    bags = maintained.updater.bags

    def write(place) -> None:
        for kind, key, rel, table in stored_tables(maintained):
            # Hadoop hides files whose names start with `_` (helper relations' do)
            name = f"{kind}.{file_stem(key)}.parquet"
            store.write_table(runner, table, place(name))
            if kind == "relation":
                relations[rel] = {"file": name, "rows": maintained.updater.size(rel),
                                  "columns": [[n, str(t)] for n, t in
                                              compiled.layouts[rel].columns]}
            else:
                history[key] = {"file": name, "rows": bags.rows[key], "relation": rel}

    def manifest() -> str:
        return json.dumps({"format": FORMAT, "fingerprint": fingerprint(compiled),
                           "program": compiled.path, "engine": runner.engine,
                           "integers": compiled.representation,
                           "saved": datetime.datetime.now(datetime.timezone.utc).isoformat(),
                           "relations": relations, "history": history}, indent=1)
    return store.save(write, manifest)


def stored_tables(maintained) -> list[tuple[str, str, str, object]]:
    """(kind, key, relation, table) of each table a maintained program's state is:
    every relation's (kind "relation", its name the key), and the history that delayed
    relations read (kind "history", the table's name the key)."""
    out = [("relation", rel, rel, table)
           for rel, table in maintained.updater.plan.relations.items()]
    bags = maintained.updater.bags
    out += [("history", table.name, rel, table) for table, rel in
            (bags.plan.history() if bags is not None else ())]
    return out


def representation(manifest: dict) -> str:
    """How the saved state stores wide integers; a state saved before there was a
    choice holds them WIDE."""
    return manifest.get("integers", WIDE)


def reopened(maintained, compiled) -> dict:
    """Loaders of every table of ``maintained`` (by key, as :func:`loaders`) read back
    from the runner as a saved state is read from its files, in ``compiled``'s
    representation of wide integers (what switching it to WIDE loads)."""
    runner = maintained.runner
    engine = get_engine(runner.engine)
    return {key: _reader(compiled, engine, rel, engine.frame(runner, table))
            for _, key, rel, table in stored_tables(maintained)}


def _reader(compiled, engine, rel: str, source):
    """A loader of relation ``rel``'s rows from ``source`` (a file, a frame)."""
    found = engine.inputs(rel, source, compiled.layouts[rel].columns, compiled.type_env)
    found.keep_duplicates = is_bag(compiled.relations[rel])  # copies are weights
    return found


def loaders(version: Version, manifest: dict, compiled, engine: str) -> dict:
    """Loaders of every relation's saved rows and of the history of the relations
    read delayed (by table name), for :class:`Maintained`, in ``compiled``'s
    representation of wide integers (the saved one, :func:`representation`)."""
    found = get_engine(engine)

    def loader(rel: str, file: str):
        return _reader(compiled, found, rel, version.location(file))
    out = {rel: loader(rel, entry["file"]) for rel, entry in manifest["relations"].items()}
    out.update({name: loader(entry["relation"], entry["file"])
                for name, entry in manifest.get("history", {}).items()})
    return out
