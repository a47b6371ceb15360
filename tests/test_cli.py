"""The command line, through click's runner and through the installed console script."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from dagroute_lint.cli import main
from tests.helpers import CELERY_K8S, copy_of_examples, write_repo

REPO = Path(__file__).resolve().parents[1]

DAG = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
with DAG("lab"):
    BashOperator(task_id="build", bash_command="x", queue="reports")
"""


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write_repo(tmp_path, {"dags/dag.py": DAG, "dagroute.toml": CELERY_K8S})
    monkeypatch.chdir(tmp_path)
    return tmp_path


def invoke(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def test_reports_with_exit_code_one_and_flake8_lines(repo: Path) -> None:
    code, out, err = invoke("dags")
    assert code == 1
    assert out.startswith(
        "dags/dag.py:4:5: DRL101 [error] task 'build' in dag 'lab' routes to queue"
    )
    assert "Found 1 problem in 1 file." in err


def test_clean_run_exits_zero(repo: Path) -> None:
    (repo / "dags" / "dag.py").write_text(DAG.replace('"reports"', '"imports"'))
    assert invoke("dags")[:2] == (0, "")


def test_exit_zero_and_ignore(repo: Path) -> None:
    assert invoke("dags", "--exit-zero")[0] == 0
    assert invoke("dags", "--ignore", "DRL101")[0] == 0
    assert invoke("check", "dags", "--select", "DRL2")[0] == 0


def test_unknown_rule_selector_is_a_usage_error(repo: Path) -> None:
    code, out, err = invoke("dags", "--select", "DRL999")
    assert code == 2
    assert "unknown rule selector 'DRL999'" in err
    assert "Traceback" not in err + out


def test_broken_inventory_exits_two_with_file_and_key(repo: Path) -> None:
    (repo / "dagroute.toml").write_text(CELERY_K8S.replace('runtime = "pods"', 'runtime = "nope"'))
    code, _, err = invoke("dags")
    assert code == 2
    assert "dagroute.toml: workers[1].runtime: runtime 'nope' is not defined" in err


def test_inventory_syntax_error_has_line_and_column(repo: Path) -> None:
    (repo / "dagroute.toml").write_text("[deployment\n")
    code, _, err = invoke("dags")
    assert code == 2
    assert "dagroute.toml:1:" in err and "invalid TOML" in err


def test_missing_inventory_is_said_on_stderr(repo: Path) -> None:
    (repo / "dagroute.toml").unlink()
    code, out, err = invoke("dags")
    assert (code, out) == (0, "")
    assert "no inventory" in err
    assert (
        "only DRL001, DRL002, DRL003, DRL004, DRL005, DRL006, DRL007, DRL008, DRL009, DRL010, "
        "DRL011, DRL012, DRL104, DRL105, DRL106, DRL204, DRL206, DRL302, DRL401 run" in err
    )


def test_pyproject_settings_and_cli_precedence(repo: Path) -> None:
    (repo / "pyproject.toml").write_text(
        '[tool.dagroute-lint]\ndags = ["dags"]\nignore = ["DRL101"]\ninventory = "dagroute.toml"\n'
    )
    assert invoke()[0] == 0  # paths from `dags`, DRL101 ignored by the file
    assert invoke("--select", "DRL101", "--ignore", "DRL202")[0] == 1  # flags win


def test_per_file_ignores(repo: Path) -> None:
    (repo / "pyproject.toml").write_text(
        '[tool.dagroute-lint]\n[tool.dagroute-lint.per-file-ignores]\n"dags/*.py" = ["DRL1"]\n'
    )
    assert invoke("dags")[0] == 0


def test_per_file_ignores_with_an_unknown_code_fail_even_when_no_file_matches(repo: Path) -> None:
    (repo / "pyproject.toml").write_text(
        '[tool.dagroute-lint]\n[tool.dagroute-lint.per-file-ignores]\n"none/*.py" = ["DRLX99"]\n'
    )
    code, _, err = invoke("dags")
    assert code == 2
    assert "pyproject.toml: tool.dagroute-lint.per-file-ignores.none/*.py" in err
    assert "unknown rule selector 'DRLX99'" in err


def test_exclude_setting(repo: Path) -> None:
    (repo / "pyproject.toml").write_text('[tool.dagroute-lint]\nexclude = ["dag.py"]\n')
    code, out, err = invoke("dags")
    assert (code, out) == (0, "")
    assert "All checks passed!" in err


def test_roots_setting_resolves_constants_from_extra_import_roots(repo: Path) -> None:
    write_repo(repo, {"plugins/routing.py": 'Q = "imports"\n'})
    (repo / "dags" / "dag.py").write_text(
        "from routing import Q\n" + DAG.replace('queue="reports"', "queue=Q")
    )
    assert invoke("dags")[0] == 1  # Q is unknown: DRL105
    (repo / "pyproject.toml").write_text('[tool.dagroute-lint]\nroots = ["plugins"]\n')
    assert invoke("dags")[:2] == (0, "")


def test_unknown_setting_is_rejected(repo: Path) -> None:
    (repo / "pyproject.toml").write_text('[tool.dagroute-lint]\nselct = ["DRL1"]\n')
    code, _, err = invoke("dags")
    assert code == 2
    assert "unknown setting; did you mean 'select'?" in err


def test_stdin_with_stdin_filename(repo: Path) -> None:
    code, out, _ = invoke("-", "--stdin-filename", "dags/dag.py", input=DAG.lstrip())
    assert code == 1
    assert out.startswith("dags/dag.py:4:5: DRL101")


def test_json_and_github_formats(repo: Path) -> None:
    _, out, _ = invoke("dags", "--format", "json")
    (item,) = json.loads(out)
    assert (item["code"], item["name"], item["line"]) == ("DRL101", "unserved-queue", 4)
    _, out, _ = invoke("dags", "--format", "github")
    assert out.startswith("::error title=DRL101,file=dags/dag.py,line=4,col=5::DRL101 task")


def test_output_file(repo: Path) -> None:
    code, out, _ = invoke("dags", "--output-file", "out.txt")
    assert code == 1 and out == ""
    assert (repo / "out.txt").read_text().startswith("dags/dag.py:4:5: DRL101")


def test_routes_json_contract(repo: Path) -> None:
    code, out, _ = invoke("routes", "dags", "--format", "json")
    assert code == 0
    document = json.loads(out)
    assert document["version"] == 1
    (task,) = document["tasks"]
    assert {key: task[key] for key in ("dag_id", "task_id", "queue", "pool", "pool_slots")} == {
        "dag_id": "lab",
        "task_id": "build",
        "queue": "reports",
        "pool": "default_pool",
        "pool_slots": 1,
    }
    assert task["executor"] is None and task["unresolved"] == []
    assert task["deferrable"] is False
    assert document["summary"]["unserved_queues"] == ["reports"]
    assert document["summary"]["unused_worker_queues"] == ["default", "imports"]


def test_routes_table_and_csv(repo: Path) -> None:
    code, out, _ = invoke("routes", "dags")
    assert code == 0
    assert out.splitlines()[1].split() == [
        "dags/dag.py:4",
        "lab",
        "build",
        "reports",
        "-",
        "-",  # no worker serves the queue
        "default_pool",
        "1",
        "BashOperator",
    ]
    assert "queues used but unserved: reports" in out
    _, out, _ = invoke("routes", "dags", "--format", "csv")
    header, row = out.splitlines()
    assert header.startswith("file,line,column,dag_id,task_id,queue,executor,pool")
    # Every field of the JSON contract but the reasons (a mapping, which a cell cannot hold).
    _, listed, _ = invoke("routes", "dags", "--format", "json")
    assert set(header.split(",")) == set(json.loads(listed)["tasks"][0]) - {"reasons", "set_by"}
    assert row.startswith("dags/dag.py,4,5,lab,build,reports,,default_pool,1,")


def test_inventory_check(repo: Path) -> None:
    code, out, _ = invoke("inventory", "check", "dagroute.toml")
    assert (code, out) == (0, "dagroute.toml: ok (2 executors, 2 workers, 2 runtimes)\n")
    (repo / "dagroute.toml").write_text('[deployment]\nexecutors = "CeleryExecutor"\nqueue = 1\n')
    code, _, err = invoke("inventory", "check", "dagroute.toml")
    assert code == 2 and "deployment.queue: unknown key" in err


def test_rules_lists_every_code() -> None:
    code, out, _ = invoke("rules")
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()] == [
        "DRL001",
        "DRL002",
        "DRL003",
        "DRL004",
        "DRL005",
        "DRL006",
        "DRL007",
        "DRL008",
        "DRL009",
        "DRL010",
        "DRL011",
        "DRL012",
        "DRL101",
        "DRL102",
        "DRL103",
        "DRL104",
        "DRL105",
        "DRL106",
        "DRL201",
        "DRL202",
        "DRL203",
        "DRL204",
        "DRL205",
        "DRL206",
        "DRL301",
        "DRL302",
        "DRL303",
        "DRL304",
        "DRL401",
        "DRL402",
        "DRL501",
        "DRL901",
        "DRL902",
    ]
    (poke,) = [line for line in out.splitlines() if line.startswith("DRL304")]
    assert poke.endswith("(opt-in)")


