"""Interpreter for DDlog's CLI command language, printing what ``<prog>_cli`` prints.

A commit sends the changes of the input relations to a maintained program, which
returns the changes of the outputs (:mod:`dl2sql.api.replaying`); given a program that
only evaluates, it evaluates the program on the full contents of the input relations
and diffs every output relation against the previous commit. The observable behaviour follows upstream's CLI
(``rust/template/src/main.rs``, ``cmd_parser/lib.rs``, ``valmap.rs``):
* updates terminated by ``,`` are buffered; ``;`` or any other command flushes them;
* a command following a failed flush still runs before the error is reported (upstream
  evaluates ``apply_updates(..).and(<command>)`` eagerly);
* ``dump;`` prints the relations of the output store, i.e. those that ever changed or
  were named by ``dump R;`` (which creates an empty entry);
* errors end the run; stdout keeps what was printed before.
"""
from __future__ import annotations

import os
from typing import TextIO

from dl2sql.diagnostics import suggest
from dl2sql.replay.dat_parser import Command, DatError, Incomplete, parse_commands
from dl2sql.replay.dat_values import convert, untyped_guess
from dl2sql.replay.updates import apply_weight, mutate, weight_changes
from dl2sql.runtime.keys import key_function
from dl2sql.runtime.ops import ddlog_equal
from dl2sql.runtime.order import normalize, sort_key
from dl2sql.runtime.printing import format_value
from dl2sql.types.model import TTuple, TypeEnv
from dl2sql.types.transactional import BAG_KINDS
from dl2sql.udfs import interpreter
from dl2sql.udfs.json_de import calling



class _Stop(Exception):
    """``exit;``: end the run successfully."""


def replay(program, text: str, out: TextIO, err: TextIO, *, init_snapshot: bool = True,
           filename: str = "<stdin>") -> int:
    """Run the ``.dat`` commands in ``text`` against ``program``; return the exit code.

    ``program`` provides ``type_env``, ``relations`` (qualified name → RelationInfo) and
    ``evaluate(inputs)`` returning the contents of every non-input relation. Output
    goes to ``out`` byte-for-byte as DDlog prints it; errors go to ``err`` as
    ``file:line: error: message`` and make the result 1.
    """
    base = os.path.dirname(filename) if filename and not filename.startswith("<") else "."
    commands, parse_error = parse_commands(text, base or ".")
    session = _Session(program, out)
    try:
        session.begin(init_snapshot)
        for cmd in commands:
            session.run(cmd)
    except _Stop:
        return 0
    except DatError as e:
        _report(err, filename, text, e, "error", e.message)
        return 1
    if isinstance(parse_error, Incomplete):
        # Upstream waits for more input and then reaches EOF: the fragment is dropped.
        _report(err, filename, text, parse_error, "warning",
                f"ignoring incomplete command at end of input ({parse_error.message})")
    elif parse_error is not None:
        _report(err, filename, text, parse_error, "error",
                f"invalid input: {parse_error.message}")
        return 1
    return 0


def _report(err: TextIO, filename: str, text: str, where: DatError, severity: str,
            message: str) -> None:
    """``file:line:col: severity: message``, then the line quoted with a caret under
    the command (or token) at fault, as the compiler reports a program's errors."""
    line, col = where.line, where.col
    place = filename + (f":{line}" if line else "") + (f":{col}" if line and col else "")
    out = [f"{place}: {severity}: {message}"]
    lines = text.splitlines() if line and col else []
    if 1 <= line <= len(lines):
        src = lines[line - 1].replace("\t", " ")
        width = max(1, min(where.width, len(src) - col + 1))
        out += [src, " " * (col - 1) + "^" + "~" * (width - 1)]
    err.write("\n".join(out) + "\n")
    err.flush()


