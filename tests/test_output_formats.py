"""The machine-read formats, pinned to the byte: JSON, GitLab Code Quality, SARIF and statistics.

CI systems and scripts parse these, so the tests give whole expected documents (indentation,
keys, order) rather than checking a few fields.
"""

from __future__ import annotations

import email.message
import json
import textwrap
from importlib import metadata

import pytest

from dagroute_lint.diagnostics import Diagnostic, Facts, Related
from dagroute_lint.formatters import sarif
from dagroute_lint.formatters.gitlab import format_gitlab
from dagroute_lint.formatters.json import format_json
from dagroute_lint.formatters.sarif import format_sarif
from dagroute_lint.formatters.statistics import format_statistics
from dagroute_lint.records import replace

QUEUE = Diagnostic("dags/a.py", 3, 5, "DRL101", "no worker")
POOL = Diagnostic("dags/a.py", 7, 12, "DRL301", "no pool")
PLUGIN = Diagnostic("dags/b.py", 1, 1, "XYZ100", "a plugin's")
FACTS = Facts("queue", "reports", "lab", "build", (("lab", "build"),), (("general", "base"),))
UNSERVED = Diagnostic("dags/a.py", 3, 5, "DRL101", "no worker", facts=FACTS)


def test_json_document() -> None:
    place = Related("dags/a.py", 1, 6, "queue 'reports' set here, in DAG 'lab' default_args")
    assert format_json([replace(UNSERVED, related=(place,)), PLUGIN]) == textwrap.dedent("""\
        [
          {
            "file": "dags/a.py",
            "line": 3,
            "column": 5,
            "end_line": null,
            "end_column": null,
            "code": "DRL101",
            "name": "unserved-queue",
            "severity": "error",
            "message": "no worker",
            "fix": null,
            "facts": {
              "kind": "queue",
              "item": "reports",
              "dag_id": "lab",
              "task_id": "build",
              "tasks": [
                {
                  "dag_id": "lab",
                  "task_id": "build"
                }
              ],
              "workers": [
                {
                  "worker": "general",
                  "runtime": "base"
                }
              ],
              "runtime": null
            },
            "related": [
              {
                "file": "dags/a.py",
                "line": 1,
                "column": 6,
                "message": "queue 'reports' set here, in DAG 'lab' default_args"
              }
            ]
          },
          {
            "file": "dags/b.py",
            "line": 1,
            "column": 1,
            "end_line": null,
            "end_column": null,
            "code": "XYZ100",
            "name": null,
            "severity": "error",
            "message": "a plugin's",
            "fix": null,
            "facts": {
              "kind": "other",
              "item": null,
              "dag_id": null,
              "task_id": null,
              "tasks": [],
              "workers": [],
              "runtime": null
            },
            "related": []
          }
        ]
        """)


def test_gitlab_report_numbers_identical_problems_and_ignores_lines() -> None:
    moved = Diagnostic("dags/a.py", 30, 5, "DRL101", "no worker")
    report = format_gitlab([QUEUE, moved, QUEUE, POOL])
    issues = json.loads(report)
    assert report.startswith('[\n  {\n    "description": "DRL101 no worker",\n')
    # The first 32 hex digits of sha256("DRL101\0dags/a.py\0no worker\0<n>"), the n-th such
    # problem counted from 0 (the one moved to line 30 is the second).
    assert [issue["fingerprint"] for issue in issues] == [
        "90607df502e520f57d02657abdffe692",
        "920423e7999b647d88d28c824d39e987",
        "e2c12b879cfdf1d2e10b2a45c666f5cc",
        "04d2eae793097e65a5116344514c026c",
    ]
    assert issues[0] == {
        "description": "DRL101 no worker",
        "check_name": "DRL101",
        "fingerprint": issues[0]["fingerprint"],
        "severity": "major",
        "location": {"path": "dags/a.py", "lines": {"begin": 3}},
    }


def fingerprint(diagnostic: Diagnostic) -> str:
    (issue,) = json.loads(format_gitlab([diagnostic]))
    return str(issue["fingerprint"])


