"""Semantic types of DDlog and the environment of type definitions.

Types are frozen dataclasses. User and library types (including the extern ``Vec``,
``Set``, ``Map``, ``Ref``, ``Group``) are :class:`TNamed` with a fully-qualified name;
their definitions live in a :class:`TypeEnv`. Aliases are expanded when types are built,
so two types are equal exactly when DDlog considers them the same type.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union


def _node(cls):
    return dataclass(frozen=True, slots=True)(cls)


def _type(cls):
    """A type class: a node that also remembers ``spelled``, the alias it was written
    as (``ddlog_std::s64``), if any. Equality and hashing ignore it; only texts that
    must show a type as DDlog shows it (a closure's description) read it."""
    cls.__annotations__["spelled"] = "Optional[str]"
    cls.spelled = field(default=None, compare=False, repr=False, kw_only=True)
    return _node(cls)


@_type
class TBool:
    def __str__(self) -> str:
        return "bool"


@_type
class TString:
    def __str__(self) -> str:
        return "string"


@_type
class TBigInt:
    def __str__(self) -> str:
        return "bigint"


@_type
class TBit:
    width: int

    def __str__(self) -> str:
        return f"bit<{self.width}>"


@_type
class TSigned:
    width: int

    def __str__(self) -> str:
        return f"signed<{self.width}>"


@_type
class TFloat:
    def __str__(self) -> str:
        return "float"


@_type
class TDouble:
    def __str__(self) -> str:
        return "double"


@_type
class TTuple:
    elems: tuple["Type", ...]

    def __str__(self) -> str:
        return "(" + ", ".join(map(str, self.elems)) + ")"


@_type
class TNamed:
    """A struct, tagged union or extern type, by qualified name and type arguments."""

    name: str
    args: tuple["Type", ...] = ()

    def __str__(self) -> str:
        if not self.args:
            return self.name
        return f"{self.name}<{', '.join(map(str, self.args))}>"


@_node
class TVar:
    """A type variable (in generic signatures) or an inference variable (``?N``)."""

    name: str

    def __str__(self) -> str:
        return f"'{self.name}"


@_type
class TFunc:
    params: tuple["Type", ...]
    ret: "Type"
    mutable: tuple[bool, ...] = ()

    def __str__(self) -> str:
        return f"function({', '.join(map(str, self.params))}): {self.ret}"


Type = Union[TBool, TString, TBigInt, TBit, TSigned, TFloat, TDouble, TTuple, TNamed,
             TVar, TFunc]

UNIT = TTuple(())
BOOL = TBool()
STRING = TString()
BIGINT = TBigInt()
FLOAT = TFloat()
DOUBLE = TDouble()

STD = "ddlog_std"
VEC, SET, MAP, REF, GROUP, OPTION, RESULT = (
    f"{STD}::Vec", f"{STD}::Set", f"{STD}::Map", f"{STD}::Ref", f"{STD}::Group",
    f"{STD}::Option", f"{STD}::Result")
INTERN = f"{STD}::Intern"
# The library's other sets: `hashset::HashSet` (the `im` crate's, iterated in hash
# order) and `tinyset::Set64` (iterated in ascending order). Both compare by size
# first, then element by element in iteration order.
HASHSET, SET64 = "hashset::HashSet", "tinyset::Set64"
SET_KINDS = frozenset({SET, HASHSET, SET64})
SIZE_FIRST_SETS = frozenset({HASHSET, SET64})
ANY = f"{STD}::Any"  # holds a value of any type, with that type
# Wrappers whose values are their contents, in SQL and at run time alike.
IOBJ = "intern::IObj"  # the older `intern` library's interned objects
TRANSPARENT = frozenset({REF, INTERN, IOBJ})
# the function that looks inside each wrapper
UNWRAP_FUNCTION = {REF: f"{STD}::deref", INTERN: f"{STD}::ival", IOBJ: "intern::istring_str"}


def unwrapped(t: "Type") -> "Type":
    """``t`` without its ``Ref``/``Intern`` wrappers (how its values are stored)."""
    while isinstance(t, TNamed) and t.name in TRANSPARENT:
        t = t.args[0]
    return t


def is_integer(t: Type) -> bool:
    """bit<N>, signed<N> or bigint."""
    return isinstance(t, (TBit, TSigned, TBigInt))


def is_numeric(t: Type) -> bool:
    """An integer or floating-point type."""
    return is_integer(t) or isinstance(t, (TFloat, TDouble))


@_node
class CtorDef:
    """One constructor of a struct/union type: qualified name, fields in order."""

    name: str
    fields: tuple[tuple[str, Type], ...]

    @property
    def short_name(self) -> str:
        return self.name.rsplit("::", 1)[-1]


@dataclass(frozen=True)
class TypeDefn:
    """The definition of a named type: constructors, or ``extern`` (opaque). ``serde``
    holds its serialization attributes as ``(key, value)`` pairs (see
    :mod:`dl2sql.types.serde_attrs`), read by the ``json`` library.

    ``closures`` is set on the unions that stand for a stored function type
    (:mod:`dl2sql.passes.function_values`): per constructor, the text of its closure,
    which printing shows as DDlog shows a closure."""

    name: str
    params: tuple[str, ...]
    ctors: tuple[CtorDef, ...] = ()
    extern: bool = False
    module: str = ""
    serde: tuple[tuple[str, str], ...] = ()
    closures: tuple[str, ...] = ()


def substitute(t: Type, mapping: dict[str, Type]) -> Type:
    """Replace type variables by name."""
    if isinstance(t, TVar):
        return mapping.get(t.name, t)
    if isinstance(t, TTuple):
        return TTuple(tuple(substitute(e, mapping) for e in t.elems))
    if isinstance(t, TNamed):
        return TNamed(t.name, tuple(substitute(a, mapping) for a in t.args))
    if isinstance(t, TFunc):
        return TFunc(tuple(substitute(p, mapping) for p in t.params),
                     substitute(t.ret, mapping), t.mutable)
    return t


# How values of the wide integer types (``bigint``; ``bit<N>``, ``signed<N>``, N > 64)
# are stored (:mod:`dl2sql.types.wide_ints`): NARROW as DECIMAL(38,0), which holds 38
# digits and computes natively; WIDE as (num, big) pairs, which hold any value.
NARROW, WIDE = "narrow", "wide"


@dataclass
class TypeEnv:
    """All named type definitions of a program and the constructor index, and how the
    values are stored: ``integers`` is the representation of wide integers (NARROW
    or WIDE), the one switch that storage, SQL generation and the conversions of
    values read (:func:`dl2sql.types.wide_ints.is_pair`)."""

    defs: dict[str, TypeDefn] = field(default_factory=dict)
    ctor_owner: dict[str, str] = field(default_factory=dict)  # qualified ctor → type
    integers: str = WIDE

    def add(self, defn: TypeDefn) -> None:
        """Register a type definition and its constructors."""
        self.defs[defn.name] = defn
        for c in defn.ctors:
            self.ctor_owner[c.name] = defn.name

    def ctors(self, t: TNamed) -> tuple[CtorDef, ...]:
        """The constructors of ``t`` with its type arguments substituted."""
        t = unwrapped(t)
        defn = self.defs[t.name]
        if not defn.params:
            return defn.ctors
        mapping = dict(zip(defn.params, t.args))
        return tuple(CtorDef(c.name, tuple((n, substitute(ft, mapping)) for n, ft in c.fields))
                     for c in defn.ctors)

    def ctor_index(self, t: TNamed, ctor: str) -> int:
        """Declaration index of constructor ``ctor`` (qualified) in ``t``."""
        for i, c in enumerate(self.defs[t.name].ctors):
            if c.name == ctor:
                return i
        raise KeyError(ctor)

    def is_extern(self, t: Type) -> bool:
        return isinstance(t, TNamed) and self.defs[t.name].extern


@dataclass(frozen=True)
class RelationInfo:
    """What the runtime needs to know of a relation.

    ``name`` is qualified (main-module relations unqualified); ``role`` is "input",
    "output" or "internal"; ``kind`` "relation", "stream" or "multiset";
    ``record_type`` the type of its records (for ``R(f: T)`` the struct ``R``);
    ``key`` is the typed expression of a primary-key input's key over the record
    (:mod:`dl2sql.runtime.keys` evaluates it);
    ``generated`` marks a relation the compiler made (an aggregation's steps), which
    users see only when they ask for internals.
    """

    name: str
    role: str
    kind: str
    record_type: Type
    key: Optional[object] = None  # a typed expression (dl2sql.types.typed)
    span: object = None
    key_type: Optional[Type] = None  # type of the primary key, when there is one
    source: Optional[str] = None  # `#[source = "db.table"]`: where the API reads it
    generated: bool = False
