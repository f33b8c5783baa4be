"""Runtime values of the ``time`` library's extern types and how ``dump`` prints
them, as DDlog's ``IntoRecord`` does (a string in the library's default format).

A value is the value of its storage type (:data:`dl2sql.types.storage.EXTERN_STORAGE`):

* ``Time``: ``(second of the day, nanoseconds)``; nanoseconds reach 1_999_999_999 in a
  leap second, as in chrono's ``NaiveTime``. Printed as the string ``%T.%f``.
* ``Date``: days since 1970-01-01 in the proleptic Gregorian calendar; printed as the
  string ``%Y-%m-%d``.
* ``TzDateTime``: ``(UTC days, UTC second of day, nanoseconds, offset east in
  seconds)``; printed as its RFC 3339 string. (chrono compares such values by their
  instant only; here two offsets of one instant are two values.)

The calendar arithmetic is here because printing needs it; :mod:`dl2sql.udfs.lib_time`
builds on it.
"""
from __future__ import annotations

NANOS = 1_000_000_000
DAY_SECONDS = 86_400
# chrono's NaiveDate range: years that fit in 19 bits (with the sign)
MIN_YEAR, MAX_YEAR = -262_144, 262_143
_MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)

TIME, DATE, TZ_DATETIME = "time::Time", "time::Date", "time::TzDateTime"


# ------------------------------------------------------------------ calendar
def is_leap(year: int) -> bool:
    """Gregorian leap year."""
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def month_days(year: int, month: int) -> int:
    """Days in ``month`` (1-12) of ``year``."""
    return 29 if month == 2 and is_leap(year) else _MONTH_DAYS[month - 1]


def days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a valid proleptic Gregorian date."""
    # count from March 1st of a 400-year cycle so that the leap day comes last
    y = year - (1 if month <= 2 else 0)
    cycle = y // 400
    year_of_cycle = y - cycle * 400
    march_month = month + (-3 if month > 2 else 9)
    day_of_year = (153 * march_month + 2) // 5 + day - 1
    day_of_cycle = year_of_cycle * 365 + year_of_cycle // 4 - year_of_cycle // 100 \
        + day_of_year
    return cycle * 146_097 + day_of_cycle - 719_468


def civil_from_days(days: int) -> tuple[int, int, int]:
    """``(year, month, day)`` of the date ``days`` after 1970-01-01."""
    z = days + 719_468
    cycle = z // 146_097
    day_of_cycle = z - cycle * 146_097
    year_of_cycle = (day_of_cycle - day_of_cycle // 1460 + day_of_cycle // 36_524
                     - day_of_cycle // 146_096) // 365
    day_of_year = day_of_cycle - (365 * year_of_cycle + year_of_cycle // 4
                                  - year_of_cycle // 100)
    march_month = (5 * day_of_year + 2) // 153
    day = day_of_year - (153 * march_month + 2) // 5 + 1
    month = march_month + (3 if march_month < 10 else -9)
    year = year_of_cycle + cycle * 400 + (1 if month <= 2 else 0)
    return year, month, day


def date_in_range(days: int) -> bool:
    """Whether chrono's NaiveDate can hold the date ``days`` after 1970-01-01."""
    return days_from_civil(MIN_YEAR, 1, 1) <= days <= days_from_civil(MAX_YEAR, 12, 31)


# ------------------------------------------------------------------ default texts
def year_text(year: int) -> str:
    """chrono's ``%Y``: four digits at least, with a sign outside 0..=9999."""
    return f"{year:04d}" if 0 <= year <= 9999 else f"{year:+05d}"


def date_text(days: int) -> str:
    """``%Y-%m-%d``."""
    y, m, d = civil_from_days(days)
    return f"{year_text(y)}-{m:02d}-{d:02d}"


def clock(v: tuple[int, int]) -> tuple[int, int, int, int]:
    """``(hour, minute, second, nanosecond)`` of a Time as chrono shows it: a leap
    second is second 60 with the nanoseconds below one second."""
    secs, nanos = v
    return secs // 3600, secs // 60 % 60, secs % 60 + nanos // NANOS, nanos % NANOS


def time_text(v: tuple[int, int]) -> str:
    """``%T.%f``: ``HH:MM:SS.nnnnnnnnn``."""
    h, m, s, n = clock(v)
    return f"{h:02d}:{m:02d}:{s:02d}.{n:09d}"


def offset_text(offset: int, colon: bool) -> str:
    """An offset east of UTC as ``+HH:MM`` (``+HHMM`` without ``colon``); seconds are
    dropped, as chrono does."""
    sign = "-" if offset < 0 else "+"
    a = abs(offset)
    return f"{sign}{a // 3600:02d}{':' if colon else ''}{a // 60 % 60:02d}"


def debug_time_text(v: tuple[int, int]) -> str:
    """chrono's ``Debug`` of a NaiveTime (used by RFC 3339): the fraction only when
    nonzero, in 3, 6 or 9 digits, whichever is exact."""
    h, m, s, n = clock(v)
    text = f"{h:02d}:{m:02d}:{s:02d}"
    if n == 0:
        return text
    if n % 1_000_000 == 0:
        return f"{text}.{n // 1_000_000:03d}"
    if n % 1000 == 0:
        return f"{text}.{n // 1000:06d}"
    return f"{text}.{n:09d}"


def local_parts(v: tuple) -> tuple[int, int, int]:
    """``(days, second of day, nanos)`` of a TzDateTime in its own offset."""
    days, secs, nanos, offset = v
    local = days * DAY_SECONDS + secs + offset
    return local // DAY_SECONDS, local % DAY_SECONDS, nanos


def rfc3339_text(v: tuple) -> str:
    """chrono's ``to_rfc3339``: the local date and time, then the offset ``+HH:MM``."""
    days, secs, nanos = local_parts(v)
    return f"{date_text(days)}T{debug_time_text((secs, nanos))}{offset_text(v[3], True)}"


# How `dump` prints the values whose record form is a string (DDlog's IntoRecord);
# the caller quotes it.
PRINTED = {
    TIME: time_text,
    DATE: date_text,
    TZ_DATETIME: rfc3339_text,
}
