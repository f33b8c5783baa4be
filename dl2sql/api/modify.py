"""DDlog's ``modify`` for maintained programs: a stored row of a primary-key input
relation changed in some of its fields.

``live.apply(modify={"User": [(key, {"name": "ann", "active": False})]})`` reads the
stored rows of the keys given (one query on the engine, before the transaction), sets
the fields named in each, and sends the result as part of the transaction: a deletion
of the old key and an insertion of the new row. So a modification whose new key
another stored row holds is refused by the same check as an insertion, and a key no
row holds is refused before anything runs, as DDlog refuses both. Modifications apply
in order: a second one of the same key sees the first's row.
"""
from __future__ import annotations

from dl2sql.diagnostics import InputError
from dl2sql.plan.nodes import Table
from dl2sql.runtime.convert import record_to_row, row_to_record, to_sql
from dl2sql.runtime.keys import key_function
from dl2sql.runtime.order import sort_key
from dl2sql.runtime.printing import format_value
from dl2sql.runtime.values import Record
from dl2sql.types.model import TNamed


def modifications(compiled, updater, rel: str, given) -> tuple[list, list]:
    """``(keys, rows)``: the normalised keys whose stored rows ``given`` (a list of
    ``(key, {field: value})`` pairs, Python values as ``apply`` takes them) modifies,
    and the rows that replace them. Raises :class:`InputError` for a key no row holds
    and for a field the relation's records do not have."""
    info, env = compiled.relations[rel], compiled.type_env
    layout = compiled.layouts[rel]
    key_type, key_of = info.key_type, key_function(info, env)
    pairs = []
    for i, item in enumerate(given):
        if not (isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], dict)):
            raise InputError(f"`modify` of relation `{rel}`: item {i} is {item!r}; give "
                             f"(key, {{field: new value, ...}}) pairs")
        pairs.append(item)
    wanted = {sort_key(key_type, k, env): k for k, _ in pairs}
    found = updater.lookup(rel, [(to_sql(key_type, k, env),) for k in wanted.values()])
    rows = {}
    for row in found:
        record = row_to_record(layout, row, env)
        rows[sort_key(key_type, key_of(record), env)] = record
    old_keys, changed = [], {}
    for key, fields in pairs:
        k = sort_key(key_type, key, env)
        record = changed.pop(k, None)  # made by an earlier modification, or stored
        if record is None:
            record = rows.pop(k, None)
            if record is None:
                raise InputError(f"`modify` of relation `{rel}`: no row has the key "
                                 f"{format_value(key_type, key, env)}")
            old_keys.append(to_sql(key_type, key, env))
        new = _with_fields(rel, record, layout.record_type, fields, env)
        nk = sort_key(key_type, key_of(new), env)
        if nk in changed or nk in rows:  # stored rows of other keys: the insertion's check
            raise InputError(f"`modify` of relation `{rel}`: the new key "
                             f"{format_value(key_type, key_of(new), env)} belongs to "
                             f"another row")
        changed[nk] = new
    return ([(k,) for k in old_keys],
            [record_to_row(layout, r, env) for r in changed.values()])


def _with_fields(rel: str, record, record_type, fields: dict, env) -> Record:
    """``record`` (a value of ``record_type``) with the fields named in ``fields`` set
    to their values."""
    if not isinstance(record, Record) or not isinstance(record_type, TNamed):
        raise InputError(f"`modify` of relation `{rel}`: its records have no fields "
                         f"(give the whole new row to `insert_or_update`)")
    ctor = next(c for c in env.ctors(record_type) if c.name == record.ctor)
    names = [n for n, _ in ctor.fields]
    unknown = [f for f in fields if f not in names]
    if unknown:
        raise InputError(f"`modify` of relation `{rel}`: {record.ctor} has no field "
                         f"{', '.join(f'`{f}`' for f in unknown)} (its fields: "
                         f"{', '.join(names) or 'none'})")
    return Record(record.ctor, tuple(fields.get(n, v) for n, v in zip(names, record.fields)))


class Joined:
    """A loader of the rows a caller inserts followed by more rows (those a
    ``modify`` makes): the caller's loader fills the table, the rows are appended."""

    def __init__(self, first, rows: list[tuple]):
        self.first, self.rows = first, rows

    def load_into(self, runner, table: Table) -> None:
        """Load both into ``table``."""
        self.first.load_into(runner, table)
        extra = Table(f"{table.name}__modified", table.columns, (), table.relation)
        runner.load(extra, self.rows)
        try:
            runner.append(table, extra)
        finally:
            runner.drop(extra)
