"""The regex library: Rust's `regex` crate semantics where Python's `re` differs, and
the crate's messages for invalid patterns."""
from __future__ import annotations

import re

import pytest

from dl2sql.udfs.lib_regex import (NEVER, regex, regex_all_matches, regex_first_match,
                                   regex_match, regex_set, regex_set_match, try_regex,
                                   try_regex_set)
from dl2sql.udfs.regex_syntax import translate


def all_matches(pattern: str, text: str) -> list[str]:
    return list(regex_all_matches(pattern, text))


def first(pattern: str, text: str):
    found = regex_first_match(pattern, text)
    return found.fields[0] if found.ctor.endswith("Some") else None


def error(pattern: str) -> str:
    result = try_regex(pattern)
    assert result.ctor == "ddlog_std::Err", result
    return result.fields[0]


# ------------------------------------------------------------------ where re differs
def test_empty_match_right_after_a_match_is_skipped():
    # the crate's find_iter drops the empty match at 4 that Python 3.7+ keeps
    assert all_matches("a*", "baaac") == ["", "aaa", ""]
    assert re.findall("a*", "baaac") == ["", "aaa", "", ""]
    assert all_matches("x*", "abxd") == ["", "", "x", ""]


def test_dollar_is_the_end_of_text_without_m():
    assert all_matches("a$", "a\n") == []
    assert re.findall("a$", "a\n") == ["a"]
    assert all_matches("(?m)a$", "a\nb") == ["a"]
    assert all_matches("(?m)^.", "a\nb") == ["a", "b"]


def test_unicode_word_class_includes_combining_marks():
    text = "x\u0301y"  # x, COMBINING ACUTE ACCENT, y
    assert all_matches(r"\w+", text) == [text]
    assert re.findall(r"\w+", text) == ["x", "y"]


def test_word_boundary_follows_the_crates_word_class():
    assert all_matches(r"\b\w+\b", "x\u0301y z") == ["x\u0301y", "z"]


def test_unicode_classes_and_scripts():
    assert all_matches(r"\pL+", "abc1δε") == ["abc", "δε"]
    assert all_matches(r"\p{Greek}+", "abc δε") == ["δε"]
    assert all_matches(r"\PL+", "ab12cd") == ["12"]
    assert all_matches(r"\d+", "x١٢3") == ["١٢3"]  # Arabic-Indic digits are \d


def test_ascii_classes_under_minus_u():
    assert all_matches(r"(?-u:\d)+", "١٢3") == ["3"]
    assert all_matches(r"(?-u:\w)+", "héllo") == ["h", "llo"]


def test_set_operations_in_classes_from_the_left():
    assert all_matches(r"[a-z&&[^aeiou]]+", "hello") == ["h", "ll"]
    assert all_matches(r"[a-z--[aeiou]]+", "queue") == ["q"]
    assert all_matches(r"[a-c~~b-d]+", "abcd") == ["a", "d"]
    # the crate evaluates && -- ~~ left to right with one precedence
    assert all_matches(r"[a-z--b&&a-c]", "abc") == ["a", "c"]


def test_negated_classes():
    assert all_matches(r"[^\W\d]+", "ab1 é_") == ["ab", "é_"]
    assert all_matches(r"[\D]+", "ab1c") == ["ab", "c"]
    # a nested class may be empty; the regex module alone mistakes both of these
    assert all_matches(r"[[^\s\S]a]", "ab") == ["a"]
    assert "empty character classes are not allowed" in error(r"[^\pL\PL]")


def test_ascii_class_names():
    assert all_matches(r"[[:digit:][:upper:]]+", "aB1c") == ["B1"]
    assert all_matches(r"[[:^alpha:]]+", "ab12cd") == ["12"]


def test_leftmost_first_alternation():
    assert first("a|ab", "ab") == "a"
    assert first("ab|a", "ab") == "ab"


