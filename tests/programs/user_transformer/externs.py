"""The Degrees transformer on either engine's DataFrames: a Spark DataFrame (groupBy)
or a DuckDB relation (aggregate); the Hidden relation's rows are left out of nodes."""


def Degrees(edges, hidden):
    if hasattr(edges, "groupBy"):  # Spark
        def count(column):
            return (edges.groupBy(column).count()
                    .withColumnRenamed(column, "node").withColumnRenamed("count", "degree"))
        return count("src"), count("dst")

    def count(column):
        return edges.aggregate(f"{column} AS node, count(*) AS degree", column)
    return count("src"), count("dst")
