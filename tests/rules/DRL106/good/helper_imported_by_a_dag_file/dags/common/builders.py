"""Task builders shared by the Airflow DAG files."""

from airflow.providers.standard.operators.bash import BashOperator


def render(task_id):
    return BashOperator(task_id=task_id, bash_command="make report")
