from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, Variable

with DAG("nightly", schedule=None):
    BashOperator(task_id="render", bash_command="x", pool=Variable.get("render_pool"))
