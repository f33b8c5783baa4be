"""What runs where the data is: dl2sql's interpreter behind a Python UDF, and the
conversion of values between the interpreter and the engines' rows.

A Spark job runs these on the cluster's Python workers, which have nothing installed
but Python and PySpark unless the user installed more: dl2sql ships its own files to
them (:mod:`dl2sql.runner.spark_python`), and everything a UDF carries imports with
the standard library and dl2sql's own light modules alone (the type model, the typed
IR, values, the interpreter, ``udfs``), never the compiler, sqlglot or lark.
``tests/unit/test_runtime_imports.py`` holds that line.
"""
