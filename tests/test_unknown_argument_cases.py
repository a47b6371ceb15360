"""DRL004 cases the fixture folder cannot hold (its bad cases must fail in Airflow 2.10.5 and 3.3.2
alike, with DRL004's error first): a keyword only Airflow 3's class lacks, judged on an Airflow 3
deployment, and an unknown keyword also given twice (Python's TypeError comes first there)."""

from __future__ import annotations

from tests.helpers import lint_files

AIRFLOW_3 = """
[deployment]
airflow_version = "3.3"
executors = ["CeleryExecutor"]
dag_processor = { runtime = "base" }

[[workers]]
name = "celery-general"
queues = ["default"]
runtime = "base"

[runtimes.base]
providers = ["standard", "celery"]
"""


def reported(source: str, inventory: str | None) -> list[tuple[int, int, str, str]]:
    found = lint_files({"dags/dag.py": source}, inventory, select=("DRL004",))
    return [(d.line, d.column, d.code, d.message) for d in found]


def test_an_airflow_2_path_is_judged_by_the_class_airflow_3_forwards_it_to() -> None:
    """Airflow 3 forwards ``airflow.operators.bash`` to the standard provider's BashOperator,
    which no longer takes ``task_concurrency`` (Airflow 2's class did)."""
    source = (
        "from airflow.operators.bash import BashOperator\n"
        "from airflow.sdk import DAG\n\n"
        'with DAG("reports", schedule=None):\n'
        '    BashOperator(task_id="build", bash_command="make", task_concurrency=1)\n'
    )
    assert reported(source, AIRFLOW_3) == [
        (
            5,
            56,
            "DRL004",
            "task 'build' in dag 'reports': BashOperator takes no argument 'task_concurrency'; "
            "Airflow rejects the call when it parses the file (Invalid arguments were passed to "
            "BashOperator), so the file does not load",
        )
    ]
    assert reported(source, None) == []  # either version's class: Airflow 2's takes it


def test_an_unknown_keyword_given_twice_is_named_once() -> None:
    source = (
        "from airflow.providers.standard.operators.bash import BashOperator\n"
        "from airflow.sdk import DAG\n\n"
        'EXTRA = {"queues": "imports"}\n\n'
        'with DAG("reports", schedule=None):\n'
        '    BashOperator(task_id="build", bash_command="make", queues="reports", **EXTRA)\n'
    )
    assert reported(source, None) == [
        (
            7,
            56,
            "DRL004",
            "task 'build' in dag 'reports': BashOperator takes no argument 'queues' (did you mean "
            "'queue'?); Airflow rejects the call when it parses the file (Invalid arguments were "
            "passed to BashOperator), so the file does not load",
        )
    ]
