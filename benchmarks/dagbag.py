"""Load a DAG folder with Airflow's own DagBag: what users run today to validate DAGs.

Run with the interpreter of a virtual environment that has Airflow (never the linter's)::

    <airflow-venv>/bin/python benchmarks/dagbag.py DAG_FOLDER

Configures Airflow through the environment (a throw-away ``AIRFLOW_HOME``, no example DAGs, the
executors the benchmark inventory names), imports every file as the 3.3 DAG processor does
(``BundleDagBag``: the folder on ``sys.path``), and prints the DAG, task and import-error counts.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path


def main() -> int:
    folder = Path(sys.argv[1]).resolve()
    for key in [key for key in os.environ if key.startswith("AIRFLOW__")]:
        del os.environ[key]
    os.environ["AIRFLOW_HOME"] = tempfile.mkdtemp(prefix="dagroute-bench-airflow-")
    os.environ["AIRFLOW__CORE__EXECUTOR"] = "CeleryExecutor,KubernetesExecutor"
    os.environ["AIRFLOW__CORE__DAGS_FOLDER"] = str(folder)
    os.environ["AIRFLOW__CORE__LOAD_EXAMPLES"] = "False"
    os.environ["AIRFLOW__CORE__DAGBAG_IMPORT_TIMEOUT"] = "600"
    os.environ["AIRFLOW__LOGGING__LOGGING_LEVEL"] = "ERROR"

    from airflow.dag_processing.dagbag import BundleDagBag

    bag = BundleDagBag(
        dag_folder=str(folder), bundle_path=folder, bundle_name="bench", load_op_links=False
    )
    tasks = sum(len(dag.task_dict) for dag in bag.dags.values())
    print(f"{len(bag.dags)} dags, {tasks} tasks, {len(bag.import_errors)} import errors")
    for path, error in sorted(bag.import_errors.items())[:3]:
        print(f"{path}: {error.strip().splitlines()[-1]}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
