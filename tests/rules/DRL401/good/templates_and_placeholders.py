from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("exports", schedule=None):
    BashOperator(
        task_id="dump",
        bash_command="pg_dump postgresql://app:{{ conn.prod.password }}@db/prod",
        env={
            "DB_PASSWORD": "{{ conn.prod.password }}",
            "API_KEY": "${API_KEY}",
            "SECRET": "changeme",
            "TOKEN": "********",
            "AUTH_TOKEN": "<token>",
            "PASSWORD": "",
        },
    )
