"""Operator factories defined in the DAG file: called at module level, in `with DAG`, in loops."""

from datetime import datetime

from airflow import DAG
from airflow.operators.bash import BashOperator


def slack_op(dag, tid, q="manager"):
    return BashOperator(
        task_id=f"slack_{tid}", bash_command=f"notify {tid}", queue=q, dag=dag, pool="notify"
    )


def shell(cmd, name, **kwargs):
    return BashOperator(task_id=name, bash_command=cmd, **kwargs)


dag = DAG("factory_same_file", start_date=datetime(2024, 1, 1), schedule=None)

start = slack_op(dag, "start")
done = slack_op(dag, "done", q="alerts")

with DAG("factory_same_file_ctx", start_date=datetime(2024, 1, 1), schedule=None):
    build = shell("make build", "build", queue="build", pool_slots=2)
    for env in ("dev", "staging", "prod"):
        deploy = shell(f"deploy {env}", f"deploy_{env}", queue=f"deploy-{env}")
        build >> deploy