def test_scoped_flags_and_swap_greed():
    assert all_matches("a(?i)b", "aB AB") == ["aB"]
    assert all_matches("(?i:a)b", "Ab AB") == ["Ab"]
    assert first("(?U)a+", "aaa") == "a"
    assert first("(?U)a+?", "aaa") == "aaa"
    assert first("(?s).+", "a\nb") == "a\nb"
    assert first(".+", "a\nb") == "a"


def test_case_folding_is_simple():
    assert regex_match("(?i)k", "\u212a")  # KELVIN SIGN folds to k
    assert not regex_match("(?i)straße", "STRASSE")  # no full folding


def test_verbose_mode_ignores_space_and_comments():
    assert first("(?x) a b # comment\n c", "abc") == "abc"
    assert first(r"(?x) a\ b", "a b") == "a b"


def test_escapes():
    assert first(r"\x41\u0042\x{43}", "ABC") == "ABC"
    assert first(r"\.\+\*", "a.+*") == ".+*"
    assert first(r"\A\d", "1") == "1" and not regex_match(r"\Aa", "ba")
    assert regex_match(r"a\z", "a") and not regex_match(r"a\z", "a\n")


def test_counted_repetition_with_spaces():
    assert first("a{ 2 }", "aaa") == "aa"
    assert first("a{2,}?", "aaaa") == "aa"


# ------------------------------------------------------------------ the API
def test_invalid_patterns_through_the_api():
    assert regex("[") == NEVER and not regex_match(regex("["), "a^")
    assert regex("") == "" and regex_match("", "anything")
    assert regex_set(("a", "[")) == () and not regex_set_match(regex_set(("a", "[")), "a")
    assert regex_set_match(regex_set((r"\d", "b")), "abc")
    assert try_regex_set(("a", "(", "[")).fields[0] == error("(")
    assert try_regex_set(("a",)).ctor == "ddlog_std::Ok"


def test_first_match_none():
    assert first(r"\d", "abc") is None


# ------------------------------------------------------------------ errors
@pytest.mark.parametrize("pattern,caret,what", [
    ("[", "^", "unclosed character class"),
    ("(a", "^", "unclosed group"),
    ("a)", " ^", "unopened group"),
    ("*", "^", "repetition operator missing expression"),
    ("a{3,2}", " ^^^^^", "invalid repetition count range, the start must be <= the end"),
    ("x{2", " ^^", "unclosed counted repetition"),
    ("a{,2}", "  ^", "repetition quantifier expects a valid decimal"),
    (r"(a)\1", "   ^^", "backreferences are not supported"),
    ("(?=a)", "^^^", "look-around, including look-ahead and look-behind, is not supported"),
    ("(?<!a)", "^^^^", "look-around, including look-ahead and look-behind, is not supported"),
    ("(?<n>a)", "  ^", "unrecognized flag"),
    ("(?i-)", "   ^", "dangling flag negation operator"),
    ("(?ii)", "   ^", "duplicate flag"),
    (r"\q", "^^", "unrecognized escape sequence"),
    (r"[z-a]", " ^^^", "invalid character class range, the start must be <= the end"),
    (r"\p{Foo}", "^^^^^^^", "Unicode property not found"),
    (r"(?P<1a>x)", "    ^", "invalid capture group character"),
    (r"(?P<a>x)(?P<a>y)", "            ^", "duplicate capture group name"),
    (r"\xZZ", "  ^", "invalid hexadecimal digit"),
    (r"(?-u:é)", "     ^", "Unicode not allowed here"),
    (r"(?-u).", "     ^", "pattern can match invalid UTF-8"),
    (r"x[a&&b]", " ^^^^^^", "empty character classes are not allowed"),
])
def test_crate_error_messages(pattern, caret, what):
    assert error(pattern) == f"regex parse error:\n    {pattern}\n    {caret}\nerror: {what}"


def test_multi_line_pattern_error_numbers_lines():
    assert error("a\n(") == ("regex parse error:\n" + "~" * 79 + "\n1: a\n2: (\n   ^\n"
                             + "~" * 79 + "\nerror: unclosed group")


def test_translation_is_cached_and_deterministic():
    assert translate(r"\d+") == translate(r"\d+")
