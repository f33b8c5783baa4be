"""How DDlog values are laid out in SQL storage, described without SQL.

Shared by SQL generation (:mod:`dl2sql.sqlgen.types` turns it into SQL types) and the
runtime (:mod:`dl2sql.runtime.convert` turns values into rows), which Spark's Python
workers import, so this module needs nothing but :mod:`dl2sql.types.model`.
"""
from __future__ import annotations

from dataclasses import dataclass

from dl2sql.types.model import (ANY, INTERN, SIZE_FIRST_SETS, VEC, TBit, TNamed, TSigned, TString,
                                TTuple, Type, TypeEnv, unwrapped)


@dataclass(frozen=True)
class ExternStorage:
    """How the values of an extern type of dl2sql's bundled library are kept: as values
    of the plain type ``type`` (DDlog converts them to and from records of that type,
    so they also print, order and read from ``.dat`` files as that type), with DDlog's
    ``default()`` ``default``. With ``hex_digits``, the integer is stored in SQL as
    that many lower-case hex digits (text orders like the numbers; a fixed width
    that needs none of the wide integers' machinery, :mod:`dl2sql.types.wide_ints`). ``reader`` names the library function
    (from the plain value to a ``Result``) that a value read from a record goes
    through, as DDlog's ``FromRecord`` parses it. ``record`` is the type of DDlog's
    record form when it is not ``type`` (a ``time::Date`` is a number of days but its
    record is a string): ``.dat`` values of type ``record`` go through ``reader``, and
    values print through :data:`dl2sql.runtime.extern_types.PRINTED`."""

    type: Type
    default: object
    hex_digits: int = 0
    reader: str | None = None
    record: Type | None = None

    def to_sql(self, v):
        """The SQL form of a value (the integer as text when ``hex_digits``)."""
        return f"{v:0{self.hex_digits}x}" if self.hex_digits else v

    def from_sql(self, v):
        """The value of a SQL form made by :meth:`to_sql`."""
        return int(v, 16) if self.hex_digits else v


EXTERN_STORAGE = {
    "uuid::Uuid": ExternStorage(TBit(128), 0, hex_digits=32),  # the big-endian value
    "url::Url": ExternStorage(TString(), "http://127.0.0.1/", reader="url::url_parse"),
    # a compiled regex is its pattern, a set its patterns
    "regex::Regex": ExternStorage(TString(), "", reader="regex::try_regex"),
    "regex::RegexSet": ExternStorage(TNamed(VEC, (TString(),)), (),
                                     reader="regex::try_regex_set"),
    # std::net's addresses, as their u32 / u128 (DDlog's record form, and their order)
    "net::ipv4::Ipv4Addr": ExternStorage(TBit(32), 0),
    "net::ipv6::Ipv6Addr": ExternStorage(TBit(128), 0, hex_digits=32),
    # chrono's values, in forms whose order is chrono's (runtime/extern_types.py); the
    # defaults are midnight, 0000-01-01 (-719_528 days from 1970-01-01), and that date
    # at midnight in UTC
    "time::Time": ExternStorage(TTuple((TBit(32), TBit(32))), (0, 0), reader="time::string2time",
                                record=TString()),  # (second of the day, nanoseconds)
    "time::Date": ExternStorage(TSigned(32), -719_528, reader="time::string2date",
                                record=TString()),  # days since 1970-01-01
    # UTC (days, second of the day, nanoseconds) and the offset east of UTC in seconds
    "time::TzDateTime": ExternStorage(TTuple((TSigned(32), TBit(32), TBit(32), TSigned(32))),
                                      (-719_528, 0, 0, 0),
                                      reader="time::tz_datetime_parse_from_rfc3339",
                                      record=TString()),
}


def extern_storage(t: Type) -> ExternStorage | None:
    """The storage of ``t`` when it is one of :data:`EXTERN_STORAGE`'s extern types."""
    return EXTERN_STORAGE.get(t.name) if isinstance(t, TNamed) else None


