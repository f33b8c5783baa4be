"""The programs and input sizes of the field benchmark (:mod:`benchmarks.field`).

Sizes per engine: the published runs (FlowLog's Table 1: G10K-0.001 and up for tc and
sg, LiveJournal and larger for reach, cc and sssp, httpd/linux/postgresql for CSPA)
take seconds to minutes on 64 threads; here they are scaled down so that a dl2sql
run takes about 0.2-5 s on DuckDB and well under a minute on Spark, both on 2 cores.
``quick`` sizes are for the smoke test and for warming up each variant.

On Spark, cspa is sized to converge in 14 iterations and sssp in 16 rounds: past
about 15 rounds, a loop that checkpoints its state from a join of the previous
checkpoint with rows derived from that same checkpoint gets some 2.5x slower per
round on Spark 4.3 (dl2sql's cspa and the hand-written Bellman-Ford alike, while
their plans and lineages stay small; see benchmarks/field_spark.py).
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

from benchmarks import field_inputs as gen

PROGRAMS_DIR = Path(__file__).resolve().parent / "field_programs"


@dataclasses.dataclass(frozen=True)
class Workload:
    """A program, its outputs, and its inputs' shape per size class."""
    name: str
    outputs: tuple[str, ...]   # the output relations counted (first: compared as sets)
    compare_rows: bool         # also compare the result rows (cc, sssp)
    acyclic: bool              # the input has no cycle (Spark's UNION ALL recursion ends)
    sizes: dict                # "quick" | "duckdb" | "spark" -> size parameters
    shape: str                 # how the input is drawn, with {} for the parameters

    @property
    def file(self) -> Path:
        """The program's DDlog source."""
        return PROGRAMS_DIR / f"{self.name}.dl"

    def inputs(self, size: str) -> dict:
        """The input relations as Python rows, for size class ``size``."""
        return BUILD[self.name](**self.sizes[size])

    def describe(self, size: str) -> str:
        """The input's shape and size, e.g. ``G(2000, 0.002)``."""
        return self.shape.format(**self.sizes[size])


def _graph(n: int, p: float) -> dict:
    return {"Edge": gen.gnp(n, p)}


def _reach(n: int, p: float) -> dict:
    return {"Source": [(0,)], "Edge": gen.gnp(n, p)}


def _cc(n: int, p: float) -> dict:
    return {"Node": [(i,) for i in range(n)], "Edge": gen.undirected(gen.gnp(n, p))}


def _sssp(n: int, p: float) -> dict:
    return {"Source": [(0,)], "Edge": gen.weighted(gen.gnp(n, p))}


def _sg(n: int, trees: int, fanout: int) -> dict:
    return {"Parent": gen.forest(n, trees, fanout)}


def _andersen(n_vars: int) -> dict:
    return gen.andersen(n_vars)


def _cspa(n_vars: int, assigns: int, derefs: int) -> dict:
    return gen.cspa(n_vars, assigns, derefs)


BUILD = {"tc": _graph, "reach": _reach, "cc": _cc, "sssp": _sssp, "sg": _sg,
         "andersen": _andersen, "cspa": _cspa}

WORKLOADS = {w.name: w for w in [
    Workload("tc", ("Path",), False, False,
             {"quick": dict(n=60, p=0.05), "duckdb": dict(n=2000, p=0.002),
              "spark": dict(n=1000, p=0.003)},
             "G({n}, {p}) directed"),
    Workload("sg", ("SG",), False, True,
             {"quick": dict(n=80, trees=2, fanout=3),
              "duckdb": dict(n=20000, trees=10, fanout=4),
              "spark": dict(n=10000, trees=10, fanout=4)},
             "random forest, {n} nodes in {trees} trees, fanout <= {fanout}"),
    Workload("reach", ("Reach",), False, False,
             {"quick": dict(n=300, p=0.01), "duckdb": dict(n=100000, p=0.00005),
              "spark": dict(n=100000, p=0.00005)},
             "G({n}, {p}) directed, source 0"),
    Workload("cc", ("Label",), True, False,
             {"quick": dict(n=200, p=0.02), "duckdb": dict(n=20000, p=0.0002),
              "spark": dict(n=10000, p=0.0004)},
             "G({n}, {p}), both directions"),
    Workload("sssp", ("Dist",), True, False,
             {"quick": dict(n=150, p=0.05), "duckdb": dict(n=20000, p=0.0003),
              "spark": dict(n=5000, p=0.002)},
             "G({n}, {p}) directed, weights 1..100, source 0"),
    Workload("andersen", ("PointsTo",), False, False,
             {"quick": dict(n_vars=40), "duckdb": dict(n_vars=600),
              "spark": dict(n_vars=300)},
             "{n_vars} variables, one statement of each kind per variable"),
    Workload("cspa", ("ValueFlow", "ValueAlias", "MemoryAlias"), False, False,
             {"quick": dict(n_vars=200, assigns=100, derefs=40),
              "duckdb": dict(n_vars=10000, assigns=5000, derefs=2000),
              "spark": dict(n_vars=20000, assigns=8000, derefs=3000)},
             "{n_vars} variables, {assigns} Assign, {derefs} Dereference"),
]}
