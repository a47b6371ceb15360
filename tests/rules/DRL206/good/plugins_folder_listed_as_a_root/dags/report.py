from airflow.sdk import DAG, task
from common.helpers import OWNER
from common.naming import table_name

# The settings put plugins/ on the import roots, as Airflow puts its plugins folder on sys.path.
with DAG("report", schedule=None, tags=[OWNER]):

    @task
    def build() -> None:
        print(table_name("report"))

    build()
