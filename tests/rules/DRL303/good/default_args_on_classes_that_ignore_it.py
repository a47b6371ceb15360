from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, task


@task
def summarise() -> None:
    print("done")


# Neither a BashOperator nor a @task function takes deferrable: default_args cannot defer them.
with DAG("waits", schedule=None, default_args={"deferrable": True}):
    BashOperator(task_id="shell", bash_command="x") >> summarise()
