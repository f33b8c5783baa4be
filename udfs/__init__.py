"""Python implementations of what SQL cannot express, shared by both engines: the
``ddlog_std`` builtins (:mod:`udfs.std`, table ``STD``) that dl2sql's interpreter
(:mod:`dl2sql.interp`) calls when a plan falls back to a Python UDF."""
