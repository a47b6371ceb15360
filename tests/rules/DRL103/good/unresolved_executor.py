from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, Variable

# Unknown until the file runs: DRL105 warns about it, DRL103 does not guess.
with DAG("train", schedule=None):
    BashOperator(task_id="fit", bash_command="x", executor=Variable.get("train_executor"))
