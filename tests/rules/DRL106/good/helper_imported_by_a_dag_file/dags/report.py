from airflow.sdk import DAG
from common import builders

with DAG("report", schedule=None):
    builders.render("render")
