"""``dag.dag_id`` read back from the DAG object, for task ids, queues and a helper's DAG id."""

from datetime import datetime

from airflow.operators.bash import BashOperator

try:
    from airflow.sdk import DAG
except ImportError:
    from airflow import DAG


def child(parent_id, name):
    with DAG(f"{parent_id}.{name}", start_date=datetime(2024, 1, 1), schedule=None) as made:
        BashOperator(task_id=f"{made.dag_id}_work".replace(".", "_"), bash_command="x")
    return made


with DAG("dag_id_attribute", start_date=datetime(2024, 1, 1), schedule=None) as dag:
    BashOperator(task_id=f"{dag.dag_id}_first", bash_command="x", queue=dag.dag_id)

for section in ("a", "b"):
    globals()[f"child_{section}"] = child(dag.dag_id, section)
