"""The `time` library's Python implementations against chrono 0.4's documented
behaviour: the calendar (leap years, ISO weeks, signed years), format specifiers and
padding modifiers, parsing (numbers after whitespace, `%f` as an integer, `%.f` as a
fraction, leap seconds, consistency checks) with chrono's error texts, RFC 2822/3339,
and the values' printing and order."""
import pytest

from dl2sql.runtime.extern_types import (civil_from_days, date_text, days_from_civil,
                                         rfc3339_text, time_text)
from dl2sql.runtime.values import Record
from dl2sql.compiler import compile_source
from dl2sql.replay.dat_parser import DatError, UValue
from dl2sql.replay.dat_values import convert
from dl2sql.types.model import TNamed
from dl2sql.udfs.lib_time import LIBRARY_TIME
from dl2sql.udfs.time_format import format_value


def t(name, *args):
    return LIBRARY_TIME[f"time::{name}"](*args)


def ok(x):
    return Record("ddlog_std::Ok", (x,))


def err(msg):
    return Record("ddlog_std::Err", (msg,))


def date(y, m, d):
    return days_from_civil(y, m, d)


@pytest.mark.parametrize("days", [-719_528, -1, 0, 59, 365, 10_956, 11_016, 2_932_896,
                                  -96_000_000, 95_000_000])
def test_civil_round_trip(days):
    assert days_from_civil(*civil_from_days(days)) == days


def test_calendar_facts():
    assert civil_from_days(0) == (1970, 1, 1)
    assert t("try_from_ymd", 2000, 2, 29) == ok(date(2000, 2, 29))
    assert t("try_from_ymd", 1900, 2, 29) == err("Invalid date")
    assert t("try_from_ymd", 262_144, 1, 1) == err("Invalid date")   # beyond chrono
    assert t("try_from_yo", 2021, 366) == err("Invalid date")
    assert t("week", date(2021, 1, 3)) == 53          # ISO week of the previous year
    assert t("week", date(2024, 12, 30)) == 1
    assert t("weekday", date(2000, 1, 1)) == Record("time::Saturday", ())
    assert t("try_from_iso_ywd", 2015, 53, Record("time::Thursday", ())) == \
        ok(date(2015, 12, 31))
    assert t("julian_day", date(2000, 1, 1)) == 2_451_545
    assert t("previous_day", date(2000, 3, 1)) == date(2000, 2, 29)


def test_defaults_are_chronos():
    from dl2sql.types.storage import EXTERN_STORAGE
    assert date_text(EXTERN_STORAGE["time::Date"].default) == "0000-01-01"
    assert rfc3339_text(EXTERN_STORAGE["time::TzDateTime"].default) == \
        "0000-01-01T00:00:00+00:00"
    assert time_text(EXTERN_STORAGE["time::Time"].default) == "00:00:00.000000000"


def test_printing():
    assert date_text(date(-1, 12, 31)) == "-0001-12-31"
    assert date_text(date(10_000, 1, 1)) == "+10000-01-01"
    assert time_text((3600 * 23 + 59 * 60 + 59, 1_000_000_001)) == "23:59:60.000000001"
    assert rfc3339_text((0, 0, 5_000_000, -3600 - 30 * 60)) == "1969-12-31T22:30:00.005-01:30"


def test_time_construction():
    assert t("try_from_hms_milli", 23, 59, 59, 1999) == ok((86_399, 1_999_000_000))
    assert t("try_from_hms_milli", 23, 59, 59, 2000) == err("illegal time value")
    assert t("try_from_hms_micro", 1, 0, 0, 4_294_967) == err("illegal time value")
    assert t("millisecond", (0, 1_234_567_891)) == 1234


@pytest.mark.parametrize("fmt, text", [
    ("%Y|%C|%y|%G|%g|%V", "2021|20|21|2020|20|53"),
    ("%m %-m %_m %0e %e %j %-j", "01 1 _1 03  3 003 3".replace("_", " ")),
    ("%a %A %b %B %h", "Sun Sunday Jan January Jan"),
    ("%u %w %U %W", "7 0 01 00"),
    ("%D|%F|%v|%x", "01/03/21|2021-01-03| 3-Jan-2021|01/03/21"),
    ("%H %k %I %l %P %p", "07  7 07  7 am AM"),
    ("%T %R %X %r", "07:08:09 07:08 07:08:09 07:08:09 AM"),
    ("%f|%.f|%.3f|%.6f|%.9f|%3f|%6f|%9f",
     "012000000|.012|.012|.012000|.012000000|012|012000|012000000"),
    ("%s %t%n%%", "1609657689 \t\n%"),
    ("%c", "Sun Jan  3 07:08:09 2021"),
])
def test_format(fmt, text):
    value = (date(2021, 1, 3), (7 * 3600 + 8 * 60 + 9, 12_000_000))
    assert format_value(fmt, *value) == text


@pytest.mark.parametrize("fmt", ["%Q", "%", "%-", "%:", "%.4f", "%-T", "%#a", "%z", "%Z"])
def test_format_errors(fmt):
    # unknown specifiers, padding on a composite, and an offset of a naive date-time
    assert t("datetime_format", Record("time::DateTime", (0, (0, 0))), fmt) == \
        err(f"Error in format string '{fmt}'")


def test_format_needs_the_parts():
    assert t("time_format", (0, 0), "%Y") == err("Error in format string '%Y'")
    assert t("date_format", 0, "%H") == err("Error in format string '%H'")
    assert t("tz_datetime_format", (0, 0, 0, 19_800), "%z %:z %Z %+") == \
        ok("+0530 +05:30 +05:30 1970-01-01T05:30:00+05:30")


