"""Parsing text by a chrono format string (chrono 0.4's ``format::parse`` into
``Parsed``, then ``to_naive_time``/``to_naive_date``/``to_datetime``), with chrono's
error texts; RFC 2822 and RFC 3339 parsing as ``DateTime::parse_from_rfc*`` does.

Results are the values of :mod:`dl2sql.runtime.extern_types`; each function raises
:class:`ParseFailure` whose message is chrono's ``ParseError`` text.
"""
from __future__ import annotations

from typing import Optional

from dl2sql.runtime.extern_types import DAY_SECONDS, NANOS, civil_from_days, date_in_range
from dl2sql.udfs.time_calendar import (from_isoywd, from_ymd, from_yo, iso_week, ordinal,
                                       week_from_monday, week_from_sunday, weekday)
from dl2sql.udfs.time_format import WIDTH, format_items

OUT_OF_RANGE = "input is out of range"
IMPOSSIBLE = "no possible date and time matching input"
NOT_ENOUGH = "input is not enough for unique date and time"
INVALID = "input contains invalid characters"
TOO_SHORT = "premature end of input"
TOO_LONG = "trailing input"
BAD_FORMAT = "bad or unsupported format string"

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH_REST = ("uary", "ruary", "ch", "il", "", "e", "y", "ust", "tember", "ober", "ember",
               "ember")
_DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_DAY_REST = ("day", "sday", "nesday", "rsday", "day", "urday", "day")
# RFC 2822's obsolete zone names, in hours east of UTC
_ZONES = {"gmt": 0, "ut": 0, "edt": -4, "est": -5, "cdt": -5, "cst": -6, "mdt": -6,
          "mst": -7, "pdt": -7, "pst": -8}
_SETTER = {"Year": "year", "IsoYear": "isoyear", "YearDiv100": "year_div_100",
           "YearMod100": "year_mod_100", "IsoYearDiv100": "isoyear_div_100",
           "IsoYearMod100": "isoyear_mod_100", "Month": "month", "Day": "day",
           "WeekFromSun": "week_from_sun", "WeekFromMon": "week_from_mon",
           "IsoWeek": "isoweek", "Ordinal": "ordinal", "Minute": "minute",
           "Second": "second", "Nanosecond": "nanosecond", "Timestamp": "timestamp"}


class ParseFailure(Exception):
    """chrono's ParseError; the message is its Display."""


