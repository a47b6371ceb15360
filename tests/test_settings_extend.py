"""``extend``: settings inherited from a shared file, through the command line.

The keys a project writes win, its ``extend-*`` lists add to the inherited ones, paths in a
shared file are relative to that file, chains work, and a cycle or a missing file is an error
(exit 2) naming the files and the key.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import CELERY_K8S, write_repo
from tests.test_cli import invoke

FOUR_PROBLEMS = """
import os
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
with DAG("lab"):
    BashOperator(task_id="unserved", bash_command="x", queue="reports")
    BashOperator(task_id="dynamic", bash_command="x", queue=os.environ["Q"])
    BashOperator(task_id="unknown", bash_command="x", executor="Nope")
    BashOperator(task_id="pods", bash_command="x", executor="KubernetesExecutor", queue="gpu")
"""


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write_repo(
        tmp_path,
        {
            "org/deploy/dagroute.toml": CELERY_K8S,
            "org/pyproject.toml": """
                [tool.dagroute-lint]
                inventory = "deploy/dagroute.toml"
                ignore = ["DRL101"]
                extend-ignore = ["DRL105"]
                """,
            "project/pyproject.toml": """
                [tool.dagroute-lint]
                extend = "../org/pyproject.toml"
                extend-ignore = ["DRL103"]
                """,
            "project/dags/lab.py": FOUR_PROBLEMS,
        },
    )
    monkeypatch.chdir(tmp_path / "project")
    return tmp_path


def reported(*args: str) -> list[str]:
    code, out, err = invoke("dags", *args)
    assert code in (0, 1), err
    return [line.split(" ")[1] for line in out.splitlines()]


def test_inherited_keys_apply_and_paths_are_the_shared_files(repo: Path) -> None:
    # DRL102 needs the inventory, found relative to org/: the shared file's folder.
    assert reported() == ["DRL102"]


def test_local_keys_win_and_extend_lists_add(repo: Path) -> None:
    settings = repo / "project" / "pyproject.toml"
    settings.write_text(settings.read_text() + "ignore = []\n")
    # ignore replaced (DRL101 back); extend-ignore still both files' (DRL105 and DRL103 off).
    assert reported() == ["DRL101", "DRL102"]


def test_show_settings_names_the_file_that_set_each_key(repo: Path) -> None:
    code, out, _ = invoke("--show-settings", "dags/lab.py")
    assert code == 0
    lines = {line.split("  ")[0]: line for line in out.splitlines()}
    org, project = repo / "org" / "pyproject.toml", repo / "project" / "pyproject.toml"
    assert lines["extends"].split() == ["extends", str(org)]
    assert lines["inventory"].split()[1] == str(repo / "org" / "deploy" / "dagroute.toml")
    assert f"({org}: tool.dagroute-lint.inventory)" in lines["inventory"]
    assert f"({org}: tool.dagroute-lint.ignore)" in lines["ignore"]
    assert lines["extend-ignore"].split()[1:3] == ["[DRL105,", "DRL103]"]
    assert (
        f"({org}: tool.dagroute-lint.extend-ignore, then {project}: "
        "tool.dagroute-lint.extend-ignore)"
    ) in lines["extend-ignore"]


def test_a_plain_toml_file_and_a_chain(repo: Path) -> None:
    write_repo(
        repo,
        {
            "org/base.toml": """
                inventory = "deploy/dagroute.toml"
                extend-exclude = ["dags/generated/*"]
                """,
            "team/settings.toml": """
                extend = "../org/base.toml"
                extend-exclude = ["dags/scratch/*"]
                select = ["DRL1"]
                """,
            "project/pyproject.toml": """
                [tool.dagroute-lint]
                extend = "../team/settings.toml"
                """,
            "project/dags/generated/gen.py": FOUR_PROBLEMS,
            "project/dags/scratch/tmp.py": FOUR_PROBLEMS,
        },
    )
    # Both inherited excludes hold; select and the inventory come from two files up the chain.
    assert reported() == ["DRL101", "DRL105", "DRL103", "DRL102"]
    _, out, _ = invoke("--show-settings", "dags/lab.py")
    (extends,) = [line for line in out.splitlines() if line.startswith("extends")]
    assert extends.split("  ", 1)[1].strip() == (
        f"{repo / 'team' / 'settings.toml'} -> {repo / 'org' / 'base.toml'}"
    )
    assert f"({repo / 'org' / 'base.toml'}: inventory)" in out


def test_extending_each_other_is_an_error_naming_the_files(repo: Path) -> None:
    (repo / "org" / "pyproject.toml").write_text(
        '[tool.dagroute-lint]\nextend = "../project/pyproject.toml"\n'
    )
    code, out, err = invoke("dags")
    org, project = repo / "org" / "pyproject.toml", repo / "project" / "pyproject.toml"
    assert (code, out) == (2, "")
    assert err == (
        f"dagroute-lint: {org}: tool.dagroute-lint.extend: settings files extend each other in "
        f"a cycle: {project} -> {org} -> {project}\n"
    )


def test_a_file_extending_itself_is_a_cycle(repo: Path) -> None:
    (repo / "project" / "pyproject.toml").write_text(
        '[tool.dagroute-lint]\nextend = "pyproject.toml"\n'
    )
    code, _, err = invoke("dags")
    assert code == 2 and "extend each other in a cycle" in err


def test_a_missing_file_is_an_error_with_file_and_key(repo: Path) -> None:
    (repo / "org" / "pyproject.toml").unlink()
    code, _, err = invoke("dags")
    assert code == 2
    assert err == (
        f"dagroute-lint: {repo / 'project' / 'pyproject.toml'}: tool.dagroute-lint.extend: "
        f"no such file: {repo / 'org' / 'pyproject.toml'}\n"
    )


def test_mistakes_in_the_shared_file_name_it(repo: Path) -> None:
    org = repo / "org" / "pyproject.toml"
    org.write_text('[tool.dagroute-lint]\nselekt = ["ALL"]\n')
    code, _, err = invoke("dags")
    assert code == 2 and f"{org}: tool.dagroute-lint.selekt: unknown setting" in err
    org.write_text('[tool.dagroute-lint]\nselect = ["DRL999"]\n')
    code, _, err = invoke("dags")
    assert code == 2 and f"{org}: tool.dagroute-lint select" in err
    org.write_text("[tool.other]\nkey = 1\n")
    code, _, err = invoke("dags")
    assert code == 2 and f"{org} has no [tool.dagroute-lint] table" in err


def test_a_change_to_the_shared_file_lints_every_dag(repo: Path) -> None:
    """As pre-commit passes a changed file: the settings changed, so every DAG is checked."""
    write_repo(
        repo,
        {
            "project/config/shared.toml": 'extend = "../../org/pyproject.toml"\n',
            "project/pyproject.toml": '[tool.dagroute-lint]\nextend = "config/shared.toml"\n',
        },
    )
    code, out, err = invoke("config/shared.toml")
    assert code == 1, err
    # The inherited ignore holds (DRL101, DRL105 off): the shared files were read.
    assert [line.split(" ")[:2] for line in out.splitlines()] == [
        ["dags/lab.py:7:5:", "DRL103"],
        ["dags/lab.py:8:5:", "DRL102"],
    ]
    assert "config/shared.toml is the deployment inventory or the settings: linting" in err
