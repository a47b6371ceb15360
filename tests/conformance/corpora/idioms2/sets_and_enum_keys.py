"""Sets of literals decide branches; Enum members key dicts and are compared by identity."""

import enum
from datetime import datetime

from airflow import DAG
from airflow.operators.bash import BashOperator
from airflow.utils.task_group import TaskGroup


class Tier(enum.Enum):
    GOLD = "gold"
    BRONZE = "bronze"


HEAVY = {"orders", "events"}
LIGHT = frozenset(["users"]) | {"tags"}
HEAVY.add("clicks")
PARTNERS = {Tier.GOLD: ["acme"], Tier.BRONZE: ["wonka", "stark"]}
TIER_QUEUES = {Tier.GOLD: "tier-gold", Tier.BRONZE: "tier-bronze"}

with DAG("sets_and_enum_keys", start_date=datetime(2024, 1, 1), schedule=None):
    for table in ["orders", "users", "events", "tags", "clicks"]:
        if table in HEAVY:
            BashOperator(
                task_id=f"load_{table}", bash_command="load", queue="heavy", pool_slots=len(HEAVY)
            )
        else:
            BashOperator(
                task_id=f"load_{table}",
                bash_command="load",
                queue="light" if table in LIGHT else "other",
            )
    for name in sorted({"s1", "s2", "s3"} - {"s2"}):
        BashOperator(task_id=name, bash_command="x", pool_slots=len({1, 1.0, True}) + 1)
    for tier, partners in PARTNERS.items():
        with TaskGroup(tier.value):
            for partner in partners:
                BashOperator(
                    task_id=partner,
                    bash_command="pull",
                    queue=TIER_QUEUES[tier],
                    pool_slots=2 if tier is Tier.GOLD else 1,
                )
