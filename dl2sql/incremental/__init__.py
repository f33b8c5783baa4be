"""Incremental maintenance: the update plan that turns a transaction's input changes
into every relation's changes (build.py), its methods per stratum (variants, closure,
bags) and their execution on a runner (execute.py); docs/incremental.md."""
