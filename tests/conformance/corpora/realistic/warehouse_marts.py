"""Mart refreshes read from a config table: one DAG per domain, three tasks per mart."""

from datetime import datetime

from airflow import DAG
from airflow.operators.bash import BashOperator
from common.operators import WarehouseLoad
from common.platform import POOLS, QUEUES, get_default_args

DOMAINS = {
    "finance": {
        "queue": "finance",
        "marts": ["gl", "ap", "ar", "cash", "fx", "tax", "budget", "forecast", "payroll", "assets"],
    },
    "growth": {
        "queue": "growth",
        "marts": [
            "funnel",
            "acquisition",
            "retention",
            "referrals",
            "experiments",
            "pricing",
            "ltv",
            "cac",
            "channels",
            "campaigns",
        ],
    },
    "ops": {
        "queue": QUEUES.TRANSFORM,
        "marts": [
            "fulfilment",
            "returns",
            "stock",
            "carriers",
            "sla",
            "tickets",
            "staffing",
            "capacity",
            "incidents",
            "vendors",
        ],
    },
    "product": {
        "queue": "product",
        "marts": [
            "usage",
            "features",
            "errors",
            "latency",
            "adoption",
            "search",
            "feedback",
            "releases",
            "flags",
            "sessions",
        ],
    },
}


def mart_dag(domain, config):
    with DAG(
        f"marts_{domain}",
        start_date=datetime(2024, 1, 1),
        schedule="30 4 * * *",
        catchup=False,
        default_args=get_default_args(owner=domain, queue=config["queue"]),
    ) as dag:
        for mart in config["marts"]:
            stage = WarehouseLoad(task_id=f"stage_{mart}", table=mart, queue=config["queue"])
            build = BashOperator(task_id=f"build_{mart}", bash_command=f"build {mart}")
            test = BashOperator(
                task_id=f"test_{mart}", bash_command=f"test {mart}", pool=POOLS.WAREHOUSE
            )
            stage >> build >> test
    return dag


for domain, config in DOMAINS.items():
    globals()[f"marts_{domain}"] = mart_dag(domain, config)
