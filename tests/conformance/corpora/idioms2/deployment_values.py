"""Values the deployment decides: os.getenv, os.environ and Variable.get read at parse time,
answered from the environment the DAG processor runs in (environment.toml beside this file)."""

import os
from datetime import datetime

from airflow import DAG
from airflow.models import Variable
from airflow.operators.bash import BashOperator

ENVIRONMENT = os.getenv("DAGROUTE_ENVIRONMENT", "dev")
SCHEMA = Variable.get("dagroute_schema", default_var="public")
TABLES = Variable.get("dagroute_tables", deserialize_json=True)
ROUTING = Variable.get("DAGROUTE_ROUTING", None, True)  # the key upper-cased finds the same
QUEUE = "prod-q" if ENVIRONMENT == "prod" else "dev-q"

os.environ["DAGROUTE_REGION"] = "eu"
os.environ.setdefault("DAGROUTE_ENVIRONMENT", "never")

with DAG(f"deployment_values_{ENVIRONMENT}", start_date=datetime(2024, 1, 1), schedule=None):
    for table in TABLES:
        BashOperator(
            task_id=f"load_{SCHEMA}_{table}",
            bash_command="run",
            queue=QUEUE,
            pool=os.environ["DAGROUTE_POOL"],
        )
    if "DAGROUTE_ENVIRONMENT" in os.environ:
        BashOperator(task_id="environment_set", bash_command="run", queue=ROUTING["queue"])
    if "DAGROUTE_REGION" not in os.environ:
        BashOperator(task_id="never_built", bash_command="run")
    BashOperator(
        task_id=f"region_{os.getenv('DAGROUTE_REGION')}_{os.environ.get('DAGROUTE_ENVIRONMENT')}",
        bash_command="run",
        pool_slots=ROUTING["pool_slots"],
    )
