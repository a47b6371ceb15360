"""What `dagroute-lint rules` and `explain` print, to the character: the listing's columns and
JSON keys, and each way `explain` refuses a query (prefix, close names, nothing close)."""

from __future__ import annotations

import json

import pytest

from dagroute_lint.errors import ConfigError
from dagroute_lint.rules import RULES
from dagroute_lint.rules.listing import explain, rule_listing
from dagroute_lint.rules.registry import rule_name

HINT = " (`dagroute-lint rules` lists every rule)"


def test_text_listing_aligns_columns_and_marks_opt_in_rules() -> None:
    lines = rule_listing("text").splitlines(keepends=True)
    assert len(lines) == len(RULES)
    (drl101,) = [line for line in lines if line.startswith("DRL101 ")]
    assert drl101 == (
        "DRL101  unserved-queue               dispatch  queue-honouring executor and no worker "
        "of it serves the task's queue\n"
    )
    (drl901,) = [line for line in lines if line.startswith("DRL901 ")]
    assert drl901 == (
        "DRL901  unused-noqa                  suppression a `# noqa` code that silences no "
        "diagnostic (opt-in)\n"
    )


def test_json_listing_has_every_key_indented() -> None:
    text = rule_listing("json")
    assert text.startswith('[\n  {\n    "code": "DRL001",\n    "name": "syntax-error",\n')
    assert text.endswith("\n  }\n]\n")
    (drl901,) = [rule for rule in json.loads(text) if rule["code"] == "DRL901"]
    assert drl901 == {
        "code": "DRL901",
        "name": "unused-noqa",
        "boundary": "suppression",
        "severity": "warning",
        "needs_inventory": False,
        "default_enabled": False,
        "summary": "a `# noqa` code that silences no diagnostic",
        "plugin": None,
    }
    (drl101,) = [rule for rule in json.loads(text) if rule["code"] == "DRL101"]
    assert drl101["needs_inventory"] is True


def test_explain_ends_a_page_with_one_newline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("dagroute_lint.rules.listing.page_text", lambda code: f"# {code}")
    assert explain(" drl101 ") == "# DRL101\n"
    monkeypatch.setattr("dagroute_lint.rules.listing.page_text", lambda code: f"# {code}\n")
    assert explain("unserved-queue") == "# DRL101\n"


@pytest.mark.parametrize(
    ("query", "message"),
    [
        (
            "DRL90",
            "unknown rule 'DRL90': it is a prefix of DRL901..DRL902; explain takes one rule's "
            "code or name",
        ),
        (
            "drl3",
            "unknown rule 'drl3': it is a prefix of DRL301..DRL304; explain takes one "
            "rule's code or name",
        ),
        ("drl1011", "unknown rule 'drl1011'; did you mean DRL101, DRL011, DRL102?" + HINT),
        (
            "provider-missing-on-work",
            "unknown rule 'provider-missing-on-work'; did you mean DRL202, DRL201?" + HINT,
        ),
        ("unknown-po", "unknown rule 'unknown-po'; did you mean DRL301, DRL103, DRL004?" + HINT),
        ("", "unknown rule ''" + HINT),
    ],
)
def test_explain_refuses_with_the_exact_message(query: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        explain(query)
    assert str(caught.value) == message


def test_rule_names_by_code() -> None:
    assert rule_name("DRL101") == "unserved-queue"
    assert rule_name("XYZ999") is None