@pytest.mark.parametrize("text, fmt, result", [
    ("10:10", "%T", err("premature end of input")),
    ("10:10:10 ", "%T", err("trailing input")),
    ("10:10:10", "%T %p", err("premature end of input")),
    ("24:00:00", "%T", err("input is out of range")),
    ("23:60:00", "%T", err("input is out of range")),
    ("10", "%H", err("input is not enough for unique date and time")),
    ("10:11", "%H:%M", ok((36_660, 0))),
    ("  7:08", "%H:%M", ok((25_680, 0))),
    ("07:08:09.5", "%T.%f", ok((25_689, 5))),          # %f reads an integer
    ("07:08:09.5", "%T%.f", ok((25_689, 500_000_000))),  # %.f reads a fraction
    ("07:08:09.1234567891", "%T%.f", ok((25_689, 123_456_789))),
    ("07:08:60.25", "%T%.f", ok((25_739, 1_250_000_000))),  # a leap second
    ("07:08:09 07", "%T %H", ok((25_689, 0))),
    ("07:08:09 08", "%T %H", err("no possible date and time matching input")),
    ("13:08 PM", "%I:%M %p", err("input is out of range")),
    ("12:08 am", "%I:%M %p", ok((480, 0))),
    ("7:8", "%H-%M", err("input contains invalid characters")),
    ("7:8", "%H:%M%Q", err("bad or unsupported format string")),
])
def test_time_parse(text, fmt, result):
    assert t("time_parse", text, fmt) == result


@pytest.mark.parametrize("text, fmt, result", [
    ("2021-01-03", "%Y-%m-%d", ok(date(2021, 1, 3))),
    ("-44-3-15", "%Y-%m-%d", ok(date(-44, 3, 15))),
    ("+12345-1-1", "%Y-%m-%d", ok(date(12345, 1, 1))),
    ("21-01-03", "%y-%m-%d", ok(date(2021, 1, 3))),
    ("71-01-03", "%y-%m-%d", ok(date(1971, 1, 3))),
    ("20 21-01-03", "%C %y-%m-%d", ok(date(2021, 1, 3))),
    ("19 2021-01-03", "%C %Y-%m-%d", err("no possible date and time matching input")),
    ("2021 53 Sun", "%G %V %a", err("input is out of range")),  # 2021 has 52 weeks
    ("2020 53 Sunday", "%G %V %A", ok(date(2021, 1, 3))),
    ("2021 00 Sun", "%Y %W %a", ok(date(2021, 1, 3))),
    ("2021 01 Sun", "%Y %U %a", ok(date(2021, 1, 3))),
    ("Jan 3 2021", "%b %d %Y", ok(date(2021, 1, 3))),
    ("january 3 2021", "%B %d %Y", ok(date(2021, 1, 3))),
    ("Janu 3 2021", "%B %d %Y", err("input contains invalid characters")),
    ("2021-02-30", "%Y-%m-%d", err("input is out of range")),
    ("2021-01", "%Y-%m", err("input is not enough for unique date and time")),
])
def test_date_parse(text, fmt, result):
    assert t("date_parse", text, fmt) == result


def test_datetime_and_timestamps():
    dt = Record("time::DateTime", (date(2021, 1, 3), (25_689, 0)))
    assert t("datetime_parse", "1609657689", "%s") == ok(dt)
    assert t("datetime_parse", "2021-01-03 07:08:09 1609657689", "%F %T %s") == ok(dt)
    assert t("datetime_parse", "2021-01-03 07:08:09 1609657680", "%F %T %s") == \
        err("no possible date and time matching input")
    assert t("dateTime2string", dt) == "2021-01-03T07:08:09"
    assert t("datetime_from_unix_timestamp", -1) == \
        Record("time::DateTime", (-1, (86_399, 0)))


def test_zones():
    # 08:52:37 UTC shown at +02:00
    z = t("offset_timezone", Record("time::DateTime", (date(2003, 7, 1), (31_957, 0))), 7200)
    assert t("to_rfc3339", z) == "2003-07-01T10:52:37+02:00"
    assert t("to_rfc2822", z) == "Tue, 01 Jul 2003 10:52:37 +0200"
    assert t("tz_datetime_parse_from_rfc2822", "Tue, 1 Jul 2003 10:52:37 +0200") == ok(z)
    assert t("tz_datetime_parse_from_rfc3339", "2003-07-01T10:52:37+02:00") == ok(z)
    assert t("tz_datetime_parse_from_rfc2822", "1 Jul 2003 10:52:37 -0000") == \
        err("input is not enough for unique date and time")   # -0000: offset unknown
    assert t("tz_datetime_parse_from_rfc2822", "Tue, 1 Jul 2003 10:52:37 XYZ") == \
        err("input is not enough for unique date and time")
    assert t("time", t("change_offset", z, -36_000)) == (31_957 - 36_000 + 86_400, 0)
    assert t("utc_datetime", t("change_offset", z, -3600)) == \
        Record("time::DateTime", (date(2003, 7, 1), (31_957, 0)))


def test_dat_reading_and_order():
    env = compile_source("import time\n", "time_unit.dl", ()).type_env

    def read(name, kind, v):
        return convert(TNamed(f"time::{name}"), UValue(kind, v), env)
    assert read("Time", "string", "10:11:12.000000000") == (36_672, 0)
    with pytest.raises(DatError, match="premature end of input"):
        read("Time", "string", "10:11")
    with pytest.raises(DatError):
        read("Time", "int", 5)
    assert read("Date", "string", "2010-10-15") == date(2010, 10, 15)
    assert read("TzDateTime", "string", "1970-01-01T00:00:00-00:30") == (0, 1800, 0, -1800)
    times = [(0, 5), (0, 1_000_000_000), (1, 0), (86_399, 1_999_999_999)]
    assert sorted(times) == times  # (second, nanos) orders as NaiveTime does
