# common.a and common.b import each other; loading common.a still reaches opensearchpy.
from airflow.sdk import DAG, task
from common.a import VALUE
from common import b

with DAG("cycle", schedule=None):

    @task
    def run() -> None:
        print(VALUE, b)

    run()
