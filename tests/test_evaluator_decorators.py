"""A function with a decorator the walk does not model is not run as if undecorated.

A decorator may wrap what it decorates in a TaskGroup (every task id then gets the group's
prefix), call it with other arguments, or never call it: running the body as written could give
tasks ids or routing Airflow never builds. Only Airflow's own decorators and a table of
decorators that return the function (or call it unchanged) are followed; the calls of any other
decorated function are announced by DRL106 instead.
"""

from __future__ import annotations

from pathlib import Path

from tests.helpers import by_code, lint_repo, routes, value

HEADER = """
import abc
import functools
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
"""


def test_a_caching_decorator_leaves_the_function_as_written(tmp_path: Path) -> None:
    found = routes(
        tmp_path,
        HEADER
        + """
@functools.lru_cache
def cached(name):
    return BashOperator(task_id=name, bash_command="x", queue="reports")

with DAG("d", schedule=None):
    cached("build")
""",
    )
    assert [(task.task_id, value(task, "queue")) for task in found.values()] == [
        ("build", "reports")
    ]


def test_an_imported_decorator_not_known_makes_its_calls_unfollowed(tmp_path: Path) -> None:
    source = (
        HEADER
        + """
from company_lib.grouping import in_a_group

@in_a_group
def grouped(name):
    return BashOperator(task_id=name, bash_command="x", queue="reports")

with DAG("d", schedule=None):
    grouped("build")
"""
    )
    assert routes(tmp_path, source) == {}
    report = lint_repo(tmp_path, {"dags/dag.py": source}, inventory=None)
    [announced] = [f"{d.line}: {d.message}" for d in by_code(report, "DRL106")]
    assert announced.startswith(
        "13: grouped() calls what is not known (a function decorated by "
        "'company_lib.grouping.in_a_group', which may wrap it)"
    )


def test_a_decorator_of_the_repository_makes_its_calls_unfollowed(tmp_path: Path) -> None:
    source = (
        HEADER
        + """
def logged(function):
    return function

@logged
def build(name):
    return BashOperator(task_id=name, bash_command="x", queue="reports")

with DAG("d", schedule=None):
    build("build")
"""
    )
    assert routes(tmp_path, source) == {}
    report = lint_repo(tmp_path, {"dags/dag.py": source}, inventory=None)
    [announced] = [d.message for d in by_code(report, "DRL106")]
    assert "a decorator the walk does not model" in announced


def test_mapped_task_group_built_with_its_partial_arguments(tmp_path: Path) -> None:
    """``group.partial(...).expand(...)`` builds the group once, as Airflow's
    ``_TaskGroupFactory`` does: the ``.partial()`` values are plain arguments, the expanded
    ones one value per map index (unknown); the tasks inside are not mapped themselves."""
    report = lint_repo(
        tmp_path,
        {
            "dags/dag.py": HEADER
            + """
from airflow.sdk import task_group

@task_group
def per_region(region, queue):
    BashOperator(task_id="load", bash_command="x", queue=queue, pool=region)

@task_group(group_id="tables")
def per_table(table, slots=1):
    BashOperator(task_id="copy", bash_command="x", pool_slots=slots)

with DAG("d"):
    per_region.partial(queue="partial_q").expand(region=["eu", "us"])
    per_table.partial(slots=3).expand_kwargs([{"table": "a"}])
    per_table.override(group_id="other").partial(slots=2).expand(table=["b"])
"""
        },
        inventory=None,
    )
    tasks = {task.task_id: task for task in report.tasks}
    assert sorted(tasks) == ["other.copy", "per_region.load", "tables.copy"]
    load = tasks["per_region.load"]
    assert value(load, "queue") == "partial_q"
    assert "expanded by the mapped task group" in dict(load.unresolved)["pool"]
    assert not load.task.mapped
    assert value(tasks["tables.copy"], "pool_slots") == 3
    assert value(tasks["other.copy"], "pool_slots") == 2
    assert by_code(report, "DRL106") == []


def test_routing_from_an_expanded_group_argument_is_one_parse_error(tmp_path: Path) -> None:
    """Airflow's type check rejects a ``MappedArgument`` as ``queue`` when the file is parsed
    (2.10.5 and 3.3.2 alike): DRL104 says so, and DRL105 does not add the unknown value."""
    report = lint_repo(
        tmp_path,
        {
            "dags/dag.py": HEADER
            + """
from airflow.sdk import task, task_group

@task_group
def per_region(region, queue, slots):
    BashOperator(task_id="load", bash_command="x", queue=queue, pool=region)

    @task(pool_slots=slots)
    def count():
        return 1

    count()

with DAG("d"):
    per_region.partial(slots=2).expand(region=["eu"], queue=["a"])
"""
        },
        inventory=None,
    )
    assert sorted((d.code, d.facts.item) for d in report.diagnostics) == [
        ("DRL104", "pool"),
        ("DRL104", "queue"),
    ]
