"""Tasks built by the methods of a repository class, called on an instance; another class's
methods only compute values."""

from datetime import datetime

from common.builders import ExportBuilder, Pool

try:
    from airflow.sdk import DAG
except ImportError:
    from airflow import DAG

with DAG("builder_class", start_date=datetime(2024, 1, 1), schedule=None):
    connections = Pool(conn_id="pg").connections()
    builder = ExportBuilder("nightly")
    for table in ("orders", "customers"):
        builder.export(table)
