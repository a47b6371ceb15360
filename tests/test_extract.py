"""Extraction idioms: each DAG-building form Airflow accepts yields the same model it would."""

from __future__ import annotations

from pathlib import Path

from dagroute_lint.extract import extract_module
from dagroute_lint.model import Position
from tests.helpers import routes, value

HEADER = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, TaskGroup, dag, task, task_group
"""


def test_with_dag_context(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
with DAG("ctx") as d:
    BashOperator(task_id="t", bash_command="x")
""",
    )
    assert tasks["t"].dag_id == "ctx"


def test_assigned_dag_with_explicit_dag_argument(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
d = DAG(dag_id="assigned", default_args={"queue": "imports"})
BashOperator(task_id="t", bash_command="x", dag=d)
""",
    )
    assert tasks["t"].dag_id == "assigned"
    assert value(tasks["t"], "queue") == "imports"


def test_dag_decorator_uses_function_name_unless_given(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
@dag(default_args={"pool": "p"})
def nightly():
    BashOperator(task_id="a", bash_command="x")

@dag(dag_id="explicit_id")
def other():
    BashOperator(task_id="b", bash_command="x")

nightly()
other()
""",
    )
    assert tasks["a"].dag_id == "nightly"
    assert value(tasks["a"], "pool") == "p"
    assert tasks["b"].dag_id == "explicit_id"


def test_dag_decorator_never_called_builds_no_dag(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
@dag()
def forgotten():
    BashOperator(task_id="a", bash_command="x")
""",
    )
    assert tasks == {}


def test_nested_task_groups_prefix_ids(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
with DAG("g"):
    with TaskGroup("outer"):
        with TaskGroup("inner"):
            BashOperator(task_id="t", bash_command="x")
""",
    )
    assert set(tasks) == {"outer.inner.t"}


def test_prefix_group_id_false(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
with DAG("g"):
    with TaskGroup("outer", prefix_group_id=False):
        BashOperator(task_id="t", bash_command="x")
        with TaskGroup("inner"):
            BashOperator(task_id="u", bash_command="x")
""",
    )
    assert set(tasks) == {"t", "inner.u"}


def test_task_group_decorator(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
@task_group(default_args={"queue": "imports"})
def section():
    BashOperator(task_id="t", bash_command="x")

with DAG("g"):
    section()
""",
    )
    assert value(tasks["section.t"], "queue") == "imports"


def test_taskflow_task_inside_dag(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
with DAG("g"):
    @task(queue="imports")
    def extract():
        return 1
    extract()
""",
    )
    assert value(tasks["extract"], "queue") == "imports"
    assert tasks["extract"].operator == "task.python"


def test_taskflow_kind_decorator(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
with DAG("g"):
    @task.bash(pool="p")
    def script():
        return "echo"
    script()
""",
    )
    assert tasks["script"].operator == "task.bash"
    assert value(tasks["script"], "pool") == "p"


def test_operator_name_resolved_through_aliases(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        """
from airflow.providers.standard.operators import bash as b
from airflow.providers.cncf.kubernetes.operators.pod import KubernetesPodOperator as KPO
from airflow.sdk import DAG
with DAG("g"):
    b.BashOperator(task_id="a", bash_command="x")
    KPO(task_id="k", name="n", image="i")
""",
    )
    assert tasks["a"].operator == "airflow.providers.standard.operators.bash.BashOperator"
    assert tasks["k"].operator == (
        "airflow.providers.cncf.kubernetes.operators.pod.KubernetesPodOperator"
    )
    assert tasks["k"].provider == "apache-airflow-providers-cncf-kubernetes"


def test_imports_know_where_they_run() -> None:
    source = b"""
import pandas
from airflow.sdk import DAG, task
try:
    import optional_thing
except ImportError:
    optional_thing = None

def helper():
    import only_in_callable

with DAG("g"):
    @task
    def work():
        import numpy
        return 1
    work()
"""
    module = extract_module(source, "dag.py", "dag")
    module_level = {site.module: site for site in module.imports}
    assert module_level["pandas"].scope == "module"
    assert module_level["optional_thing"].guarded
    assert "numpy" not in module_level and "only_in_callable" not in module_level
    (task,) = module.tasks
    assert [(site.module, site.scope) for site in task.imports] == [("numpy", "task")]


def test_python_callable_imports_belong_to_the_task() -> None:
    source = b"""
from airflow.providers.standard.operators.python import PythonOperator
from airflow.sdk import DAG

def load():
    import boto3

with DAG("g"):
    PythonOperator(task_id="load", python_callable=load)
"""
    (task,) = extract_module(source, "dag.py", "dag").tasks
    assert [site.module for site in task.imports] == ["boto3"]


def test_imports_carry_their_names_and_whether_they_are_relative() -> None:
    source = b"""
import airflow.operators.bash_operator, os
from airflow.operators.python import (PythonOperator as PO, get_current_context)
from .common import routing
from airflow.operators.bash import *
"""
    module = extract_module(source, "pkg/dag.py", "pkg.dag")
    sites = [(site.module, site.names, site.relative) for site in module.imports]
    assert sites == [
        ("airflow.operators.bash_operator", (), False),
        ("os", (), False),
        ("airflow.operators.python", ("PythonOperator", "get_current_context"), False),
        ("pkg.common", ("routing",), True),
        ("airflow.operators.bash", (), False),
    ]


def test_positions_are_one_based_and_match_the_call() -> None:
    source = b"from airflow.sdk import DAG\nfrom x import Op\nwith DAG('g'):\n    Op(task_id='t')\n"
    module = extract_module(source, "dag.py", "dag")
    assert module.tasks[0].position == Position(4, 5)
    assert module.imports[1].position == Position(2, 1)


def test_syntax_error_is_reported_with_cpythons_position() -> None:
    module = extract_module(b"x = (\n", "bad.py", "bad")
    assert module.syntax_error is not None
    assert module.syntax_error.position.line == 1


def test_undecodable_file_is_a_problem_not_a_crash() -> None:
    module = extract_module(b"# -*- coding: nope -*-\nx = 1\n", "bad.py", "bad")
    assert module.syntax_error is not None
    assert "decode" in module.syntax_error.message


def test_noqa_comments_are_collected() -> None:
    source = b"a = 1  # noqa\nb = 2  # noqa: DRL101, DRL202\nc = 3\n"
    module = extract_module(source, "dag.py", "dag")
    assert module.noqa == {1: None, 2: frozenset({"DRL101", "DRL202"})}
