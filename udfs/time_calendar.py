"""Calendar facts of proleptic Gregorian dates, as chrono's ``NaiveDate`` computes them.

A date is a count of days since 1970-01-01 (see :mod:`dl2sql.runtime.extern_types`);
weekdays are numbered from Monday = 0.
"""
from __future__ import annotations

from typing import Optional

from dl2sql.runtime.extern_types import (MAX_YEAR, MIN_YEAR, civil_from_days,
                                         date_in_range, days_from_civil, is_leap,
                                         month_days)

WEEKDAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
                 "Sunday")
MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August",
               "September", "October", "November", "December")


def from_ymd(year: int, month: int, day: int) -> Optional[int]:
    """``NaiveDate::from_ymd_opt``."""
    if not (MIN_YEAR <= year <= MAX_YEAR and 1 <= month <= 12
            and 1 <= day <= month_days(year, month)):
        return None
    return days_from_civil(year, month, day)


def from_yo(year: int, ordinal: int) -> Optional[int]:
    """``NaiveDate::from_yo_opt``: the ``ordinal``-th day (from 1) of ``year``."""
    if not (MIN_YEAR <= year <= MAX_YEAR and 1 <= ordinal <= (366 if is_leap(year) else 365)):
        return None
    return days_from_civil(year, 1, 1) + ordinal - 1


def weekday(days: int) -> int:
    """Monday = 0 ... Sunday = 6 (1970-01-01 was a Thursday)."""
    return (days + 3) % 7


def ordinal(days: int) -> int:
    """The day of the year, from 1."""
    return days - days_from_civil(civil_from_days(days)[0], 1, 1) + 1


def iso_week(days: int) -> tuple[int, int]:
    """``(ISO year, ISO week)``: the week belongs to the year of its Thursday."""
    thursday = days - weekday(days) + 3
    return civil_from_days(thursday)[0], (ordinal(thursday) - 1) // 7 + 1


def iso_weeks_in(year: int) -> int:
    """52 or 53: a year has 53 ISO weeks when it starts on a Thursday, or on a
    Wednesday in a leap year."""
    first = weekday(days_from_civil(year, 1, 1))
    return 53 if first == 3 or (first == 2 and is_leap(year)) else 52


def from_isoywd(year: int, week: int, day_of_week: int) -> Optional[int]:
    """``NaiveDate::from_isoywd_opt`` (``day_of_week`` from Monday = 0)."""
    if not (MIN_YEAR <= year <= MAX_YEAR and 1 <= week <= iso_weeks_in(year)):
        return None
    jan4 = days_from_civil(year, 1, 4)
    days = jan4 - weekday(jan4) + (week - 1) * 7 + day_of_week
    return days if date_in_range(days) else None


def week_from_sunday(days: int) -> int:
    """``%U``: weeks starting on Sunday, the days before the first Sunday in week 0."""
    return (ordinal(days) - (weekday(days) + 1) % 7 + 7) // 7


def week_from_monday(days: int) -> int:
    """``%W``: weeks starting on Monday, the days before the first Monday in week 0."""
    return (ordinal(days) - weekday(days) + 7) // 7
