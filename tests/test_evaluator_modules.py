"""Functions of other repository modules, run where the DAG file calls them: operator and DAG
factories, default_args builders, @task functions defined elsewhere."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.helpers import by_code, lint_repo, run_command, value, write_repo

COMMON = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import task

BASE = {"pool": "shared", "pool_slots": 2}


def get_default_args(**overrides):
    args = dict(BASE)
    args.update(overrides)
    return args


def slack_op(dag, tid, q="manager"):
    return BashOperator(task_id=f"slack_{tid}", bash_command="x", queue=q, dag=dag)


@task(queue="flows")
def extract():
    return 1
"""


def test_factories_and_tasks_from_another_module(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        {
            "dags/common/__init__.py": "",
            "dags/common/helpers.py": COMMON,
            "dags/dag.py": """
from airflow.sdk import DAG
from common.helpers import extract, get_default_args, slack_op

with DAG("d", default_args=get_default_args(queue="reports")) as d:
    slack_op(d, "a")
    extract()
""",
        },
        inventory=None,
    )
    tasks = {task.task_id: task for task in report.tasks}
    assert sorted(tasks) == ["extract", "slack_a"]
    assert value(tasks["slack_a"], "queue") == "manager"
    assert value(tasks["slack_a"], "pool") == "shared"
    assert value(tasks["slack_a"], "pool_slots") == 2
    assert value(tasks["extract"], "queue") == "flows"
    assert tasks["slack_a"].task.position.line == 5  # placed at the call in the DAG file
    assert by_code(report, "DRL106") == []


def test_a_change_to_the_helper_module_is_seen_through_the_cache(tmp_path: Path) -> None:
    files = {
        "dags/common/__init__.py": "",
        "dags/common/helpers.py": COMMON,
        "dags/dag.py": """
from airflow.sdk import DAG
from common.helpers import slack_op

with DAG("d") as d:
    slack_op(d, "a")
""",
    }
    write_repo(tmp_path, files)
    first = run_command(
        [sys.executable, "-m", "dagroute_lint", "routes", "dags", "--format", "csv"], cwd=tmp_path
    )
    assert ",manager," in first.stdout
    (tmp_path / "dags/common/helpers.py").write_text(COMMON.replace('q="manager"', 'q="other"'))
    second = run_command(
        [sys.executable, "-m", "dagroute_lint", "routes", "dags", "--format", "csv"], cwd=tmp_path
    )
    assert ",other," in second.stdout, second.stdout + second.stderr


def test_override_of_an_imported_task_and_a_dag_subclass(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        {
            "dags/common/__init__.py": "",
            "dags/common/helpers.py": COMMON,
            "dags/dag.py": """
from datetime import datetime
from airflow.sdk import DAG
from common.helpers import extract

CONFIG = {"start_date": datetime(2024, 1, 1), "default_args": {"pool": "spread"}}

class Monitored(DAG):
    def __init__(self, dag_id, **kwargs):
        super().__init__(dag_id, **kwargs)

with Monitored("d", **CONFIG):
    extract.override(task_id="extract_eu", queue="eu")()
""",
        },
        inventory=None,
    )
    (task,) = report.tasks
    assert (task.dag_id, task.task_id) == ("d", "extract_eu")
    assert value(task, "queue") == "eu"
    assert value(task, "pool") == "spread"
    # The subclass's __init__ is run (it builds no task of its own): nothing to announce.
    assert by_code(report, "DRL106") == []


def test_enum_members_of_another_module_are_members_not_values(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        {
            "dags/common/__init__.py": "",
            "dags/common/tiers.py": """
import enum
from airflow.providers.standard.operators.bash import BashOperator

class Tier(enum.Enum):
    GOLD = "gold"

def pull(name, tier):
    return BashOperator(task_id=name, bash_command="x", queue=tier.value)
""",
            "dags/dag.py": """
from airflow.sdk import DAG
from common.tiers import Tier, pull

with DAG("d"):
    pull("a", Tier.GOLD)
    if Tier.GOLD == "gold":
        pull("never", Tier.GOLD)
""",
        },
        inventory=None,
    )
    tasks = {task.task_id: task for task in report.tasks}
    assert value(tasks["a"], "queue") == "gold"
    assert "never" not in tasks or tasks["never"].task.conditional
