"""SQL for integers stored as (num, big) pairs (:mod:`dl2sql.types.wide_ints`):
literals, the pair of a DECIMAL, and decimal text in and out, all native SQL on
both engines (text work is for printing and reading inputs, never arithmetic)."""
from __future__ import annotations

from sqlglot import exp

from dl2sql.sqlgen.trees import cast, dot, struct
from dl2sql.types import wide_ints as w

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
        signed = exp.Case(ifs=[exp.If(this=self.negative(), true=exp.DPipe(
            this=_text("-"), expression=self.digits(), safe=True))], default=self.digits())
        return exp.Case(ifs=[
            exp.If(this=exp.Not(this=self.at_most(w.CAP - 1)), true=exp.Case(ifs=[
                exp.If(this=self.negative(), true=struct([(w.NUM, _number(-w.CAP)),
                                                          (w.BIG, _translate(key))]))],
                default=struct([(w.NUM, _number(w.CAP)), (w.BIG, key.copy())])))],
            default=of_decimal(signed))
