"""``--fix`` and ``--diff`` on the command line."""

from __future__ import annotations

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
