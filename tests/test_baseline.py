"""Adopting the linter on a repository with problems: ``--write-baseline``, ``--baseline`` and
the ``baseline`` setting, through the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import CELERY_K8S, write_repo
from tests.test_cli import invoke

REPORT = """\
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("report"):
    BashOperator(task_id="build", bash_command="x", queue="reports")
    BashOperator(task_id="render", bash_command="x", executor="Nope")
"""
TRAIN = """\
def train():
    return 1
"""
SCORE = """\
def score():
    return 2
"""
ML_DAG = """\
with DAG("ml"):
    trained = task(queue="gpu")(train)()
    trained >> task(queue="gpu")(score)()
"""
ML_HEAD = "from airflow.sdk import DAG, task\n"
ML = ML_HEAD + TRAIN + SCORE + ML_DAG
SETTINGS = '[tool.dagroute-lint]\ndags = ["dags"]\n'
ACCEPTED = 4  # DRL101 and DRL103 in report.py, DRL101 for each task of ml.py


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write_repo(
        tmp_path,
        {
            "pyproject.toml": SETTINGS,
            "dagroute.toml": CELERY_K8S,
            "dags/report.py": REPORT,
            "dags/ml.py": ML,
        },
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def written(repo: Path, *args: str) -> dict[str, object]:
    code, out, err = invoke("--write-baseline", "baseline.json", *args)
    assert (code, out) == (0, ""), err
    document: dict[str, object] = json.loads((repo / "baseline.json").read_text())
    return document


def entries(document: dict[str, object]) -> dict[str, list[dict[str, object]]]:
    projects = document["projects"]
    assert isinstance(projects, dict)
    found: dict[str, list[dict[str, object]]] = projects["."]
    return found


def test_write_baseline_records_each_problem_without_its_line(repo: Path) -> None:
    code, out, err = invoke("--write-baseline", "baseline.json")
    assert (code, out) == (0, "")
    assert f"wrote baseline.json: {ACCEPTED} problems in 2 files" in err
    document = json.loads((repo / "baseline.json").read_text())
    assert document["version"] == 1
    assert "--write-baseline" in document["about"]
    assert entries(document) == {
        "dags/ml.py": [
            {"code": "DRL101", "dag_id": "ml", "task_id": "score", "item": "gpu"},
            {"code": "DRL101", "dag_id": "ml", "task_id": "train", "item": "gpu"},
        ],
        "dags/report.py": [
            {"code": "DRL101", "dag_id": "report", "task_id": "build", "item": "reports"},
            {"code": "DRL103", "dag_id": "report", "task_id": "render", "item": "Nope"},
        ],
    }
    # Written again with nothing changed, the file is the same to the byte.
    before = (repo / "baseline.json").read_bytes()
    invoke("--write-baseline", "baseline.json")
    assert (repo / "baseline.json").read_bytes() == before


def places() -> set[tuple[str, int]]:
    """Where each problem is, with no baseline."""
    code, out, _ = invoke("--format", "json")
    assert code == 1
    return {(item["file"], item["line"]) for item in json.loads(out)}


def test_moved_lines_and_reordered_functions_report_nothing(repo: Path) -> None:
    written(repo)
    assert invoke("--baseline", "baseline.json")[0] == 0
    before = places()
    (repo / "dags/report.py").write_text('"""Reports."""\n\n# moved\n' + REPORT)
    (repo / "dags/ml.py").write_text(ML_HEAD + "\n\n" + SCORE + TRAIN + ML_DAG)
    after = places()
    assert len(after) == len(before) == ACCEPTED and not after & before  # every line moved
    code, out, err = invoke("--baseline", "baseline.json")
    assert (code, out) == (0, "")
    assert f"All checks passed! ({ACCEPTED} problems in the baseline)" in err
    assert "no longer occur" not in err


def test_a_new_problem_is_the_only_one_reported(repo: Path) -> None:
    written(repo)
    new = REPORT + '    BashOperator(task_id="publish", bash_command="x", queue="lost")\n'
    (repo / "dags/report.py").write_text(new)
    code, out, err = invoke("--baseline", "baseline.json")
    assert code == 1
    assert out.splitlines() == [
        "dags/report.py:7:5: DRL101 [error] task 'publish' in dag 'report' routes to queue "
        "'lost', but no CeleryExecutor worker serves it (served: default, imports); it will stay "
        "queued and never start"
    ]
    assert f"Found 1 problem ({ACCEPTED} in the baseline) in 1 file." in err


@pytest.mark.parametrize("output_format", ["json", "sarif", "github", "gitlab", "statistics"])
def test_every_output_format_leaves_out_what_the_baseline_accepts(
    repo: Path, output_format: str
) -> None:
    written(repo)
    new = REPORT + '    BashOperator(task_id="publish", bash_command="x", queue="lost")\n'
    (repo / "dags/report.py").write_text(new)
    flags = ["--statistics"] if output_format == "statistics" else ["--format", output_format]
    code, out, _ = invoke("--baseline", "baseline.json", *flags)
    assert code == 1
    if output_format == "json":
        assert [item["line"] for item in json.loads(out)] == [7]
    elif output_format == "sarif":
        results = json.loads(out)["runs"][0]["results"]
        assert [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in results] == [
            7
        ]
    elif output_format == "gitlab":
        assert [item["location"]["lines"]["begin"] for item in json.loads(out)] == [7]
    elif output_format == "github":
        assert len(out.splitlines()) == 1 and "line=7," in out
    else:
        assert out.split() == ["1", "DRL101", "unserved-queue"]


def test_a_fixed_problem_is_named_until_the_baseline_is_written_again(repo: Path) -> None:
    written(repo)
    (repo / "dags/report.py").write_text(REPORT.replace('"reports"', '"imports"'))
    code, out, err = invoke("--baseline", "baseline.json")
    assert (code, out) == (0, "")  # what no longer occurs never fails a run
    assert (
        "dagroute-lint: baseline.json lists 1 problem that no longer occurs (--verbose names "
        "each): rewrite it with `--write-baseline baseline.json`"
    ) in err
    assert f"({ACCEPTED - 1} problems in the baseline)" in err
    _, _, err = invoke("--baseline", "baseline.json", "--verbose")
    assert (
        "dagroute-lint: baseline.json: no longer occurs: dags/report.py: DRL101 dag 'report' "
        "task 'build' item 'reports'"
    ) in err
    # Written again, the file shrinks, and nothing is named any more.
    document = written(repo)
    assert entries(document)["dags/report.py"] == [
        {"code": "DRL103", "dag_id": "report", "task_id": "render", "item": "Nope"}
    ]
    assert "no longer" not in invoke("--baseline", "baseline.json")[2]


UNFOLLOWED = """\
from airflow.sdk import DAG
from team_tooling.builders import add_checks

