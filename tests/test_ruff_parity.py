"""Where users expect ruff's behaviour: settings found per file, file selection, ``noqa``,
severity in every format, the summary line, and the command line's corners.

Each test names the behaviour it pins; the "Behaving like ruff" table of docs/configuration.md
lists them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from dagroute_lint.cli import main
from tests.helpers import CELERY_K8S, run_command, write_repo
from tests.test_cli import invoke

BIN = Path(sys.executable).parent
UNSERVED = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
with DAG("{name}"):
    BashOperator(task_id="build", bash_command="x", queue="reports")
"""
UNRESOLVED = """
import os
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
with DAG("lab"):
    BashOperator(task_id="build", bash_command="x", queue=os.environ["Q"])
"""
POOLS = CELERY_K8S + "\n[pools]\ndefault_pool = 128\n"
TWO_RULES = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
with DAG("lab"):
    BashOperator(task_id="a", bash_command="x", queue="reports")
    BashOperator(task_id="b", bash_command="x", pool="orwell_ssh_pool")
"""
MOVED = """
from airflow.operators.bash import BashOperator
from airflow.sdk import DAG
with DAG("lab"):
    BashOperator(task_id="a", bash_command="x", queue="reports")
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write_repo(
        tmp_path,
        {"dags/one.py": UNSERVED.format(name="one"), "dagroute.toml": CELERY_K8S},
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def codes(out: str) -> list[str]:
    return [line.split(": ", 1)[1].split()[0] for line in out.splitlines()]


# ---- settings and the inventory are found from each file, not the working directory ----


def test_stdin_filename_finds_the_project_from_another_folder(
    project: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    target = str(project / "dags" / "one.py")
    result = run_command(
        [str(BIN / "dagroute-lint"), "-q", "-", "--stdin-filename", target],
        elsewhere,
        UNSERVED.format(name="one").lstrip(),
    )
    assert result.returncode == 1, result.stderr
    assert result.stdout.startswith(f"{target}:4:5: DRL101 [error]")


def test_each_path_is_linted_under_its_own_project(project: Path) -> None:
    write_repo(
        project,
        {
            "other/pyproject.toml": '[tool.dagroute-lint]\nignore = ["DRL101"]\n',
            "other/dagroute.toml": CELERY_K8S,
            "other/dags/two.py": UNSERVED.format(name="two"),
        },
    )
    code, out, _ = invoke("dags/one.py", "other/dags/two.py")
    assert code == 1
    assert [line.split(":")[0] for line in out.splitlines()] == ["dags/one.py"]


def test_a_project_inside_a_folder_walked_keeps_its_own_settings(project: Path) -> None:
    serves_reports = CELERY_K8S.replace('queues = ["default", "imports"]', 'queues = ["reports"]')
    write_repo(
        project,
        {
            "teams/b/pyproject.toml": '[tool.dagroute-lint]\nextend-select = ["DRL901"]\n',
            "teams/b/dagroute.toml": serves_reports,  # its own inventory serves `reports`
            "teams/b/dags/two.py": UNSERVED.format(name="two").rstrip() + "  # noqa: DRL101\n",
        },
    )
    code, out, _ = invoke(".")
    assert invoke()[:2] == (code, out)  # no paths: the working directory, the same way
    assert code == 1
    assert [line.split(" [")[0] for line in out.splitlines()] == [
        "dags/one.py:4:5: DRL101",  # the outer project's inventory
        "teams/b/dags/two.py:4:1: DRL901",  # its own: served, and its settings select DRL901
    ]


def test_a_broken_pyproject_is_an_error_naming_file_and_position(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.dagroute-lint]\nselect = ["DRL1" "DRL2"]\n')
    code, out, err = invoke("dags")
    assert (code, out) == (2, "")
    assert f"{project / 'pyproject.toml'}: invalid TOML: " in err and "(at line 2, column" in err


def test_show_settings_names_each_setting_and_where_it_came_from(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.dagroute-lint]\nignore = ["DRL102"]\n')
    code, out, _ = invoke("--show-settings", "--extend-select", "DRL304", "dags/one.py")
    assert code == 0
    lines = {line.split()[0]: line for line in out.splitlines()}
    assert str(project / "pyproject.toml") in lines["settings"]
    assert str(project / "dagroute.toml") in lines["inventory"]
    assert "(found in the project root)" in lines["inventory"]
    assert "[DRL102]" in lines["ignore"] and "tool.dagroute-lint.ignore" in lines["ignore"]
    assert "DRL304" in lines["selected"] and "(the command line)" in lines["selected"]
    assert "DRL102" not in lines["selected"]


def test_verbose_names_the_settings_and_inventory_used(project: Path) -> None:
    _, _, err = invoke("-v", "dags")
    assert (
        f"project {project}: settings none (defaults); inventory {project / 'dagroute.toml'}" in err
    )


def test_inventory_check_follows_the_settings(project: Path) -> None:
    (project / "deploy").mkdir()
    (project / "dagroute.toml").rename(project / "deploy" / "inv.toml")
    (project / "pyproject.toml").write_text('[tool.dagroute-lint]\ninventory = "deploy/inv.toml"\n')
    code, out, err = invoke("inventory", "check")
    assert code == 0, err
    assert out.startswith("deploy/inv.toml: ok (")
    (project / "pyproject.toml").unlink()
    code, _, err = invoke("inventory", "check")
    assert code == 2 and "no inventory to check" in err


# ---- which files ----


def test_force_exclude_applies_excludes_to_named_files(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.dagroute-lint]\nexclude = ["dags/one.py"]\n')
    assert invoke("dags")[0] == 0  # the walk passes it over
    assert invoke("dags/one.py")[0] == 1  # named: linted, as ruff does
    assert invoke("dags/one.py", "--force-exclude")[:2] == (0, "")
    code, out, _ = invoke("-", "--stdin-filename", "dags/one.py", "--force-exclude", input="x")
    assert (code, out) == (0, "")


def test_force_exclude_from_another_folder_matches_below_the_project(
    project: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    (project / "pyproject.toml").write_text('[tool.dagroute-lint]\nexclude = ["dags/one.py"]\n')
    target = str(project / "dags" / "one.py")
    args = [str(BIN / "dagroute-lint"), "-q", "-", "--stdin-filename", target]
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    source = UNSERVED.format(name="one").lstrip()
    assert run_command(args, elsewhere, source).returncode == 1
    assert run_command([*args, "--force-exclude"], elsewhere, source).stdout == ""


def test_extend_exclude_adds_to_exclude(project: Path) -> None:
    write_repo(project, {"dags/two.py": UNSERVED.format(name="two")})
    (project / "pyproject.toml").write_text('[tool.dagroute-lint]\nexclude = ["one.py"]\n')
    assert codes(invoke("dags")[1]) == ["DRL101"]
    assert invoke("dags", "--extend-exclude", "two.py")[:2] == (0, "")


def test_gitignored_files_are_left_out_of_folders(project: Path) -> None:
    git = ["git", "-c", "user.email=a@b", "-c", "user.name=a"]
    subprocess.run([*git, "init", "-q"], cwd=project, check=True)
    (project / ".gitignore").write_text("dags/one.py\n")
    assert invoke("dags")[:2] == (0, "")
    assert invoke("dags", "--no-respect-gitignore")[0] == 1
    assert invoke("dags/one.py")[0] == 1  # named on the command line: linted
    assert invoke("dags/one.py", "--force-exclude")[0] == 0
    (project / "pyproject.toml").write_text("[tool.dagroute-lint]\nrespect-gitignore = false\n")
    assert invoke("dags")[0] == 1


def test_git_decides_what_it_ignores_nested_files_negations_and_tracked_files(
    project: Path,
) -> None:
    """The walk leaves out what ``git check-ignore`` says, asked once per work tree: nested
    ``.gitignore`` files, negations and a tracked file (never ignored) are git's business."""
    from dagroute_lint.sources.discovery import discover

    git = ["git", "-c", "user.email=a@b", "-c", "user.name=a"]
    files = [
        "dags/one.py",
        "dags/scratch_tmp.py",
        "dags/team/local_a.py",
        "dags/team/local_keep.py",
        "dags/team/forced_tmp.py",
        "dags/build_out/x.py",
    ]
    write_repo(project, dict.fromkeys(files, "x = 1\n"))
    (project / ".gitignore").write_text("*_tmp.py\nbuild_out/\n")
    (project / "dags/team/.gitignore").write_text("local_*.py\n!local_keep.py\n")
    subprocess.run([*git, "init", "-q"], cwd=project, check=True)
    subprocess.run([*git, "add", "-f", "dags/team/forced_tmp.py"], cwd=project, check=True)
    found = discover(["dags"], [], respect_gitignore=True)
    assert [source.display for source in found] == [
        "dags/one.py",
        "dags/team/forced_tmp.py",
        "dags/team/local_keep.py",
    ]
    outside = discover([str(project / "dags")], [], respect_gitignore=True)
    assert len(outside) == 3  # absolute paths: the same answers


# ---- noqa ----


def test_file_level_noqa_with_codes_silences_only_those(project: Path) -> None:
    (project / "dagroute.toml").write_text(POOLS)
    source = "# dagroute-lint: noqa: DRL301\n" + TWO_RULES.lstrip()
    (project / "dags" / "one.py").write_text(source)
    assert codes(invoke("dags")[1]) == ["DRL101"]
    (project / "dags" / "one.py").write_text("# dagroute-lint: noqa\n" + TWO_RULES.lstrip())
    assert invoke("dags")[:2] == (0, "")


def test_noqa_with_a_prefix_suppresses(project: Path) -> None:
    source = UNSERVED.format(name="one").rstrip() + "  # noqa: DRL1\n"
    (project / "dags" / "one.py").write_text(source)
    assert invoke("dags")[:2] == (0, "")


def test_unused_noqa_is_reported_when_selected(project: Path) -> None:
    (project / "dagroute.toml").write_text(POOLS)
    source = (
        "# dagroute-lint: noqa: DRL402\n"  # nothing to silence in the file
        + UNSERVED.format(name="one").strip()
        + "  # noqa: DRL101, DRL301, E501\n"  # DRL301 silences nothing; E501 is another tool's
        + "x = 1  # noqa\n"  # bare: may serve other linters
    )
    (project / "dags" / "one.py").write_text(source)
    assert invoke("dags")[:2] == (0, "")  # opt-in: off by default
    code, out, _ = invoke("dags", "--extend-select", "DRL901")
    assert code == 1
    assert out.splitlines() == [
        "dags/one.py:1:1: DRL901 [warning] unused `# dagroute-lint: noqa` code DRL402: no DRL402 "
        "diagnostic is reported in this file",
        "dags/one.py:5:1: DRL901 [warning] unused `# noqa` code DRL301: no DRL301 diagnostic is "
        "reported on this line",
    ]
    # A code of a rule that did not run is not called unused: another selection may need it.
    assert invoke("dags", "--extend-select", "DRL901", "--ignore", "DRL3,DRL4")[:2] == (0, "")


# ---- severity in every format ----


def test_severity_reaches_every_format(project: Path) -> None:
    (project / "dags" / "one.py").write_text(UNRESOLVED)
    _, text, _ = invoke("dags")
    assert " DRL105 [warning] " in text
    (item,) = json.loads(invoke("dags", "--output-format", "json")[1])
    assert (item["severity"], item["end_line"], item["fix"]) == ("warning", None, None)
    assert invoke("dags", "--format", "github")[1].startswith("::warning title=DRL105,")
    assert json.loads(invoke("dags", "--format", "gitlab")[1])[0]["severity"] == "minor"
    sarif = json.loads(invoke("dags", "--format", "sarif")[1])
    assert sarif["runs"][0]["results"][0]["level"] == "warning"
    (project / "dags" / "one.py").write_text(UNSERVED.format(name="one"))
    assert invoke("dags", "--format", "github")[1].startswith("::error title=DRL101,")
    assert json.loads(invoke("dags", "--format", "gitlab")[1])[0]["severity"] == "major"


def test_json_carries_the_fix(project: Path) -> None:
    (project / "dags" / "one.py").write_text(MOVED)
    items = json.loads(invoke("dags", "--format", "json", "--select", "DRL204")[1])
    assert items[0]["fix"] == {
        "kind": "import",
        "description": "import BashOperator from airflow.providers.standard.operators.bash "
        "instead of BashOperator from airflow.operators.bash",
        "module": "airflow.operators.bash",
        "name": "BashOperator",
        "new_module": "airflow.providers.standard.operators.bash",
        "new_name": "BashOperator",
    }


# ---- the summary line and colour ----


def test_summary_counts_files_with_problems_and_fixable_ones(project: Path) -> None:
    write_repo(project, {"dags/clean.py": UNSERVED.format(name="c").replace("reports", "default")})
    (project / "dags" / "one.py").write_text(MOVED)
    _, _, err = invoke("dags")
    assert err.splitlines()[-1] == "Found 2 problems in 1 file (1 fixable with `--fix`)."
    (project / "dags" / "one.py").unlink()
    assert invoke("dags")[2].splitlines()[-1] == "All checks passed!"


@pytest.mark.parametrize(
    ("environment", "coloured"),
    [({"FORCE_COLOR": "1"}, True), ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, False), ({}, False)],
)
def test_colour_follows_no_color_and_force_color(
    project: Path, environment: dict[str, str], coloured: bool
) -> None:
    base = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR")}
    result = run_command([str(BIN / "dagroute-lint"), "dags"], project, env={**base, **environment})
    assert ("\x1b[" in result.stderr) is coloured
    assert ("\x1b[" in result.stdout) is coloured
    assert ("\x1b[1;31mDRL101\x1b[0m" in result.stdout) is coloured


# ---- the command line's corners ----


def test_diff_with_exit_zero_exits_zero(project: Path) -> None:
    (project / "dags" / "one.py").write_text(MOVED)
    code, out, _ = invoke("dags", "--diff", "--exit-zero")
    assert code == 0 and out.startswith("---")
    assert invoke("dags", "--diff")[0] == 1


def test_stdin_filename_without_dash_reads_stdin(project: Path) -> None:
    code, out, _ = invoke("--stdin-filename", "dags/one.py", input=UNSERVED.format(name="x"))
    assert code == 1 and codes(out) == ["DRL101"]
    code, _, err = invoke("dags", "--stdin-filename", "dags/one.py", input="x = 1\n")
    assert code == 0 and "ignoring dags in favour of stdin" in err


def test_flags_before_a_command_belong_to_it(project: Path) -> None:
    code, out, err = invoke("-q", "routes", "dags")
    assert code == 0, err
    assert "build" in out and "no such file" not in err


def test_top_level_help_shows_the_check_options() -> None:
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    assert "Options of check (the default command)" in result.output
    assert "--extend-select" in result.output and "--force-exclude" in result.output


def test_no_paths_and_no_dags_setting_lints_the_working_directory(project: Path) -> None:
    code, out, _ = invoke()
    assert code == 1 and out.startswith("dags/one.py:4:5: DRL101")


def test_routes_exits_one_and_names_unreadable_files(project: Path) -> None:
    (project / "dags" / "one.py").write_text("from airflow import DAG\nwith DAG(:\n")
    code, out, err = invoke("routes", "dags")
    assert code == 1
    assert "0 tasks" in out
    assert "dagroute-lint: dags/one.py: syntax error" in err
    assert "1 file could not be read or parsed" in err