class _Session:
    def __init__(self, program, out: TextIO):
        self.program = program
        self.env: TypeEnv = program.type_env
        self.rels = program.relations
        self.out = out
        # relations holding earlier states (`R-1`) are filled here, not by updates
        self.delayed = dict(getattr(program, "delayed", {}))
        self.inputs = {n: i for n, i in self.rels.items()
                       if i.role == "input" and n not in self.delayed}
        # streams and multisets: stores map a value's key to (value, weight)
        self.bags = {n for n, i in self.rels.items() if i.kind in BAG_KINDS}
        self.streams = {n for n, i in self.rels.items() if i.kind == "stream"}
        # contents of the relations read delayed, at the last evaluations, newest last
        self.history: list[dict[str, list]] = []
        self.depth = max((d.delay for d in self.delayed.values()), default=0)
        self.key_of = {n: key_function(i, self.env) for n, i in self.inputs.items()
                       if i.key is not None}
        self.outputs = {n: i for n, i in self.rels.items() if i.role == "output"}
        self.committed_in: dict[str, dict] = {n: {} for n in self.inputs}
        self.working_in: dict[str, dict] | None = None  # not None inside a transaction
        self.state: dict[str, dict] = {n: {} for n in self.outputs}
        self.weights: dict[str, dict] = {n: {} for n in self.outputs if n in self.bags}
        # the inputs of the last evaluation (a maintained program gets their changes)
        self.evaluated_in: dict[str, dict] | None = None
        self.touched: set[str] = set()  # relations present in upstream's output store
        self.buffer: list[tuple[Command, object]] = []
        # reading `@json` values may call the program's functions (json's key functions)
        compiled = getattr(program, "program", None)
        self.call = interpreter(self.env, compiled.functions).call if compiled else None

    # ------------------------------------------------------------ driver
    def begin(self, init_snapshot: bool) -> None:
        changes = self._evaluate(0)
        if init_snapshot:
            self._print_changes(changes)

    def run(self, cmd: Command) -> None:
        with calling(self.call):
            self._run(cmd)

    def _run(self, cmd: Command) -> None:
        flush_error = None
        if not cmd.is_update:
            try:
                self._flush()
            except DatError as e:
                flush_error = e
        if cmd.op == "exit":
            raise _Stop()
        try:
            self._execute(cmd)
        except DatError as e:
            e.locate(cmd)
            raise flush_error or e
        if flush_error is not None:
            raise flush_error

    def _execute(self, cmd: Command) -> None:
        op = cmd.op
        if op in ("ignored",):
            return
        if op == "echo":
            self.out.write(cmd.text + "\n")
        elif op == "start":
            if self.working_in is not None:
                raise DatError("transaction already in progress")
            # a stream holds only what this transaction inserts
            self.working_in = {n: {} if n in self.streams else dict(d)
                               for n, d in self.committed_in.items()}
        elif op == "commit":
            if self.working_in is None:
                raise DatError("transaction_commit: no transaction in progress")
            self.committed_in = self.working_in
            self.working_in = None
            changes = self._evaluate(cmd.line)
            if cmd.dump_changes:
                self._print_changes(changes)
        elif op == "rollback":
            if self.working_in is None:
                raise DatError("transaction_rollback: no transaction in progress")
            self.working_in = None
        elif op == "dump":
            self._dump(cmd.relation)
        elif op == "clear":
            self._clear(cmd.relation)
        elif op in ("dump_index", "query_index"):
            self._index(cmd)
        else:
            self.buffer.append((cmd, self._convert_update(cmd)))
            if cmd.last:
                self._flush()

    # ------------------------------------------------------------ output
    def _evaluate(self, line: int) -> dict[str, list]:
        """The outputs' changes since the last evaluation: by applying the inputs'
        changes where the program is maintained, else by evaluating it again."""
        try:
            if not hasattr(self.program, "commit"):
                inputs = {n: self._contents(n, d) for n, d in self.committed_in.items()}
                inputs.update(self._delayed_inputs())
                result = self.program.evaluate(inputs)
                self._remember(inputs, result)
            elif self.evaluated_in is None:
                inputs = {n: self._contents(n, d) for n, d in self.committed_in.items()}
                result = self.program.start(inputs)
            else:
                changes = self._maintain()
        except DatError:
            raise
        except Exception as e:  # the engine's failure must not escape as a traceback
            raise DatError(f"evaluation failed: {e}", line) from None
        maintained = hasattr(self.program, "commit") and self.evaluated_in is not None
        self.evaluated_in = {n: dict(d) for n, d in self.committed_in.items()}
        if maintained:
            return changes
        changes: dict[str, list] = {}
        for name, info in self.outputs.items():
            t = info.record_type
            if name in self.bags:
                self._bag_changes(name, result.get(name, ()), (), changes, contents=True)
                continue
            new = {}
            for v in result.get(name, ()):
                new[sort_key(t, v, self.env)] = v
            old = self.state[name]
            delta = [(k, v, -1) for k, v in old.items() if k not in new]
            delta += [(k, v, +1) for k, v in new.items() if k not in old]
            self._changed(name, delta, changes)
            self.state[name] = new
        return changes

    def _contents(self, name: str, store: dict):
        """The values of an input store: a set, or a list with each value repeated
        as many times as its weight for a stream or multiset."""
        if name in self.bags:
            return [v for v, w in store.values() for _ in range(w)]
        return set(store.values())

    def _delayed_inputs(self) -> dict:
        """The contents of each ``R-N`` relation: R's at the evaluation N commits ago
        (empty before there was one)."""
        out = {}
        for name, d in self.delayed.items():
            past = self.history[-d.delay] if len(self.history) >= d.delay else {}
            out[name] = past.get(d.relation, ())
        return out

    def _remember(self, inputs: dict, result: dict) -> None:
        if not self.delayed:
            return
        # an input's contents with the facts of the program (the evaluation gives them)
        now = {d.relation: result[d.relation] if d.relation in result else
               inputs.get(d.relation, ()) for d in self.delayed.values()}
        self.history = (self.history + [now])[-self.depth:]

    def _bag_changes(self, name: str, added, removed, changes: dict,
                     contents: bool = False) -> None:
        """Changes of a stream or multiset output from the values ``added`` and
        ``removed`` (once per unit of weight), or from its new contents (``added``,
        with ``contents``). A multiset's are the differences of weights; a stream's
        are its whole contents (it starts every transaction empty, and upstream prints
        no retractions for it), added up in the store that ``dump`` prints, as
        upstream's output store does."""
        t = self.outputs[name].record_type
        new: dict = {}
        for values, sign in ((added, 1), (removed, -1)):
            for v in values:
                k = sort_key(t, v, self.env)
                new[k] = (v, new.get(k, (v, 0))[1] + sign)
        weights, state = self.weights[name], self.state[name]
        if name in self.streams or not contents:
            delta = [(k, v, w) for k, (v, w) in new.items() if w]
        else:
            delta = [(k, v, w - weights.get(k, 0)) for k, (v, w) in new.items()]
            delta += [(k, state[k], -w) for k, w in weights.items() if k not in new]
            delta = [d for d in delta if d[2] != 0]
        for k, v, w in delta:
            total = weights.get(k, 0) + w
            if total:
                weights[k], state[k] = total, v
            else:
                weights.pop(k, None)
                state.pop(k, None)
        self._changed(name, delta, changes)

    def _maintain(self) -> dict[str, list]:
        """Send the committed inputs' changes; the outputs' changes come back."""
        inserted, deleted = {}, {}
        for name, now in self.committed_in.items():
            # the stores keep a value object until an update replaces it, so values are
            # compared by identity: an equal value put back is deleted and inserted,
            # which changes nothing
            before = self.evaluated_in[name]
            if name in self.bags:
                added, removed = weight_changes(now, before, name in self.streams)
            else:
                added = [v for k, v in now.items() if before.get(k) is not v]
                removed = [v for k, v in before.items() if now.get(k) is not v]
            if added or removed:
                inserted[name], deleted[name] = added, removed
        every = getattr(self.program, "every_commit", False)
        result = self.program.commit(inserted, deleted) if inserted or every else {}
        changes: dict[str, list] = {}
        for name, (added, removed) in result.items():
            if name in self.bags:
                self._bag_changes(name, added, removed, changes)
                continue
            t, state = self.outputs[name].record_type, self.state[name]
            delta = []
            for v in removed:
                k = sort_key(t, v, self.env)
                delta.append((k, state.pop(k), -1))
            for v in added:
                k = sort_key(t, v, self.env)
                state[k] = v
                delta.append((k, v, +1))
            self._changed(name, delta, changes)
        return changes

    def _changed(self, name: str, delta: list, changes: dict) -> None:
        if delta:
            delta.sort(key=lambda d: d[0])
            changes[name] = [(v, w) for _, v, w in delta]
            self.touched.add(name)

    def _print_changes(self, changes: dict[str, list]) -> None:
        w = self.out.write
        for name in sorted(changes):
            t = self.outputs[name].record_type
            w(f"{name}:\n")
            for v, weight in changes[name]:
                w(f"{format_value(t, v, self.env)}: {weight:+d}\n")

    def _dump(self, name) -> None:
        if name is None:
            for rel in sorted(self.touched):
                self.out.write(f"{rel}:\n")
                self._dump_rel(rel)
                self.out.write("\n")
            return
        if name not in self.outputs:
            raise DatError(f"Unknown output relation {name}"
                           + suggest(name, self.outputs))
        self.touched.add(name)  # upstream's get_rel() creates the store entry
        self._dump_rel(name)

    def _dump_rel(self, name: str) -> None:
        t = self.outputs[name].record_type
        rel, weights = self.state[name], self.weights.get(name, {})
        for k in sorted(rel):
            w = weights.get(k, 1)  # upstream shows a weight other than 1 after the value
            shown = format_value(t, rel[k], self.env)
            self.out.write((shown if w == 1 else f"{shown} {w:+d}") + "\n")

    def _index(self, cmd: Command) -> None:
        """``dump_index I;`` prints the records the index covers, ``query_index I(k)``
        those whose key is ``k``; sorted like a dump."""
        indexes = getattr(self.program, "indexes", {})
        index = indexes.get(cmd.relation)
        if index is None:
            raise DatError(f"Unknown index {cmd.relation}" + suggest(cmd.relation, indexes))
        rel = index.relation
        if rel in self.outputs:
            records = self.state[rel].values()
        elif rel in self.inputs:
            records = self.committed_in[rel].values()
            if rel in self.bags:
                records = [v for v, _ in records]
        else:
            raise DatError(f"index {index.name} is over `{rel}`, which is neither an "
                           f"input nor an output relation")
        key = None
        if cmd.op == "query_index":
            types = [t for _, t in index.fields]
            kt = types[0] if len(types) == 1 else TTuple(tuple(types))
            key = convert(kt, cmd.value, self.env)
        interp = interpreter(self.env, {})
        t = self.rels[rel].record_type
        hits = {}
        for v in records:
            scope: dict = {}
            if not interp.match(index.pattern, v, scope):
                continue
            found = tuple(scope[f] for f, _ in index.fields)
            if key is None or ddlog_equal(found[0] if len(found) == 1 else found, key):
                hits[sort_key(t, v, self.env)] = v
        for k in sorted(hits):
            self.out.write(format_value(t, hits[k], self.env) + "\n")

    # ------------------------------------------------------------ updates
    def _relation(self, name: str):
        info = self.rels.get(name)
        if info is None:
            raise DatError(f"Unknown relation {name}" + suggest(name, self.rels))
        return info

    def _key_type(self, info):
        kt = getattr(info, "key_type", None)
        if kt is None:
            kt = getattr(self.program, "key_types", {}).get(info.name)
        return kt

    def _convert_update(self, cmd: Command):
        info = self._relation(cmd.relation)
        if cmd.op in ("delete_key", "modify"):
            if info.name not in self.key_of:
                raise DatError(f"relation {info.name} does not have a primary key")
            kt = self._key_type(info)
            if kt is None:
                return untyped_guess(cmd.value)
            return convert(kt, cmd.value, self.env)
        return convert(info.record_type, cmd.value, self.env)

    def _hkey(self, info, key):
        kt = self._key_type(info)
        return sort_key(kt, key, self.env) if kt is not None else key

    def _flush(self) -> None:
        batch, self.buffer = self.buffer, []
        if not batch:
            return
        if self.working_in is None:
            error = DatError("apply_updates: no transaction in progress")
            error.locate(batch[0][0])
            raise error
        # Upstream sends nothing of a batch that fails part-way.
        saved = {n: dict(d) for n, d in self.working_in.items()}
        for cmd, value in batch:
            try:
                self._apply(cmd, value)
            except DatError as e:
                self.working_in = saved
                e.locate(cmd)
                raise

    def _input(self, name: str):
        info = self._relation(name)
        if info.role != "input" or name in self.delayed:
            raise DatError(f"relation {name} is not an input relation")
        return info, self.working_in[name]

    def _apply(self, cmd: Command, value) -> None:
        info, store = self._input(cmd.relation)
        t, op, env = info.record_type, cmd.op, self.env
        if info.name in self.bags:
            apply_weight(info, store, op, value, self.env)
            return
        if info.name not in self.key_of:
            if op in ("insert_or_update", "delete_key", "modify"):
                raise DatError(f"`{op}` needs a primary key, and relation {info.name} "
                               f"does not have one")
            k = sort_key(t, value, env)
            if op == "insert":
                store.setdefault(k, value)
            else:
                store.pop(k, None)
            return
        if op in ("delete_key", "modify"):
            k = self._hkey(info, value)
            old = store.get(k)
            if old is None:
                what = "DeleteKey" if op == "delete_key" else "Modify"
                raise DatError(f"{what}: key not found '{_fmt_key(self, info, value)}'")
            del store[k]
            if op == "modify":
                new = normalize(t, mutate(t, old, cmd.mutator, env), env)
                nk = self._hkey(info, self.key_of[info.name](new))
                if nk in store:
                    raise DatError("Modify: the new value's key belongs to another record")
                store[nk] = new
            return
        k = self._hkey(info, self.key_of[info.name](value))
        old = store.get(k)
        shown = format_value(t, value, env)
        if op == "insert":
            if old is not None:
                raise DatError(f"Insert: duplicate key in value '{shown}'")
            store[k] = value
        elif op == "insert_or_update":
            store[k] = value
        else:  # delete
            if old is None:
                raise DatError(f"DeleteValue: key not found for value '{shown}'")
            if sort_key(t, old, env) != sort_key(t, value, env):
                raise DatError(f"DeleteValue: key exists but with a different value. Value "
                               f"specified: '{shown}'; existing value: "
                               f"'{format_value(t, old, env)}'")
            del store[k]

    def _clear(self, name: str) -> None:
        info = self.rels.get(name)
        if info is None or info.role != "input":
            raise DatError(f"Unknown input relation {name}" + suggest(name, self.inputs))
        if self.working_in is None:
            raise DatError("clear_relation: no transaction in progress")
        if info.kind == "stream":
            raise DatError("clear_relation: operation not supported for streams")
        self.working_in[name] = {}


def _fmt_key(session: _Session, info, key) -> str:
    kt = session._key_type(info)
    return format_value(kt, key, session.env) if kt is not None else repr(key)
