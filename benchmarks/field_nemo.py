"""Nemo (the ``nemo-python`` package, module ``nmo_python``) as a baseline of the
field benchmark (:mod:`benchmarks.field`): each program in Nemo's rule language.

The facts are written once to CSV files in a temporary directory (not timed); a
timed run parses the program, imports the CSV files, reasons and reads the result:
the counts come from ``#count`` rules, so that Nemo counts in the engine as dl2sql
and DuckDB do instead of handing millions of rows to Python.

Nemo has no recursion through aggregation: a rule set where ``#min`` feeds back into
its own input is refused ("The rules of the program are not stratified."). So cc
and sssp have no Nemo variant; their stratified forms (every pair of connected
nodes, then the least; every path length, then the least) compute a quadratic
relation (cc) or never end on a cyclic graph (sssp), which is not the program.
"""
from __future__ import annotations

import csv
import os
import tempfile

# program -> (rules without imports, {count predicate: relation it counts})
RULES = {
    "tc": ("""
        path(?x, ?y) :- edge(?x, ?y) .
        path(?x, ?z) :- path(?x, ?y), edge(?y, ?z) .
        nPath(#count(?x, ?y)) :- path(?x, ?y) .
        """, {"nPath": "Path"}),
    "sg": ("""
        sg(?x, ?y) :- parent(?p, ?x), parent(?p, ?y), ?x != ?y .
        sg(?x, ?y) :- parent(?a, ?x), sg(?a, ?b), parent(?b, ?y) .
        nSG(#count(?x, ?y)) :- sg(?x, ?y) .
        """, {"nSG": "SG"}),
    "reach": ("""
        reach(?n) :- source(?n) .
        reach(?m) :- reach(?n), edge(?n, ?m) .
        nReach(#count(?n)) :- reach(?n) .
        """, {"nReach": "Reach"}),
    "andersen": ("""
        pointsTo(?p, ?a) :- addressOf(?p, ?a) .
        pointsTo(?p, ?a) :- assign(?p, ?q), pointsTo(?q, ?a) .
        pointsTo(?p, ?a) :- load(?p, ?q), pointsTo(?q, ?r), pointsTo(?r, ?a) .
        pointsTo(?r, ?a) :- store(?p, ?q), pointsTo(?p, ?r), pointsTo(?q, ?a) .
        nPointsTo(#count(?p, ?a)) :- pointsTo(?p, ?a) .
        """, {"nPointsTo": "PointsTo"}),
    "cspa": ("""
        valueFlow(?y, ?x) :- assign(?y, ?x) .
        valueFlow(?x, ?y) :- assign(?x, ?z), memoryAlias(?z, ?y) .
        valueFlow(?x, ?y) :- valueFlow(?x, ?z), valueFlow(?z, ?y) .
        memoryAlias(?x, ?w) :- dereference(?y, ?x), valueAlias(?y, ?z), dereference(?z, ?w) .
        valueAlias(?x, ?y) :- valueFlow(?z, ?x), valueFlow(?z, ?y) .
        valueAlias(?x, ?y) :- valueFlow(?z, ?x), memoryAlias(?z, ?w), valueFlow(?w, ?y) .
        valueFlow(?x, ?x) :- assign(?x, ?y) .
        valueFlow(?x, ?x) :- assign(?y, ?x) .
        memoryAlias(?x, ?x) :- assign(?y, ?x) .
        memoryAlias(?x, ?x) :- assign(?x, ?y) .
        nVF(#count(?x, ?y)) :- valueFlow(?x, ?y) .
        nVA(#count(?x, ?y)) :- valueAlias(?x, ?y) .
        nMA(#count(?x, ?y)) :- memoryAlias(?x, ?y) .
        """, {"nVF": "ValueFlow", "nVA": "ValueAlias", "nMA": "MemoryAlias"}),
}

UNSUPPORTED = {
    "cc": "Nemo refuses recursion through #min (\"The rules of the program are not "
          "stratified.\"); the stratified form (all connected pairs, then #min) is quadratic",
    "sssp": "Nemo refuses recursion through #min (\"The rules of the program are not "
            "stratified.\"); the stratified form (all path lengths) never ends on cycles",
}


def missing() -> str | None:
    """Why Nemo cannot run here (the package is not installed), or None."""
    try:
        import nmo_python  # noqa: F401
    except ImportError as e:
        return f"nemo-python is not installed ({e}); pip install nemo-python"
    return None


class NemoProgram:
    """One program's rules with its facts written to CSV files (deleted by
    :meth:`close`)."""

    def __init__(self, program: str, inputs: dict):
        self.rules, self.counters = RULES[program]
        self.dir = tempfile.TemporaryDirectory(prefix=f"field_nemo_{program}_")
        imports = []
        for name, rows in inputs.items():
            path = os.path.join(self.dir.name, f"{name}.csv")
            with open(path, "w", newline="") as f:
                csv.writer(f).writerows(rows)
            arity = len(rows[0]) if rows else 2
            fmt = ",".join(["int"] * arity)
            # Nemo's predicates start lower-case: Edge -> edge, AddressOf -> addressOf
            pred = name[0].lower() + name[1:]
            imports.append(f'@import {pred} :- csv{{resource="{path}", format=({fmt})}} .')
        exports = [f"@export {c} :- csv{{}} ." for c in self.counters]
        self.text = "\n".join(imports + [self.rules] + exports)

    def run(self) -> dict:
        """Parse, import, reason and read the counts: {relation: rows}."""
        from nmo_python import NemoEngine, load_string

        engine = NemoEngine(load_string(self.text))
        engine.reason()
        counts = {}
        for pred, relation in self.counters.items():
            got = list(engine.result(pred))
            counts[relation] = int(got[0][0]) if got else 0
        return counts

    def close(self) -> None:
        """Delete the CSV files."""
        self.dir.cleanup()
