from airflow.sdk import DAG, task
from common.helpers import OWNER
from common.naming import table_name

# plugins/ is Airflow's plugins folder, but the settings name no such import root.
with DAG("report", schedule=None, tags=[OWNER]):

    @task
    def build() -> None:
        print(table_name("report"))

    build()
