"""Tasks built by comprehensions with conditions, nested clauses and dict comprehensions, by
``list(map(lambda ...))`` and ``for ... in map(...)``, over starred literals and slices, under
``match`` on a known value, with DAG ids grown by ``+=``."""

from datetime import datetime

from airflow.operators.bash import BashOperator

try:
    from airflow.sdk import DAG
except ImportError:
    from airflow import DAG

TABLES = ["orders", "customers", "events", "audit"]
REGIONS = ("eu", "us")
ENVIRONMENT = "prod"


def export(name, queue="comp_default"):
    return BashOperator(task_id=f"export_{name}", bash_command="x", queue=queue)


dag_id = "comprehensions"
dag_id += "_match_map"

with DAG(dag_id, start_date=datetime(2024, 1, 1), schedule=None):
    [export(table) for table in TABLES if table != "audit"]
    [export(f"{region}_{table}", f"comp_{region}") for region in REGIONS for table in TABLES[:2]]
    by_name = {table: export(f"dict_{table}") for table in TABLES[2:]}
    list(map(lambda table: export(f"mapped_{table}", "comp_mapped"), TABLES[-1:]))
    for task in map(export, [f"loop_{region}" for region in REGIONS]):
        pass
    map(lambda table: export(f"never_{table}"), TABLES)  # a map nothing iterates builds nothing
    for name in [*REGIONS, "apac"]:
        BashOperator(task_id=f"starred_{name}", bash_command="x")
    match ENVIRONMENT:
        case "dev" | "test":
            BashOperator(task_id="smoke", bash_command="x")
        case "prod":
            BashOperator(task_id="publish", bash_command="x", queue="comp_prod")
        case _:
            BashOperator(task_id="unknown_environment", bash_command="x")
