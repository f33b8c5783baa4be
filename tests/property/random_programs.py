"""Random stratified DDlog programs over u32 columns, for the property tests of
incremental maintenance (tests/property/test_incremental_random.py).

A program has one or two binary input relations (``E``, ``F``) and a few derived
relations, every one an ``output relation``, built stratum by stratum: plain rules,
linear and non-linear recursion, two mutually recursive relations, and ``group_by``
aggregation. Stratification holds by construction: a rule reads only relations made
before its own stratum, except the positive atoms of the stratum's recursive
relations; negation and aggregation only ever read lower strata.

Some programs (``tagged``) also have an input ``T(c0: u32, c1: Shape)`` of a tagged
union, read by a last stratum whose rules match on it and feed the result to a negation,
a join and a ``group_by`` (Spark once planned a semi or anti join on nested fields
wrongly, see dl2sql.runner.spark_types.relaxed). The rest of such a program is the one
of the same seed without it.

Run as a script to compile the programs of many seeds (the generator's self-test):
``python tests/property/random_programs.py 200``.
"""
from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field

DOMAIN = 8  # values 0..7: small, so that joins and negations find matches
INPUTS = ("E", "F")
# filters between two bound variables (`==` rarely: it keeps an eighth of the rows)
COMPARISONS = ("!=", "!=", "<", "<=", ">", "==")
# aggregates whose result is a u32 (count_distinct is a u64, cast back so that every
# column stays u32 and later strata can join on it)
AGGREGATES = ("count_distinct() as u32", "min()", "max()", "sum_of(|c| c)")
# the tagged union of input T's second column; TAGS are Tag's texts
TAGGED = "T"
SHAPE = "typedef Shape = Tag{t: string, r: u32} | Pt{p: u32}"
TAGS = ("a", "b")
# a u32 in the domain from a Shape `s` (and the row's other column `x`)
MATCHES = ("match (s) {Tag{_, r} -> r, Pt{p} -> p}",
           "match (s) {Tag{\"a\", r} -> r, Tag{_, r} -> (r + 1) % 8, Pt{_} -> x}",
           "match (s) {Pt{p} -> p, _ -> x}")


@dataclass(frozen=True)
class Rel:
    """A relation of the program: its name and arity (all columns u32)."""

    name: str
    arity: int


@dataclass
class Generated:
    """A generated program: its text, the arities of its input relations, its derived
    relations and the kinds of its strata ("plain", "linear", ...), in order."""

    text: str
    inputs: dict[str, int]
    derived: list[str] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    # the input relations whose second column is a Shape (TAGGED, where there is one)
    tagged: tuple = ()


class _Rule:
    """The body of one rule under construction: its items, the variables bound by
    positive atoms so far (in binding order) and the relations of those atoms."""

    def __init__(self) -> None:
        self.items: list[str] = []
        self.bound: list[str] = []
        self.positive: set[str] = set()

    def fresh(self) -> str:
        name = f"v{len(self.bound)}"
        self.bound.append(name)
        return name


