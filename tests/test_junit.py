"""``--format junit``: the report GitLab, Jenkins and Azure Pipelines read as test results.

No JUnit schema ships in a wheel on the package index, so the structure those consumers read is
checked instead (``testsuites`` > ``testsuite`` > ``testcase`` > ``failure``, with the counts
they show), with the standard library's parser and with junitparser, a second reader written
by others.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from junitparser import Failure, JUnitXml

from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.formatters.junit import format_junit
from tests.helpers import CELERY_K8S, write_repo
from tests.test_cli import invoke

TWO_FILES = {
    "dagroute.toml": CELERY_K8S,
    "dags/a.py": """
        from airflow.providers.standard.operators.bash import BashOperator
        from airflow.sdk import DAG
        with DAG("a"):
            BashOperator(task_id="t", bash_command="x", queue="reports")
            BashOperator(task_id="u", bash_command="x", executor="Nope")
        """,
    "dags/b.py": """
        import os
        from airflow.providers.standard.operators.bash import BashOperator
        from airflow.sdk import DAG
        with DAG("b"):
            BashOperator(task_id="t", bash_command="x", queue=os.environ["Q"])
        """,
    "dags/clean.py": """
        from airflow.providers.standard.operators.bash import BashOperator
        from airflow.sdk import DAG
        with DAG("c"):
            BashOperator(task_id="t", bash_command="x")
        """,
}


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write_repo(tmp_path, TWO_FILES)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_suite_per_file_and_a_failing_case_per_diagnostic(repo: Path) -> None:
    code, out, _ = invoke("dags", "--format", "junit")
    assert code == 1
    assert out.startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
    root = ET.fromstring(out)
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("3", "3", "0")
    suites = root.findall("testsuite")
    assert [suite.get("name") for suite in suites] == ["dags/a.py", "dags/b.py"]
    assert [(s.get("tests"), s.get("failures")) for s in suites] == [("2", "2"), ("1", "1")]
    _, text, _ = invoke("dags")
    cases = [case for suite in suites for case in suite.findall("testcase")]
    assert [failure.text for case in cases for failure in case.findall("failure")] == (
        text.splitlines()
    )
    first = cases[0]
    assert first.attrib == {
        "classname": "dags/a.py",
        "name": "DRL101 unserved-queue at line 4, column 5",
        "file": "dags/a.py",
        "line": "4",
        "time": "0",
    }
    (failure,) = first.findall("failure")
    assert failure.get("type") == "DRL101"
    assert failure.get("message", "").startswith("task 't' in dag 'a' routes to queue 'reports'")
    assert (failure.text or "").startswith("dags/a.py:4:5: DRL101 [error] task 't' in dag 'a'")
    warning = cases[2].find("failure")
    assert warning is not None and " DRL105 [warning] " in (warning.text or "")


def test_junitparser_reads_what_ci_systems_show(repo: Path) -> None:
    report = repo / "reports" / "junit.xml"
    code, out, _ = invoke("dags", "--format", "junit", "--output-file", str(report))
    assert (code, out) == (1, "")
    parsed = JUnitXml.fromfile(str(report))
    suites = list(parsed)
    assert [(suite.name, suite.tests, suite.failures) for suite in suites] == [
        ("dags/a.py", 2, 2),
        ("dags/b.py", 1, 1),
    ]
    results = [(case.classname, case.result) for suite in suites for case in suite]
    kinds = [(classname, [(type(r), r.type) for r in result]) for classname, result in results]
    assert kinds == [
        ("dags/a.py", [(Failure, "DRL101")]),
        ("dags/a.py", [(Failure, "DRL103")]),
        ("dags/b.py", [(Failure, "DRL105")]),
    ]


def test_a_clean_run_is_a_passing_suite(repo: Path) -> None:
    code, out, err = invoke("dags/clean.py", "--format", "junit")
    assert code == 0, err
    root = ET.fromstring(out)
    assert (root.get("tests"), root.get("failures")) == ("1", "0")
    (suite,) = root.findall("testsuite")
    (case,) = suite.findall("testcase")
    assert (suite.get("tests"), suite.get("failures")) == ("1", "0")
    assert list(case) == []  # no failure, error or skipped child: the case passed
    parsed = JUnitXml.fromstring(out)
    assert [case.is_passed for suite in parsed for case in suite] == [True]


def test_names_and_messages_xml_cannot_hold_are_escaped_and_the_rest_kept() -> None:
    undecodable = os.fsdecode(b"dags/caf\xe9.py")
    diagnostics = [
        Diagnostic("dags/new\nline <&>.py", 1, 1, "DRL001", 'two\nlines "quoted" & <b>'),
        Diagnostic(undecodable, 2, 3, "DRL001", "nul \x00 escape \x1b[31m red"),
        Diagnostic("dags/x.py", 2, 1, "PLUGIN1", "a code no registered rule owns"),
    ]
    root = ET.fromstring(format_junit(diagnostics))
    cases = root.findall("testsuite/testcase")
    assert cases[0].get("file") == "dags/new\nline <&>.py"
    first = cases[0].find("failure")
    assert first is not None and first.get("message") == 'two\nlines "quoted" & <b>'
    assert cases[1].get("file") == "dags/caf\\udce9.py"
    second = cases[1].find("failure")
    assert second is not None and second.get("message") == "nul \\x00 escape \\x1b[31m red"
    assert cases[2].get("name") == "PLUGIN1 at line 2, column 1"
