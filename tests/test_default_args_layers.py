"""The task's own ``default_args=``, the highest ``default_args`` level: what it gives is named
``task default_args``, and its settings are placed at the ``default_args=`` keyword, or at the
task when no keyword of the file passes it (a repository class's ``__init__`` adds it)."""

from __future__ import annotations

from pathlib import Path

from dagroute_lint.model import Position
from dagroute_lint.resolve.tasks import Field, ResolvedTask
from tests.helpers import lint_repo

SOURCE = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

class Defaulted(BashOperator):
    def __init__(self, **kwargs):
        kwargs["default_args"] = {"queue": "inner"}
        super().__init__(**kwargs)

with DAG("reports", schedule=None, default_args={"pool": "big"}):
    BashOperator(
        task_id="own",
        bash_command="x",
        default_args={"queue": "mine"},
    )
    Defaulted(task_id="by_class", bash_command="x")
"""


def tasks(tmp_path: Path) -> dict[str, ResolvedTask]:
    found = lint_repo(tmp_path, {"dags/dag.py": SOURCE}, inventory=None).tasks
    return {task.task_id or "?": task for task in found}


def test_the_task_level_is_named_and_wins_over_the_dag(tmp_path: Path) -> None:
    found = tasks(tmp_path)
    for task_id, queue in (("own", "mine"), ("by_class", "inner")):
        fields = found[task_id].fields
        assert fields["queue"] == Field(queue, True, "task default_args"), task_id
        assert fields["pool"] == Field("big", True, "DAG default_args"), task_id


def test_task_level_settings_are_placed_at_the_keyword(tmp_path: Path) -> None:
    task = tasks(tmp_path)["own"]
    assert task.task.position == Position(10, 5)
    assert [(s.name, s.origin, s.position) for s in task.settings] == [
        ("task_id", "argument", Position(11, 9)),
        ("bash_command", "argument", Position(12, 9)),
        ("queue", "task default_args", Position(13, 9)),
        ("pool", "DAG default_args", Position(9, 6)),
    ]


def test_task_level_settings_no_keyword_passes_are_placed_at_the_task(tmp_path: Path) -> None:
    task = tasks(tmp_path)["by_class"]
    assert task.task.position == Position(15, 5)
    setting = task.setting("queue")
    assert setting is not None
    assert (setting.value, setting.origin, setting.position) == (
        "inner",
        "task default_args",
        Position(15, 5),
    )
