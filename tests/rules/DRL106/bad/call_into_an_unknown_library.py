from airflow.sdk import DAG
from team_tooling.builders import add_standard_checks

with DAG("checks", schedule=None) as dag:
    add_standard_checks(dag)
