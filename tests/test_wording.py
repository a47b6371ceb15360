"""The one "did you mean" helper every message uses, and the phrases rules share."""

from __future__ import annotations

import pytest

from dagroute_lint.wording import close_matches, cut, did_you_mean, duration, similarity


@pytest.mark.parametrize(
    ("name", "choices", "expected"),
    [
        # A shared start beats more letters shared elsewhere.
        ("orwell_ssh_pool", ["wells_ssh_pool", "orwell_scp_pool"], "orwell_scp_pool"),
        # Equal scores: the name of the same length, then the first in order, never the last.
        ("DRL1", ["DRL501", "DRL102", "DRL101"], "DRL101"),
        ("report", ["reports", "report_archive"], "reports"),
        ("bsae", ["base"], "base"),  # two letters swapped
        ("spark", ["base", "spark-image"], "spark-image"),  # cut short
        ("deafult_pool", ["dead_pool", "default_pool"], "default_pool"),
        ("id", ["ids"], "ids"),
    ],
)
def test_the_closest_choice_is_suggested(name: str, choices: list[str], expected: str) -> None:
    assert close_matches(name, choices) == [expected]
    assert did_you_mean(name, choices) == f"; did you mean '{expected}'?"


@pytest.mark.parametrize(
    ("name", "choices"),
    [("aws_prod", ["aws_default"]), ("report", ["big", "default_pool"]), ("x", []), ("", ["a"])],
)
def test_nothing_close_suggests_nothing(name: str, choices: list[str]) -> None:
    assert close_matches(name, choices) == []
    assert did_you_mean(name, choices) == ""


def test_several_matches_best_first_and_quoting_is_the_callers() -> None:
    assert close_matches("DRL10", ["DRL105", "DRL101", "DRL201", "DRL102"], limit=3) == [
        "DRL101",
        "DRL102",
        "DRL105",
    ]
    assert did_you_mean("selct", ["select", "ignore"], quote=str) == "; did you mean select?"


def test_similarity_is_jaro_winkler() -> None:
    # The textbook pairs (Winkler 1990).
    assert round(similarity("MARTHA", "MARHTA"), 3) == 0.961
    assert round(similarity("DWAYNE", "DUANE"), 3) == 0.84
    assert round(similarity("DIXON", "DICKSONX"), 3) == 0.813
    assert similarity("same", "same") == 1.0
    assert similarity("abc", "xyz") == 0.0


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (604_800, "7 days"),
        (86_400, "1 day"),
        (7_200, "2 hours"),
        (90, "90 seconds"),
        (1, "1 second"),
    ],
)
def test_duration(seconds: float, text: str) -> None:
    assert duration(seconds) == text


def test_cut_keeps_a_short_text_and_ends_a_long_one_with_dots_within_the_limit() -> None:
    assert cut("a" * 40, 40) == "a" * 40
    assert cut("a" * 41, 40) == "a" * 37 + "..."