def test_gitlab_fingerprints_follow_the_facts_not_the_wording() -> None:
    """A reworded message, or other workers lacking the item, is the same problem to GitLab;
    another item is another problem. Facts that name no item leave it to the message."""
    same = fingerprint(UNSERVED)
    assert fingerprint(replace(UNSERVED, message="worded otherwise")) == same
    assert fingerprint(replace(UNSERVED, facts=replace(FACTS, workers=()))) == same
    assert fingerprint(replace(UNSERVED, facts=replace(FACTS, item="imports"))) != same
    assert fingerprint(replace(UNSERVED, facts=replace(FACTS, tasks=(("lab", "x"),)))) != same
    assert fingerprint(replace(QUEUE, message="worded otherwise")) != fingerprint(QUEUE)


def test_statistics_text_most_frequent_first_then_by_code() -> None:
    many = [POOL, QUEUE, PLUGIN, POOL, QUEUE] + [PLUGIN] * 9
    assert format_statistics(many, "text") == (
        "10\tXYZ100\t\n 2\tDRL101\tunserved-queue\n 2\tDRL301\tunknown-pool\n"
    )


def test_statistics_json() -> None:
    assert format_statistics([PLUGIN, QUEUE, QUEUE], "json") == textwrap.dedent("""\
        [
          {
            "code": "DRL101",
            "name": "unserved-queue",
            "count": 2
          },
          {
            "code": "XYZ100",
            "name": "",
            "count": 1
          }
        ]
        """)


def test_statistics_of_nothing() -> None:
    assert format_statistics([], "text") == ""
    assert format_statistics([], "json") == "[]\n"


def test_sarif_is_indented_and_uris_keep_their_slashes() -> None:
    text = format_sarif([Diagnostic("dags/sub dir/a.py", 2, 9, "DRL101", "m")])
    assert text.startswith('{\n  "$schema": ')
    (result,) = json.loads(text)["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "dags/sub%20dir/a.py",
        "uriBaseId": "%SRCROOT%",
    }


def test_sarif_rules_are_tagged_with_their_boundary() -> None:
    rules = json.loads(format_sarif([]))["runs"][0]["tool"]["driver"]["rules"]
    by_id = {rule["id"]: rule for rule in rules}
    assert by_id["DRL101"]["properties"] == {"tags": ["dispatch"]}
    assert by_id["DRL201"]["properties"] == {"tags": ["parse"]}


PAGE = """\
# DRL999 made-up

Reports `a thing` that is **bad**.
  # an indented line is prose, not a heading

## Xtra example

```toml
[deployment]

executors = ["CeleryExecutor"]
```

Text after
"""


def test_sarif_help_text_is_the_page_as_plain_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sarif, "page_text", lambda code: PAGE)
    rule = json.loads(format_sarif([]))["runs"][0]["tool"]["driver"]["rules"][0]
    assert rule["help"] == {
        "markdown": PAGE,
        "text": (
            "DRL999 made-up\n\nReports a thing that is bad.\n"
            "  # an indented line is prose, not a heading\n\nXtra example\n\n"
            '    [deployment]\n\n    executors = ["CeleryExecutor"]\n\nText after'
        ),
    }


def fake_metadata(urls: list[str]) -> object:
    """``importlib.metadata.metadata`` for an installation holding only this distribution."""

    def lookup(name: str) -> email.message.Message:
        if name.lower().replace("_", "-") != "dagroute-lint":
            raise metadata.PackageNotFoundError(name)
        declared = email.message.Message()
        for url in urls:
            declared["Project-URL"] = url
        return declared

    return lookup


@pytest.mark.parametrize(
    ("urls", "expected"),
    [
        (["Source, https://example.org/a,b"], "https://example.org/a,b"),
        (
            ["Issues, https://example.org/i", "documentation,https://example.org/d"],
            "https://example.org/d",
        ),
        (["Documentation, https://example.org/d"], "https://example.org/d"),
        (["Home, "], None),
    ],
)
def test_sarif_information_uri(
    monkeypatch: pytest.MonkeyPatch, urls: list[str], expected: str | None
) -> None:
    monkeypatch.setattr(metadata, "metadata", fake_metadata(urls))
    assert sarif.information_uri() == expected
