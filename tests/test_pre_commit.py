"""The pre-commit hook, driven by the real pre-commit on a throw-away git repository.

pre-commit installs this repository (its working tree, snapshotted into a git repository of its
own) into an isolated environment from the package index, once per test session: the store lives
in a session temporary ``PRE_COMMIT_HOME``. ``pre-commit try-repo`` would build a fresh store for
every call (it ignores ``PRE_COMMIT_HOME``), so the tests use a ``.pre-commit-config.yaml`` naming
the snapshot, as a user's repository names a release.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import CELERY_K8S, dag_repository, run_command, write_repo

pytestmark = pytest.mark.installs

REPO = Path(__file__).resolve().parents[1]

GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.invalid",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.invalid",
    "GIT_AUTHOR_DATE": "2000-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "2000-01-01T00:00:00Z",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
}


DAG = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
from common.routing import {name}
with DAG("lab"):
    BashOperator(task_id="build", bash_command="x", queue={name})
"""


def _git(cwd: Path, *args: str) -> str:
    result = subprocess.run(
        ["git", *args],
        cwd=cwd,
        env={**os.environ, **GIT_IDENTITY},
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout


@pytest.fixture(scope="session")
def hook_repository(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """This repository's working tree (tracked and new files) as a git repository, and its rev."""
    snapshot = tmp_path_factory.mktemp("hook-repository")
    listed = _git(REPO, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    for name in filter(None, listed.split("\0")):
        source = REPO / name
        if source.is_file():
            target = snapshot / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read_bytes())
    _git(snapshot, "init", "-q")
    _git(snapshot, "add", "-A")
    _git(snapshot, "commit", "-q", "-m", "snapshot")
    return snapshot, _git(snapshot, "rev-parse", "HEAD").strip()


@pytest.fixture(scope="session")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("pre-commit-home")


@pytest.fixture
def hooked_repository(
    tmp_path: Path, hook_repository: tuple[Path, str], pre_commit_home: Path
) -> Iterator[Path]:
    """A DAG repository with settings, an inventory, a shared routing module and the hook."""
    hook_path, rev = hook_repository
    dag_repository(
        tmp_path,
        {
            ".pre-commit-config.yaml": (
                f"repos:\n- repo: {hook_path}\n  rev: {rev}\n  hooks:\n  - id: dagroute-lint\n"
            ),
        },
    )
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-q", "-m", "initial")
    yield tmp_path


def hook_environment(home: Path) -> dict[str, str]:
    """pre-commit's store in ``home``, and with it the app data of the virtualenv it makes, and
    no pip cache: nothing it installs lands in the user's home."""
    return {
        **os.environ,
        **GIT_IDENTITY,
        "PRE_COMMIT_HOME": str(home),
        "VIRTUALENV_OVERRIDE_APP_DATA": str(home / "virtualenv-app-data"),
        "PIP_NO_CACHE_DIR": "1",
    }


def pre_commit(repository: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_command(
        [sys.executable, "-m", "pre_commit", *args], repository, env=hook_environment(home)
    )


def commit(repository: Path, home: Path, message: str) -> subprocess.CompletedProcess[str]:
    """``git commit`` through the installed hook; returns git's result."""
    return run_command(
        ["git", "commit", "-q", "-m", message], repository, env=hook_environment(home)
    )


def commits(repository: Path) -> int:
    return int(_git(repository, "rev-list", "--count", "HEAD"))


def test_commits_fail_then_pass_and_an_inventory_change_rechecks_every_dag(
    hooked_repository: Path, pre_commit_home: Path
) -> None:
    installed = pre_commit(hooked_repository, pre_commit_home, "install")
    assert installed.returncode == 0, installed.stdout + installed.stderr

    # A DAG routing to a queue no worker serves; the queue comes from a module the commit
    # does not touch, read from disk for context.
    write_repo(hooked_repository, {"dags/report.py": DAG.format(name="REPORTS_QUEUE")})
    _git(hooked_repository, "add", "dags/report.py")
    failing = commit(hooked_repository, pre_commit_home, "add the report DAG")
    output = failing.stdout + failing.stderr
    assert failing.returncode == 1, output
    assert "dagroute-lint" in output and "Failed" in output
    assert (
        "dags/report.py:5:5: DRL101 [error] task 'build' in dag 'lab' routes to queue 'reports'"
        in (output)
    )
    assert commits(hooked_repository) == 1

    write_repo(hooked_repository, {"dags/report.py": DAG.format(name="IMPORTS_QUEUE")})
    _git(hooked_repository, "add", "dags/report.py")
    passing = commit(hooked_repository, pre_commit_home, "route the report DAG to imports")
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert commits(hooked_repository) == 2

    # Only the inventory changes: the worker stops serving `imports`. The DAG file is not part
    # of the commit, yet it is the one that breaks, so the hook must re-check every DAG.
    inventory = hooked_repository / "dagroute.toml"
    inventory.write_text(CELERY_K8S.replace('["default", "imports"]', '["default"]'))
    _git(hooked_repository, "add", "dagroute.toml")
    assert _git(hooked_repository, "diff", "--cached", "--name-only").split() == ["dagroute.toml"]
    broken = commit(hooked_repository, pre_commit_home, "stop serving imports")
    output = broken.stdout + broken.stderr
    assert broken.returncode == 1, output
    assert (
        "dags/report.py:5:5: DRL101 [error] task 'build' in dag 'lab' routes to queue 'imports'"
        in (output)
    )
    assert "dagroute.toml is the deployment inventory or the settings" in output
    assert commits(hooked_repository) == 2


def test_a_commit_changing_only_a_shared_module_lints_the_dags_that_import_it(
    hooked_repository: Path, pre_commit_home: Path
) -> None:
    installed = pre_commit(hooked_repository, pre_commit_home, "install")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    # Two DAGs on a served queue, one through a module that re-exports the routing constants,
    # and a DAG that imports nothing shared (broken, committed past the hook).
    write_repo(
        hooked_repository,
        {
            "dags/report.py": DAG.format(name="IMPORTS_QUEUE").replace('"lab"', '"report"'),
            "dags/common/queues.py": "from common.routing import IMPORTS_QUEUE\n",
            "dags/nightly.py": DAG.format(name="IMPORTS_QUEUE")
            .replace("common.routing", "common.queues")
            .replace('"lab"', '"nightly"'),
            "dags/unrelated.py": DAG.replace("from common.routing import {name}\n", "")
            .format(name='"reports"')
            .replace('"lab"', '"unrelated"'),
        },
    )
    _git(hooked_repository, "add", "-A")
    _git(hooked_repository, "commit", "-q", "--no-verify", "-m", "DAGs")

    routing = hooked_repository / "dags/common/routing.py"
    routing.write_text(routing.read_text().replace('"imports"', '"nowhere"'))
    _git(hooked_repository, "add", "dags/common/routing.py")
    assert _git(hooked_repository, "diff", "--cached", "--name-only").split() == [
        "dags/common/routing.py"
    ]
    broken = commit(hooked_repository, pre_commit_home, "move imports to nowhere")
    output = broken.stdout + broken.stderr
    assert broken.returncode == 1, output
    reported = sorted(line.split(": DRL")[0] for line in output.splitlines() if ": DRL" in line)
    assert reported == ["dags/nightly.py:5:5", "dags/report.py:5:5"], output
    assert "routes to queue 'nowhere'" in output
    assert (
        "also linted 2 files that import the files given: dags/nightly.py, dags/report.py" in output
    )
    assert "unrelated.py" not in output  # it imports nothing the commit changed
    assert commits(hooked_repository) == 2


def test_run_reports_only_the_files_passed_and_all_files_reports_all(
    hooked_repository: Path, pre_commit_home: Path
) -> None:
    write_repo(
        hooked_repository,
        {
            "dags/bad.py": DAG.format(name="REPORTS_QUEUE").replace('"lab"', '"bad"'),
            "dags/good.py": DAG.format(name="IMPORTS_QUEUE").replace('"lab"', '"good"'),
            "config/other.toml": "[tool]\nx = 1\n",
        },
    )
    _git(hooked_repository, "add", "-A")

    only_good = pre_commit(
        hooked_repository, pre_commit_home, "run", "dagroute-lint", "--files", "dags/good.py"
    )
    assert only_good.returncode == 0, only_good.stdout + only_good.stderr
    assert "Passed" in only_good.stdout

    every = pre_commit(hooked_repository, pre_commit_home, "run", "dagroute-lint", "--all-files")
    assert every.returncode == 1, every.stdout + every.stderr
    reported = [line for line in every.stdout.splitlines() if ": DRL" in line]
    assert reported == [
        "dags/bad.py:5:5: DRL101 [error] task 'build' in dag 'bad' routes to queue 'reports', "
        "but no CeleryExecutor worker serves it (served: default, imports); it will stay "
        "queued and never start"
    ]

    # A TOML file that is neither the inventory nor the settings is not among the hook's files.
    toml_only = pre_commit(
        hooked_repository, pre_commit_home, "run", "dagroute-lint", "--files", "config/other.toml"
    )
    assert toml_only.returncode == 0, toml_only.stdout + toml_only.stderr
    assert "(no files to check)Skipped" in toml_only.stdout


def test_try_repo_fails_on_the_failing_commit_and_passes_on_the_fixed_one(
    tmp_path: Path, hook_repository: tuple[Path, str], pre_commit_home: Path
) -> None:
    """``pre-commit try-repo``, as a user tries the hook before adding it to their config."""
    hook_path, rev = hook_repository
    dag_repository(tmp_path, {"dags/report.py": DAG.format(name="REPORTS_QUEUE")})
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-q", "-m", "a DAG routed to a queue nobody serves")

    def try_repo() -> subprocess.CompletedProcess[str]:
        return pre_commit(
            tmp_path, pre_commit_home, "try-repo", str(hook_path), "dagroute-lint",
            "--ref", rev, "--all-files",
        )  # fmt: skip

    failing = try_repo()
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert (
        "dags/report.py:5:5: DRL101 [error] task 'build' in dag 'lab' routes to queue 'reports'"
        in (failing.stdout)
    )

    write_repo(tmp_path, {"dags/report.py": DAG.format(name="IMPORTS_QUEUE")})
    _git(tmp_path, "commit", "-q", "-am", "route the report DAG to imports")
    passing = try_repo()
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert ": DRL" not in passing.stdout


def test_an_excluded_file_does_not_block_a_commit(
    hooked_repository: Path, pre_commit_home: Path
) -> None:
    """The hook runs with ``--force-exclude``: pre-commit names the file, the settings exclude it,
    and the commit goes through as ``dagroute-lint dags/`` would pass it over."""
    write_repo(
        hooked_repository,
        {
            "pyproject.toml": '[tool.dagroute-lint]\ndags = ["dags"]\nexclude = ["scratch"]\n',
            "dags/scratch/bad.py": DAG.format(name="REPORTS_QUEUE"),
        },
    )
    _git(hooked_repository, "add", "-A")
    result = pre_commit(
        hooked_repository, pre_commit_home, "run", "dagroute-lint", "--files",
        "dags/scratch/bad.py",
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Passed" in result.stdout
