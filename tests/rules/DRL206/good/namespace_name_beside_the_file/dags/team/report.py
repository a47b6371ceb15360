from airflow.sdk import DAG, task
from google.cloud import storage

# A folder named like a namespace package lies beside the file; 'google' is found in
# site-packages, whatever lies beside the file.
with DAG("team_report", schedule=None, tags=[storage.__name__]):

    @task
    def build() -> None:
        pass

    build()
