"""``--format sarif`` is valid SARIF 2.1.0 (the official schema, in tests/data) for any input."""

from __future__ import annotations

import email.message
import json
import os
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import unquote_to_bytes

import jsonschema
import pytest
from click.testing import CliRunner

from dagroute_lint.cli import main
from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.formatters.sarif import format_sarif
from dagroute_lint.rules import RULES
from dagroute_lint.rules.pages import page_text
from tests.helpers import CELERY_K8S, write_repo

SCHEMA = json.loads(
    (Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8")
)
# Every format the schema names is checked (uri, uri-reference with rfc3986-validator, ...).
VALIDATOR = jsonschema.Draft4Validator(SCHEMA, format_checker=jsonschema.FormatChecker())

HOSTILE_DAG = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
import os

with DAG("lab \\"quoted\\" \\u00e9t\\u00e9 \\U0001F680"):
    BashOperator(task_id="line\\nbreak \\"q\\" <b>&amp;", bash_command="x", queue="r\\u00e9ports")
    BashOperator(task_id="dyn", bash_command="x", queue=os.environ["Q"])
"""
HOSTILE_NAMES = [
    "dags/plain.py",
    "dags/sp ace #1 %41 ?q=1.py",
    "dags/quote\"s'.py",
    "dags/ünïcödé/日本語.py",
    "dags/new\nline.py",
    "dags/colon:first.py",
]


def validate(log: dict[str, Any]) -> None:
    errors = sorted(VALIDATOR.iter_errors(log), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:5])


def sarif_of(args: list[str]) -> dict[str, Any]:
    result = CliRunner().invoke(main, [*args, "--format", "sarif"])
    assert result.exit_code == 1, result.output + result.stderr
    log: dict[str, Any] = json.loads(result.stdout)
    return log


def test_hostile_files_and_messages_give_valid_sarif(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_repo(
        tmp_path,
        {"dagroute.toml": CELERY_K8S, "dags/broken.py": "with DAG(:\n"}
        | dict.fromkeys(HOSTILE_NAMES, HOSTILE_DAG),
    )
    monkeypatch.chdir(tmp_path)
    log = sarif_of(["dags"])
    validate(log)

    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    results = run["results"]
    text = CliRunner().invoke(main, ["dags"]).stdout
    assert len(results) == len(text.splitlines())
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
        assert location["region"]["startLine"] >= 1
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
    decoded = {unquote_to_bytes(uri).decode("utf-8") for uri in uris}
    assert decoded == {*HOSTILE_NAMES, "dags/broken.py"}
    messages = {r["message"]["text"] for r in results}
    assert any('line\nbreak "q" <b>&amp;' in message for message in messages)
    levels = {r["ruleId"]: r["level"] for r in results}
    # The DAG's id is in six files (DRL002) and its ids are not Airflow ids (DRL006).
    assert levels == {
        "DRL001": "error",
        "DRL002": "error",
        "DRL006": "error",
        "DRL101": "error",
        "DRL105": "warning",
    }


def test_each_result_carries_its_diagnostics_facts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In ``properties``, as the JSON format's ``facts``, and still valid with hostile ids."""
    write_repo(tmp_path, {"dagroute.toml": CELERY_K8S, "dags/report.py": HOSTILE_DAG})
    monkeypatch.chdir(tmp_path)
    log = sarif_of(["dags"])
    validate(log)
    results = log["runs"][0]["results"]
    document = json.loads(CliRunner().invoke(main, ["dags", "--format", "json"]).stdout)
    assert [r["properties"] for r in results] == [d["facts"] for d in document]
    (queue,) = [r["properties"] for r in results if r["ruleId"] == "DRL101"]
    assert (queue["kind"], queue["item"]) == ("queue", "r\u00e9ports")
    assert (queue["dag_id"], queue["task_id"]) == (
        'lab "quoted" \u00e9t\u00e9 \U0001f680',
        'line\nbreak "q" <b>&amp;',
    )


def test_paths_that_are_absolute_or_not_utf8_are_still_uris() -> None:
    undecodable = os.fsdecode(b"dags/caf\xe9.py")
    diagnostics = [
        Diagnostic("/srv/airflow/dags/a b.py", 3, 5, "DRL101", "m"),
        Diagnostic(undecodable, 1, 1, "DRL001", "bad bytes \x00 \x1b[31m red"),
        Diagnostic("dags/x.py", 2, 1, "PLUGIN1", "a code no registered rule owns"),
    ]
    log = json.loads(format_sarif(diagnostics))
    validate(log)
    absolute, raw, plugin = log["runs"][0]["results"]
    assert absolute["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "file:///srv/airflow/dags/a%20b.py"
    }
    location = raw["locations"][0]["physicalLocation"]["artifactLocation"]
    assert unquote_to_bytes(location["uri"]) == b"dags/caf\xe9.py"
    assert raw["message"]["text"] == "bad bytes \x00 \x1b[31m red"
    assert "ruleIndex" not in plugin and plugin["ruleId"] == "PLUGIN1"


def test_a_result_carries_its_own_level_and_its_rule_the_default() -> None:
    """DRL204 is an error rule whose deprecation findings are warnings: the result says so."""
    log = json.loads(format_sarif([Diagnostic("dags/a.py", 1, 1, "DRL204", "m", None, "warning")]))
    validate(log)
    (result,) = log["runs"][0]["results"]
    assert result["level"] == "warning"
    rule = log["runs"][0]["tool"]["driver"]["rules"][result["ruleIndex"]]
    assert rule["defaultConfiguration"]["level"] == "error"


def test_rules_carry_their_pages_and_severity() -> None:
    log = json.loads(format_sarif([]))
    validate(log)
    driver = log["runs"][0]["tool"]["driver"]
    assert driver["name"] == "dagroute-lint"
    assert log["runs"][0]["results"] == []
    assert [rule["id"] for rule in driver["rules"]] == [rule.code for rule in RULES]
    for rule, descriptor in zip(RULES, driver["rules"]):
        assert descriptor["name"] == rule.name
        assert descriptor["shortDescription"]["text"] == rule.summary
        assert descriptor["defaultConfiguration"]["level"] == rule.severity
        text = page_text(rule.code)
        if text is None:  # a rule without a page: the page test reports it
            continue
        assert descriptor["help"]["markdown"] == text
        assert "```" not in descriptor["help"]["text"]
        assert "`" not in descriptor["fullDescription"]["text"]
        assert descriptor["fullDescription"]["markdown"] in text


def test_schema_catches_what_it_should() -> None:
    """The vendored schema is strict enough to fail a malformed result."""
    log = json.loads(format_sarif([Diagnostic("dags/a.py", 1, 1, "DRL001", "m")]))
    log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
    assert list(VALIDATOR.iter_errors(log))
    log = json.loads(format_sarif([Diagnostic("dags/a.py", 1, 1, "DRL001", "m")]))
    log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] = (
        "dags/a b.py"
    )
    assert list(VALIDATOR.iter_errors(log))


