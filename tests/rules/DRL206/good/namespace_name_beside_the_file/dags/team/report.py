from airflow.sdk import DAG, task
from google.protobuf import json_format

# A folder named like a namespace package lies beside the file; 'google' is found in
# site-packages, whatever lies beside the file.
with DAG("team_report", schedule=None, tags=[json_format.__name__]):

    @task
    def build() -> None:
        pass

    build()
