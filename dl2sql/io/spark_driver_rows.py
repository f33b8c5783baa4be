"""DataFrames of the driver's own rows, counted for the driver policy
(:mod:`dl2sql.plan.placement`).

Spark has no estimate of the size of a DataFrame made by ``createDataFrame`` of a
Python list: its plan reads an RDD (a collection the driver parallelized), whose
statistics are unknown. Such a frame's rows are in the driver's memory already, so
counting them is cheap (one job, no shuffle: 0.1 s for a thousand rows and 0.24 s for
200,000 on a local session), and it is what lets a small run whose inputs are such
frames be evaluated on the driver instead of by dozens of Spark jobs.

Only frames whose rows cannot outgrow their source are counted: plans of projections,
filters, distincts, limits, sorts, repartitions and unions over collections
parallelized from the driver and local relations. A join or an explode could make far
more rows than the driver gave (and the oracle would collect them), and an RDD read
from files or a table is not on the driver: those keep a run on Spark, as before.
"""
from __future__ import annotations

from typing import Optional

# logical operators whose output rows are at most their inputs' (a union: their sum)
_ROWWISE = frozenset({
    "Project", "Filter", "Aggregate", "Deduplicate", "Distinct", "GlobalLimit",
    "LocalLimit", "Sort", "Repartition", "RepartitionByExpression",
    "Union", "SubqueryAlias", "ResolvedHint", "Offset"})
# leaves whose rows the driver holds: a local relation's are in the plan itself
_DRIVER_LEAVES = frozenset({"LocalRelation", "OneRowRelation"})


def _seq(scala_seq) -> list:
    return [scala_seq.apply(i) for i in range(scala_seq.size())]


def _parallelized(rdd) -> bool:
    """Whether every root of ``rdd``'s lineage is a collection the driver parallelized."""
    pending, seen = [rdd], 0
    while pending:
        node = pending.pop()
        seen += 1
        if seen > 64:  # a long lineage is no list of Python rows
            return False
        parents = [dep.rdd() for dep in _seq(node.dependencies())]
        if not parents and node.getClass().getSimpleName() != "ParallelCollectionRDD":
            return False
        pending.extend(parents)
    return True


class SparkDriverRows:
    """A classic session's DataFrames of the driver's own rows, as the driver policy
    asks about them (:class:`dl2sql.plan.placement.DriverRows`)."""

    def __init__(self, spark):
        self.spark = spark

    def holds(self, source) -> bool:
        """Whether ``source`` is a classic session's DataFrame whose rows all come from
        the driver and are at most as many as it gave (see the module docstring).
        Reaches into the JVM a few times per plan node; runs no job."""
        jdf = getattr(source, "_jdf", None)
        if jdf is None:
            return False
        try:
            pending = [jdf.queryExecution().optimizedPlan()]
            while pending:
                node = pending.pop()
                name = node.getClass().getSimpleName()
                children = _seq(node.children())
                if children:
                    if name not in _ROWWISE:
                        return False
                    pending.extend(children)
                elif name == "LogicalRDD":
                    if not _parallelized(node.rdd()):
                        return False
                elif name not in _DRIVER_LEAVES:
                    return False
        except Exception:  # a plan this code does not know: not counted
            return False
        return True

    def count(self, sources: list) -> Optional[int]:
        """The rows of ``sources`` (each one it :meth:`holds`) in all, counted by one
        Spark job over the union of their rows; None where Spark fails to count them."""
        try:
            rdds = [s._jdf.queryExecution().toRdd().toJavaRDD() for s in sources]
            if len(rdds) == 1:
                return int(rdds[0].count())
            gateway = self.spark.sparkContext._gateway
            array = gateway.new_array(gateway.jvm.org.apache.spark.api.java.JavaRDD,
                                      len(rdds))
            for i, rdd in enumerate(rdds):
                array[i] = rdd
            return int(self.spark.sparkContext._jsc.union(array).count())
        except Exception:
            return None
