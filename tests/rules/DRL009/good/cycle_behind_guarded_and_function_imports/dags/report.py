from airflow import DAG
from airflow.operators.empty import EmptyOperator

# Neither import runs unguarded while the file is parsed: the file loads.
try:
    from settings import OWNER
except ImportError:
    OWNER = "nobody"


def owners() -> list[str]:
    from owners import OWNERS

    return OWNERS


with DAG("report", schedule=None, tags=[OWNER]):
    EmptyOperator(task_id="build")
