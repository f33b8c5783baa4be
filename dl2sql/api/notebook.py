"""The ``%%datalog`` cell magic: a notebook cell that is a DDlog program.

    %load_ext dl2sql

    %%datalog --input Edge=edges --output reach
    input relation Edge(src: u32, dst: u32)
    output relation Reach(src: u32, dst: u32)
    Reach(s, d) :- Edge(s, d).
    Reach(s, d) :- Reach(s, m), Edge(m, d).

The cell is compiled under the file name ``<cell>``, run on Spark (the active session)
or DuckDB, and the dict of output relations is stored in the user's namespace. Errors
in the program or its inputs are printed like the command line prints them, located
in the cell, without a Python traceback. See ``docs/notebook.md``.
"""
from __future__ import annotations

import re
import sys

from IPython.core.magic import Magics, cell_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring

from dl2sql.api.program import Program
from dl2sql.compiler import compile_source
from dl2sql.diagnostics import CompileError, InputError, RuntimeFailure, user_error_text
from dl2sql.io.duckdb_frames import is_spark_frame

# The file name diagnostics show for the cell: `<cell>:3:5: error: ...`.
CELL_FILE = "<cell>"

_EXTERN = re.compile(r"\bextern\s+function\s+(?:[A-Za-z_][\w:]*::)?([A-Za-z_]\w*)")


@magics_class
class DatalogMagics(Magics):
    """Holds the ``%%datalog`` magic (IPython registers magics by class)."""

    @magic_arguments()
    @argument("--engine", choices=("spark", "duckdb"), default="spark",
              help="where to run: the active SparkSession (default) or in-memory DuckDB")
    @argument("--input", dest="inputs", action="append", default=[], metavar="REL=NAME",
              help="bind input relation REL to the variable NAME (a Spark or pandas "
                   "DataFrame, a DuckDB relation, a list of tuples) or, if there is no "
                   "such variable, to the catalog table or file path NAME; repeatable")
    @argument("--output", default="_datalog", metavar="VAR",
              help="variable that receives the dict of outputs (default: _datalog)")
    @argument("--show", type=int, default=20, metavar="N",
              help="rows shown per output relation (default: 20)")
    @argument("--quiet", action="store_true", help="show nothing; only store the outputs")
    @cell_magic
    def datalog(self, line: str, cell: str):
        """Compile the cell as a DDlog program, run it and store its outputs (a dict:
        relation name -> DataFrame on Spark, DuckDB relation on DuckDB) in the
        ``--output`` variable; shows each output unless ``--quiet``. Returns None."""
        args = parse_argstring(self.datalog, line)
        return run_cell(self.shell, args, cell)


def run_cell(shell, args, cell: str) -> None:
    """Run ``cell`` with the parsed magic arguments ``args`` in ``shell``'s namespace.

    Errors of the program or of its inputs (:class:`~dl2sql.diagnostics.CompileError`,
    :class:`~dl2sql.diagnostics.InputError`,
    :class:`~dl2sql.diagnostics.RuntimeFailure`) are printed to stderr and the output
    variable is left as it was: a traceback through dl2sql's internals says nothing
    about the user's program."""
    ns = shell.user_ns
    try:
        program = compile_cell(cell, ns)
        # the engine's own session or connection: on Spark the notebook's active
        # session (else one of dl2sql's), on DuckDB a new database for each cell, whose
        # outputs stay readable as long as the user holds them
        inputs = dict(_input(spec, ns) for spec in args.inputs)
        outputs = program.run(inputs=inputs, engine=args.engine)
    except (CompileError, InputError, RuntimeFailure) as e:
        print(user_error_text(e), file=sys.stderr)
        return
    ns[args.output] = outputs
    if not args.quiet:
        show_outputs(outputs, args.show)


def compile_cell(cell: str, ns: dict):
    """The cell compiled as a :class:`~dl2sql.api.Program` under the name ``<cell>``.

    ``extern function``s declared in the cell are bound to the callables of the same
    name in the namespace ``ns`` (only those: a user's variable must not replace a
    function of dl2sql's standard library)."""
    # dl2sql.compile() names every text "<source>"; compile_source takes the name
    compiled = compile_source(cell, CELL_FILE)
    externs = {name: ns[name] for name in _EXTERN.findall(cell)
               if callable(ns.get(name))}
    return Program(compiled, externs)


def _input(spec: str, ns: dict):
    """``REL=NAME`` as (REL, the variable NAME's value, else the string NAME)."""
    rel, sep, name = spec.partition("=")
    rel, name = rel.strip(), name.strip()
    if not sep or not rel or not name:
        raise InputError(f"--input {spec!r}: expected REL=NAME")
    if name.isidentifier() and name in ns:
        return rel, ns[name]
    return rel, name  # a catalog table or a file path, as Program.run reads them


def show_outputs(outputs: dict, n: int) -> None:
    """Print each output relation's name, its number of rows and its first ``n`` rows."""
    for rel, frame in outputs.items():
        if is_spark_frame(frame):
            count = frame.count()
            print(f"{rel}: {count} row{'s' if count != 1 else ''}")
            if n > 0 and count:
                frame.show(n, truncate=False)
        else:  # a DuckDB relation
            count = frame.aggregate("count(*)").fetchall()[0][0]
            print(f"{rel}: {count} row{'s' if count != 1 else ''}")
            if n > 0 and count:
                # max_rows: DuckDB's table display elides rows past its own default
                frame.limit(n).show(max_rows=n)


def load_ipython_extension(ipython) -> None:
    """Register the ``%%datalog`` magic (``%load_ext dl2sql``)."""
    ipython.register_magics(DatalogMagics)