class _Generator:
    def __init__(self, seed: int, strata: int):
        self.rng, self.strata = random.Random(seed), strata
        self.lines: list[str] = ["import group", ""]
        self.lower: list[Rel] = []  # relations of the strata made so far
        self.count = 0

    # -- small choices -----------------------------------------------------------------
    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def const(self) -> str:
        return str(self.rng.randrange(DOMAIN))

    def pick(self) -> Rel:
        """A relation of a lower stratum, an input one half of the time: derived
        relations are sparser, and bodies made of them alone are often empty."""
        inputs = [r for r in self.lower if r.name in INPUTS]
        return self.rng.choice(inputs if self.chance(0.5) else self.lower)

    def new_rel(self, arity: int) -> Rel:
        rel = Rel(f"D{self.count}", arity)
        self.count += 1
        cols = ", ".join(f"c{i}: u32" for i in range(arity))
        self.lines.append(f"output relation {rel.name}({cols})")
        return rel

    # -- bodies --------------------------------------------------------------------------
    def atom(self, rule: _Rule, rel: Rel, join: bool) -> None:
        """A positive atom; with ``join``, one of its arguments is a bound variable, so
        that it joins with what comes before."""
        # only variables of earlier items: this compiler rejects a variable bound and
        # used again in the same atom (`E(x, x)`: "write a separate condition")
        before = list(rule.bound)
        joined = self.rng.randrange(rel.arity) if join and before else -1
        args = []
        for i in range(rel.arity):
            if i == joined or (before and self.chance(0.15)):
                args.append(self.rng.choice(before))  # a join
            elif self.chance(0.1 if rel.name in INPUTS else 0.03):
                args.append(self.const())  # rarely in sparse derived relations
            elif self.chance(0.1):
                args.append("_")
            else:
                args.append(rule.fresh())
        rule.items.append(f"{rel.name}({', '.join(args)})")
        rule.positive.add(rel.name)

    def extras(self, rule: _Rule) -> None:
        """Maybe a filter and maybe a negated atom over the variables bound so far."""
        if rule.bound and self.chance(0.3):
            left, right = self.rng.choice(rule.bound), self.rng.choice(rule.bound)
            if self.chance(0.4):  # against a constant: loose, so that rows remain
                op = self.rng.choice(("!=", "<", ">"))
                right = {"!=": self.const(), "<": str(self.rng.randint(3, DOMAIN - 1)),
                         ">": str(self.rng.randint(0, 4))}[op]
                rule.items.append(f"{left} {op} {right}")
            elif left != right:
                rule.items.append(f"{left} {self.rng.choice(COMPARISONS)} {right}")
        # not a relation of the body's positive atoms: `E(x, y), not E(x, y)` and the
        # like would make most such bodies empty
        negatable = [r for r in self.lower if r.name not in rule.positive]
        if negatable and self.chance(0.2):
            rel = self.rng.choice(negatable)
            args = []
            for _ in range(rel.arity):
                r = self.rng.random()
                # mostly bound variables: `not R(_, _)` would empty most bodies
                args.append(self.rng.choice(rule.bound) if rule.bound and r < 0.75
                            else "_" if r < 0.88 else self.const())
            rule.items.append(f"not {rel.name}({', '.join(args)})")

    def body(self, first: list[Rel], atoms: int) -> _Rule:
        """A body starting with the atoms ``first`` (the recursive ones) followed by
        ``atoms`` positive atoms of lower strata, with filters and negations between;
        at least one variable is bound."""
        rule = _Rule()
        positives = list(first) + [self.pick() for _ in range(atoms)]
        for i, rel in enumerate(positives):
            self.atom(rule, rel, join=i > 0 and self.chance(0.8))
            self.extras(rule)
        if not rule.bound:  # only constants and wildcards: bind one more variable
            self.atom(rule, self.pick(), join=False)
            if not rule.bound:
                rule.items.append(f"E({rule.fresh()}, _)")  # E is always an input
        return rule

    def head_args(self, rule: _Rule, arity: int) -> list[str]:
        """Head arguments: bound variables mostly, sometimes a constant or (values kept
        in the domain) a little arithmetic."""
        out = []
        for _ in range(arity):
            r = self.rng.random()
            var = self.rng.choice(rule.bound)
            if r < 0.08:
                out.append(self.const())
            elif r < 0.14:  # modulo: recursion through it still ends
                out.append(f"({var} + 1) % {DOMAIN}")
            else:
                out.append(var)
        return out

    def rule(self, head: Rel, first: list[Rel] = (), atoms: int | None = None) -> None:
        if atoms is None:
            atoms = self.rng.choice((1, 1, 2, 2, 3)) - (1 if first else 0)
        rule = self.body(list(first), atoms)
        head_args = self.head_args(rule, head.arity)
        self.lines.append(f"{head.name}({', '.join(head_args)}) :- "
                          f"{', '.join(rule.items)}.")

    # -- strata --------------------------------------------------------------------------
    def plain(self) -> list[Rel]:
        rel = self.new_rel(self.rng.choice((1, 2, 2)))
        for _ in range(self.rng.choice((1, 1, 2, 3))):
            self.rule(rel)
        if self.chance(0.1):  # a fact-like rule with no positive atom
            neg = self.rng.choice(self.lower)
            args = ", ".join("_" for _ in range(neg.arity))
            consts = ", ".join(self.const() for _ in range(rel.arity))
            self.lines.append(f"{rel.name}({consts}) :- not {neg.name}({args}).")
        return [rel]

    def linear(self) -> list[Rel]:
        rel = self.new_rel(self.rng.choice((1, 2, 2, 2)))
        self.rule(rel)
        if rel.arity == 2 and self.chance(0.5):
            # the classic closure shape, so that the closure plans are exercised too
            step = self.rng.choice([r for r in self.lower if r.arity == 2])  # E at least
            self.lines.append(f"{rel.name}(x, z) :- {rel.name}(x, y), {step.name}(y, z).")
        else:
            self.rule(rel, [rel], self.rng.choice((1, 1, 2)))
        return [rel]

    def nonlinear(self) -> list[Rel]:
        rel = self.new_rel(2)
        self.rule(rel)
        if self.chance(0.5):
            self.lines.append(f"{rel.name}(x, z) :- {rel.name}(x, y), {rel.name}(y, z).")
        else:
            self.rule(rel, [rel, rel], 0)
        if self.chance(0.4):
            self.rule(rel, [rel], 1)
        return [rel]

    def mutual(self) -> list[Rel]:
        a, b = self.new_rel(2), self.new_rel(self.rng.choice((1, 2)))
        self.rule(a)
        if self.chance(0.3):
            self.rule(b)
        self.rule(b, [a], self.rng.choice((0, 1)))
        self.rule(a, [b], 1)
        return [a, b]

    def aggregate(self) -> list[Rel]:
        keyed = self.chance(0.75)
        rule = self.body([], self.rng.choice((1, 1, 2)))
        key = self.rng.choice(rule.bound) if keyed else "()"
        # a value other than the key when there is one: a key's own count is always 1
        value = self.rng.choice([v for v in rule.bound if v != key] or rule.bound)
        if self.chance(0.15) and len(rule.bound) > 1:  # a tuple: count distinct pairs
            value, agg = f"({value}, {self.rng.choice(rule.bound)})", AGGREGATES[0]
        else:
            agg = self.rng.choice(AGGREGATES)
        if self.chance(0.2):  # the aggregate in a filter, not in the head
            rel = self.new_rel(1)
            head = key if keyed else self.const()
            rule.items.append(f"{value}.group_by({key}).count_distinct() > "
                              f"{self.rng.randrange(1, 3)}")
        else:
            rel = self.new_rel(2 if keyed else 1)
            rule.items.append(f"var n = {value}.group_by({key}).{agg}")
            head = f"{key}, n" if keyed else "n"
        self.lines.append(f"{rel.name}({head}) :- {', '.join(rule.items)}.")
        return [rel]

    def matched(self) -> list[Rel]:
        """The last stratum of a tagged program: rules reading T whose match on its
        Shape feeds a negation, a join and an aggregation, and a relation of Shapes
        copied from T and built from E (its table's pieces are stored by different
        queries), matched the same way under a negation."""
        rng = self.rng
        pairs = [r for r in self.lower if r.arity == 2]  # E at least
        anti, semi, counted = self.new_rel(2), self.new_rel(2), self.new_rel(2)
        match = rng.choice(MATCHES)
        self.lines.append(f"{anti.name}(x, v) :- {TAGGED}(x, s), var v = {match}, "
                          f"not {rng.choice(pairs).name}(x, v).")
        # the atom binds nothing new: a semi join on the match's result
        self.lines.append(f"{semi.name}(x, v) :- {TAGGED}(x, s), var v = {rng.choice(MATCHES)}, "
                          f"{rng.choice(pairs).name}(v, _).")
        self.lines.append(f"{counted.name}(v, n) :- {TAGGED}(x, s), var v = {match}, "
                          f"var n = x.group_by(v).count_distinct() as u32.")
        shapes = Rel(f"D{self.count}", 2)
        self.count += 1
        self.lines.append(f"output relation {shapes.name}(c0: u32, c1: Shape)")
        self.lines.append(f"{shapes.name}(x, s) :- {TAGGED}(x, s).")
        self.lines.append(f"{shapes.name}(x, Tag{{\"{rng.choice(TAGS)}\", y}}) :- E(x, y).")
        kept = self.new_rel(2)
        self.lines.append(f"{kept.name}(x, v) :- {shapes.name}(x, s), var v = {match}, "
                          f"not {rng.choice(pairs).name}(v, x).")
        return [anti, semi, counted, kept]

    def program(self, tagged: bool = False) -> Generated:
        inputs = {"E": 2} if self.chance(0.5) else {"E": 2, "F": 2}
        for name, arity in inputs.items():
            cols = ", ".join(f"c{i}: u32" for i in range(arity))
            self.lines.append(f"input relation {name}({cols})")
            self.lower.append(Rel(name, arity))
        kinds = [self.plain, self.linear, self.nonlinear, self.mutual, self.aggregate]
        weights = [3, 3, 2, 2, 3]
        made_kinds = []
        for _ in range(self.rng.randint(min(3, self.strata), self.strata)):
            self.lines.append("")
            kind = self.rng.choices(kinds, weights)[0]
            made_kinds.append(kind.__name__)
            self.lower.extend(kind())  # visible (and negatable) from the next stratum on
        if tagged:  # last, so that the strata before are those of the untagged program
            self.lines[1:1] = [SHAPE, f"input relation {TAGGED}(c0: u32, c1: Shape)"]
            inputs = {**inputs, TAGGED: 2}
            self.lines.append("")
            made_kinds.append("matched")
            self.lower.extend(self.matched())
        derived = [r.name for r in self.lower if r.name not in inputs]
        return Generated("\n".join(self.lines) + "\n", inputs, derived, made_kinds,
                         (TAGGED,) if tagged else ())


