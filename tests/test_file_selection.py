"""Which files a run reports on: ``.airflowignore``, and files that cannot define a DAG."""

from __future__ import annotations

import fnmatch
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from dagroute_lint.cli import main
from dagroute_lint.config import Settings, load_settings
from dagroute_lint.deployment.inventory import load_inventory
from dagroute_lint.errors import ConfigError
from dagroute_lint.pipeline.runner import run
from dagroute_lint.sources.discovery import DEFAULT_EXCLUDES, discover, might_define_dags
from tests.helpers import CELERY_K8S, codes, lint_repo, write_repo

UNSERVED = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
with DAG("{name}"):
    BashOperator(task_id="a", bash_command="x", queue="reports")
"""


def reported_files(report_paths: list[str], root: Path) -> list[str]:
    return sorted({Path(path).relative_to(root / "dags").as_posix() for path in report_paths})


def test_the_words_airflow_or_dag_make_a_file_worth_extracting() -> None:
    assert might_define_dags(b"from airflow.sdk import DAG\n")
    assert might_define_dags(b"with DAG(:\n")  # broken, but a DAG file all the same
    assert might_define_dags(b"# AIRFLOW helpers\n")
    assert not might_define_dags(b"def clean(rows):\n    return rows\n")


def test_helpers_are_skipped_unless_a_reported_file_imports_them(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        {
            "dags/dag.py": "import shared.broken_helper\n" + UNSERVED.format(name="lab"),
            "dags/unused/broken.py": "def f(:\n",  # imported by nothing: Airflow never runs it
            "dags/shared/__init__.py": "X = (\n",  # run by `import shared.broken_helper`
            "dags/shared/broken_helper.py": "def g(:\n",
        },
    )
    assert report.files == 3
    failing = [d.path for d in report.diagnostics if d.code == "DRL001"]
    assert reported_files(failing, tmp_path) == ["shared/__init__.py", "shared/broken_helper.py"]
    assert "DRL101" in codes(report)


def test_a_file_named_on_the_command_line_is_always_linted(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        {"dags/helper.py": "def f(:\n"},
        paths=[str(tmp_path / "dags/helper.py")],
    )
    assert codes(report) == ["DRL001"]


def test_airflowignore_glob_is_the_airflow_3_default(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        {
            "dags/.airflowignore": "ign*\nscratch/\n",
            "dags/ignored_dag.py": UNSERVED.format(name="ignored"),
            "dags/scratch/try.py": UNSERVED.format(name="scratch"),
            "dags/kept.py": UNSERVED.format(name="kept"),
        },
    )
    paths = [diagnostic.path for diagnostic in report.diagnostics]
    assert reported_files(paths, tmp_path) == ["kept.py"]


def test_airflowignore_is_regexp_for_airflow_2_unless_configured(tmp_path: Path) -> None:
    files = {
        "dags/.airflowignore": "ign.*_dag\n",  # a regexp; as a glob it matches nothing here
        "dags/ignored_dag.py": UNSERVED.format(name="ignored"),
        "dags/kept.py": UNSERVED.format(name="kept"),
    }
    airflow_2 = CELERY_K8S.replace('airflow_version = "3.3"', 'airflow_version = "2.10"')
    report = lint_repo(tmp_path, files, inventory=airflow_2)
    paths = [diagnostic.path for diagnostic in report.diagnostics]
    assert reported_files(paths, tmp_path) == ["kept.py"]

    settings = Settings(root=tmp_path, dag_ignore_file_syntax="glob")
    inventory = load_inventory(tmp_path / "dagroute.toml")
    report = run([str(tmp_path / "dags")], settings, inventory)
    paths = [diagnostic.path for diagnostic in report.diagnostics]
    assert reported_files(paths, tmp_path) == ["ignored_dag.py", "kept.py"]


def test_a_named_file_that_airflow_ignores_is_skipped_in_a_dag_folder(tmp_path: Path) -> None:
    """pre-commit passes changed files one by one; they must agree with the folder run."""
    write_repo(
        tmp_path,
        {
            "pyproject.toml": '[tool.dagroute-lint]\ndags = ["dags"]\n',
            "dags/.airflowignore": "scratch/\n",
            "dags/scratch/try.py": UNSERVED.format(name="scratch"),
            "dags/kept.py": UNSERVED.format(name="kept"),
        },
    )
    (tmp_path / "dagroute.toml").write_text(CELERY_K8S)
    settings = load_settings(None, tmp_path)
    inventory = load_inventory(tmp_path / "dagroute.toml")
    named = [str(tmp_path / "dags/scratch/try.py"), str(tmp_path / "dags/kept.py")]
    report = run(named, settings, inventory)
    assert report.files == 1
    assert reported_files([d.path for d in report.diagnostics], tmp_path) == ["kept.py"]


def test_unknown_ignore_file_syntax_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.dagroute-lint]\ndag-ignore-file-syntax = "regex"\n'
    )
    with pytest.raises(ConfigError, match=r"dag-ignore-file-syntax: expected one of glob, regexp"):
        load_settings(None, tmp_path)


EXCLUDE_TREE = [
    "dags/a.py",
    "dags/b.py",
    "dags/one_test.py",
    "dags/build/x.py",
    "dags/legacy_v1/y.py",
    "dags/team/a.py",
    "dags/team/z.py",
    "dags/team/deep/c_test.py",
]


@pytest.mark.parametrize(
    "exclude",
    [
        [],
        ["a.py"],  # a name: every file of that name
        ["dags/team/a.py"],  # a path: only that file
        ["*_test.py"],
        ["legacy*", "[ab].py"],
        ["team", "*_test.py", "dags/b.py"],
        ["dags/team/*"],  # fnmatch's * crosses the folder separator
        ["?.py"],
    ],
)
def test_exclude_patterns_mean_what_fnmatch_means(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exclude: list[str]
) -> None:
    """Names without wildcards are looked up as a set and globs matched as one expression:
    the walk must leave in what fnmatch, pattern by pattern, would (a folder by its name, a
    file by its name or by its path as shown)."""
    write_repo(tmp_path, dict.fromkeys(EXCLUDE_TREE, "x = 1\n"))
    monkeypatch.chdir(tmp_path)
    patterns = [*DEFAULT_EXCLUDES, *exclude]

    def excluded(text: str) -> bool:
        return any(fnmatch.fnmatch(text, pattern) for pattern in patterns)

    def kept(path: str) -> bool:
        *folders, name = path.split("/")[1:]
        return not any(map(excluded, [*folders, name, path]))

    expected = [path for path in sorted(EXCLUDE_TREE) if kept(path)]
    assert [source.display for source in discover(["dags"], exclude)] == expected
    assert len(expected) < len(EXCLUDE_TREE) or not exclude


def _command(root: Path, *args: str) -> tuple[int, str, str]:
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_a_run_that_leaves_every_file_out_says_how_many_and_why(tmp_path: Path) -> None:
    """As ruff says "No Python files found under the given paths", never a silent
    "0 tasks in 0 DAGs checked", and names what left them out."""
    write_repo(
        tmp_path,
        {
            "pyproject.toml": '[tool.dagroute-lint]\nextend-exclude = ["dags/old", "*_tmp.py"]\n',
            "dags/old/a.py": UNSERVED.format(name="a"),
            "dags/old/b.py": UNSERVED.format(name="b"),
            "dags/x_tmp.py": UNSERVED.format(name="x"),
            "dags/scratch.py": UNSERVED.format(name="s"),
            "dags/skipped.py": UNSERVED.format(name="k"),
            "dags/.airflowignore": "skipped.py\n",
            ".gitignore": "dags/scratch.py\n",
        },
    )
    git = shutil.which("git")
    assert git is not None, "git is needed to tell what .gitignore leaves out"
    subprocess.run([git, "init", "-q", str(tmp_path)], check=True)
    for command in (["dags"], ["routes", "dags"]):
        code, _, err = _command(tmp_path, *command)
        assert code == 0, err
        assert (
            "dagroute-lint: no Python files found under the given paths: 1 file and 1 folder "
            "matched an exclude pattern; 1 file matched .airflowignore; 1 file ignored by git "
            "(see --show-settings)"
        ) in err.splitlines(), err
    # A folder with nothing in it says so, with no reasons to give.
    (tmp_path / "empty").mkdir()
    code, _, err = _command(tmp_path, "empty")
    assert "dagroute-lint: no Python files found under the given paths" in err.splitlines()
    # Python files that the DAG processor's word test passes over are no DAG files: said so,
    # beside what the settings left out.
    write_repo(tmp_path, {"plugins/helpers.py": "RETRIES = 3\n", "plugins/old/x.py": "Y = 1\n"})
    (tmp_path / "pyproject.toml").write_text('[tool.dagroute-lint]\nextend-exclude = ["old"]\n')
    for command in (["plugins"], ["routes", "plugins"]):
        code, _, err = _command(tmp_path, *command)
        assert code == 0, err
        assert (
            "dagroute-lint: no DAG files found under the given paths: 1 folder matched an exclude "
            'pattern; 1 file mentioned neither "airflow" nor "dag" (see --show-settings)'
        ) in err.splitlines(), err


def test_routes_takes_the_file_selection_options_of_check(tmp_path: Path) -> None:
    """``routes`` and ``check`` select files alike: ``--extend-exclude``, ``--force-exclude``
    and ``--no-respect-gitignore`` mean the same to both."""

    write_repo(
        tmp_path,
        {
            "dags/kept.py": UNSERVED.format(name="kept"),
            "dags/generated.py": UNSERVED.format(name="generated"),
            "dags/scratch.py": UNSERVED.format(name="scratch"),
            ".gitignore": "dags/scratch.py\n",
            "dagroute.toml": CELERY_K8S,
        },
    )
    git = shutil.which("git")
    assert git is not None
    subprocess.run([git, "init", "-q", str(tmp_path)], check=True)

    def dag_ids(*args: str) -> tuple[list[str], list[str]]:
        _, out, _ = _command(tmp_path, "routes", "--format", "json", *args)
        routed = sorted({task["dag_id"] for task in json.loads(out)["tasks"]})
        _, out, _ = _command(tmp_path, "--format", "json", "--no-cache", *args)
        linted = sorted({Path(item["file"]).stem for item in json.loads(out)})
        return routed, linted

    assert dag_ids("dags") == (["generated", "kept"], ["generated", "kept"])
    assert dag_ids("dags", "--extend-exclude", "generated.py") == (["kept"], ["kept"])
    everything = ["generated", "kept", "scratch"]
    assert dag_ids("dags", "--no-respect-gitignore") == (everything, everything)
    named = ["dags/generated.py", "dags/kept.py", "--extend-exclude", "generated.py"]
    assert dag_ids(*named) == (["generated", "kept"], ["generated", "kept"])
    assert dag_ids(*named, "--force-exclude") == (["kept"], ["kept"])
