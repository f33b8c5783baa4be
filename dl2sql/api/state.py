"""A maintained program's state in a directory, so that a later process (a daily job)
applies its changes to what an earlier one left.

Layout: ``DIR/CURRENT`` names the current version, a folder ``DIR/vN/`` holding one
Parquet file per relation (every relation: the compiler's helpers and internal ones
too) and ``manifest.json`` (the program's fingerprint, each relation's file, columns
and rows). Saving writes a new version beside the current one and then replaces
``CURRENT`` in one rename: a save that fails part-way leaves the state as it was, and
a reader sees the old version or the new one, never a mix. Older versions are deleted
after the switch.
"""
from __future__ import annotations

import datetime
import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Optional

from dl2sql.diagnostics import InputError
from dl2sql.engines import engine as get_engine
from dl2sql.engines import engine_of
from dl2sql.io.files import file_stem

FORMAT = 1
MANIFEST = "manifest.json"
CURRENT = "CURRENT"


def fingerprint(compiled) -> str:
    """What a state depends on: every relation's columns and types, and the rules
    (as relational algebra, without source positions)."""
    h = hashlib.sha256()
    for rel in sorted(compiled.layouts):
        h.update(repr((rel, compiled.layouts[rel].columns)).encode())
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


def current(directory: str) -> Optional[Path]:
    """The folder of the current version in ``directory``, or None when no state was
    saved there."""
    root = Path(directory)
    marker = root / CURRENT
    if not marker.is_file():
        if root.is_dir() and any(root.iterdir()):
            raise InputError(f"state directory `{directory}` holds files but no "
                             f"{CURRENT} marker: not a dl2sql state (or a save that never "
                             f"finished); use an empty or new directory")
        return None
    folder = root / marker.read_text(encoding="utf-8").strip()
    if not (folder / MANIFEST).is_file():
        raise InputError(f"state directory `{directory}`: {CURRENT} names "
                         f"`{folder.name}`, which has no {MANIFEST}")
    return folder


def read_manifest(folder: Path, compiled, directory: str) -> dict:
    """The manifest of a saved version, checked against ``compiled``: a program whose
    relations or rules differ from the saving one is refused, saying how."""
    manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    if manifest.get("format") != FORMAT:
        raise InputError(f"state directory `{directory}` has format "
                         f"{manifest.get('format')}, this dl2sql reads format {FORMAT}")
    if manifest["fingerprint"] == fingerprint(compiled):
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


def _cols(columns) -> str:
    return "(" + ", ".join(f"{n}: {t}" for n, t in columns) + ")"


def save(maintained, directory: str) -> Path:
    """Write every relation of ``maintained`` as a new version of the state in
    ``directory`` and make it current; returns its folder."""
    compiled, runner = maintained.compiled, maintained.runner
    root = Path(directory)
    root.mkdir(parents=True, exist_ok=True)
    previous = current(directory)
    number = 1 + (int(previous.name[1:]) if previous is not None else 0)
    staging = Path(tempfile.mkdtemp(prefix=".saving-", dir=root))
    try:
        relations = {}
        write = engine_of(runner).writer
        for rel, table in maintained.updater.plan.relations.items():
            # Hadoop hides files whose names start with `_` (helper relations' do)
            name = f"relation.{file_stem(rel)}.parquet"
            write(runner, table, str(staging / name), "parquet")
            relations[rel] = {"file": name, "rows": maintained.updater.sizes[rel],
                              "columns": [[n, str(t)] for n, t in
                                          compiled.layouts[rel].columns]}
        manifest = {"format": FORMAT, "fingerprint": fingerprint(compiled),
                    "program": compiled.path, "engine": runner.engine,
                    "saved": datetime.datetime.now(datetime.timezone.utc).isoformat(),
                    "relations": relations}
        (staging / MANIFEST).write_text(json.dumps(manifest, indent=1), encoding="utf-8")
        folder = root / f"v{number}"
        os.replace(staging, folder)
        marker = root / f".{CURRENT}.tmp"
        marker.write_text(folder.name + "\n", encoding="utf-8")
        os.replace(marker, root / CURRENT)  # the switch: one rename
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    for old in root.glob("v*"):
        if old.is_dir() and old.name != folder.name:
            shutil.rmtree(old, ignore_errors=True)
    return folder


def loaders(folder: Path, manifest: dict, compiled, engine: str) -> dict:
    """Loaders of every relation's saved rows, for :class:`Maintained`."""
    reader = get_engine(engine).inputs
    return {rel: reader(rel, str(folder / entry["file"]), compiled.layouts[rel].columns,
                        compiled.type_env)
            for rel, entry in manifest["relations"].items()}
