"""Task ids, queues and pools computed with builtins on known values (str, int, list, tuple,
enumerate, zip, reversed, min, max, sum, bool, round, abs), and plain-data calls inside the DAG
(datetime methods, path arithmetic, string methods) that build nothing."""

from datetime import datetime, timedelta
from pathlib import Path

from airflow.operators.bash import BashOperator

try:
    from airflow.sdk import DAG
except ImportError:
    from airflow import DAG

REGIONS = ("eu", "us", "apac")
SIZES = [3, 1, 2]
QUEUES = {"eu": "q_eu", "us": "q_us", "apac": "q_apac"}

with DAG("builtins_on_known_values", start_date=datetime(2024, 1, 1), schedule=None):
    config_path = Path(__file__).parent / "config.yaml"
    if config_path.exists():
        pass
    yesterday = (datetime.now() - timedelta(days=1)).isoformat()
    label = "a,b".split(",")
    for index, region in enumerate(REGIONS, start=1):
        BashOperator(
            task_id="load_" + str(index) + "_" + region,
            bash_command="echo " + yesterday,
            queue=QUEUES[region],
            pool_slots=int("1") + index,
        )
    for region, size in zip(list(REGIONS), SIZES):
        BashOperator(task_id=f"size_{region}", bash_command="x", pool_slots=size)
    for region in reversed(tuple(REGIONS)):
        BashOperator(task_id=f"rev_{region}", bash_command="x", queue=str(region).upper())
    BashOperator(
        task_id=f"stats_{min(SIZES)}_{max(SIZES)}_{sum(SIZES)}",
        bash_command="x",
        pool_slots=max(1, min(SIZES)) + int(bool(SIZES)),
        queue="rounded_" + str(round(2.5)) + str(abs(-3)) + str(float("1.5")),
    )
    if len(label) == 2:
        BashOperator(task_id="two_labels", bash_command="x", queue=max(QUEUES.values()))
