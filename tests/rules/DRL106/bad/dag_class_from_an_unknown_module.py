from airflow.providers.standard.operators.bash import BashOperator
from team_tooling.compat import DAG

with DAG("report", schedule=None):
    BashOperator(task_id="render", bash_command="make report")
