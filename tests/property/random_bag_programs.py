"""Random DDlog programs with DDlog's transactional kinds, for the property tests of
their incremental maintenance (tests/property/test_incremental_bags_random.py).

Every program has three binary input relations over u32: a multiset ``B``, a stream
``S`` and a set ``E``. Its derived relations, built stratum by stratum, are drawn
among: multisets joined from lower relations (with negation and filters), streams
derived from ``S`` or a lower stream, sets read from a bag (or from a differentiated
stream), ``group_by`` aggregates over bags and streams that read each row's weight
(``for ((v, w) in g)``), delayed relations (``R-1``, ``R-2``), and DDlog's fold of a
stream: an internal relation of this transaction's rows and the aggregate's previous
value, whose derivation counts the aggregate sees. Stream rules follow DDlog's: a body
that reads a stream (not differentiated) derives a stream, and only then.

Run as a script to compile the programs of many seeds (the generator's self-test):
``python tests/property/random_bag_programs.py 200``.
"""
from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field

DOMAIN = 4  # values 0..3: joins, negations and equal rows (weights) are frequent
INPUTS = {"B": "multiset", "S": "stream", "E": "relation"}
FILTERS = ("x != y", "x < y", "x <= y", "y > 0")
FUNCTIONS = """\
// a group sees a row of weight w as one element of weight w
function wsum(g: Group<u32, u32>): u32 {
    var s: u32 = 0;
    for ((v, w) in g) { s = s + v * (w as u64 as u32) };
    s
}

function wcount(g: Group<u32, u32>): u32 {
    var s: u32 = 0;
    for ((v, w) in g) { s = s + (w as u64 as u32) };
    s
}
"""


@dataclass(frozen=True)
class Rel:
    """A relation of the program: its name and kind (``relation``, ``multiset``,
    ``stream``); all have two u32 columns, ``x`` and ``y``."""

    name: str
    kind: str


@dataclass
class GeneratedBags:
    """A generated program: its text, its relations and the kinds of its strata."""

    text: str
    relations: list[Rel] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)


class _Generator:
    def __init__(self, seed: int, strata: int):
        self.rng, self.strata = random.Random(seed), strata
        self.lines = ["import group", "", FUNCTIONS]
        self.lower = [Rel(n, k) for n, k in INPUTS.items()]
        self.lines += [f"input {k} {n}(x: u32, y: u32)" for n, k in INPUTS.items()]
        self.count = 0

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, kinds) -> Rel:
        """A lower relation of one of ``kinds``, an input one half of the time."""
        found = [r for r in self.lower if r.kind in kinds]
        inputs = [r for r in found if r.name in INPUTS]
        return self.rng.choice(inputs if inputs and self.chance(0.5) else found)

    def name(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def declare(self, name: str, kind: str, role: str = "output") -> None:
        self.lines += ["", f"{role + ' ' if role else ''}{kind} {name}(x: u32, y: u32)"]
        self.lower.append(Rel(name, kind))

    def extend(self, body: list[str], head: str = "y") -> str:
        """Maybe a join with a set or multiset on ``head``, a negation, a filter; the
        head's second variable."""
        if self.chance(0.5):
            other = self.pick(("relation", "multiset"))
            body.append(f"{other.name}({head}, z)")
            head = "z"
        if self.chance(0.4):
            neg = self.pick(("relation", "multiset"))
            body.append(f"not {neg.name}(x, {self.rng.choice(('_', head))})")
        if self.chance(0.3):
            body.append(self.rng.choice(FILTERS).replace("y", head))
        return head

    # -- strata --------------------------------------------------------------------------
    def multiset(self) -> str:
        name = self.name("D")
        rules = []
        for _ in range(self.rng.choice((1, 1, 2))):
            body = [f"{self.pick(('relation', 'multiset')).name}(x, y)"]
            y = self.extend(body)
            rules.append(f"{name}(x, {y}) :- {', '.join(body)}.")
        self.declare(name, "multiset")
        self.lines += rules
        return "multiset"

    def stream(self) -> str:
        name = self.name("T")
        body = [f"{self.pick(('stream',)).name}(x, y)"]
        y = self.extend(body)
        self.declare(name, "stream")
        self.lines.append(f"{name}(x, {y}) :- {', '.join(body)}.")
        return "stream"

    def from_bag(self) -> str:
        name = self.name("R")
        source = self.pick(("multiset", "stream"))
        atom = f"{source.name}'(x, y)" if source.kind == "stream" else f"{source.name}(x, y)"
        body = [atom]
        y = self.extend(body)
        self.declare(name, "relation")
        self.lines.append(f"{name}(x, {y}) :- {', '.join(body)}.")
        return "set"

    def group(self) -> str:
        name = self.name("G")
        source = self.pick(("relation", "multiset", "stream"))
        agg = self.rng.choice(("wsum", "wcount"))
        self.declare(name, "stream" if source.kind == "stream" else "relation")
        self.lines.append(f"{name}(x, n) :- {source.name}(x, y), "
                          f"var n = y.group_by(x).{agg}().")
        return "group"

    def delay(self) -> str:
        name = self.name("L")
        source = self.rng.choice(self.lower)
        self.declare(name, source.kind)
        self.lines.append(f"{name}(x, y) :- {source.name}-{self.rng.choice((1, 1, 2))}(x, y).")
        return "delay"

    def fold(self) -> str:
        """A running total of a stream: DDlog's fold, through ``A-1``."""
        fold, total = self.name("F"), self.name("A")
        stream = self.pick(("stream",))
        self.declare(fold, "relation", role="")
        self.lines += [f"{fold}(x, y) :- {stream.name}'(x, y).",
                       f"{fold}(x, y) :- {total}-1(x, y)."]
        self.declare(total, "relation")
        self.lines.append(f"{total}(x, n) :- {fold}(x, y), var n = y.group_by(x).wsum().")
        return "fold"

    def program(self) -> GeneratedBags:
        makers = (self.multiset, self.multiset, self.stream, self.from_bag, self.group,
                  self.group, self.delay, self.fold)
        kinds = [self.rng.choice(makers)() for _ in range(self.rng.randint(2, self.strata))]
        return GeneratedBags("\n".join(self.lines) + "\n", list(self.lower), kinds)


def generate(seed: int, strata: int = 5) -> GeneratedBags:
    """The program of ``seed``, with at most ``strata`` derived strata."""
    return _Generator(seed, strata).program()


def self_test(seeds: int, strata: int = 5) -> list[str]:
    """Compile the programs of ``seeds`` seeds; the failures (seed and error)."""
    from dl2sql.compiler import compile_source

    failures = []
    for seed in range(seeds):
        g = generate(seed, strata)
        try:
            compile_source(g.text)
        except Exception as e:  # noqa: BLE001 (every failure is reported)
            failures.append(f"seed {seed}: {e}\n{g.text}")
    return failures


if __name__ == "__main__":
    problems = self_test(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
    print("\n\n".join(problems) or "all compiled")
