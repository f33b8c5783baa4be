"""Python implementations of what SQL cannot express, shared by both engines: the
``ddlog_std`` builtins (:mod:`udfs.builtins`) that dl2sql's interpreter calls when a
plan falls back to a Python UDF."""
