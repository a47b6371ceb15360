from airflow import DAG
from airflow.operators.empty import EmptyOperator

# 'names' is a submodule (imported), 'LEVEL' a name of the package, bound below its import.
from pkg import names, LEVEL

SCHEDULE = "@daily"

with DAG(names.PREFIX + "report", schedule=None, tags=[LEVEL]):
    EmptyOperator(task_id="build")
