"""TaskFlow's ids for a function called again in the same DAG, as ``get_unique_task_id``
(task-sdk ``bases/decorator.py``) makes them: the next ``__N`` after the highest suffix of the
id without its own suffix, and inside a TaskGroup under the group's prefix."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_repo

HEAD = """
from airflow.sdk import DAG, TaskGroup, task
"""


def task_ids(tmp_path: Path, body: str) -> list[str | None]:
    found = lint_repo(tmp_path, {"dags/dag.py": HEAD + body}, inventory=None).tasks
    return [task.task_id for task in found]


def test_an_id_that_already_ends_in_a_suffix_counts_on_from_it(tmp_path: Path) -> None:
    """``load__1`` taken, the next call is ``load__2``: the suffix is counted on, never added a
    second time (``load__1__1``) nor reused."""
    ids = task_ids(
        tmp_path,
        """
@task(task_id="load__1")
def load(): ...

with DAG("reports", schedule=None):
    load()
    load()
    load()
""",
    )
    assert ids == ["load__1", "load__2", "load__3"]


def test_a_repeated_call_in_a_task_group_keeps_the_group_prefix(tmp_path: Path) -> None:
    """The same function outside the group is free to take its plain id: ids are compared with
    the group's prefix on."""
    ids = task_ids(
        tmp_path,
        """
@task
def extract(): ...

with DAG("reports", schedule=None):
    with TaskGroup("grp"):
        extract()
        extract()
    extract()
""",
    )
    assert ids == ["grp.extract", "grp.extract__1", "extract"]
