"""chrono's strftime-like format strings: reading one into items, and formatting a
date, a time and an offset with them (chrono 0.4's ``StrftimeItems`` and
``DelayedFormat``).

An item is a tuple: ``("lit", text)`` and ``("space", text)`` (written as they are;
in parsing, a space item skips any whitespace), ``("num", spec, pad)`` with ``pad``
one of ``"0"``, ``" "``, ``""``, ``("fix", name)`` and ``("error",)`` for what chrono
does not know. Formatting fails (returns None) on an error item and on an item that
needs a part the value does not have (an hour of a date).
"""
from __future__ import annotations

from typing import Optional

from dl2sql.runtime.extern_types import (DAY_SECONDS, NANOS, civil_from_days, clock,
                                         debug_time_text, date_text, offset_text)
from dl2sql.udfs.time_calendar import (MONTH_NAMES, WEEKDAY_NAMES, iso_week, ordinal,
                                       week_from_monday, week_from_sunday, weekday)

# numeric specifiers: letter -> (name, default padding)
_NUMERIC = {
    "C": ("YearDiv100", "0"), "G": ("IsoYear", "0"), "H": ("Hour", "0"),
    "I": ("Hour12", "0"), "M": ("Minute", "0"), "S": ("Second", "0"),
    "U": ("WeekFromSun", "0"), "V": ("IsoWeek", "0"), "W": ("WeekFromMon", "0"),
    "Y": ("Year", "0"), "d": ("Day", "0"), "e": ("Day", " "), "f": ("Nanosecond", "0"),
    "g": ("IsoYearMod100", "0"), "j": ("Ordinal", "0"), "k": ("Hour", " "),
    "l": ("Hour12", " "), "m": ("Month", "0"), "s": ("Timestamp", ""),
    "u": ("WeekdayFromMon", ""), "w": ("NumDaysFromSun", ""), "y": ("YearMod100", "0"),
}
# the width numbers are padded to, also the most digits parsing reads
WIDTH = {"Year": 4, "IsoYear": 4, "YearDiv100": 2, "YearMod100": 2, "IsoYearDiv100": 2,
         "IsoYearMod100": 2, "Month": 2, "Day": 2, "WeekFromSun": 2, "WeekFromMon": 2,
         "IsoWeek": 2, "NumDaysFromSun": 1, "WeekdayFromMon": 1, "Ordinal": 3, "Hour": 2,
         "Hour12": 2, "Minute": 2, "Second": 2, "Nanosecond": 9, "Timestamp": None}
_FIXED = {"A": "LongWeekdayName", "B": "LongMonthName", "P": "LowerAmPm",
          "Z": "TimezoneName", "a": "ShortWeekdayName", "b": "ShortMonthName",
          "h": "ShortMonthName", "p": "UpperAmPm", "+": "RFC3339", "z": "TimezoneOffset"}


def _num(spec: str, pad: str = "0") -> tuple:
    return ("num", spec, pad)


def _lit(text: str) -> tuple:
    return ("lit", text)


_H_M_S = [_num("Hour"), _lit(":"), _num("Minute"), _lit(":"), _num("Second")]
_COMPOSITE = {
    "D": [_num("Month"), _lit("/"), _num("Day"), _lit("/"), _num("YearMod100")],
    "x": [_num("Month"), _lit("/"), _num("Day"), _lit("/"), _num("YearMod100")],
    "F": [_num("Year"), _lit("-"), _num("Month"), _lit("-"), _num("Day")],
    "R": [_num("Hour"), _lit(":"), _num("Minute")],
    "T": _H_M_S, "X": _H_M_S,
    "r": [_num("Hour12"), _lit(":"), _num("Minute"), _lit(":"), _num("Second"),
          ("space", " "), ("fix", "UpperAmPm")],
    "c": [("fix", "ShortWeekdayName"), ("space", " "), ("fix", "ShortMonthName"),
          ("space", " "), _num("Day", " "), ("space", " ")] + _H_M_S
    + [("space", " "), _num("Year")],
    "v": [_num("Day", " "), _lit("-"), ("fix", "ShortMonthName"), _lit("-"), _num("Year")],
    "n": [("space", "\n")], "t": [("space", "\t")], "%": [_lit("%")],
}
_AFTER_DOT = {"f": "Nanosecond", "3": "Nanosecond3", "6": "Nanosecond6", "9": "Nanosecond9"}


def format_items(fmt: str) -> list[tuple]:
    """The items of format string ``fmt``, as chrono reads them."""
    items: list[tuple] = []
    i = 0
    while i < len(fmt):
        c = fmt[i]
        if c != "%":
            j = i
            white = c.isspace()
            while j < len(fmt) and fmt[j] != "%" and fmt[j].isspace() == white:
                j += 1
            items.append(("space" if white else "lit", fmt[i:j]))
            i = j
            continue
        rest = fmt[i + 1:]
        consumed, found = _specifier(rest)
        items.extend(found)
        i += 1 + consumed
    return items


def _specifier(rest: str) -> tuple[int, list[tuple]]:
    """Characters read after a ``%`` and the items they stand for."""
    if not rest:
        return 0, [("error",)]
    pad = {"-": "", "0": "0", "_": " "}.get(rest[0])
    alternate = rest[0] == "#"
    used = 1 if pad is not None or alternate else 0
    if used >= len(rest):
        return used, [("error",)]
    spec = rest[used]
    consumed, found = _plain_specifier(spec, rest[used + 1:])
    used += 1 + consumed
    if alternate:
        return used, [("fix", "TimezoneOffsetPermissive") if spec == "z" else ("error",)]
    if pad is None:
        return used, found
    if len(found) == 1 and found[0][0] == "num":
        return used, [_num(found[0][1], pad)]
    return used, [("error",)]  # padding only modifies a single numeric item


