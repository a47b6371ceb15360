"""Where a task's ``deferrable`` comes from (airflow-semantics §5.1), as the resolver holds it.

The editor's hover shows a value nothing in the file sets as Airflow's default, and DRL303 names
what makes a task defer; a ``start_from_trigger`` that is one of several values makes the task
one that may defer, whatever ``deferrable`` says.
"""

from __future__ import annotations

from pathlib import Path

from dagroute_lint.resolve.tasks import Field
from tests.helpers import CELERY_K8S, lint_source, routes

SOURCE = """
import os

from airflow.providers.standard.sensors.filesystem import FileSensor
from airflow.providers.standard.sensors.time import TimeSensorAsync
from airflow.sdk import DAG, task

FAST = True if os.environ.get("FAST") else False


@task
def report():
    ...


with DAG("waits"):
    report()
    TimeSensorAsync(task_id="until_noon", target_time=None)
    FileSensor(task_id="maybe_triggered", filepath="f", start_from_trigger=FAST)
    FileSensor(
        task_id="maybe_triggered_not_deferrable",
        filepath="f",
        start_from_trigger=FAST,
        deferrable=False,
    )
"""


def test_a_taskflow_function_never_defers_by_default(tmp_path: Path) -> None:
    """Nothing in the file says so: the value is Airflow's default, not a setting."""
    task = routes(tmp_path, SOURCE)["report"]
    assert task.fields["deferrable"] == Field(False, True, "default")
    assert not task.fields["deferrable"].explicit


def test_an_async_class_defers_because_of_its_class(tmp_path: Path) -> None:
    task = routes(tmp_path, SOURCE)["until_noon"]
    assert task.fields["deferrable"] == Field(
        True, True, "class TimeSensorAsync", "TimeSensorAsync always defers"
    )


def test_start_from_trigger_of_several_values_decides_over_a_known_deferrable(
    tmp_path: Path,
) -> None:
    """The scheduler starts the trigger when ``start_from_trigger`` is true, whether
    ``deferrable`` is unset or false: the task may defer, one of the flag's values."""
    tasks = routes(tmp_path, SOURCE)
    for task_id in ("maybe_triggered", "maybe_triggered_not_deferrable"):
        assert tasks[task_id].fields["deferrable"] == Field(
            None, False, "argument", "a conditional expression", (True, False), "start_from_trigger"
        )


def test_a_task_that_may_start_from_its_trigger_needs_a_triggerer() -> None:
    found = lint_source(SOURCE, inventory=CELERY_K8S, select=("DRL303",))
    assert [(d.line, d.message.split(" defers ")[0]) for d in found] == [
        (17, "task 'until_noon' in dag 'waits'"),
        (18, "task 'maybe_triggered' in dag 'waits'"),
        (19, "task 'maybe_triggered_not_deferrable' in dag 'waits'"),
    ]
    assert "(one of True, False: a conditional expression)" in found[1].message
    # the flag named is the one of several values, not deferrable (known, or unset)
    assert all("when start_from_trigger is True (one of" in d.message for d in found[1:])
