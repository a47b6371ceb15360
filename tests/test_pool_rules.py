"""DRL301 unknown-pool and DRL302 pool-slots-exceed-pool."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import CELERY_K8S, by_code, codes, lint_repo

HEADER = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import DAG, task
"""
WITH_POOLS = CELERY_K8S + "\n[pools]\nreports = 4\nbig = -1\n"


def dag_file(body: str) -> dict[str, str]:
    return {"dags/dag.py": HEADER + body}


def test_unknown_pool_names_the_declared_pools_and_a_close_match(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        dag_file("""
with DAG("lab"):
    BashOperator(task_id="a", bash_command="x", pool="report")
"""),
        inventory=WITH_POOLS,
    )
    (diagnostic,) = by_code(report, "DRL301")
    assert (diagnostic.line, diagnostic.column) == (6, 49)  # the pool= argument
    assert diagnostic.message == (
        "task 'a' in dag 'lab' uses pool 'report' (argument), which the deployment does not "
        "declare (pools: big, default_pool, reports); the scheduler never schedules it and it "
        "stays SCHEDULED forever; did you mean 'reports'?"
    )


def test_declared_default_and_unresolved_pools_are_not_unknown(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        dag_file("""
import os
with DAG("lab", default_args={"pool": "reports"}):
    BashOperator(task_id="declared", bash_command="x")
    BashOperator(task_id="default", bash_command="x", pool=None)
    BashOperator(task_id="unset", bash_command="x", pool="default_pool")
    BashOperator(task_id="dynamic", bash_command="x", pool=os.environ["POOL"])
    EmptyOperator(task_id="marker", pool="nowhere")
"""),
        inventory=WITH_POOLS,
    )
    # The env pool is DRL105's business; the EmptyOperator never reaches the scheduler's pools.
    assert codes(report) == ["DRL105"]


def test_unknown_pool_from_default_args_reported_on_the_task(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        dag_file("""
with DAG("lab", default_args={"pool": "etl"}):
    @task
    def load():
        pass
    load()
"""),
        inventory=WITH_POOLS,
    )
    (diagnostic,) = by_code(report, "DRL301")
    assert "uses pool 'etl' (DAG default_args)" in diagnostic.message
    assert diagnostic.line == 9


def test_without_pools_section_any_pool_is_accepted(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        dag_file("""
with DAG("lab"):
    BashOperator(task_id="a", bash_command="x", pool="anything", pool_slots=500)
"""),
    )
    assert codes(report) == []


def test_pool_slots_larger_than_the_pool(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        dag_file("""
with DAG("lab"):
    BashOperator(task_id="fits", bash_command="x", pool="reports", pool_slots=4)
    BashOperator(task_id="too_big", bash_command="x", pool="reports", pool_slots=5)
    BashOperator(task_id="unlimited", bash_command="x", pool="big", pool_slots=10_000)
    BashOperator(task_id="default", bash_command="x", pool_slots=129)
    BashOperator(task_id="unknown", bash_command="x", pool="nope", pool_slots=9)
"""),
        inventory=WITH_POOLS,
    )
    messages = [d.message for d in by_code(report, "DRL302")]
    assert messages == [
        "task 'too_big' in dag 'lab' asks for 5 slots (argument) of pool 'reports', which has "
        "only 4; the scheduler never finds room and it stays SCHEDULED forever",
        "task 'default' in dag 'lab' asks for 129 slots (argument) of pool 'default_pool', "
        "which has only 128; the scheduler never finds room and it stays SCHEDULED forever",
    ]
    assert [d.message.split("'")[1] for d in by_code(report, "DRL301")] == ["unknown"]


def test_pool_slots_below_one_is_a_parse_error_even_without_inventory(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        dag_file("""
with DAG("lab", default_args={"pool_slots": 0}):
    BashOperator(task_id="zero", bash_command="x")
    BashOperator(task_id="negative", bash_command="x", pool_slots=-1)
    BashOperator(task_id="one", bash_command="x", pool_slots=1)
    EmptyOperator(task_id="marker", pool_slots=0)
"""),
        inventory=None,
    )
    found = [(d.message.split("'")[1], d.message.split(" (")[1]) for d in report.diagnostics]
    assert found == [
        ("zero", "DAG default_args); Airflow rejects pool_slots below 1 when it parses the file"),
        ("negative", "argument); Airflow rejects pool_slots below 1 when it parses the file"),
        ("marker", "argument); Airflow rejects pool_slots below 1 when it parses the file"),
    ]
    assert "rejects pool_slots below 1 when it parses the file (ValueError)" in (
        report.diagnostics[0].message
    )
