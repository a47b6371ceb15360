from airflow.sdk import DAG, task
from shared.naming import PREFIX

# 'shared' has no __init__.py: a namespace package, which Python finds without one.
with DAG(f"{PREFIX}_report", schedule=None):

    @task
    def build() -> None:
        pass

    build()
