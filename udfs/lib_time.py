"""Python implementations of DDlog's ``time`` library (dates and times after the Rust
crate chrono 0.4, with its validity rules, format specifiers, parsing and error
texts; ``next_day``, ``previous_day`` and Julian days as the ``time`` crate computes
them). Values are those of :mod:`dl2sql.runtime.extern_types`; ``DateTime`` is the
library's struct of a ``Date`` and a ``Time``, ``Weekday`` its enum.
"""
from __future__ import annotations

from typing import Callable, Optional

from dl2sql.diagnostics import RuntimeFailure
from dl2sql.runtime.extern_types import (DAY_SECONDS, NANOS, civil_from_days, clock,
                                         date_in_range, date_text, rfc3339_text, time_text)
from dl2sql.runtime.values import Record
from dl2sql.udfs.time_calendar import (WEEKDAY_NAMES, from_isoywd, from_ymd, from_yo,
                                       iso_week, ordinal, weekday)
from dl2sql.udfs.time_format import format_value
from dl2sql.udfs.time_parse import (Parsed, ParseFailure, parse_into, parse_rfc2822,
                                    to_date, to_datetime, to_time, to_tz_datetime)

_T = "time::"
DEFAULT_TIME_FORMAT = "%T.%f"
DEFAULT_DATE_FORMAT = "%Y-%m-%d"
DEFAULT_DATETIME_FORMAT = "%Y-%m-%dT%T"
# the range of the `time` crate's Date (without its large-dates feature)
TIME_CRATE_YEARS = (-9999, 9999)
# Julian day number of 1970-01-01
UNIX_EPOCH_JULIAN_DAY = 2_440_588


def _ok(x) -> Record:
    return Record("ddlog_std::Ok", (x,))


def _err(msg: str) -> Record:
    return Record("ddlog_std::Err", (msg,))


def _checked(value, message: str) -> Record:
    return _err(message) if value is None else _ok(value)


# ------------------------------------------------------------------ Time
def from_hms_nano(h: int, m: int, s: int, nano: int) -> Optional[tuple[int, int]]:
    """``NaiveTime::from_hms_nano_opt``: nanoseconds up to 1_999_999_999 (a leap
    second)."""
    if h >= 24 or m >= 60 or s >= 60 or nano >= 2 * NANOS:
        return None
    return h * 3600 + m * 60 + s, nano


def _try_time(scale: int) -> Callable[..., Record]:
    def make(h: int, m: int, s: int, fraction: int = 0) -> Record:
        nano = fraction * scale
        return _checked(from_hms_nano(h, m, s, nano) if nano < 2 ** 32 else None,
                        "illegal time value")
    return make


def _parse(s: str, fmt: str, resolve) -> Record:
    parsed = Parsed()
    try:
        parse_into(parsed, s, fmt)
        return _ok(resolve(parsed))
    except ParseFailure as failure:
        return _err(str(failure))


def _formatted(fmt: str, *parts) -> Record:
    text = format_value(fmt, *parts)
    return _err(f"Error in format string '{fmt}'") if text is None else _ok(text)


# ------------------------------------------------------------------ Date
def _weekday_index(w: Record) -> int:
    return WEEKDAY_NAMES.index(w.ctor.rpartition("::")[2])


def _weekday_value(index: int) -> Record:
    return Record(_T + WEEKDAY_NAMES[index], ())


def _time_crate_date(days: int) -> int:
    """``days`` where the ``time`` crate can hold it; DDlog's conversion panics
    elsewhere."""
    year = civil_from_days(days)[0]
    if not TIME_CRATE_YEARS[0] <= year <= TIME_CRATE_YEARS[1]:
        raise RuntimeFailure(f"time: the date {date_text(days)} is outside the range of "
                             f"the `time` crate (years -9999..=9999)")
    return days


def from_julian_day(jd: int) -> int:
    """The date of Julian day number ``jd``."""
    return _time_crate_date(jd - UNIX_EPOCH_JULIAN_DAY)


# ------------------------------------------------------------------ DateTime
def _datetime(date: int, time: tuple) -> Record:
    return Record(_T + "DateTime", (date, time))


def _parts(dt: Record) -> tuple:
    return dt.fields[0], dt.fields[1]


