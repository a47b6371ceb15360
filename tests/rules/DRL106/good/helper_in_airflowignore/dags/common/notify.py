"""Slack messages for failed Airflow DAG runs."""


def message(context):
    return f"dag {context['dag'].dag_id} failed"
