"""SFTP pulls per partner, added to TaskGroups by a helper that receives the group."""

from datetime import datetime

from airflow import DAG
from airflow.operators.bash import BashOperator
from airflow.utils.task_group import TaskGroup
from common.operators import sftp_pull
from common.platform import TIER_QUEUES, Tier

PARTNERS = {
    Tier.GOLD: ["acme", "globex", "hooli"],
    Tier.SILVER: ["initech", "umbrella", "soylent", "vandelay"],
    Tier.BRONZE: ["wonka", "stark", "wayne", "tyrell", "cyberdyne"],
}


def add_partner(group, partner, tier):
    pull = sftp_pull(partner, slots=2 if tier is Tier.GOLD else 1)
    parse = BashOperator(
        task_id=f"parse_{partner}",
        bash_command=f"parse {partner}",
        queue=TIER_QUEUES[tier],
        task_group=group,
    )
    pull >> parse


with DAG("sftp_partners", start_date=datetime(2024, 1, 1), schedule="@hourly", catchup=False):
    for tier, partners in PARTNERS.items():
        with TaskGroup(tier.value) as group:
            for partner in partners:
                add_partner(group, partner, tier)