def from_unix_timestamp(ts: int) -> Record:
    """``NaiveDateTime::from_timestamp(ts, 0)``, which panics out of range."""
    days, secs = divmod(ts, DAY_SECONDS)
    if not date_in_range(days):
        raise RuntimeFailure(f"time: the timestamp {ts} is out of chrono's range")
    return _datetime(days, (secs, 0))


# ------------------------------------------------------------------ TzDateTime
def _offset(east: int) -> int:
    if not -DAY_SECONDS < east < DAY_SECONDS:
        raise RuntimeFailure(f"time: offset {east} s is out of chrono's bounds "
                             f"(less than a day either way)")
    return east


def with_offset(dt: Record, east: int) -> tuple:
    """The TzDateTime of UTC date-time ``dt`` shown at offset ``east``."""
    date, (secs, nanos) = _parts(dt)
    return date, secs, nanos, _offset(east)


def local(td: tuple) -> tuple[int, tuple[int, int]]:
    """The local date and time of a TzDateTime."""
    days, secs, nanos, offset = td
    whole = days * DAY_SECONDS + secs + offset
    return whole // DAY_SECONDS, (whole % DAY_SECONDS, nanos)


def rfc2822_text(td: tuple) -> str:
    """chrono's ``to_rfc2822``."""
    date, time = local(td)
    y, m, d = civil_from_days(date)
    h, mi, s, _ = clock(time)
    sign = "-" if td[3] < 0 else "+"
    off = abs(td[3])
    return (f"{WEEKDAY_NAMES[weekday(date)][:3]}, {d:02d} "
            f"{format_value('%b', date, None)} {y:04d} {h:02d}:{mi:02d}:{s:02d} "
            f"{sign}{off // 3600:02d}{off // 60 % 60:02d}")


def _tz_parse(reader: Callable[[Parsed, str], None], s: str) -> Record:
    parsed = Parsed()
    try:
        reader(parsed, s)
        return _ok(to_tz_datetime(parsed))
    except ParseFailure as failure:
        return _err(str(failure))


LIBRARY_TIME: dict[str, Callable] = {
    _T + "midnight": lambda: (0, 0),
    _T + "try_from_hms": _try_time(0),
    _T + "try_from_hms_milli": _try_time(1_000_000),
    _T + "try_from_hms_micro": _try_time(1000),
    _T + "try_from_hms_nano": _try_time(1),
    _T + "hour": lambda t: t[0] // 3600,
    _T + "minute": lambda t: t[0] // 60 % 60,
    _T + "second": lambda t: t[0] % 60,
    _T + "millisecond": lambda t: t[1] // 1_000_000,
    _T + "microsecond": lambda t: t[1] // 1000,
    _T + "nanosecond": lambda t: t[1],
    _T + "time2string": time_text,
    _T + "string2time": lambda s: _parse(s, DEFAULT_TIME_FORMAT, to_time),
    _T + "time_format": lambda t, fmt: _formatted(fmt, None, t),
    _T + "time_parse": lambda s, fmt: _parse(s, fmt, to_time),
    _T + "try_from_ymd": lambda y, m, d: _checked(from_ymd(y, m, d), "Invalid date"),
    _T + "try_from_yo": lambda y, o: _checked(from_yo(y, o), "Invalid date"),
    _T + "try_from_iso_ywd": lambda y, w, wd: _checked(
        from_isoywd(y, w, _weekday_index(wd)), "Invalid date"),
    _T + "year": lambda d: civil_from_days(d)[0],
    _T + "month": lambda d: civil_from_days(d)[1],
    _T + "day": lambda d: civil_from_days(d)[2],
    _T + "ordinal": ordinal,
    _T + "week": lambda d: iso_week(d)[1],
    _T + "weekday": lambda d: _weekday_value(weekday(d)),
    _T + "next_day": lambda d: _time_crate_date(_time_crate_date(d) + 1),
    _T + "previous_day": lambda d: _time_crate_date(_time_crate_date(d) - 1),
    _T + "julian_day": lambda d: _time_crate_date(d) + UNIX_EPOCH_JULIAN_DAY,
    _T + "from_julian_day": from_julian_day,
    _T + "date_parse": lambda s, fmt: _parse(s, fmt, to_date),
    _T + "date_format": lambda d, fmt: _formatted(fmt, d, None),
    _T + "date2string": date_text,
    _T + "string2date": lambda s: _parse(s, DEFAULT_DATE_FORMAT, to_date),
    _T + "datetime_parse": lambda s, fmt: _parse(s, fmt, lambda p: _datetime(
        *to_datetime(p))),
    _T + "dateTime2string": lambda dt: format_value(DEFAULT_DATETIME_FORMAT, *_parts(dt)),
    _T + "string2datetime": lambda s: _parse(s, DEFAULT_DATETIME_FORMAT, lambda p: _datetime(
        *to_datetime(p))),
    _T + "datetime_format": lambda dt, fmt: _formatted(fmt, *_parts(dt)),
    _T + "datetime_from_unix_timestamp": from_unix_timestamp,
    _T + "utc_timezone": lambda dt: with_offset(dt, 0),
    _T + "offset_timezone": with_offset,
    _T + "change_offset": lambda td, east: td[:3] + (_offset(east),),
    _T + "utc_datetime": lambda td: _datetime(td[0], (td[1], td[2])),
    _T + "tz_datetime_format": lambda td, fmt: _formatted(fmt, *local(td), td[3]),
    _T + "tzDateTime2string": rfc3339_text,
    _T + "to_rfc2822": rfc2822_text,
    _T + "to_rfc3339": rfc3339_text,
    _T + "tz_datetime_parse": lambda s, fmt: _tz_parse(lambda p, t: parse_into(p, t, fmt), s),
    _T + "tz_datetime_parse_from_rfc3339": lambda s: _tz_parse(
        lambda p, t: parse_into(p, t, "%+"), s),
    _T + "tz_datetime_parse_from_rfc2822": lambda s: _tz_parse(parse_rfc2822, s),
    _T + "time": lambda td: local(td)[1],
}

