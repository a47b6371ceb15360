"""``--fix`` and ``--diff`` on the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import CELERY_K8S, write_repo
from tests.test_cli import invoke

LEGACY = """
from airflow.operators.bash import BashOperator
from airflow.operators.subdag import SubDagOperator
from airflow.sdk import DAG
with DAG("lab"):
    BashOperator(task_id="build", bash_command="x", queue="reports")
"""
FIXED = LEGACY.replace("airflow.operators.bash", "airflow.providers.standard.operators.bash")


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write_repo(tmp_path, {"dags/dag.py": LEGACY, "dagroute.toml": CELERY_K8S})
    monkeypatch.chdir(tmp_path)
    return tmp_path


def source(repo: Path) -> str:
    return (repo / "dags" / "dag.py").read_text()


def test_fix_writes_and_reports_what_remains_where_it_now_is(repo: Path) -> None:
    code, out, err = invoke("dags", "--fix")
    assert source(repo) == FIXED.lstrip("\n")
    assert code == 1
    lines = out.splitlines()
    assert [line.split(" ")[:2] for line in lines] == [
        ["dags/dag.py:2:1:", "DRL204"],  # the subdag import: reported, not fixable
        ["dags/dag.py:5:5:", "DRL101"],
    ]
    assert "Fixed 1 problem in 1 file." in err


def test_fix_applies_only_selected_rules(repo: Path) -> None:
    code, out, _ = invoke("dags", "--fix", "--ignore", "DRL204")
    assert source(repo) == LEGACY.lstrip("\n")
    assert code == 1 and "DRL204" not in out
    suppressed = LEGACY.replace("import BashOperator", "import BashOperator  # noqa: DRL204")
    (repo / "dags" / "dag.py").write_text(suppressed)
    invoke("dags", "--fix")
    assert source(repo) == suppressed


def test_fix_exits_zero_when_everything_is_fixed(repo: Path) -> None:
    (repo / "dags" / "dag.py").write_text("from airflow.operators.bash import BashOperator\n")
    code, out, err = invoke("dags", "--fix")
    assert (code, out) == (0, "")
    assert "Fixed 1 problem in 1 file." in err and "All checks passed!" in err


def test_diff_prints_without_writing_and_exits_one(repo: Path) -> None:
    code, out, err = invoke("dags", "--diff")
    assert code == 1
    assert source(repo) == LEGACY.lstrip("\n")
    assert out == (
        "--- dags/dag.py\n"
        "+++ dags/dag.py\n"
        "@@ -1,4 +1,4 @@\n"
        "-from airflow.operators.bash import BashOperator\n"
        "+from airflow.providers.standard.operators.bash import BashOperator\n"
        " from airflow.operators.subdag import SubDagOperator\n"
        " from airflow.sdk import DAG\n"
        ' with DAG("lab"):\n'
    )
    assert "Would fix 1 problem in 1 file." in err


def test_diff_with_nothing_to_fix_exits_zero(repo: Path) -> None:
    (repo / "dags" / "dag.py").write_text(FIXED)
    assert invoke("dags", "--diff")[:2] == (0, "")


def test_changed_on_disk_is_said_and_not_overwritten(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import dagroute_lint.fix

    real = dagroute_lint.fix.fix_source

    def edit_meanwhile(data: bytes, fixes: object) -> bytes | None:
        result = real(data, fixes)  # type: ignore[arg-type]
        (repo / "dags" / "dag.py").write_text("# saved meanwhile\n")
        return result

    monkeypatch.setattr(dagroute_lint.fix, "fix_source", edit_meanwhile)
    code, _, err = invoke("dags", "--fix")
    assert code == 1  # the problems it could not fix are still reported
    assert source(repo) == "# saved meanwhile\n"
    assert "dagroute-lint: dags/dag.py changed on disk while fixing; not written" in err
    assert "fixed" not in err


def test_fix_refuses_stdin(repo: Path) -> None:
    code, _, err = invoke("-", "--fix", input=LEGACY)
    assert code == 2 and "cannot read stdin" in err


# ---- --show-fixes ----

TWO_MOVED = """
from airflow.operators.bash import BashOperator
from airflow.operators.python import PythonOperator
from airflow.sdk import DAG
with DAG("other"):
    BashOperator(task_id="build", bash_command="x")
"""


def test_show_fixes_lists_per_file_and_code_marks_fixable_lines_and_writes_nothing(
    repo: Path,
) -> None:
    (repo / "dags" / "other.py").write_text(TWO_MOVED.lstrip("\n"))
    code, out, err = invoke("dags", "--show-fixes")
    assert code == 1
    assert source(repo) == LEGACY.lstrip("\n")
    assert (repo / "dags" / "other.py").read_text() == TWO_MOVED.lstrip("\n")
    marked = [line.split(" ")[:3] for line in out.splitlines()]
    assert marked == [
        ["dags/dag.py:1:1:", "DRL204", "[*]"],
        ["dags/dag.py:2:1:", "DRL204", "[error]"],  # SubDagOperator: no fix to offer
        ["dags/dag.py:5:5:", "DRL101", "[error]"],
        ["dags/other.py:1:1:", "DRL204", "[*]"],
        ["dags/other.py:2:1:", "DRL204", "[*]"],
    ]
    assert (
        "Would fix 3 problems with `--fix`:\n"
        "  dags/dag.py:\n"
        "    1 \N{MULTIPLICATION SIGN} DRL204 (import-removed-in-airflow)\n"
        "  dags/other.py:\n"
        "    2 \N{MULTIPLICATION SIGN} DRL204 (import-removed-in-airflow)\n"
    ) in err
    # Without the flag, the text is the contract editors read: no marks.
    assert "[*]" not in invoke("dags")[1]


def test_show_fixes_with_fix_lists_what_was_fixed(repo: Path) -> None:
    code, out, err = invoke("dags", "--fix", "--show-fixes")
    assert code == 1
    assert source(repo) == FIXED.lstrip("\n")
    listing = "Fixed 1 problem:\n  dags/dag.py:\n    1 \N{MULTIPLICATION SIGN} DRL204 "
    assert listing + "(import-removed-in-airflow)\n" in err
    assert "[*]" not in out  # what is left has no fix


def test_show_fixes_with_nothing_to_fix_says_so(repo: Path) -> None:
    (repo / "dags" / "dag.py").write_text(FIXED.replace("from airflow.operators.subdag", "#"))
    code, _, err = invoke("dags", "--show-fixes")
    assert code == 1  # the queue problem
    assert "No problems would be fixed with `--fix`." in err


def test_show_fixes_keeps_stdout_a_json_document(repo: Path) -> None:
    code, out, err = invoke("dags", "--show-fixes", "--format", "json")
    assert code == 1
    assert [item["fix"] is not None for item in json.loads(out)] == [True, False, False]
    assert "Would fix 1 problem with `--fix`:" in err


def test_show_fixes_refuses_stdin(repo: Path) -> None:
    code, _, err = invoke("-", "--show-fixes", input=LEGACY)
    assert code == 2 and "--show-fixes" in err and "cannot read stdin" in err
