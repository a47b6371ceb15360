"""The flake8 plugin, driven by the real flake8 in a subprocess and compared with the CLI."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from dagroute_lint import flake8_plugin
from tests.helpers import CELERY_K8S, dag_repository, run_command, write_repo

REPORT = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, TaskGroup
from common.routing import REPORTS_QUEUE

with DAG("lab"):
    BashOperator(task_id="build", bash_command="x", queue=REPORTS_QUEUE)
    with TaskGroup("grp"):
        render = BashOperator(task_id="render", bash_command="x", executor="Nope")
    BashOperator(task_id="quiet", bash_command="x", queue="reports")  # noqa: DRL101
    BashOperator(task_id="loud", bash_command="x", queue="reports")  # noqa: E501
    BashOperator(task_id="k8s", bash_command="x", executor="KubernetesExecutor", queue="imports")
"""

# flake8's own fields, separated by a character no message holds.
FIELDS = "%(path)s\t%(row)d\t%(col)d\t%(code)s\t%(text)s"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return dag_repository(tmp_path, {"dags/report.py": REPORT})


def command(repo: Path, *args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
    return run_command([sys.executable, "-m", *args], repo, input)


def flake8(repo: Path, *args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
    # --isolated: no flake8 configuration of the machine running the tests leaks in.
    return command(repo, "flake8", "--isolated", "--select", "DRL", *args, input=input)


def flake8_rows(output: str) -> list[tuple[str, int, int, str, str]]:
    rows = []
    for line in output.splitlines():
        path, row, col, code, text = line.split("\t")
        rows.append((path, int(row), int(col), code, text))
    return rows


def cli_rows(
    repo: Path, *args: str, input: str | None = None
) -> list[tuple[str, int, int, str, str]]:
    result = command(repo, "dagroute_lint", "--format", "json", *args, input=input)
    assert result.returncode == 1, result.stderr
    return [
        # flake8 shows the severity in the message, as the command line's text lines do
        (
            item["file"],
            item["line"],
            item["column"],
            item["code"],
            f"[{item['severity']}] {item['message']}",
        )
        for item in json.loads(result.stdout)
    ]


def test_flake8_reports_what_the_cli_reports(repo: Path) -> None:
    expected = cli_rows(repo, "dags")
    result = flake8(repo, "--format", FIELDS, "dags")
    assert result.returncode == 1, result.stderr
    assert flake8_rows(result.stdout) == expected
    # The comparison is not vacuous: several rules, columns other than 1, and the constant
    # imported from common/routing.py resolved.
    assert [(row[1], row[2], row[3]) for row in expected] == [
        (6, 5, "DRL101"),
        (8, 18, "DRL103"),
        (10, 5, "DRL101"),
        (11, 5, "DRL102"),
    ]


def test_default_flake8_line_is_the_cli_text_line(repo: Path) -> None:
    cli = command(repo, "dagroute_lint", "dags")
    plugin = flake8(repo, "dags")
    assert plugin.stdout == cli.stdout
    assert "dags/report.py:8:18: DRL103 [error] task 'grp.render'" in plugin.stdout


def test_noqa_codes_are_honoured_like_the_cli(repo: Path) -> None:
    lines = [row[1] for row in flake8_rows(flake8(repo, "--format", FIELDS, "dags").stdout)]
    assert 9 not in lines  # suppressed for DRL101
    assert 10 in lines  # suppressed for E501 only
    (repo / "dags" / "report.py").write_text("# flake8: noqa\n" + REPORT.lstrip())
    assert flake8(repo, "dags").stdout == ""


def test_stdin_buffer_with_display_name(repo: Path) -> None:
    buffer = REPORT.lstrip().replace('executor="Nope"', 'executor="CeleryExecutor"')
    expected = cli_rows(repo, "-", "--stdin-filename", "dags/report.py", input=buffer)
    result = flake8(
        repo, "--format", FIELDS, "--stdin-display-name", "dags/report.py", "-", input=buffer
    )
    assert flake8_rows(result.stdout) == expected
    assert "DRL103" not in result.stdout and "DRL101" in result.stdout


def test_the_baseline_setting_applies_to_the_plugin(repo: Path) -> None:
    written = command(repo, "dagroute_lint", "--write-baseline", "baseline.json")
    assert written.returncode == 0, written.stderr
    (repo / "pyproject.toml").write_text(
        '[tool.dagroute-lint]\ndags = ["dags"]\nbaseline = "baseline.json"\n'
    )
    assert flake8(repo, "dags").stdout == ""
    new = REPORT + '    BashOperator(task_id="new", bash_command="x", queue="lost")\n'
    (repo / "dags" / "report.py").write_text(new.lstrip())
    assert [row[1:4] for row in flake8_rows(flake8(repo, "--format", FIELDS, "dags").stdout)] == [
        (12, 5, "DRL101")
    ]


def test_settings_select_applies_to_the_plugin(repo: Path) -> None:
    (repo / "pyproject.toml").write_text(
        '[tool.dagroute-lint]\ndags = ["dags"]\nignore = ["DRL1"]\n'
    )
    assert flake8(repo, "dags").stdout == ""


def test_broken_inventory_is_one_clear_line_per_file_not_a_traceback(repo: Path) -> None:
    (repo / "dagroute.toml").write_text(CELERY_K8S.replace('runtime = "pods"', 'runtime = "nope"'))
    result = flake8(repo, "dags")
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    assert (
        "dags/report.py:1:1: DRL000 dagroute-lint cannot run: "
        f"{repo / 'dagroute.toml'}: workers[1].runtime: runtime 'nope' is not defined"
    ) in result.stdout


def test_declared_source_encoding_is_kept(repo: Path) -> None:
    source = (
        "# -*- coding: latin-1 -*-\n"
        "from airflow.providers.standard.operators.bash import BashOperator\n"
        "from airflow.sdk import DAG\n"
        'with DAG("caf\u00e9"):\n'
        '    BashOperator(task_id="t", bash_command="x", queue="caf\u00e9")\n'
    )
    (repo / "dags" / "report.py").write_bytes(source.encode("latin-1"))
    expected = cli_rows(repo, "dags")
    assert "queue 'caf\u00e9'" in expected[0][4]
    result = flake8(repo, "--format", FIELDS, "dags")
    assert flake8_rows(result.stdout) == expected


def test_exclude_setting_applies_to_files_flake8_walks(repo: Path) -> None:
    write_repo(repo, {"dags/generated/copy.py": REPORT})
    (repo / "pyproject.toml").write_text(
        '[tool.dagroute-lint]\ndags = ["dags"]\nexclude = ["generated"]\n'
    )
    expected = cli_rows(repo, "dags")
    assert {row[0] for row in expected} == {"dags/report.py"}
    assert flake8_rows(flake8(repo, "--format", FIELDS, "dags").stdout) == expected


def test_extend_exclude_applies_to_files_named_from_another_folder(
    repo: Path, tmp_path: Path
) -> None:
    """``extend-exclude`` as the command line applies it, also when flake8 runs outside the
    project and is handed absolute paths (as editors run it)."""
    write_repo(repo, {"dags/legacy/copy.py": REPORT})
    settings = '[tool.dagroute-lint]\ndags = ["dags"]\nextend-exclude = ["dags/legacy"]\n'
    (repo / "pyproject.toml").write_text(settings)
    expected = cli_rows(repo, "dags")
    assert {row[0] for row in expected} == {"dags/report.py"}
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    named = [str(repo / "dags" / "legacy" / "copy.py"), str(repo / "dags" / "report.py")]
    found = flake8_rows(flake8(elsewhere, "--format", FIELDS, *named).stdout)
    assert {row[0] for row in found} == {str(repo / "dags" / "report.py")}


def test_internal_error_is_one_line_not_a_traceback(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def crash(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.chdir(repo)
    monkeypatch.setattr(flake8_plugin.api, "lint_buffer", crash)
    checker = flake8_plugin.DagrouteChecker(ast.Module(body=[], type_ignores=[]), "dags/x.py", [])
    assert [result[:3] for result in checker.run()] == [
        (1, 0, "DRL000 internal error: RuntimeError: boom")
    ]
