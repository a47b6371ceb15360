"""The TOML writer: whatever it writes, ``tomllib`` reads back as the same value."""

from __future__ import annotations

import pytest

from dagroute_lint.deployment.init import toml_writer as tw
from dagroute_lint.deployment.toml import toml

# Every ASCII character (controls included), DEL, C1 controls, and text beyond the BMP.
AWKWARD = [
    "".join(chr(code) for code in range(0x00, 0x80)),
    "\x7f\x80\x9f\u00e9\u2028\u2029\ufeff\U0001f680",
    'quote " backslash \\ end\\',
    "'single' '''triple''' \"\"\"triple\"\"\"",
    "\\u0041 is not an escape here",
    "",
    " ",
    "# not a comment",
    "a = 1\n[table]",
]


@pytest.mark.parametrize("value", AWKWARD)
def test_strings_round_trip(value: str) -> None:
    assert toml.loads(f"v = {tw.string(value)}") == {"v": value}


@pytest.mark.parametrize("name", [*AWKWARD, "bare_key-1", "dotted.key", "Name With Space"])
def test_keys_round_trip(name: str) -> None:
    assert toml.loads(f"{tw.key(name)} = 1") == {name: 1}


def test_bare_keys_stay_bare() -> None:
    assert tw.key("default_pool") == "default_pool"
    assert tw.key("spark-image") == "spark-image"
    assert tw.key("my pool") == '"my pool"'


def test_arrays_round_trip_inline_and_multiline() -> None:
    short = ["a", 'b"c']
    assert tw.array(short) == '["a", "b\\"c"]'
    long = [f"package-{index}==1.0.{index}" for index in range(20)]
    text = tw.array(long)
    assert text.count("\n") == 21
    for values in (short, long, AWKWARD, []):
        assert toml.loads(f"v = {tw.array(values)}") == {"v": values}


@pytest.mark.parametrize("text", AWKWARD)
def test_comments_never_leak_into_the_document(text: str) -> None:
    rendered = tw.comment(text)
    assert "\n" not in rendered
    assert toml.loads(f"{rendered}\nv = 1\n") == {"v": 1}


def test_lone_surrogates_are_refused_in_values_and_escaped_in_comments() -> None:
    undecodable = b"caf\xe9".decode("utf-8", "surrogateescape")
    with pytest.raises(ValueError, match="lone surrogate"):
        tw.string(undecodable)
    assert tw.comment(undecodable) == "# caf\\udce9"


def test_long_comments_wrap_into_comment_lines() -> None:
    long_word = "/a" + "/very-long-path" * 8
    text = "NOTE: " + " ".join(f"word{index}" for index in range(40)) + " " + long_word
    lines = tw.comment_lines(text + "\nnot a key = 1", width=60)
    assert len(lines) > 3
    assert all(line.startswith("# ") for line in lines)
    assert all(len(line) <= 60 for line in lines if long_word not in line)
    assert any(long_word in line for line in lines)  # a word longer than the width stays whole
    assert toml.loads("\n".join(lines) + "\nv = 1\n") == {"v": 1}
    assert tw.comment_lines("short") == ["# short"]