def test_internal_error_is_one_line_with_exit_two(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def explode(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr("dagroute_lint.api.lint", explode)
    code, _, err = invoke("dags")
    assert code == 2
    assert err.strip().splitlines()[-1] == (
        "dagroute-lint: internal error: RuntimeError: boom (run with --verbose for the traceback)"
    )
    assert "Traceback" not in err
    assert "Traceback" in invoke("dags", "--verbose")[2]


def test_missing_path_is_a_usage_error(repo: Path) -> None:
    code, _, err = invoke("nowhere")
    assert code == 2 and "no such file or directory: nowhere" in err


def test_console_script_on_the_bundled_example(tmp_path: Path) -> None:
    script = shutil.which("dagroute-lint", path=str(Path(sys.executable).parent))
    assert script is not None, "the console script is not installed next to this interpreter"
    result = subprocess.run(
        [script, "examples/dags", "--inventory", "examples/dagroute.toml"],
        cwd=copy_of_examples(tmp_path),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert any(" DRL101 [error] task 'grp.render' in dag 'lab_report'" in line for line in lines)
    assert any(
        " DRL202 " in line and "apache-airflow-providers-apache-spark" in line for line in lines
    )


@pytest.mark.parametrize("entry", ["script", "module"])
def test_the_command_ends_with_everything_written_and_its_exit_code(repo: Path, entry: str) -> None:
    """``cli.console`` ends the process without the interpreter's teardown: the output must
    still arrive whole through a pipe (more than a pipe holds), with the run's exit code."""
    for n in range(400):
        (repo / "dags" / f"dag_{n:03}.py").write_text(DAG.replace('"lab"', f'"lab_{n}"'))
    command = [str(Path(sys.executable).parent / "dagroute-lint")]
    if entry == "module":
        command = [sys.executable, "-m", "dagroute_lint"]

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*command, *args], cwd=repo, capture_output=True, text=True, check=False
        )

    reported = run("dags", "--no-cache")
    expected = invoke("dags", "--no-cache")
    assert len(reported.stdout) > 65536
    assert (reported.returncode, reported.stdout, reported.stderr) == expected
    assert run("dags", "--no-cache", "--exit-zero").returncode == 0
    (repo / "dagroute.toml").write_text("[[workers]\n")
    broken = run("dags")
    assert broken.returncode == 2 and "dagroute.toml" in broken.stderr


def test_python_dash_m() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "dagroute_lint", "rules"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0 and result.stdout.startswith("DRL001")


@pytest.mark.parametrize(
    ("args", "command"),
    [
        (["routes", "-"], "routes"),
        (["inventory", "check", "dagroute.toml", "--against", "-"], "--against"),
        (["inventory", "diff", "dagroute.toml", "dagroute.toml", "-"], "inventory diff"),
    ],
)
def test_repository_commands_refuse_stdin(repo: Path, args: list[str], command: str) -> None:
    """routes and the acceptance commands read a repository: stdin is a usage error, exit 2."""
    code, _, err = invoke(*args, input="print(1)\n")
    assert code == 2
    assert f"{command} reads files, not stdin" in err


def test_routes_reads_each_path_under_its_own_project(repo: Path) -> None:
    """As ``check`` does: each path under its nearest project's settings, in one table; a
    routing map describes one deployment, so projects whose inventories differ are refused,
    naming both inventories."""
    other = DAG.replace('"lab"', '"other_lab"').replace('"reports"', '"imports"')
    write_repo(repo / "other", {"dags/dag.py": other, "dagroute.toml": CELERY_K8S})
    code, out, err = invoke("routes", "dags", "other/dags", "--format", "json")
    assert code == 0, err
    tasks = json.loads(out)["tasks"]
    assert [(task["dag_id"], task["queue"]) for task in tasks] == [
        ("lab", "reports"),
        ("other_lab", "imports"),
    ]
    (repo / "other" / "dagroute.toml").write_text(CELERY_K8S.replace("imports", "etl"))
    code, _, err = invoke("routes", "dags", "other/dags")
    assert code == 2
    assert "these paths span projects with different inventories" in err
    assert str(repo / "dagroute.toml") in err and str(repo / "other" / "dagroute.toml") in err
