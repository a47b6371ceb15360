"""DRL902: what the inventory leaves open is said once, never taken as "none" in silence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from dagroute_lint.cli import main
from tests.helpers import write_repo

BUCKETS = """
from airflow.providers.amazon.aws.operators.s3 import S3CreateBucketOperator
from airflow.providers.standard.sensors.time_delta import TimeDeltaSensorAsync
from airflow.sdk import DAG
from datetime import timedelta

with DAG("{dag}", schedule=None):
    S3CreateBucketOperator(task_id="make", bucket_name="reports")
    TimeDeltaSensorAsync(task_id="wait", delta=timedelta(minutes=1))
"""
# Written by hand: the runtime's providers and whether a triggerer runs are not said.
OPEN = """
[deployment]
airflow_version = "3.3"
executors = ["CeleryExecutor"]
dag_processor = { runtime = "base" }

[[workers]]
name = "celery"
queues = ["default"]
runtime = "base"

[runtimes.base]
packages = []
"""


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write_repo(
        tmp_path,
        {
            "dags/one.py": BUCKETS.format(dag="one"),
            "dags/two.py": BUCKETS.format(dag="two"),
            "dagroute.toml": OPEN,
        },
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["dags", *args])
    return result.exit_code, result.stdout, result.stderr


def test_an_open_fact_is_one_line_for_every_file_and_task_and_no_error(repo: Path) -> None:
    code, out, _ = run("--output-format", "json", "--no-cache")
    found = json.loads(out)
    # No DRL202 "missing provider" and no DRL303 "no triggerer": neither is known.
    assert {item["code"] for item in found} == {"DRL902"}
    by_key = {item["facts"]["item"]: item for item in found}
    assert set(by_key) == {"runtimes.base.providers", "deployment.triggerer"}
    providers = by_key["runtimes.base.providers"]
    assert (providers["file"], providers["line"], providers["severity"]) == (
        "dagroute.toml",
        OPEN.lstrip("\n").splitlines().index("[runtimes.base]") + 1,
        "warning",
    )
    tasks = {(task["dag_id"], task["task_id"]) for task in providers["facts"]["tasks"]}
    assert tasks == {("one", "make"), ("one", "wait"), ("two", "make"), ("two", "wait")}
    assert "and 3 more tasks" in providers["message"]
    waiting = {
        (t["dag_id"], t["task_id"]) for t in by_key["deployment.triggerer"]["facts"]["tasks"]
    }
    assert waiting == {("one", "wait"), ("two", "wait")}
    assert code == 1


def test_the_summary_counts_open_facts_even_when_drl902_is_not_selected(repo: Path) -> None:
    code, out, err = run("--select", "DRL202,DRL303", "--no-cache")
    assert (code, out) == (0, "")
    assert "; the inventory leaves open 2 facts some checks need" in err


def test_saying_the_facts_turns_them_into_checks(repo: Path) -> None:
    said = OPEN.replace("packages = []", 'packages = []\nproviders = ["standard", "celery"]')
    said = said.replace(
        'dag_processor = { runtime = "base" }',
        'dag_processor = { runtime = "base" }\ntriggerer = false',
    )
    (repo / "dagroute.toml").write_text(said)
    code, out, err = run("--output-format", "json")
    codes = sorted({item["code"] for item in json.loads(out)})
    assert (code, codes) == (1, ["DRL201", "DRL303"])  # amazon is missing where the file is parsed
    assert "leaves open" not in err


def test_a_warm_run_says_what_a_cold_one_says(repo: Path) -> None:
    cold = run("--output-format", "json")
    warm = run("--output-format", "json")
    uncached = run("--output-format", "json", "--no-cache")
    assert cold == warm == uncached


UNPROVEN = """
from airflow.sdk import DAG, task
import {module}

with DAG("{dag}", schedule=None):

    @task
    def sync() -> None:
        pass

    sync()
"""
THIRD_PARTY = """
[deployment]
airflow_version = "3.3"
executors = ["CeleryExecutor"]
dag_processor = { runtime = "base" }
triggerer = false

[[workers]]
name = "celery"
queues = ["default"]
runtime = "base"

[runtimes.base]
providers = ["standard", "celery", "apache-airflow-providers-foo-bar"]
packages = []
"""


def test_a_module_the_lists_do_not_prove_is_one_warning_per_module_not_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three files import what a third party's provider may bring: no error, one line for each
    module, over every file that imports it."""
    write_repo(
        tmp_path,
        {
            "dags/one.py": UNPROVEN.format(module="foo_bar_sdk", dag="one"),
            "dags/two.py": UNPROVEN.format(module="foo_bar_sdk", dag="two"),
            "dags/three.py": UNPROVEN.format(module="foo_bar_cli", dag="three"),
            "dagroute.toml": THIRD_PARTY,
        },
    )
    monkeypatch.chdir(tmp_path)
    _, out, _ = run("--format", "json", "--select", "ALL")
    found = json.loads(out)
    assert sorted((d["code"], d["severity"], d["facts"]["item"]) for d in found) == [
        ("DRL902", "warning", "foo_bar_cli"),
        ("DRL902", "warning", "foo_bar_sdk"),
    ]
    sdk = next(d for d in found if d["facts"]["item"] == "foo_bar_sdk")
    assert {task["dag_id"] for task in sdk["facts"]["tasks"]} == {"one", "two"}
    assert "do not prove that it has 'foo_bar_sdk'" in sdk["message"]


def test_a_complete_environment_proves_a_module_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``complete = true`` (an environment read with ``--python``): every installed
    distribution is listed, so nothing else comes with them and the module is missing."""
    write_repo(
        tmp_path,
        {
            "dags/one.py": UNPROVEN.format(module="foo_bar_sdk", dag="one"),
            "dagroute.toml": THIRD_PARTY.replace("packages = []", "packages = []\ncomplete = true"),
        },
    )
    monkeypatch.chdir(tmp_path)
    _, out, _ = run("--format", "json", "--select", "ALL")
    found = json.loads(out)
    assert [(d["code"], d["severity"], d["facts"]["item"]) for d in found] == [
        ("DRL205", "error", "foo_bar_sdk")
    ]


def test_complete_is_true_or_false(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_repo(
        tmp_path,
        {
            "dags/one.py": UNPROVEN.format(module="os", dag="one"),
            "dagroute.toml": THIRD_PARTY.replace(
                "packages = []", 'packages = []\ncomplete = "yes"'
            ),
        },
    )
    monkeypatch.chdir(tmp_path)
    code, _, err = run()
    assert code == 2
    assert "runtimes.base.complete" in err and "expected true or false" in err