def generate(seed: int, strata: int = 6, tagged: bool | None = None) -> Generated:
    """The random stratified program of ``seed`` (the same text for the same seed,
    ``strata`` and ``tagged``), with at most ``strata`` derived strata; with ``tagged``
    also input T and a last stratum matching on it (None: a third of the seeds)."""
    if tagged is None:
        tagged = random.Random(f"tagged {seed}").random() < 1 / 3
    return _Generator(seed, strata).program(tagged)


def self_test(seeds: int = 200, strata: int = 6,
              tagged: bool | None = None) -> list[tuple[int, str]]:
    """Compile the programs of seeds ``0..seeds-1``; the (seed, error) of those that do
    not compile (none is expected)."""
    import dl2sql

    failures = []
    for seed in range(seeds):
        try:
            dl2sql.compile(generate(seed, strata, tagged).text)
        except Exception as e:  # noqa: BLE001 - any failure is a generator bug to report
            failures.append((seed, f"{type(e).__name__}: {e}"))
    return failures


if __name__ == "__main__":
    # `random_programs.py [N]`: compile seeds 0..N-1; `random_programs.py --show SEED`
    if sys.argv[1:2] == ["--show"]:
        print(generate(int(sys.argv[2])).text, end="")
        sys.exit(0)
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    bad = self_test(n)
    for seed, error in bad:
        print(f"seed {seed}: {error}\n{generate(seed).text}")
    print(f"{n - len(bad)}/{n} programs compile")
    sys.exit(1 if bad else 0)
