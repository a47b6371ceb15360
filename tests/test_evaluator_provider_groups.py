"""A provider's TaskGroup subclass is a group (its tasks take its id as prefix), and one that
adds a task when its ``with`` block is left (``names.GROUP_EXIT_TASKS``) has that task, in the
group, with the DAG's and the group's ``default_args``: as DagBag builds them under Airflow 3.3.2
with the databricks provider (checked by hand, and by the providers' system tests)."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import routes

WORKFLOW = "airflow.providers.databricks.operators.databricks_workflow"
DAG = f"""
from airflow.sdk import DAG
from airflow.providers.databricks.operators.databricks import DatabricksNotebookOperator
from {WORKFLOW} import DatabricksWorkflowTaskGroup

with DAG("d", schedule=None, default_args={{"queue": "q"}}):
    group = DatabricksWorkflowTaskGroup(
        group_id="wf", databricks_conn_id="c", default_args={{"pool": "p"}}
    )
    with group:
        DatabricksNotebookOperator(task_id="a", databricks_conn_id="c", notebook_path="/x")
    with DatabricksWorkflowTaskGroup(group_id="wf2", databricks_conn_id="c"):
        DatabricksNotebookOperator(task_id="b", databricks_conn_id="c", notebook_path="/x")
"""


def test_the_group_prefixes_its_tasks_and_adds_launch_on_exit(tmp_path: Path) -> None:
    tasks = routes(tmp_path, DAG)
    assert list(tasks) == ["wf.a", "wf.launch", "wf2.b", "wf2.launch"]
    launch = tasks["wf.launch"]
    assert launch.operator == f"{WORKFLOW}._CreateDatabricksWorkflowOperator"
    assert launch.provider == "apache-airflow-providers-databricks"
    assert (launch.fields["queue"].value, launch.fields["pool"].value) == ("q", "p")
    assert tasks["wf2.launch"].fields["pool"].value == "default_pool"


def test_no_launch_task_without_leaving_a_with_block(tmp_path: Path) -> None:
    """``__exit__`` adds it: a group built but never entered has none (nor any task)."""
    source = f"""
from airflow.sdk import DAG
from {WORKFLOW} import DatabricksWorkflowTaskGroup

with DAG("d", schedule=None):
    DatabricksWorkflowTaskGroup(group_id="wf", databricks_conn_id="c")
"""
    assert routes(tmp_path, source) == {}
