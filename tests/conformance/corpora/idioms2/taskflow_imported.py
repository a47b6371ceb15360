"""@task functions defined in common/tasks.py and called inside this DAG."""

from datetime import datetime

from airflow.decorators import dag
from common.tasks import audit, extract, load


@dag(dag_id="taskflow_imported", start_date=datetime(2024, 1, 1), schedule=None)
def pipeline():
    rows = extract("orders")
    load(rows)
    load.override(task_id="load_eu", queue="etl-eu")(extract.override(task_id="extract_eu")("eu"))
    audit()


pipeline()
