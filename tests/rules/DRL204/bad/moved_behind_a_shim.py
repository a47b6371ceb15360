from airflow.operators.bash import BashOperator
from airflow.operators.python import PythonOperator
from airflow.sdk import DAG

with DAG("legacy", schedule=None):
    BashOperator(task_id="shell", bash_command="x") >> PythonOperator(
        task_id="py", python_callable=print
    )
