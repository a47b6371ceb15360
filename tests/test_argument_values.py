"""DRL011's judgement across Airflow versions: what fails on one version only is reported under
an inventory of that version, and never without a version (the other version loads it)."""

from __future__ import annotations

import pytest

from tests.helpers import lint_source

SOURCE = """
from datetime import datetime

from airflow import DAG
from airflow.operators.bash import BashOperator

with DAG("reports", schedule=None, start_date=datetime(2024, 1, 1)):
    BashOperator(task_id="build", bash_command="make", {argument})
"""
INVENTORY = """
[deployment]
airflow_version = "{version}"
executors = ["CeleryExecutor"]
dag_processor = {{ runtime = "base" }}

[runtimes.base]
python = "3.11"
providers = ["standard", "celery"]

[[workers]]
name = "celery"
queues = ["default"]
runtime = "base"
"""

# argument -> whether DRL011 reports it under Airflow 2 and 3. Each report is a rejection
# measured with DagBag 2.10.5 / 3.3.2 (tests/conformance/test_dag_integrity.py, the rule's
# docstring); a dotted weight rule also fails on 2.10.5 unless a plugin registers it, which the
# linter does not see: never reported.
CASES = [
    ('trigger_rule="dummy"', False, True),
    ('trigger_rule="none_failed_or_skipped"', False, True),
    ('trigger_rule="all_done_min_one_success"', True, False),
    ('weight_rule="heavy"', True, False),
    ('weight_rule="my_plugin.Strategy"', False, False),
    ('start_date="2024-01-01"', False, True),
    ("priority_weight=None", False, True),
    ("retry_exponential_backoff=2.0", True, False),
    ('email={"a": 1}', False, True),
    ('trigger_rule="all_sucess"', True, True),
]


def _reported(source: str, code: str) -> tuple[bool, bool, bool]:
    """Whether ``code`` reports ``source`` under Airflow 2.10, 3.3 and no version."""
    found = []
    for version in ("2.10", "3.3", None):
        inventory = INVENTORY.format(version=version) if version else None
        found.append(bool(lint_source(source, inventory, select=(code,))))
    return found[0], found[1], found[2]


@pytest.mark.parametrize(("argument", "on_2", "on_3"), CASES)
def test_each_version_judges_its_own(argument: str, on_2: bool, on_3: bool) -> None:
    source = SOURCE.format(argument=argument)
    assert _reported(source, "DRL011") == (on_2, on_3, on_2 and on_3)


DAG_SOURCE = """
from datetime import datetime

from airflow import DAG
from airflow.operators.empty import EmptyOperator

with DAG("reports", start_date=datetime(2024, 1, 1), {argument}):
    EmptyOperator(task_id="build")
"""

# DAG keyword -> whether DRL012 reports it under Airflow 2 and 3 (each report measured as a
# rejection by DagBag; see tests/conformance/test_dag_integrity.py and the rule's docstring).
DAG_CASES = [
    ('schedule_interval="@daily"', False, True),
    ("schedule=None, timetable=None", False, True),
    ("schedule=None, fail_fast=True", True, False),
    ('schedule=None, catchup="False"', True, False),
    ('schedule=None, tags="etl"', True, False),
    ('schedule="0 6 * * * *"', False, False),
    ('schedule="@ANNUALLY"', False, False),
    ('schedule="@reboot"', True, True),
]


@pytest.mark.parametrize(("argument", "on_2", "on_3"), DAG_CASES)
def test_each_version_judges_its_own_dag_keywords(argument: str, on_2: bool, on_3: bool) -> None:
    source = DAG_SOURCE.format(argument=argument)
    assert _reported(source, "DRL012") == (on_2, on_3, on_2 and on_3)
