"""DRL301/DRL302 judge only pool names that are strings and slot counts that are integers.

Anything else (a number as the pool, a string as the slots) is a type error Airflow raises
itself at parse time; the pool rules must neither crash on it nor report a pool for it. A bool is
an int to ``BaseOperator``: ``True`` is one slot (it fits here), ``False`` is below 1 (DRL302).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.linting import IMPORTS, MAIN_QUEUE, lint

INVENTORY = MAIN_QUEUE + "\n[pools]\nbig = 4\n"


@pytest.mark.parametrize(
    "arguments",
    ["pool=3", 'pool=["big"]', 'pool="big", pool_slots="9"', 'pool="big", pool_slots=True'],
)
def test_values_of_the_wrong_type_are_not_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, arguments: str
) -> None:
    source = (
        IMPORTS
        + f'\nwith DAG("pools"):\n    BashOperator(task_id="t", bash_command="x", {arguments})\n'
    )
    outcome = lint(tmp_path, source, monkeypatch, inventory=INVENTORY)
    assert [d["code"] for d in outcome.diagnostics if d["code"].startswith("DRL3")] == []


def test_the_same_values_as_the_right_type_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = IMPORTS + (
        '\nwith DAG("pools"):\n'
        '    BashOperator(task_id="t", bash_command="x", pool="3")\n'
        '    BashOperator(task_id="u", bash_command="x", pool="big", pool_slots=9)\n'
    )
    outcome = lint(tmp_path, source, monkeypatch, inventory=INVENTORY)
    assert [(d["code"], d["line"]) for d in outcome.diagnostics] == [("DRL301", 5), ("DRL302", 6)]


def test_slots_below_one_after_slots_that_cannot_be_known(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = (
        "import os\n"
        + IMPORTS
        + '\nwith DAG("pools"):\n'
        + '    BashOperator(task_id="t", bash_command="x", pool_slots=int(os.environ["S"]))\n'
        + '    BashOperator(task_id="u", bash_command="x", pool_slots=0)\n'
    )
    outcome = lint(tmp_path, source, monkeypatch, inventory=INVENTORY)
    assert [(d["code"], d["line"]) for d in outcome.diagnostics if d["code"] != "DRL105"] == [
        ("DRL302", 7)
    ]
