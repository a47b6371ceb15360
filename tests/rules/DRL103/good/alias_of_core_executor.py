from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# After "fast:LocalExecutor", both the alias and the class name are accepted.
with DAG("train", schedule=None):
    BashOperator(task_id="by_alias", bash_command="x", executor="fast")
    BashOperator(task_id="by_class_name", bash_command="x", executor="LocalExecutor")
