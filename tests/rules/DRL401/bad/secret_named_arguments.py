from airflow.providers.standard.operators.python import PythonOperator
from airflow.sdk import DAG


def upload(**kwargs) -> None:
    print(sorted(kwargs))


with DAG("exports", schedule=None):
    PythonOperator(
        task_id="upload",
        python_callable=upload,
        op_kwargs={
            "aws_secret_access_key": "wJalrXUtnFEMI/K7MDENG",
            "auth_token": ["t0k3n-one", "{{ var.value.token }}"],
            "client_secret": "c1i3nt",
        },
    )
