"""The ``dl2sql`` command (:mod:`dl2sql.cli.main`); ``dl2sql run`` is
:mod:`dl2sql.cli.run_command`."""
from dl2sql.cli.main import load_externs, main, make_runner

__all__ = ["load_externs", "main", "make_runner"]
