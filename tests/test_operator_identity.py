"""Which class a task is, and which provider its operator needs, per Airflow major version.

Under Airflow 3 an Airflow 2 import path that still imports is named by where its deprecation
shim forwards (the new module, and the new name where the shim renames the class), and needs
the provider it moved to; a path Airflow 3 removed keeps its name as written (it does not
import). Under Airflow 2 every path is the class as written. TaskFlow tasks are ``task.<kind>``
and need the provider that registers the decorator.
"""

from __future__ import annotations

from pathlib import Path

from dagroute_lint.resolve.tasks import ResolvedTask
from tests.helpers import lint_repo

AIRFLOW2 = """
[deployment]
airflow_version = "2.10"
executors = ["CeleryExecutor"]

[[workers]]
name = "celery"
queues = ["default"]
runtime = "base"

[runtimes.base]
providers = ["celery", "cncf.kubernetes"]
"""

SOURCE = """
from airflow import DAG, Dataset
from airflow.contrib.operators.adls_list_operator import ADLSListOperator
from airflow.decorators import task
from airflow.operators.bash import BashOperator

with DAG("reports", schedule=None):
    BashOperator(task_id="bash", bash_command="x")
    ADLSListOperator(task_id="adls", path="x")
    Dataset(task_id="renamed")

    @task.kubernetes(image="x")
    def pod(): ...

    pod()

    @task
    def plain(): ...

    plain()
"""

STANDARD = "apache-airflow-providers-standard"
KUBERNETES = "apache-airflow-providers-cncf-kubernetes"
AZURE = "apache-airflow-providers-microsoft-azure"


def identities(tmp_path: Path, inventory: str | None) -> dict[str, tuple[str | None, str | None]]:
    found: list[ResolvedTask] = lint_repo(
        tmp_path, {"dags/dag.py": SOURCE}, inventory=inventory
    ).tasks
    return {task.task_id or "?": (task.operator, task.provider) for task in found}


def test_airflow3_names_a_moved_class_where_it_moved(tmp_path: Path) -> None:
    assert identities(tmp_path, None) == {
        "bash": ("airflow.providers.standard.operators.bash.BashOperator", STANDARD),
        # Removed in Airflow 3: no shim forwards it, so it is the path as written.
        "adls": ("airflow.contrib.operators.adls_list_operator.ADLSListOperator", None),
        # ``airflow.Dataset`` is ``airflow.sdk.Asset`` in Airflow 3: the shim renames it.
        "renamed": ("airflow.sdk.Asset", None),
        "pod": ("task.kubernetes", KUBERNETES),
        "plain": ("task.python", STANDARD),
    }


def test_airflow2_names_every_class_as_written(tmp_path: Path) -> None:
    assert identities(tmp_path, AIRFLOW2) == {
        "bash": ("airflow.operators.bash.BashOperator", None),
        "adls": ("airflow.contrib.operators.adls_list_operator.ADLSListOperator", AZURE),
        "renamed": ("airflow.Dataset", None),
        "pod": ("task.kubernetes", KUBERNETES),
        "plain": ("task.python", None),
    }