with DAG("checks") as dag:
    add_checks(dag)
    add_checks(dag)
"""


def test_identical_fingerprints_are_counted_and_one_more_reports_them_all(repo: Path) -> None:
    """Two reports of one file that name nothing but their code (DRL106, a call not followed)
    are one entry counted twice; a third makes all three reported, since the baseline cannot
    tell the new one from the old ones."""
    (repo / "dags/checks.py").write_text(UNFOLLOWED)
    document = written(repo, "--select", "DRL106")
    assert entries(document) == {"dags/checks.py": [{"code": "DRL106", "count": 2}]}
    (repo / "dags/checks.py").write_text(UNFOLLOWED + "    add_checks(dag)\n")
    code, out, _ = invoke("--baseline", "baseline.json", "--select", "DRL106", "--format", "json")
    assert code == 1
    assert [item["line"] for item in json.loads(out)] == [5, 6, 7]
    (repo / "dags/checks.py").write_text(UNFOLLOWED.replace("    add_checks(dag)\n", "", 1))
    code, out, err = invoke("--baseline", "baseline.json", "--select", "DRL106")
    assert (code, out) == (0, "")
    assert "lists 1 problem that no longer occurs" in err


def test_the_setting_holds_from_any_working_directory(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (repo / "lint").mkdir()
    code, _, err = invoke("--write-baseline", "lint/baseline.json")
    assert code == 0, err
    (repo / "pyproject.toml").write_text(SETTINGS + 'baseline = "lint/baseline.json"\n')
    assert '"dags/report.py"' in (repo / "lint/baseline.json").read_text()  # project-relative
    monkeypatch.chdir(repo / "dags")
    code, out, err = invoke("report.py", "ml.py")
    assert (code, out) == (0, ""), err
    assert f"({ACCEPTED} problems in the baseline)" in err
    monkeypatch.chdir(repo.parent)
    assert invoke(f"{repo.name}/dags")[:2] == (0, "")
    code, out, _ = invoke(f"{repo.name}/dags", "--no-baseline")
    assert code == 1 and len(out.splitlines()) == ACCEPTED
    _, shown, _ = invoke("--show-settings", f"{repo.name}/dags/report.py")
    baseline = next(line for line in shown.splitlines() if line.startswith("baseline "))
    assert baseline.split()[1] == str(repo.resolve() / "lint" / "baseline.json")
    assert "pyproject.toml: tool.dagroute-lint.baseline" in baseline


def test_a_run_over_some_files_leaves_the_other_files_entries_alone(repo: Path) -> None:
    written(repo)
    (repo / "dags/report.py").write_text(REPORT.replace('"reports"', '"imports"'))
    # ml.py's entries no longer occur in this run only because it does not lint ml.py.
    code, out, err = invoke("dags/report.py", "--baseline", "baseline.json", "--verbose")
    assert (code, out) == (0, "")
    assert "dags/ml.py" not in err and "dags/report.py: DRL101" in err
    document = written(repo, "dags/report.py")
    assert sorted(entries(document)) == ["dags/ml.py", "dags/report.py"]
    assert len(entries(document)["dags/report.py"]) == 1
    assert (
        "kept 2 problems of files not linted"
        in invoke("--write-baseline", "baseline.json", "dags/report.py")[2]
    )


def test_a_deleted_file_leaves_the_baseline(repo: Path) -> None:
    written(repo)
    (repo / "dags/ml.py").unlink()
    code, _, err = invoke("dags/report.py", "--baseline", "baseline.json", "--verbose")
    assert code == 0
    assert "no longer occurs: dags/ml.py: DRL101 dag 'ml' task 'score' item 'gpu'" in err
    assert sorted(entries(written(repo, "dags/report.py"))) == ["dags/report.py"]


def test_noqa_comes_first_and_a_new_noqa_makes_an_entry_stale(repo: Path) -> None:
    silenced = REPORT.replace('executor="Nope")', 'executor="Nope")  # noqa: DRL103')
    (repo / "dags/report.py").write_text(silenced)
    document = written(repo)
    assert [entry["code"] for entry in entries(document)["dags/report.py"]] == ["DRL101"]
    silenced = silenced.replace('queue="reports")', 'queue="reports")  # noqa: DRL101')
    (repo / "dags/report.py").write_text(silenced)
    code, _, err = invoke("--baseline", "baseline.json")
    assert code == 0 and "lists 1 problem that no longer occurs" in err


LEGACY = """\
from airflow.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("legacy"):
    BashOperator(task_id="run", bash_command="x")
