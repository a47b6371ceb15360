"""DAGs whose ids start with ml_: the policy sends every task to the heavy queue."""

import pendulum
from airflow import DAG
from airflow.decorators import task
from airflow.operators.bash import BashOperator

START = pendulum.datetime(2024, 1, 1, tz="UTC")

with DAG("ml_train", start_date=START, schedule=None, default_args={"owner": "gpu-team"}):
    BashOperator(task_id="train", bash_command="train.sh", queue="manual")

    @task
    def evaluate():
        return 1

    evaluate()
    BashOperator.partial(task_id="sweep", bash_command="echo").expand(env=[{"A": "1"}])

with DAG("ml_score", start_date=START, schedule=None):
    BashOperator(task_id="score", bash_command="score.sh", pool="scoring")
