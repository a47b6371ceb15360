"""Operator factories imported from common/: the tasks are built in another module's function."""

from datetime import datetime

from airflow import DAG
from common.factories import pager_op, python_step, slack_op


def report():
    print("report")


with DAG("factory_imported", start_date=datetime(2024, 1, 1), schedule=None) as dag:
    slack_op(dag, "ingest")
    slack_op(dag, "report", q="reports")
    pager_op("dba", executor="LocalExecutor")
    for team in ("growth", "risk"):
        pager_op(team, pool=f"{team}_alerts")
    python_step("summarise", report, slots=3)
