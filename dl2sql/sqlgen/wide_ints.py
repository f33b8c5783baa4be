"""SQL for the values of wide integer types in each representation
(:mod:`dl2sql.types.wide_ints`): literals, the value of a DECIMAL, and decimal text in
and out, all native SQL on both engines (text work is for printing and reading
inputs, never arithmetic).

:func:`representation` gives the one for a type environment: :class:`Pairs` (WIDE,
(num, big) pairs) or :class:`Decimals` (NARROW, plain DECIMAL(38,0), where a value
beyond 38 digits fails the query with :data:`dl2sql.types.wide_ints.OVERFLOW`). SQL
generation asks it whatever differs between the two."""
from __future__ import annotations

from sqlglot import exp

from dl2sql.sqlgen.trees import cast, dot, struct
from dl2sql.types import wide_ints as w
from dl2sql.types.model import NARROW, TypeEnv

DECIMAL = exp.DataType.build("DECIMAL(38, 0)")
STRING = exp.DataType.build("STRING")
# the pattern of the decimal text read (text_values.INTEGER, already checked): the
# sign and leading zeros go, a zero keeps one digit
_SIGN_AND_ZEROS = "^ *[+-]?0*"


def _text(s: str) -> exp.Literal:
    return exp.Literal.string(s)


def _number(v: int) -> exp.Expression:
    lit = exp.Literal.number(abs(v))
    return cast(exp.Neg(this=lit) if v < 0 else lit, DECIMAL.copy())


def literal(v: int) -> exp.Expression:
    """The stored pair of the constant ``v``."""
    num, big = w.encode(v)
    return struct([(w.NUM, _number(num)), (w.BIG, _text(big))])


def of_decimal(e: exp.Expression) -> exp.Expression:
    """The pair of ``e``, an integer expression whose value is small (|e| < CAP)."""
    return struct([(w.NUM, cast(e, DECIMAL.copy())), (w.BIG, _text(""))])


def num(x: exp.Expression) -> exp.Expression:
    """The ``num`` part of pair ``x``: the value when it is small."""
    return dot(x, w.NUM)


def _digits_of_key(x: exp.Expression) -> exp.Expression:
    return exp.Substring(this=dot(x, w.BIG), start=exp.Literal.number(w.LENGTH + 1))


def _translate(e: exp.Expression) -> exp.Expression:
    return exp.Translate(this=e, from_=_text(w.DIGITS), to=_text(w.COMPLEMENT))


def to_text(x: exp.Expression) -> exp.Expression:
    """The decimal text of pair ``x``, as DDlog prints it (``-`` for negatives)."""
    negative = exp.DPipe(this=_text("-"), expression=_translate(_digits_of_key(x.copy())),
                         safe=True)
    return exp.Case(ifs=[
        exp.If(this=exp.EQ(this=dot(x.copy(), w.BIG), expression=_text("")),
               true=cast(num(x.copy()), STRING.copy())),
        exp.If(this=exp.GT(this=num(x.copy()), expression=exp.Literal.number(0)),
               true=_digits_of_key(x.copy()))], default=negative)


