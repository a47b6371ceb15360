import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# The task is built in one of two branches, each with candidate queues of its own: the else
# branch may send it to 'lab', which no worker serves.
FIRST = "default" if os.environ.get("SMALL") else "imports"
SECOND = "lab" if os.environ.get("SMALL") else "imports"

with DAG("lab_report", schedule=None):
    if os.environ.get("REGION") == "eu":
        BashOperator(task_id="copy", bash_command="copy", queue=FIRST)
    else:
        BashOperator(task_id="copy", bash_command="copy", queue=SECOND)
