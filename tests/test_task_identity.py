"""Which tasks a file builds, and under which ids: a DAG defined twice in one file makes its
tasks conditional (Airflow keeps either definition), TaskFlow's ``__1`` suffixes count per DAG, a
repository class that cannot be an operator builds no task, and an unknown flag keeps its
origin."""

from __future__ import annotations

from pathlib import Path

from dagroute_lint.resolve.tasks import Field, ResolvedTask
from tests.helpers import lint_repo, placeless

HEAD = """
import os
from dataclasses import dataclass

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, task
"""


def tasks(tmp_path: Path, body: str) -> list[ResolvedTask]:
    return lint_repo(tmp_path, {"dags/dag.py": HEAD + body}, inventory=None).tasks


def test_tasks_of_a_dag_defined_twice_in_the_file_are_conditional(tmp_path: Path) -> None:
    found = tasks(
        tmp_path,
        """
with DAG("exports", schedule=None):
    BashOperator(task_id="first", bash_command="x")

with DAG("exports", schedule=None):
    BashOperator(task_id="second", bash_command="x")

with DAG("imports", schedule=None):
    BashOperator(task_id="third", bash_command="x")
""",
    )
    assert [task.label for task in found] == [
        "task 'first' in dag 'exports' (if this task is created)",
        "task 'second' in dag 'exports' (if this task is created)",
        "task 'third' in dag 'imports'",
    ]


def test_taskflow_suffixes_count_within_one_dag(tmp_path: Path) -> None:
    found = tasks(
        tmp_path,
        """
@task
def build() -> None:
    pass


with DAG("exports", schedule=None):
    build()
    build()

with DAG("imports", schedule=None):
    build()
""",
    )
    assert [(task.dag_id, task.task_id) for task in found] == [
        ("exports", "build"),
        ("exports", "build__1"),
        ("imports", "build"),
    ]


def test_a_repository_dataclass_given_a_task_id_builds_no_task(tmp_path: Path) -> None:
    jobs = "from dataclasses import dataclass\n\n\n@dataclass\nclass Job:\n    task_id: str\n"
    source = HEAD + (
        "from common.jobs import Job\n\n"
        'with DAG("exports", schedule=None):\n'
        '    Job(task_id="not_a_task")\n'
        '    BashOperator(task_id="build", bash_command="x")\n'
    )
    files = {"dags/dag.py": source, "dags/common/__init__.py": "", "dags/common/jobs.py": jobs}
    found = lint_repo(tmp_path, files, inventory=None).tasks
    assert [task.task_id for task in found] == ["build"]


def test_an_unknown_flag_keeps_its_origin(tmp_path: Path) -> None:
    (found,) = tasks(
        tmp_path,
        """
with DAG("exports", schedule=None):
    BashOperator(task_id="build", bash_command="x", deferrable=os.environ["DEFER"])
""",
    )
    assert placeless(found.fields["deferrable"]) == Field(
        None, False, "argument", "environment variable (os.environ)"
    )


def test_a_flag_with_candidates_is_unknown_with_them(tmp_path: Path) -> None:
    (found,) = tasks(
        tmp_path,
        """
DEFER = True if os.environ.get("DEFER") else False

with DAG("exports", schedule=None):
    BashOperator(task_id="build", bash_command="x", deferrable=DEFER)
""",
    )
    assert placeless(found.fields["deferrable"]) == Field(
        None, False, "argument", "a conditional expression", (True, False), "deferrable"
    )


def test_unknown_ids_are_listed_with_the_other_unknown_fields(tmp_path: Path) -> None:
    group = "the id or prefix_group_id of an enclosing TaskGroup cannot be known statically"
    environment = "environment variable (os.environ)"
    found = tasks(
        tmp_path,
        """
from airflow.sdk import TaskGroup

with DAG(os.environ["DAG_ID"], schedule=None):
    BashOperator(task_id="known", bash_command="x", queue=os.environ["QUEUE"])
    BashOperator(task_id=os.environ["TASK_ID"], bash_command="x")
    with TaskGroup(os.environ["GROUP"]):
        BashOperator(task_id="grouped", bash_command="x")
""",
    )
    assert [dict(task.unresolved) for task in found] == [
        {"queue": environment, "dag_id": environment},
        {"dag_id": environment, "task_id": environment},
        {"dag_id": environment, "task_id": group},
    ]


def test_a_task_outside_any_dag_is_skipped_and_the_next_ones_kept(tmp_path: Path) -> None:
    found = tasks(
        tmp_path,
        """
BashOperator(task_id="loose", bash_command="x")

with DAG("exports", schedule=None):
    BashOperator(task_id="build", bash_command="x")
""",
    )
    assert [(task.dag_id, task.task_id) for task in found] == [("exports", "build")]
