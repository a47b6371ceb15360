"""DAGs and tasks built from the repository's own files: YAML and JSON configs, SQL files found on disk."""

import glob
import json
import os
from datetime import datetime
from pathlib import Path

import yaml
from airflow import DAG
from airflow.operators.bash import BashOperator

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = Path(__file__).parent / "config_data"

# One DAG per YAML file, found with glob (in the file system's order: the DAGs do not depend on it).
for config_path in glob.glob(os.path.join(HERE, "config_data", "pipelines", "*.y*ml")):
    with open(config_path) as handle:
        config = yaml.safe_load(handle)
    with DAG(config["dag_id"], start_date=datetime(2024, 1, 1), schedule=None) as dag:
        for step in config["steps"]:
            BashOperator(
                task_id=step["name"],
                bash_command="run",
                queue=step.get("queue", config["queue"]),
                pool=config.get("pool", "default_pool"),
                pool_slots=step.get("pool_slots", 1),
            )
    globals()[config["dag_id"]] = dag

# One task per entry of a JSON settings file, read through pathlib.
SETTINGS = json.loads((DATA / "partners.json").read_text())

with DAG("json_partners", start_date=datetime(2024, 1, 1), schedule=None):
    for partner in SETTINGS["partners"]:
        BashOperator(
            task_id=f"pull_{partner['id']}",
            bash_command="pull",
            queue=partner.get("queue", SETTINGS["queue"]),
            pool=partner.get("pool", "default_pool"),
        )

# One task per SQL file on disk, found with os.walk and with Path.rglob.
with DAG("sql_files", start_date=datetime(2024, 1, 1), schedule=None):
    for folder, _, files in os.walk(DATA / "sql"):
        for name in files:
            if name.endswith(".sql"):
                BashOperator(
                    task_id=f"walk_{os.path.splitext(name)[0]}",
                    bash_command="sql",
                    queue="marts" if os.path.basename(folder) == "marts" else "sql",
                )
    for sql in sorted((DATA / "sql").rglob("*.sql")):
        BashOperator(task_id=f"rglob_{sql.stem}", bash_command="sql", queue=sql.parent.name)

# A settings file read with an explicitly safe loader, guarded by os.path.exists.
if os.path.exists(os.path.join(HERE, "config_data", "pipelines", "users.yml")):
    with open(os.path.join(HERE, "config_data", "pipelines", "users.yml")) as handle:
        USERS = yaml.load(handle, Loader=yaml.SafeLoader)
    with DAG("yaml_safe_loader", start_date=datetime(2024, 1, 1), schedule=None):
        BashOperator(task_id="first_step", bash_command="run", queue=USERS["steps"][0]["name"])
