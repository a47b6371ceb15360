"""Dataclass and NamedTuple records carrying routing: positional, keyword and default fields."""

from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from airflow import DAG
from airflow.operators.bash import BashOperator


@dataclass(frozen=True)
class Job:
    name: str
    queue: str = "jobs"
    slots: int = 1


class Route(NamedTuple):
    queue: str
    pool: str = "routes"


JOBS = [Job("nightly"), Job("hourly", "fast"), Job(name="weekly", slots=2)]
SPECIAL = Route("special")

with DAG("records_with_defaults", start_date=datetime(2024, 1, 1), schedule=None):
    for job in JOBS:
        BashOperator(task_id=job.name, bash_command="run", queue=job.queue, pool_slots=job.slots)
    BashOperator(task_id="special", bash_command="run", queue=SPECIAL.queue, pool=SPECIAL.pool)
