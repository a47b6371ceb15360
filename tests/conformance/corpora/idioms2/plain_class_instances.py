"""Configuration held by instances of the repository's own classes: attributes set in __init__
(from arguments, helper methods, class attributes), read later, changed through an alias."""

import re
from datetime import datetime

from airflow.operators.bash import BashOperator

try:
    from airflow.sdk import DAG
except ImportError:
    from airflow import DAG


class Environment:
    default_pool = "shared_pool"

    def __init__(self, name, tier="standard"):
        self.name = name
        self.queue = "q_" + name
        self.pool = re.sub("-", "_", f"{name}-{tier}")
        self.set_retries(tier)

    def set_retries(self, tier):
        self.slots = 2 if tier == "heavy" else 1

    def task_id(self, step):
        return f"{self.name}_{step}"


class Staging(Environment):
    default_pool = "staging_pool"


PROD = Environment("prod", tier="heavy")
STAGING = Staging("staging")
current = PROD
current.queue = "q_prod_override"
Environment.default_pool = "shared_pool_v2"

with DAG("plain_class_instances", start_date=datetime(2024, 1, 1), schedule=None):
    for env in (PROD, STAGING):
        BashOperator(
            task_id=env.task_id("load"),
            bash_command="load",
            queue=env.queue,
            pool=env.pool,
            pool_slots=env.slots,
        )
        BashOperator(task_id=env.task_id("tidy"), bash_command="tidy", pool=env.default_pool)
