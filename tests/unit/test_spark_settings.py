"""The static settings a session a user builds needs for dl2sql's speed
(``dl2sql.spark_settings``): those dl2sql's own sessions start with, which Spark
refuses to change once a session runs."""
from __future__ import annotations

import dl2sql
from dl2sql.runner.spark_session import session_settings


def test_a_users_session_gets_the_static_settings_dl2sqls_own_sessions_have():
    given = dl2sql.spark_settings()
    assert given == {"spark.sql.codegen.cache.maxEntries": "2000"}
    own = session_settings("local[2]")
    assert all(own[key] == value for key, value in given.items())
    given["spark.sql.codegen.cache.maxEntries"] = "1"  # a copy: the next call is whole
    assert dl2sql.spark_settings()["spark.sql.codegen.cache.maxEntries"] == "2000"