def _plain_specifier(spec: str, rest: str) -> tuple[int, list[tuple]]:
    """The items of specifier ``spec`` and how many characters after it it reads."""
    if spec in _NUMERIC:
        return 0, [_num(*_NUMERIC[spec])]
    if spec in _FIXED:
        return 0, [("fix", _FIXED[spec])]
    if spec in _COMPOSITE:
        return 0, list(_COMPOSITE[spec])
    if spec == ":":
        return min(1, len(rest)), [("fix", "TimezoneOffsetColon") if rest[:1] == "z"
                                   else ("error",)]
    if spec == ".":
        if rest[:1] == "f":
            return 1, [("fix", "Nanosecond")]
        if rest[:1] in ("3", "6", "9"):
            ok = rest[1:2] == "f"
            return min(2, len(rest)), [("fix", _AFTER_DOT[rest[0]]) if ok else ("error",)]
        return min(1, len(rest)), [("error",)]
    if spec in ("3", "6", "9"):
        return min(1, len(rest)), [("fix", f"Nanosecond{spec}NoDot") if rest[:1] == "f"
                                   else ("error",)]
    return 0, [("error",)]


def format_value(fmt: str, date: Optional[int], time: Optional[tuple],
                 offset: Optional[int] = None) -> Optional[str]:
    """``fmt`` applied to a date (days), a time ``(seconds, nanos)`` and an offset (all
    local), or None where chrono's formatting fails."""
    out = []
    for item in format_items(fmt):
        kind = item[0]
        if kind in ("lit", "space"):
            out.append(item[1])
            continue
        if kind == "error":
            return None
        text = _numeric(item[1], item[2], date, time, offset) if kind == "num" \
            else _fixed(item[1], date, time, offset)
        if text is None:
            return None
        out.append(text)
    return "".join(out)


def _number(spec: str, date, time, offset) -> Optional[int]:
    if spec == "Timestamp":
        if date is None or time is None:
            return None
        return date * DAY_SECONDS + time[0] - (offset or 0)
    if spec in ("Hour", "Hour12", "Minute", "Second", "Nanosecond"):
        if time is None:
            return None
        h, m, s, n = clock(time)
        return {"Hour": h, "Hour12": (h % 12) or 12, "Minute": m, "Second": s,
                "Nanosecond": n}[spec]
    if date is None:
        return None
    y, mo, d = civil_from_days(date)
    iso_year, week = iso_week(date)
    return {"Year": y, "YearDiv100": y // 100, "YearMod100": y % 100, "IsoYear": iso_year,
            "IsoYearDiv100": iso_year // 100, "IsoYearMod100": iso_year % 100,
            "Month": mo, "Day": d, "WeekFromSun": week_from_sunday(date),
            "WeekFromMon": week_from_monday(date), "IsoWeek": week,
            "NumDaysFromSun": (weekday(date) + 1) % 7, "WeekdayFromMon": weekday(date) + 1,
            "Ordinal": ordinal(date)}[spec]


def _numeric(spec: str, pad: str, date, time, offset) -> Optional[str]:
    v = _number(spec, date, time, offset)
    if v is None:
        return None
    width = WIDTH[spec] or 1
    if spec in ("Year", "IsoYear") and not 0 <= v < 10_000:
        # years outside four digits carry an explicit sign (ISO 8601)
        return {"": f"{v:+d}", "0": f"{v:+0{width + 1}d}", " ": f"{v:+{width + 1}d}"}[pad]
    return {"": f"{v:d}", "0": f"{v:0{width}d}", " ": f"{v:{width}d}"}[pad]


def _fixed(name: str, date, time, offset) -> Optional[str]:
    if name in ("ShortMonthName", "LongMonthName", "ShortWeekdayName", "LongWeekdayName"):
        if date is None:
            return None
        word = MONTH_NAMES[civil_from_days(date)[1] - 1] if "Month" in name \
            else WEEKDAY_NAMES[weekday(date)]
        return word[:3] if name.startswith("Short") else word
    if name in ("LowerAmPm", "UpperAmPm"):
        if time is None:
            return None
        text = "PM" if time[0] >= 12 * 3600 else "AM"
        return text.lower() if name == "LowerAmPm" else text
    if name.startswith("Nanosecond"):
        return None if time is None else _fraction(name, time[1] % NANOS)
    if name in ("TimezoneName", "TimezoneOffsetColon", "TimezoneOffset"):
        if offset is None:
            return None
        if name == "TimezoneName":  # a fixed offset's name is its Display
            text = offset_text(offset, True)
            return text + (f":{abs(offset) % 60:02d}" if offset % 60 else "")
        return offset_text(offset, name == "TimezoneOffsetColon")
    if name == "RFC3339":
        if date is None or time is None or offset is None:
            return None
        return f"{date_text(date)}T{debug_time_text(time)}{offset_text(offset, True)}"
    return None  # parsing-only items (TimezoneOffsetPermissive)


def _fraction(name: str, nanos: int) -> str:
    if name == "Nanosecond":  # %.f: only when nonzero, in 3, 6 or 9 digits
        if nanos == 0:
            return ""
        if nanos % 1_000_000 == 0:
            return f".{nanos // 1_000_000:03d}"
        if nanos % 1000 == 0:
            return f".{nanos // 1000:06d}"
        return f".{nanos:09d}"
    digits = int(name[len("Nanosecond")])
    text = f"{nanos // 10 ** (9 - digits):0{digits}d}"
    return text if name.endswith("NoDot") else "." + text
