"""Task ids and routing computed with itertools (product, chain, zip_longest, combinations,
islice) and re (sub, match groups, split, findall, compile) on known values."""

import itertools
import re
from datetime import datetime

from airflow.operators.bash import BashOperator

try:
    from airflow.sdk import DAG
except ImportError:
    from airflow import DAG

REGIONS = ["eu-west", "us-east"]
TIERS = ("hot", "cold")
VERSIONED = re.compile(r"(?P<name>[a-z]+)_v(?P<version>\d+)")

with DAG("itertools_and_re", start_date=datetime(2024, 1, 1), schedule=None):
    for index, (region, tier) in enumerate(itertools.product(REGIONS, TIERS)):
        BashOperator(
            task_id=f"sync_{re.sub('[^a-z]', '_', region)}_{tier}",
            bash_command="sync",
            queue=region.split("-")[0] + "_" + tier,
            pool_slots=index + 1,
        )
    for name in itertools.chain(["audit"], ("archive",), itertools.islice(["a", "b", "c"], 2)):
        BashOperator(task_id=f"step_{name}", bash_command="x")
    for left, right in itertools.zip_longest(["x", "y"], ["z"], fillvalue="none"):
        BashOperator(task_id=f"pair_{left}_{right}", bash_command="x", queue=right)
    for first, second in itertools.combinations(TIERS + ("warm",), 2):
        BashOperator(task_id=f"move_{first}_to_{second}", bash_command="x")
    found = VERSIONED.match("orders_v3")
    BashOperator(
        task_id=found.group("name") + "_" + found.group("version"),
        bash_command="x",
        queue=re.findall(r"[a-z]+", "q1 fast")[1],
        pool=re.split(r"\s*,\s*", "etl_pool , other")[0],
    )
