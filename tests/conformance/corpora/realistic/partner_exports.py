"""Partner exports: DAGs kept in a dict, each partner's tasks attached by key."""

from datetime import datetime

from airflow import DAG
from airflow.operators.bash import BashOperator
from common.platform import POOLS, QUEUES, team_args

PARTNERS = {"acme": 1, "globex": 2, "initech": 1, "umbrella": 3}
FEEDS = ("orders", "returns", "stock", "prices", "promotions", "catalog")

dags = {}
for partner in PARTNERS:
    dags[partner] = DAG(
        f"export_{partner}",
        start_date=datetime(2024, 1, 1),
        schedule="@hourly",
        catchup=False,
        default_args=team_args("partnerships", queue=QUEUES.EXPORT),
    )

for partner, slots in PARTNERS.items():
    dag = dags[partner]
    done = BashOperator(task_id="notify", bash_command=f"notify {partner}", dag=dag)
    for feed in FEEDS:
        render = BashOperator(task_id=f"render_{feed}", bash_command=f"render {feed}", dag=dag)
        push = BashOperator(
            task_id=f"push_{feed}",
            bash_command=f"push {partner} {feed}",
            pool=POOLS.PARTNER_API,
            pool_slots=slots,
            dag=dag,
        )
        render >> push >> done
    globals()[f"export_{partner}"] = dag
