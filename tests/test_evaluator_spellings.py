"""Other spellings of DAG, TaskGroup and task: re-exports, module attributes, ``@dag.task``,
and DAG ids computed from the file's own name."""

from __future__ import annotations

from pathlib import Path

from dagroute_lint.catalog.airflow_names import canonical
from tests.helpers import routes, value


def test_reexport_table_is_generated_from_the_compat_provider() -> None:
    assert canonical("airflow.providers.common.compat.sdk.DAG") == "airflow.sdk.DAG"
    assert canonical("airflow.providers.common.compat.sdk.task") == "airflow.sdk.task"
    assert canonical("airflow.sdk.DAG") == "airflow.sdk.DAG"


def test_compat_sdk_models_module_and_dag_task(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        """
import os
from airflow import models
from airflow.providers.common.compat.sdk import DAG, TaskGroup, task
from airflow.providers.standard.operators.bash import BashOperator

DAG_ID = os.path.splitext(os.path.basename(__file__))[0]

with DAG(DAG_ID, default_args={"queue": "q"}):
    with TaskGroup("g"):
        BashOperator(task_id="t", bash_command="x")

    @task(pool="p")
    def flow():
        pass

    flow()

other = models.DAG("via_models")

@other.task(queue="direct")
def attached():
    pass

attached()
""",
    )
    assert tasks["g.t"].dag_id == "dag"
    assert value(tasks["g.t"], "queue") == "q"
    assert value(tasks["flow"], "pool") == "p"
    assert tasks["attached"].dag_id == "via_models"
    assert value(tasks["attached"], "queue") == "direct"


def test_trigger_rule_members_as_task_ids(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        """
from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import DAG, TriggerRule

with DAG("d"):
    EmptyOperator(task_id=TriggerRule.ALL_SUCCESS, trigger_rule=TriggerRule.ALL_SUCCESS)
""",
    )
    assert list(tasks) == ["all_success"]


def test_operator_named_where_airflow_3_holds_it(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        """
from airflow import DAG
from airflow.operators.bash import BashOperator

with DAG("d"):
    BashOperator(task_id="t", bash_command="x")
""",
    )
    assert tasks["t"].operator == "airflow.providers.standard.operators.bash.BashOperator"