"""


def test_fix_leaves_what_the_baseline_accepts_unless_told(repo: Path) -> None:
    (repo / "dags/legacy.py").write_text(LEGACY)
    written(repo)
    assert invoke("--baseline", "baseline.json", "--fix")[0] == 0
    assert (repo / "dags/legacy.py").read_text() == LEGACY
    code, _, err = invoke("--baseline", "baseline.json", "--no-baseline", "--fix", "dags/legacy.py")
    assert code == 0 and "Fixed 1 problem in 1 file." in err
    assert "airflow.providers.standard.operators.bash" in (repo / "dags/legacy.py").read_text()


def test_write_baseline_with_fix_records_only_what_the_fix_leaves(repo: Path) -> None:
    (repo / "dags/legacy.py").write_text(LEGACY)
    code, _, err = invoke("--write-baseline", "baseline.json", "--fix")
    assert code == 0 and "Fixed 1 problem in 1 file." in err
    document = json.loads((repo / "baseline.json").read_text())
    assert "dags/legacy.py" not in entries(document)


def test_each_project_reads_its_own_baseline_and_the_flag_serves_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for team in ("alpha", "beta"):
        settings = SETTINGS + 'baseline = "baseline.json"\n'
        write_repo(
            tmp_path / team,
            {"pyproject.toml": settings, "dagroute.toml": CELERY_K8S, "dags/report.py": REPORT},
        )
    monkeypatch.chdir(tmp_path)
    # One file for both: each project under its folder, relative to the file.
    code, _, err = invoke("--write-baseline", "all.json", "alpha/dags", "beta/dags")
    assert code == 0 and "4 problems in 2 files" in err
    projects = json.loads((tmp_path / "all.json").read_text())["projects"]
    assert sorted(projects) == ["alpha", "beta"]
    assert list(projects["alpha"]) == ["dags/report.py"]
    assert invoke("--baseline", "all.json", "alpha/dags", "beta/dags")[:2] == (0, "")
    # Each project's own setting: alpha has its baseline, beta's file is missing.
    for team in ("alpha", "beta"):
        monkeypatch.chdir(tmp_path / team)
        invoke("--write-baseline", "baseline.json")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "beta/dags/report.py").write_text(REPORT.replace('"reports"', '"lost"'))
    code, out, _ = invoke("alpha/dags", "beta/dags")
    assert code == 1
    assert [line.split(" ")[0] for line in out.splitlines()] == ["beta/dags/report.py:5:5:"]
    (tmp_path / "beta/baseline.json").unlink()
    code, _, err = invoke("alpha/dags", "beta/dags")
    assert code == 2
    assert "beta/baseline.json: no such baseline file" in err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"version": 1,\n  "projects": {\n', "baseline.json:3:1: invalid JSON"),
        ('{"version": 2, "projects": {}}', "version 2: written by a newer dagroute-lint"),
        ('{"version": 1, "projects": []}', "projects: expected an object of project folders"),
        (
            '{"version": 1, "projects": {".": {"dags/a.py": [{"code": "DRL101", "line": 3}]}}}',
            'baseline.json: projects["."]["dags/a.py"][0].line: unknown key of an entry',
        ),
        (
            '{"version": 1, "projects": {".": {"dags/a.py": [{"code": "DRL101", "count": 0}]}}}',
            'projects["."]["dags/a.py"][0].count: expected a whole number from 1',
        ),
    ],
)
def test_a_broken_baseline_is_an_error_naming_the_file_and_where(
    repo: Path, content: str, message: str
) -> None:
    (repo / "baseline.json").write_text(content)
    code, out, err = invoke("--baseline", "baseline.json")
    assert (code, out) == (2, "")
    assert message in err and "Traceback" not in err
    # Nor is a file that is not a baseline overwritten by --write-baseline.
    code, _, err = invoke("--write-baseline", "baseline.json")
    assert code == 2 and "only a baseline file is overwritten" in err
    assert (repo / "baseline.json").read_text() == content


def test_a_missing_baseline_is_an_error(repo: Path) -> None:
    code, out, err = invoke("--baseline", "nowhere.json")
    assert (code, out) == (2, "")
    assert "nowhere.json: no such baseline file (`--write-baseline nowhere.json` writes one)" in err
    (repo / "pyproject.toml").write_text(SETTINGS + 'baseline = "gone.json"\n')
    assert "gone.json: no such baseline file" in invoke("dags")[2]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--baseline", "b.json"], "--write-baseline records every problem"),
        (["--diff"], "--write-baseline and --diff cannot be used together"),
        (["--add-noqa"], "--write-baseline and --add-noqa cannot be used together"),
        (["-", "--stdin-filename", "dags/report.py"], "cannot read stdin"),
    ],
)
def test_write_baseline_refuses_flags_that_contradict_it(
    repo: Path, args: list[str], message: str
) -> None:
    code, _, err = invoke("--write-baseline", "baseline.json", *args, input=REPORT)
    assert code == 2 and message in err
    assert not (repo / "baseline.json").exists()


def test_a_buffer_on_stdin_is_filtered_as_its_file(repo: Path) -> None:
    written(repo)
    code, out, _ = invoke(
        "-", "--stdin-filename", "dags/report.py", "--baseline", "baseline.json", input=REPORT
    )
    assert (code, out) == (0, "")
