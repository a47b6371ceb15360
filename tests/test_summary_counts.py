"""The summary line counts tasks, DAGs and unseen places, each in the singular for exactly one."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.linting import invoke

HEADER = (
    "import json\n\n"
    "from airflow.providers.standard.operators.bash import BashOperator\n"
    "from airflow.sdk import DAG, Variable\n\n"
)
ONE = 'with DAG("d"):\n    BashOperator(task_id="a", bash_command="x")\n'
TWO = (
    'with DAG("d"):\n'
    '    BashOperator(task_id="a", bash_command="x")\n'
    '    for t in json.loads(Variable.get("x")):\n'
    '        BashOperator(task_id=t, bash_command="x")\n'
    'with DAG("e"):\n'
    '    BashOperator(task_id="b", bash_command="x")\n'
    '    for t in json.loads(Variable.get("y")):\n'
    '        BashOperator(task_id=t, bash_command="x")\n'
)
# A DAG without tasks was checked too (its id, its arguments).
WITH_AN_EMPTY_DAG = (
    'with DAG("d"):\n    BashOperator(task_id="a", bash_command="x")\nDAG("empty")\n'
)


@pytest.mark.parametrize(
    ("body", "summary"),
    [
        (ONE, "1 task in 1 DAG checked; 0 places where tasks could not be seen"),
        (TWO, "4 tasks in 2 DAGs checked; 2 places where tasks could not be seen"),
        (WITH_AN_EMPTY_DAG, "1 task in 2 DAGs checked; 0 places where tasks could not be seen"),
    ],
)
def test_summary_line(
    body: str, summary: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "dags").mkdir()
    (tmp_path / "dags" / "dag.py").write_text(HEADER + body, encoding="utf-8")
    outcome = invoke(tmp_path, ["routes", "dags", "--no-cache"], monkeypatch)
    assert summary in outcome.stderr.splitlines()