# docstrings of the functions written inline in the table above
_TIME_DOCS = {
    'midnight': '00:00:00.',
    'try_from_hms': 'Ok time, or Err("illegal time value").',
    'try_from_hms_milli': 'Ok time, or Err("illegal time value").',
    'try_from_hms_micro': 'Ok time, or Err("illegal time value").',
    'try_from_hms_nano': 'Ok time, or Err("illegal time value").',
    'hour': '0..24.',
    'minute': '0..60.',
    'second': '0..60 (59 in a leap second).',
    'millisecond': 'The nanoseconds in milliseconds.',
    'microsecond': 'The nanoseconds in microseconds.',
    'nanosecond': 'The nanoseconds (1e9 and above in a leap second).',
    'string2time': 'Parse by %T.%f.',
    'time_format': 'Format a time; Err on a bad format.',
    'time_parse': 'Parse a time by a format.',
    'try_from_ymd': 'Ok date, or Err("Invalid date").',
    'try_from_yo': 'Ok date, or Err("Invalid date").',
    'try_from_iso_ywd': 'Ok date, or Err("Invalid date").',
    'year': 'The year.',
    'month': '1..=12.',
    'day': '1..=31.',
    'week': 'The ISO week.',
    'weekday': 'The Weekday value.',
    'next_day': 'The next date.',
    'previous_day': 'The previous date.',
    'julian_day': 'The Julian day number.',
    'date_parse': 'Parse a date by a format.',
    'date_format': 'Format a date; Err on a bad format.',
    'string2date': 'Parse by %Y-%m-%d.',
    'datetime_parse': 'Parse a DateTime by a format.',
    'dateTime2string': 'Format by %Y-%m-%dT%T.',
    'string2datetime': 'Parse by %Y-%m-%dT%T.',
    'datetime_format': 'Format a DateTime; Err on a bad format.',
    'utc_timezone': 'The UTC date-time at offset 0.',
    'change_offset': 'The same instant at another offset.',
    'utc_datetime': 'The UTC DateTime.',
    'tz_datetime_format': 'Format in local time; Err on a bad format.',
    'tz_datetime_parse': 'Parse by a format that gives an offset.',
    'tz_datetime_parse_from_rfc3339': 'Parse RFC 3339.',
    'tz_datetime_parse_from_rfc2822': 'Parse RFC 2822.',
    'time': 'The local time of day.',
}
for _name, _text in _TIME_DOCS.items():
    LIBRARY_TIME['time::' + _name].__doc__ = _text
