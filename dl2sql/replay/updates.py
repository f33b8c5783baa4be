"""Updates of a replayed input relation's stored values: DDlog's ``modify`` (a value
patched by a mutator) and the weights of a stream or multiset."""
from __future__ import annotations

from dl2sql.replay.dat_parser import DatError, UValue
from dl2sql.replay.dat_values import convert
from dl2sql.runtime.order import sort_key
from dl2sql.runtime.printing import format_value
from dl2sql.runtime.values import Record
from dl2sql.types.model import SET_KINDS, TRANSPARENT, MAP, VEC, TNamed, Type, TypeEnv


def apply_weight(info, store: dict, op: str, value, env: TypeEnv) -> None:
    """An update of a stream or multiset held in ``store`` (sort key -> (value,
    weight)): insert adds one to the value's weight, delete takes one away."""
    if op not in ("insert", "delete"):
        raise DatError(f"`{op}` is not defined for {info.kind} {info.name}")
    k = sort_key(info.record_type, value, env)
    v, w = store.get(k, (value, 0))
    w += 1 if op == "insert" else -1
    if w < 0:
        # upstream gives the value weight -1; rows stored one per unit of weight
        # cannot hold that
        raise DatError(f"deleting {format_value(info.record_type, value, env)}, which "
                       f"{info.name} does not hold: negative weights are not supported")
    if w:
        store[k] = (v, w)
    else:
        del store[k]


def weight_changes(now: dict, before: dict, stream: bool) -> tuple[list, list]:
    """The values a stream's or multiset's store (sort key -> (value, weight)) gained
    and lost since ``before``, once per unit of weight. A stream's are its rows of this
    transaction (the previous ones go by themselves)."""
    if stream:
        return [v for v, w in now.values() for _ in range(w)], []
    added, removed = [], []
    for k in now.keys() | before.keys():
        v, w = now.get(k) or before[k]
        change = w - before.get(k, (v, 0))[1] if k in now else -w
        (added if change > 0 else removed).extend([v] * abs(change))
    return added, removed


def mutate(t: Type, old, u: UValue, env: TypeEnv):
    """``old`` patched by the mutator ``u``, following upstream's derived ``Mutator``:
    struct fields given by name are patched recursively, sets toggle the listed
    elements, maps insert/patch/delete (value ``()``) by key, a union value with a
    different constructor is replaced, everything else is overwritten (a serialized
    value, ``@json"..."``, too: it is a whole value, not a mutator)."""
    if u.kind == "serialized":
        return convert(t, u, env)
    if isinstance(t, TNamed):
        if t.name in SET_KINDS:  # every set kind's mutator toggles elements
            et = t.args[0]
            cur = {sort_key(et, e, env): e for e in old}
            for e in convert(t, u, env):
                k = sort_key(et, e, env)
                if k in cur:
                    del cur[k]
                else:
                    cur[k] = e
            return tuple(cur.values())
        if t.name == MAP:
            kt, vt = t.args
            cur = {sort_key(kt, k, env): (k, v) for k, v in old}
            for item in (u.items if u.kind == "array" else (u,)):
                if item.kind != "tuple" or len(item.items) != 2:
                    raise DatError(f"map entry `{item}` is not a (key, value) pair")
                k = convert(kt, item.items[0], env)
                hk, uv = sort_key(kt, k, env), item.items[1]
                if hk not in cur:
                    cur[hk] = (k, convert(vt, uv, env))
                elif uv.kind == "tuple" and not uv.items:
                    del cur[hk]
                else:
                    cur[hk] = (k, mutate(vt, cur[hk][1], uv, env))
            return tuple(cur.values())
        if t.name in TRANSPARENT:
            return mutate(t.args[0], old, u, env)
        defn = env.defs.get(t.name)
        if t.name != VEC and defn is not None and defn.ctors and isinstance(old, Record):
            return _mutate_record(t, old, u, env)
    return convert(t, u, env)


def _mutate_record(t: TNamed, old: Record, u: UValue, env: TypeEnv) -> Record:
    ctors = env.ctors(t)
    ctor = ctors[env.ctor_index(t, old.ctor)]
    # A struct ignores the mutator's constructor name (`_{...}` is customary); a union
    # value is patched only when the names agree and replaced otherwise.
    if len(ctors) > 1 and u.kind == "struct" and u.value != old.ctor:
        return convert(t, u, env)
    if u.kind != "struct":
        raise DatError(f"cannot modify a {ctor.name} value with `{u}`: not a struct")
    fields = list(old.fields)
    if u.named is not None:
        index = {n: i for i, (n, _) in enumerate(ctor.fields)}
        for fname, fv in u.named:
            if fname not in index:
                raise DatError(f"constructor {ctor.name} has no field `{fname}`")
            i = index[fname]
            fields[i] = mutate(ctor.fields[i][1], fields[i], fv, env)
    elif len(u.items) == len(fields):
        fields = [mutate(ft, fv, e, env) for (_, ft), fv, e in zip(ctor.fields, fields, u.items)]
    else:
        raise DatError(f"cannot modify {ctor.name}: expected {len(fields)} positional "
                       f"field(s), got {len(u.items)}")
    return Record(old.ctor, tuple(fields))