class Text:
    """The parts of decimal text ``e`` (matching ``text_values.INTEGER``) that reading
    it needs: its sign and its digits without leading zeros."""

    def __init__(self, e: exp.Expression):
        self.e = e
        stripped = exp.RegexpReplace(this=e.copy(), expression=_text(_SIGN_AND_ZEROS),
                                     replacement=_text(""))
        self.digits_raw = exp.Trim(this=stripped)

    def negative(self) -> exp.Expression:
        return exp.Like(this=exp.Trim(this=self.e.copy()), expression=_text("-%"))

    def digits(self) -> exp.Expression:
        """The magnitude's digits, ``0`` for zero."""
        raw = self.digits_raw
        return exp.Case(ifs=[exp.If(this=exp.EQ(this=raw.copy(), expression=_text("")),
                                    true=_text("0"))], default=raw.copy())

    def length(self) -> exp.Expression:
        return exp.Length(this=self.digits())

    def signed(self) -> exp.Expression:
        """The value's text without leading zeros (``-`` before a negative one)."""
        return exp.Case(ifs=[exp.If(this=self.negative(), true=exp.DPipe(
            this=_text("-"), expression=self.digits(), safe=True))], default=self.digits())

    def at_most(self, bound: int) -> exp.Expression:
        """TRUE where the magnitude is at most ``bound`` (≥ 0): fewer digits, or as
        many and not after it as text."""
        text = str(bound)
        n = exp.Literal.number(len(text))
        return exp.or_(exp.LT(this=self.length(), expression=n),
                       exp.and_(exp.EQ(this=self.length(), expression=n.copy()),
                                exp.LTE(this=self.digits(), expression=_text(text))))

    def in_range(self, low: int, high: int) -> exp.Expression:
        """TRUE where the value is within ``low..high`` (low ≤ 0 ≤ high)."""
        return exp.Case(ifs=[exp.If(this=self.negative(), true=self.at_most(-low))],
                        default=self.at_most(high))

    def pair(self) -> exp.Expression:
        """The stored pair of the text's value."""
        count = exp.Pad(this=cast(self.length(), STRING.copy()),
                        expression=exp.Literal.number(w.LENGTH),
                        fill_pattern=_text("0"), is_left=True)
        key = exp.DPipe(this=count, expression=self.digits(), safe=True)
        return exp.Case(ifs=[
            exp.If(this=exp.Not(this=self.at_most(w.CAP - 1)), true=exp.Case(ifs=[
                exp.If(this=self.negative(), true=struct([(w.NUM, _number(-w.CAP)),
                                                          (w.BIG, _translate(key))]))],
                default=struct([(w.NUM, _number(w.CAP)), (w.BIG, key.copy())])))],
            default=of_decimal(self.signed()))


class Pairs:
    """WIDE: each value a (num, big) pair (:mod:`dl2sql.types.wide_ints`)."""

    narrow = False

    def literal(self, v: int) -> exp.Expression:
        """The stored form of the constant ``v``."""
        return literal(v)

    def of_decimal(self, e: exp.Expression) -> exp.Expression:
        """The stored form of ``e``, a DECIMAL whose value is small (|e| < CAP)."""
        return of_decimal(e)

    def num(self, x: exp.Expression) -> exp.Expression:
        """The DECIMAL of stored value ``x``, where it is small."""
        return num(x)

    def to_text(self, x: exp.Expression) -> exp.Expression:
        """The decimal text of stored value ``x``, as DDlog prints it."""
        return to_text(x)

    def of_text(self, text: Text) -> exp.Expression:
        """The stored form of the value of decimal text ``text`` (checked already)."""
        return text.pair()


class Decimals:
    """NARROW: each value a DECIMAL(38,0); one that needs more digits fails the query
    with ``dialect``'s failure (:data:`~dl2sql.types.wide_ints.OVERFLOW`)."""

    narrow = True

    def __init__(self, dialect):
        self.dialect = dialect

    def overflow(self, where: str = "") -> exp.Expression:
        """The failure of a value that needs more than 38 digits (``where``: in which
        rule or input, for the message)."""
        return self.dialect.fail(exp.Literal.string(f"{w.OVERFLOW}{where}"))

    def literal(self, v: int) -> exp.Expression:
        """The DECIMAL of the constant ``v``, or the failure where it has no room."""
        return _number(v) if w.fits_narrow(v) else self.overflow(" (a constant)")

    def of_decimal(self, e: exp.Expression) -> exp.Expression:
        """``e``, a DECIMAL within 38 digits, as stored: itself."""
        return cast(e, DECIMAL.copy())

    def num(self, x: exp.Expression) -> exp.Expression:
        """The DECIMAL of stored value ``x``: itself."""
        return x

    def to_text(self, x: exp.Expression) -> exp.Expression:
        """The decimal text of stored value ``x``."""
        return cast(x, STRING.copy())

    def of_text(self, text: Text) -> exp.Expression:
        """The DECIMAL of decimal text ``text`` (checked already), or the failure
        where it has more than 38 digits."""
        return exp.Case(ifs=[exp.If(this=exp.Not(this=text.at_most(w.CAP)),
                                    true=self.overflow(" (an input value)"))],
                        default=cast(text.signed(), DECIMAL.copy()))


def representation(env: TypeEnv, dialect) -> Pairs | Decimals:
    """How SQL of ``dialect`` stores wide integers in ``env``'s representation."""
    return Decimals(dialect) if env.integers == NARROW else Pairs()
