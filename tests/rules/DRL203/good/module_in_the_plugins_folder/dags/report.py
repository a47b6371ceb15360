from airflow.sdk import DAG, task
from common.helpers import OWNER

# plugins/common is the repository's own module, on no import root: DRL206 reports it; it is
# no distribution the workers lack.
with DAG("report", schedule=None, tags=[OWNER]):

    @task
    def build() -> None:
        from common.naming import table_name

        print(table_name("report"))

    build()