def extern_stored_in(t: Type, env: TypeEnv, _seen: frozenset = frozenset()) -> Type | None:
    """An extern type of :data:`EXTERN_STORAGE` that values of ``t`` contain, if any."""
    if extern_storage(t) is not None:
        return t
    if isinstance(t, TTuple):
        inner = t.elems
    elif isinstance(t, TNamed) and t not in _seen:
        inner = t.args
        if t.name in env.defs and not env.defs[t.name].extern:
            inner += tuple(ft for c in env.ctors(t) for _, ft in c.fields)
        _seen = _seen | {t}
    else:
        return None
    return next((found for e in inner
                 if (found := extern_stored_in(e, env, _seen)) is not None), None)


def is_decimal(t: Type) -> bool:
    """True when integers of type ``t`` are stored as DECIMAL(38,0): ``bit<64>``, which
    BIGINT cannot hold. Wider ones are (num, big) pairs (:mod:`dl2sql.types.wide_ints`)."""
    return isinstance(t, TBit) and t.width == 64


@dataclass(frozen=True)
class StructSlot:
    """One SQL struct field: its name, DDlog type, and what it holds."""

    name: str
    type: Type
    ctor: str | None  # the constructor whose field this is (None for tag / tuples)
    field: str | None


def struct_slots(t: Type, env: TypeEnv) -> tuple[StructSlot, ...] | None:
    """The SQL struct fields of ``t``, or None when ``t`` is not stored as a STRUCT."""
    t = unwrapped(t)
    if isinstance(t, TTuple):
        if not t.elems:
            return None
        return tuple(StructSlot(f"_{i}", e, None, None) for i, e in enumerate(t.elems))
    if isinstance(t, TNamed) and t.name in env.defs and not env.defs[t.name].extern:
        ctors = env.ctors(t)
        slots = []
        if len(ctors) > 1:
            slots.append(StructSlot("tag", TSigned(32), None, None))
        elif not ctors[0].fields:
            return None
        for c in ctors:
            prefix = f"{c.short_name}_" if len(ctors) > 1 else ""
            slots += [StructSlot(prefix + n, ft, c.name, n) for n, ft in c.fields]
        return tuple(slots)
    return None


def is_recursive(t: Type, env: TypeEnv) -> bool:
    """True when values of ``t`` have no finite SQL type: they may contain values of
    their own type (through ``Ref``), or ``t`` is ``Any`` (a value of any type). Such
    values are stored as canonical text and live only inside the interpreter; a
    collection or struct of ``Any`` values is stored natively, around that text."""
    return (isinstance(t, TNamed) and t.name == ANY) or _contains_itself(t, env, frozenset())


def _contains_itself(t: Type, env: TypeEnv, seen: frozenset) -> bool:
    if isinstance(t, TTuple):
        return any(_contains_itself(e, env, seen) for e in t.elems)
    if not isinstance(t, TNamed):
        return False
    if t in seen:
        return True
    seen = seen | {t}
    if any(_contains_itself(a, env, seen) for a in t.args):
        return True
    if t.name in env.defs and not env.defs[t.name].extern:
        return any(_contains_itself(ft, env, seen) for c in env.ctors(t) for _, ft in c.fields)
    return False


def has_own_order(t: Type, env: TypeEnv, _seen: frozenset = frozenset()) -> bool:
    """True when SQL's order of ``t``'s stored form is not DDlog's order: values that
    contain a ``HashSet`` or ``Set64``, which compare by size first where SQL compares
    arrays element by element, or an interned string, which DDlog orders by its hash
    (:mod:`dl2sql.runtime.order`). Sorting or comparing them needs the runtime's order
    (recursive types are compared in Python already)."""
    if isinstance(t, TTuple):
        return any(has_own_order(e, env, _seen) for e in t.elems)
    if not isinstance(t, TNamed) or t in _seen or is_recursive(t, env):
        return False
    if t.name in SIZE_FIRST_SETS or (t.name == INTERN and isinstance(t.args[0], TString)):
        return True
    seen = _seen | {t}
    if any(has_own_order(a, env, seen) for a in t.args):
        return True
    if t.name in env.defs and not env.defs[t.name].extern:
        return any(has_own_order(ft, env, seen) for c in env.ctors(t) for _, ft in c.fields)
    return False
