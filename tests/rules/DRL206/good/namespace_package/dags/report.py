from airflow.sdk import DAG, task
from shared.naming import PREFIX
from shared.plugins import extra

# 'shared' has no __init__.py: a namespace package, whose other parts may be installed.
with DAG(f"{PREFIX}_report", schedule=None):

    @task
    def build() -> None:
        extra()

    build()