def test_information_uri_is_the_declared_home_page_or_absent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    declared = email.message.Message()
    declared["Project-URL"] = "Changelog, https://example.org/changes"
    declared["Project-URL"] = "Homepage, https://example.org/dagroute-lint"
    monkeypatch.setattr(metadata, "metadata", lambda name: declared)
    log = json.loads(format_sarif([]))
    validate(log)
    assert log["runs"][0]["tool"]["driver"]["informationUri"] == "https://example.org/dagroute-lint"
    monkeypatch.setattr(metadata, "metadata", lambda name: email.message.Message())
    assert "informationUri" not in json.loads(format_sarif([]))["runs"][0]["tool"]["driver"]


def test_each_rule_points_at_its_page_in_this_installation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No documentation URL is declared: ``helpUri`` is the page file ``explain`` prints."""
    write_repo(tmp_path, {"dagroute.toml": CELERY_K8S, "dags/report.py": HOSTILE_DAG})
    monkeypatch.chdir(tmp_path)
    log = sarif_of(["dags"])
    validate(log)
    for descriptor in log["runs"][0]["tool"]["driver"]["rules"]:
        uri = descriptor["helpUri"]
        assert uri.startswith("file:///"), uri
        page = Path(unquote_to_bytes(uri.removeprefix("file://")).decode("utf-8"))
        assert page.name == f"{descriptor['id']}.md"
        assert page.read_text(encoding="utf-8") == descriptor["help"]["markdown"]


def test_a_declared_documentation_url_holds_the_rule_pages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    declared = email.message.Message()
    declared["Project-URL"] = "Homepage, https://git.internal/platform/dagroute-lint"
    declared["Project-URL"] = "Documentation, https://git.internal/platform/dagroute-lint/tree/v2/"
    monkeypatch.setattr(metadata, "metadata", lambda name: declared)
    log = json.loads(format_sarif([]))
    validate(log)
    driver = log["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == "https://git.internal/platform/dagroute-lint"
    assert [rule["helpUri"] for rule in driver["rules"]] == [
        f"https://git.internal/platform/dagroute-lint/tree/v2/rules/{rule.code}.md"
        for rule in RULES
    ]


def test_a_help_uri_that_is_not_a_uri_fails_the_schema() -> None:
    """The check above means something: the schema's ``uri`` format refuses a bare path."""
    log = json.loads(format_sarif([]))
    log["runs"][0]["tool"]["driver"]["rules"][0]["helpUri"] = "rules/DRL001.md"
    assert list(VALIDATOR.iter_errors(log))
