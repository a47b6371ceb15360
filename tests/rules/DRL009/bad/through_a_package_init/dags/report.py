from airflow import DAG
from airflow.operators.empty import EmptyOperator

# 'import pkg.names' runs pkg/__init__.py first, which comes back here.
import pkg.names
from pkg import LEVEL

SCHEDULE = "@daily"

with DAG(pkg.names.PREFIX + "report", schedule=None, tags=[LEVEL]):
    EmptyOperator(task_id="build")
