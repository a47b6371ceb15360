"""Rules that judge keyword settings as written (DRL401, DRL402) report a finding in
``default_args`` once where it is written, and once for each value it takes there.

A loop that builds one DAG per connection writes ``default_args`` once, at one position, with a
different value in each DAG: each value the deployment lacks is its own finding, while the DAGs
of a loop that repeat the same value share one report.
"""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_source

INVENTORY = (Path(__file__).parent / "rules" / "DRL402" / "inventory.toml").read_text()

LOOP = """
from airflow.providers.common.sql.operators.sql import SQLExecuteQueryOperator
from airflow.sdk import DAG

for conn in {connections}:
    with DAG(f"count_{{conn}}", schedule=None, default_args={{"conn_id": conn}}):
        SQLExecuteQueryOperator(task_id="count", sql="select 1")
"""


def undeclared(conn_id: str, hint: str = "") -> str:
    return (
        f"DAG default_args sets conn_id='{conn_id}', a connection the deployment does not "
        f"declare; the task fails when it looks the connection up{hint}"
    )


def drl402(connections: list[str]) -> list[tuple[int, int, str]]:
    source = LOOP.format(connections=connections)
    return [(d.line, d.column, d.message) for d in lint_source(source, INVENTORY, ("DRL402",))]


def test_each_value_default_args_take_in_a_loop_is_judged() -> None:
    """``warehouse`` is declared; the other two are reported at the one ``default_args``."""
    assert drl402(["reporting_db", "warehouse", "archive"]) == [
        (5, 10, undeclared("archive")),
        (5, 10, undeclared("reporting_db", "; did you mean 'reports_db'?")),
    ]


REPEATED = """
from airflow.providers.common.sql.operators.sql import SQLExecuteQueryOperator
from airflow.sdk import DAG

for every in ["daily", "hourly"]:
    with DAG(f"count_{every}", schedule=None, default_args={"conn_id": "archive"}):
        SQLExecuteQueryOperator(task_id="count", sql="select 1")
"""


def test_a_value_every_dag_of_the_loop_shares_is_reported_once() -> None:
    found = lint_source(REPEATED, INVENTORY, ("DRL402",))
    assert [(d.line, d.column, d.message) for d in found] == [(5, 10, undeclared("archive"))]