class Parsed:
    """The fields read so far; setting one twice to different values is IMPOSSIBLE."""

    def __init__(self):
        self.f: dict[str, int] = {}

    def set(self, name: str, value: int, low: int = 0, high: int = 2 ** 32 - 1) -> None:
        if not low <= value <= high:
            raise ParseFailure(OUT_OF_RANGE)
        if self.f.setdefault(name, value) != value:
            raise ParseFailure(IMPOSSIBLE)

    def set_numeric(self, spec: str, v: int) -> None:
        i32 = (-2 ** 31, 2 ** 31 - 1)
        if spec in ("Year", "IsoYear"):
            self.set(_SETTER[spec], v, *i32)
        elif spec in ("YearDiv100", "YearMod100", "IsoYearDiv100", "IsoYearMod100"):
            self.set(_SETTER[spec], v, 0, i32[1])
        elif spec == "Hour":
            self.set("hour_div_12", v // 12)
            self.set("hour_mod_12", v % 12)
        elif spec == "Hour12":
            if not 1 <= v <= 12:
                raise ParseFailure(OUT_OF_RANGE)
            self.set("hour_mod_12", v % 12)
        elif spec in ("WeekdayFromMon", "NumDaysFromSun"):
            # stored from Monday = 0 whichever number was read
            monday_based = v - 1 if spec == "WeekdayFromMon" else (v + 6) % 7
            if not (1 <= v <= 7 if spec == "WeekdayFromMon" else 0 <= v <= 6):
                raise ParseFailure(OUT_OF_RANGE)
            self.set("weekday", monday_based)
        elif spec == "Timestamp":
            self.set("timestamp", v, -2 ** 63, 2 ** 63 - 1)
        else:
            self.set(_SETTER[spec], v)

    def get(self, name: str) -> Optional[int]:
        return self.f.get(name)


# ------------------------------------------------------------------ scanning
def _number(s: str, low: int, high: Optional[int]) -> tuple[str, int]:
    """At least ``low`` and at most ``high`` ASCII digits (scan::number)."""
    if len(s) < low:
        raise ParseFailure(TOO_SHORT)
    n = 0
    limit = len(s) if high is None else min(high, len(s))
    for i in range(limit):
        c = s[i]
        if not ("0" <= c <= "9"):
            if i < low:
                raise ParseFailure(INVALID)
            return s[i:], n
        n = n * 10 + ord(c) - 48
        if n >= 2 ** 63:
            raise ParseFailure(OUT_OF_RANGE)
    return s[limit:], n


def _nanos(s: str) -> tuple[str, int]:
    """A fraction of a second after its dot: up to nine digits scaled to nanoseconds,
    further digits skipped."""
    rest, v = _number(s, 1, 9)
    v *= 10 ** (9 - (len(s) - len(rest)))
    return rest.lstrip("0123456789"), v


def _name(s: str, shorts: tuple, rests: Optional[tuple]) -> tuple[str, int]:
    """A three-letter month or weekday name (any case), with its long form's rest
    when ``rests`` is given and it follows."""
    if len(s) < 3:
        raise ParseFailure(TOO_SHORT)
    key = "".join(chr(ord(c) | 32) if c.isascii() else c for c in s[:3])
    if key not in shorts:
        raise ParseFailure(INVALID)
    index, s = shorts.index(key), s[3:]
    if rests is not None and s[:len(rests[index])].lower() == rests[index]:
        s = s[len(rests[index]):]
    return s, index


def _offset(s: str, colon, missing_minutes: bool = False) -> tuple[str, int]:
    """``+HH:MM``-like offsets in seconds (scan::timezone_offset)."""
    if not s:
        raise ParseFailure(TOO_SHORT)
    if s[0] not in "+-":
        raise ParseFailure(INVALID)
    negative, s = s[0] == "-", s[1:]
    if len(s) < 2:
        raise ParseFailure(TOO_SHORT)
    if not (s[0].isascii() and s[0].isdigit() and s[1].isascii() and s[1].isdigit()):
        raise ParseFailure(INVALID)
    hours, s = int(s[:2]), colon(s[2:])
    if len(s) >= 2:
        if not (s[1].isascii() and s[1].isdigit() and s[0] in "0123456789"):
            raise ParseFailure(INVALID)
        if s[0] > "5":
            raise ParseFailure(OUT_OF_RANGE)
        minutes, s = int(s[:2]), s[2:]
    elif missing_minutes and not s:
        minutes = 0
    else:
        raise ParseFailure(TOO_SHORT)
    seconds = hours * 3600 + minutes * 60
    return s, -seconds if negative else seconds


def _skip_colons_and_space(s: str) -> str:
    i = 0
    while i < len(s) and (s[i] == ":" or s[i].isspace()):
        i += 1
    return s[i:]


def _offset_zulu(s: str, colon) -> tuple[str, int]:
    if s[:1] in ("z", "Z"):
        return s[1:], 0
    if s[:1] in ("u", "U"):
        if len(s) >= 3 and s[1:3].lower() == "tc":
            return s[3:], 0
        raise ParseFailure(INVALID)
    return _offset(s, colon)


def _char(s: str, c: str) -> str:
    if not s:
        raise ParseFailure(TOO_SHORT)
    if s[0] != c:
        raise ParseFailure(INVALID)
    return s[1:]


def _space(s: str) -> str:
    rest = s.lstrip()
    if len(rest) < len(s):
        return rest
    raise ParseFailure(TOO_SHORT if not s else INVALID)


# ------------------------------------------------------------------ items
def parse_into(parsed: Parsed, s: str, fmt: str) -> None:
    """Read ``s`` by format ``fmt`` into ``parsed`` (format::parse)."""
    for item in format_items(fmt):
        kind = item[0]
        if kind == "lit":
            if len(s) < len(item[1]):
                raise ParseFailure(TOO_SHORT)
            if not s.startswith(item[1]):
                raise ParseFailure(INVALID)
            s = s[len(item[1]):]
        elif kind == "space":
            s = s.lstrip()
        elif kind == "num":
            s = s.lstrip()
            spec = item[1]
            if spec in ("Year", "IsoYear") and s[:1] in ("-", "+"):
                rest, v = _number(s[1:], 1, None)
                v = -v if s[0] == "-" else v
            else:
                rest, v = _number(s, 1, WIDTH[spec])
            parsed.set_numeric(spec, v)
            s = rest
        elif kind == "fix":
            s = _parse_fixed(parsed, s, item[1])
        else:
            raise ParseFailure(BAD_FORMAT)
    if s:
        raise ParseFailure(TOO_LONG)


def _parse_fixed(parsed: Parsed, s: str, name: str) -> str:
    if name in ("ShortMonthName", "LongMonthName"):
        s, m = _name(s, _MONTHS, _MONTH_REST if name == "LongMonthName" else None)
        parsed.set("month", m + 1)
    elif name in ("ShortWeekdayName", "LongWeekdayName"):
        s, d = _name(s, _DAYS, _DAY_REST if name == "LongWeekdayName" else None)
        parsed.set("weekday", d)
    elif name in ("LowerAmPm", "UpperAmPm"):
        if len(s) < 2:
            raise ParseFailure(TOO_SHORT)
        word = s[:2].lower()
        if word not in ("am", "pm"):
            raise ParseFailure(INVALID)
        parsed.set("hour_div_12", 1 if word == "pm" else 0)
        s = s[2:]
    elif name in ("Nanosecond", "Nanosecond3", "Nanosecond6", "Nanosecond9"):
        if s.startswith("."):
            s, v = _nanos(s[1:])
            parsed.set("nanosecond", v)
    elif name.endswith("NoDot"):
        digits = int(name[len("Nanosecond")])
        if len(s) < digits:
            raise ParseFailure(TOO_SHORT)
        s, v = _number(s, digits, digits)
        parsed.set("nanosecond", v * 10 ** (9 - digits))
    elif name == "TimezoneName":
        i = 0
        while i < len(s) and not s[i].isspace():
            i += 1
        s = s[i:]
    elif name in ("TimezoneOffset", "TimezoneOffsetColon", "TimezoneOffsetPermissive"):
        s, off = _offset(s.lstrip(), _skip_colons_and_space,
                         name == "TimezoneOffsetPermissive")
        parsed.set("offset", off, -2 ** 31, 2 ** 31 - 1)
    elif name == "RFC3339":
        s = _rfc3339(parsed, s)
    else:
        raise ParseFailure(BAD_FORMAT)
    return s


def _rfc3339(parsed: Parsed, s: str) -> str:
    s, y = _number(s, 4, 4)
    parsed.set_numeric("Year", y)
    for sep, spec in (("-", "Month"), ("-", "Day")):
        s, v = _number(_char(s, sep), 2, 2)
        parsed.set_numeric(spec, v)
    if not s:
        raise ParseFailure(TOO_SHORT)
    if s[0] not in "Tt":
        raise ParseFailure(INVALID)
    s, h = _number(s[1:], 2, 2)
    parsed.set_numeric("Hour", h)
    for spec in ("Minute", "Second"):
        s, v = _number(_char(s, ":"), 2, 2)
        parsed.set_numeric(spec, v)
    if s.startswith("."):
        s, v = _nanos(s[1:])
        parsed.set("nanosecond", v)
    s, off = _offset_zulu(s, lambda t: _char(t, ":"))
    if not -DAY_SECONDS < off < DAY_SECONDS:
        raise ParseFailure(OUT_OF_RANGE)
    parsed.set("offset", off, -2 ** 31, 2 ** 31 - 1)
    return s


def parse_rfc2822(parsed: Parsed, s: str) -> None:
    """``[weekday,] day month year hh:mm[:ss] zone`` (format::parse_rfc2822)."""
    s = s.lstrip()
    try:
        rest, d = _name(s, _DAYS, None)
    except ParseFailure:
        pass
    else:
        if not rest.startswith(","):
            raise ParseFailure(INVALID)
        s = rest[1:]
        parsed.set("weekday", d)
    s, day = _number(s.lstrip(), 1, 2)
    parsed.set("day", day)
    s, m = _name(_space(s), _MONTHS, None)
    parsed.set("month", m + 1)
    s = _space(s)
    before = len(s)
    s, year = _number(s, 2, None)
    digits = before - len(s)
    if digits == 2:
        year += 2000 if year < 50 else 1900
    elif digits == 3:
        year += 1900
    parsed.set_numeric("Year", year)
    s, h = _number(_space(s), 2, 2)
    parsed.set_numeric("Hour", h)
    s, mi = _number(_char(s.lstrip(), ":").lstrip(), 2, 2)
    parsed.set_numeric("Minute", mi)
    if s.lstrip().startswith(":"):
        s, sec = _number(s.lstrip()[1:], 2, 2)
        parsed.set_numeric("Second", sec)
    s = _space(s)
    letters = 0
    while letters < len(s) and s[letters].isascii() and s[letters].isalpha():
        letters += 1
    if letters:
        zone = s[:letters].lower()
        s = s[letters:]
        if zone in _ZONES:
            parsed.set("offset", _ZONES[zone] * 3600, -2 ** 31, 2 ** 31 - 1)
    else:
        negative_zero = s.startswith("-")
        s, off = _offset(s, lambda t: t)
        if not (off == 0 and negative_zero):  # -0000 means the offset is unknown
            parsed.set("offset", off, -2 ** 31, 2 ** 31 - 1)
    if s:
        raise ParseFailure(TOO_LONG)


# ------------------------------------------------------------------ resolution
def to_time(p: Parsed) -> tuple[int, int]:
    """``Parsed::to_naive_time``: hour and minute required, seconds and nanoseconds
    default to 0; second 60 is a leap second."""
    div, mod = p.get("hour_div_12"), p.get("hour_mod_12")
    for value, high in ((div, 1), (mod, 11)):
        if value is None:
            raise ParseFailure(NOT_ENOUGH)
        if value > high:
            raise ParseFailure(OUT_OF_RANGE)
    minute = p.get("minute")
    if minute is None:
        raise ParseFailure(NOT_ENOUGH)
    if minute > 59:
        raise ParseFailure(OUT_OF_RANGE)
    second = p.get("second")
    if second is not None and second > 60:
        raise ParseFailure(OUT_OF_RANGE)
    nanos = NANOS if second == 60 else 0
    nano = p.get("nanosecond")
    if nano is not None:
        if nano > 999_999_999:
            raise ParseFailure(OUT_OF_RANGE)
        if second is None:
            raise ParseFailure(NOT_ENOUGH)
        nanos += nano
    sec = min(second or 0, 59)
    return (div * 12 + mod) * 3600 + minute * 60 + sec, nanos


def _resolve_year(p: Parsed, prefix: str) -> Optional[int]:
    y, q, r = (p.get(prefix), p.get(prefix + "_div_100"), p.get(prefix + "_mod_100"))
    if q is None and r is None:
        return y
    if y is not None and (r is None or 0 <= r <= 99):
        if y < 0:
            raise ParseFailure(OUT_OF_RANGE)
        if (q if q is not None else y // 100) == y // 100 and \
                (r if r is not None else y % 100) == y % 100:
            return y
        raise ParseFailure(IMPOSSIBLE)
    if y is None and q is not None and r is not None and 0 <= r <= 99:
        return q * 100 + r
    if y is None and q is None and 0 <= r <= 99:
        return r + (2000 if r < 70 else 1900)
    if y is None and r is None:
        raise ParseFailure(NOT_ENOUGH)
    raise ParseFailure(OUT_OF_RANGE)


def _consistent(p: Parsed, date: int) -> bool:
    """Whether every date field read agrees with ``date``."""
    y, m, d = civil_from_days(date)
    iy, iw = iso_week(date)
    facts = {"year": y, "month": m, "day": d, "isoyear": iy, "isoweek": iw,
             "weekday": weekday(date), "ordinal": ordinal(date),
             "week_from_sun": week_from_sunday(date), "week_from_mon": week_from_monday(date)}
    for prefix, year in (("year", y), ("isoyear", iy)):
        facts[prefix + "_div_100"] = year // 100 if year >= 0 else None
        facts[prefix + "_mod_100"] = year % 100 if year >= 0 else None
    return all(p.get(k) is None or p.get(k) == v for k, v in facts.items())


def to_date(p: Parsed) -> int:
    """``Parsed::to_naive_date``: from year-month-day, year-ordinal, year-week-weekday
    or ISO year-week-weekday, every other field read checked against the result."""
    year, isoyear = _resolve_year(p, "year"), _resolve_year(p, "isoyear")
    g = p.get
    if year is not None and g("month") is not None and g("day") is not None:
        date = from_ymd(year, g("month"), g("day"))
    elif year is not None and g("ordinal") is not None:
        date = from_yo(year, g("ordinal"))
    elif year is not None and g("weekday") is not None and \
            (g("week_from_sun") is not None or g("week_from_mon") is not None):
        date = _from_week(year, g("week_from_sun"), g("week_from_mon"), g("weekday"))
    elif isoyear is not None and g("isoweek") is not None and g("weekday") is not None:
        date = from_isoywd(isoyear, g("isoweek"), g("weekday"))
    else:
        raise ParseFailure(NOT_ENOUGH)
    if date is None:
        raise ParseFailure(OUT_OF_RANGE)
    if not _consistent(p, date):
        raise ParseFailure(IMPOSSIBLE)
    return date


def _from_week(year: int, from_sun, from_mon, day: int) -> Optional[int]:
    new_year = from_yo(year, 1)
    if new_year is None:
        return None
    if from_sun is not None:
        week, first, index = from_sun, (6 - weekday(new_year)) % 7, (day + 1) % 7
    else:
        week, first, index = from_mon, (7 - weekday(new_year)) % 7, day
    if week > 53:
        raise ParseFailure(OUT_OF_RANGE)
    date = new_year + first + (week - 1) * 7 + index
    if civil_from_days(date)[0] != year:
        raise ParseFailure(OUT_OF_RANGE)
    return date


def to_datetime(p: Parsed, offset: int = 0) -> tuple[int, tuple[int, int]]:
    """``Parsed::to_naive_datetime_with_offset``: ``(days, (seconds, nanos))`` local."""
    try:
        date = to_date(p)
        time = to_time(p)
    except ParseFailure as failure:
        if p.get("timestamp") is None:
            raise
        return _from_timestamp(p, offset, failure)
    stamp = date * DAY_SECONDS + time[0] - offset
    given = p.get("timestamp")
    if given is not None and given != stamp and not (time[1] >= NANOS and given == stamp + 1):
        raise ParseFailure(IMPOSSIBLE)
    return date, time


def _from_timestamp(p: Parsed, offset: int, failure: ParseFailure):
    if str(failure) in (OUT_OF_RANGE, IMPOSSIBLE):
        raise failure
    local = p.get("timestamp") + offset
    days, secs = divmod(local, DAY_SECONDS)
    if not date_in_range(days):
        raise ParseFailure(OUT_OF_RANGE)
    filled = Parsed()
    filled.f = dict(p.f)
    filled.set_numeric("Year", civil_from_days(days)[0])
    filled.set("ordinal", ordinal(days))
    filled.set_numeric("Hour", secs // 3600)
    filled.set("minute", secs // 60 % 60)
    filled.set("second", secs % 60)
    filled.f.pop("timestamp")
    return to_date(filled), to_time(filled)


def to_tz_datetime(p: Parsed) -> tuple:
    """``Parsed::to_datetime``: an offset is required; the TzDateTime value."""
    offset = p.get("offset")
    if offset is None:
        raise ParseFailure(NOT_ENOUGH)
    date, (secs, nanos) = to_datetime(p, offset)
    if not -DAY_SECONDS < offset < DAY_SECONDS:
        raise ParseFailure(OUT_OF_RANGE)
    utc = date * DAY_SECONDS + secs - offset
    return utc // DAY_SECONDS, utc % DAY_SECONDS, nanos, offset
