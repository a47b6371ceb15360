# conformance-versions: 3.3.2
"""The Task SDK's Variable.get (its default keyword is ``default``), read at parse time."""

from datetime import datetime

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, Variable

SCHEMA = Variable.get("dagroute_schema", default="public")
ROUTING = Variable.get("dagroute_routing", deserialize_json=True)

with DAG(f"deployment_values_sdk_{SCHEMA}", start_date=datetime(2024, 1, 1), schedule=None):
    BashOperator(task_id="routed", bash_command="run", queue=ROUTING["queue"])
