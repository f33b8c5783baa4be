"""Untyped ``.dat`` values (:class:`~dl2sql.replay.dat_parser.UValue`) to runtime values
of an expected type, reproducing the conversions of DDlog's ``FromRecord`` (missing named
fields default, a non-list value where a ``Vec`` is expected is a one-element vector,
``Option`` accepts a bare value as ``Some``...); ``@json"..."`` values are read with the
``json`` library's deserializer."""
from __future__ import annotations

from dl2sql.replay.dat_parser import DatError, UValue
from dl2sql.runtime.defaults import default_value
from dl2sql.runtime.order import normalize, to_f32
from dl2sql.runtime.values import Record
from dl2sql.udfs.json_de import from_node
from dl2sql.udfs.json_text import JsonError, parse
from dl2sql.types.model import (MAP, OPTION, SET, SET_KINDS, TRANSPARENT, VEC, TBigInt, TBit, TBool,
                                TDouble, TFloat, TNamed, TSigned, TString, TTuple, Type,
                                TypeEnv)
from dl2sql.types.storage import extern_storage
from dl2sql.udfs.std import STD


def convert(t: Type, u: UValue, env: TypeEnv):
    """The runtime value of type ``t`` written as ``u``; raises :class:`DatError`."""
    if u.kind == "serialized":
        return deserialize(t, u, env)
    if isinstance(t, TBool):
        if u.kind == "bool":
            return u.value
        raise _mismatch(t, u)
    if isinstance(t, (TBit, TSigned, TBigInt)):
        if u.kind != "int":
            raise _mismatch(t, u)
        n = u.value
        if isinstance(t, TBit) and not 0 <= n < (1 << t.width):
            raise DatError(f"value {n} does not fit in {t}")
        if isinstance(t, TSigned) and not -(1 << (t.width - 1)) <= n < (1 << (t.width - 1)):
            raise DatError(f"value {n} does not fit in {t}")
        return n
    if isinstance(t, (TFloat, TDouble)):
        if u.kind not in ("float", "int"):
            raise _mismatch(t, u)
        x = float(u.value)
        return to_f32(x) if isinstance(t, TFloat) else x
    if isinstance(t, TString):
        if u.kind == "string":
            return u.value
        raise _mismatch(t, u)
    if isinstance(t, TTuple):
        if u.kind != "tuple" or len(u.items) != len(t.elems):
            raise DatError(f"expected a {len(t.elems)}-tuple of type {t}, got `{u}`")
        return tuple(convert(et, e, env) for et, e in zip(t.elems, u.items))
    if isinstance(t, TNamed):
        return _convert_named(t, u, env)
    raise DatError(f"values of type {t} cannot be written in a .dat file")


def deserialize(t: Type, u: UValue, env: TypeEnv):
    """``@json"..."``: the value of type ``t`` the JSON text denotes, read as DDlog's
    generated Rust code reads it (serde's derives; :mod:`dl2sql.udfs.json_de`)."""
    fmt, data = u.value
    if fmt != "json":
        raise DatError(f"serialized values in the `{fmt}` format are not supported "
                       f"(only `@json`)")
    try:
        return from_node(env, t, parse(data), True)
    except JsonError as e:
        raise DatError(f"cannot read a value of type {t} from JSON: {e.render(data)}")


def _mismatch(t: Type, u: UValue) -> DatError:
    return DatError(f"expected a value of type {t}, got `{u}`")


def _convert_named(t: TNamed, u: UValue, env: TypeEnv):
    if t.name in (VEC, MAP) or t.name in SET_KINDS:
        # Upstream's Vec::from_record wraps a non-array value into a 1-element vector;
        # sets and maps are built from that vector (a HashSet from the single value).
        items = u.items if u.kind == "array" else (u,)
        if t.name == VEC:
            return tuple(convert(t.args[0], e, env) for e in items)
        if t.name in SET_KINDS:
            return normalize(t, [convert(t.args[0], e, env) for e in items], env)
        pair = TTuple((t.args[0], t.args[1]))
        return normalize(t, [convert(pair, e, env) for e in items], env)
    if t.name in TRANSPARENT:
        return convert(t.args[0], u, env)
    stored = extern_storage(t)
    if stored is not None:
        value = convert(stored.record or stored.type, u, env)
        if stored.reader is None:
            return value
        read = STD[stored.reader](value)
        if read.ctor != "ddlog_std::Ok":
            raise DatError(f"invalid {t} `{u}`: {read.fields[0]}")
        return read.fields[0]
    defn = env.defs.get(t.name)
    if defn is None or not defn.ctors:
        raise DatError(f"values of extern type {t} cannot be written in a .dat file")
    ctors = env.ctors(t)
    if t.name == OPTION and u.kind != "struct":
        # ddlog_std's custom FromRecord: `[]` is None, `[x]` is Some, and any other
        # value is taken as the payload of Some.
        none, some = ctors[0], ctors[1]
        if u.kind == "array":
            if len(u.items) > 1:
                raise DatError(f"cannot read {t} from a list of {len(u.items)} elements")
            if not u.items:
                return Record(none.name, ())
            u = u.items[0]
        return Record(some.name, (convert(some.fields[0][1], u, env),))
    if u.kind != "struct":
        raise _mismatch(t, u)
    ctor = next((c for c in ctors if c.name == u.value), None)
    if ctor is None:
        names = ", ".join(c.name for c in ctors)
        raise DatError(f"unknown constructor {u.value} of type {t} (expected one of: {names})")
    nf = len(ctor.fields)
    if u.named is None:
        if len(u.items) != nf:
            raise DatError(f"constructor {ctor.name} has {nf} field(s) but {len(u.items)} "
                           f"value(s) were given in `{u}`")
        return Record(ctor.name, tuple(convert(ft, e, env)
                                       for (_, ft), e in zip(ctor.fields, u.items)))
    if len(ctors) > 1 and len(u.named) != nf:
        # Upstream's derived FromRecord for enums only accepts named arguments when
        # every field is given; only single-constructor structs may omit fields.
        raise DatError(f"constructor {ctor.name} of the multi-constructor type {t} needs "
                       f"all {nf} field(s) in named form, got {len(u.named)}")
    given = {}
    for fname, fv in u.named:
        given.setdefault(fname, fv)  # upstream's arg_extract takes the first occurrence
    known = {n for n, _ in ctor.fields}
    unknown = [n for n in given if n not in known]
    if unknown:
        raise DatError(f"constructor {ctor.name} has no field `{unknown[0]}`")
    return Record(ctor.name, tuple(convert(ft, given[fn], env) if fn in given
                                   else default_value(ft, env) for fn, ft in ctor.fields))


def untyped_guess(u: UValue):
    """A runtime value for ``u`` without knowing its type (used to look up primary
    keys when the key type is unknown): numbers, strings, bools, tuples, lists and
    positional constructors map directly."""
    if u.kind in ("bool", "int", "float", "string"):
        return u.value
    if u.kind in ("tuple", "array"):
        return tuple(untyped_guess(e) for e in u.items)
    if u.kind == "struct" and u.named is None:
        return Record(u.value, tuple(untyped_guess(e) for e in u.items))
    raise DatError(f"cannot interpret key `{u}` without the key's type")
