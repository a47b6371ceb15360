"""Constants imported from the repository's own modules: followed to their definition, or unknown
with a reason naming what is missing, never guessed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.linting import invoke

FILES = {
    "pyproject.toml": '[tool.dagroute-lint]\ndags = ["dags"]\n',
    "dags/common/__init__.py": "",
    "dags/common/routing.py": (
        'REPORTS_QUEUE = "reports"\nCONFIG = {"queue": "cfg"}\nPREFIX = "pre"\n'
    ),
    "dags/common/deep.py": 'from common.routing import PREFIX\n\nDERIVED = PREFIX + "-derived"\n',
}

IMPORTS = """\
import common
import common.routing as r
from common import deep
from common.routing import CONFIG, REPORTS_QUEUE
from nowhere import X

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

"""

CASES = [
    ("REPORTS_QUEUE", "reports", None),
    ("r.REPORTS_QUEUE", "reports", None),
    ("common.routing.REPORTS_QUEUE", "reports", None),
    ('CONFIG["queue"]', "cfg", None),
    ("deep.DERIVED", "pre-derived", None),
    ("r.MISSING", None, "'MISSING' is not a constant of module common.routing"),
    ("r.REPORTS_QUEUE.upper", None, "attribute of 'common.routing.REPORTS_QUEUE'"),
    ("X", None, "'nowhere.X' is not defined in the repository"),
    ("common.nothing.X", None, "'nothing' is not a constant of module common"),
]


def test_imported_constants(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = "".join(
        f'    BashOperator(task_id="t{index}", bash_command="x", queue={expression})\n'
        for index, (expression, _, _) in enumerate(CASES)
    )
    for name, text in {**FILES, "dags/dag.py": f'{IMPORTS}with DAG("defs"):\n{calls}'}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    outcome = invoke(tmp_path, ["routes", "dags", "--no-cache", "--format", "json"], monkeypatch)
    tasks = json.loads(outcome.stdout)["tasks"]
    assert len(tasks) == len(CASES)
    for (expression, value, reason), task in zip(CASES, tasks):
        assert task["queue"] == value, expression
        assert task["reasons"] == ({} if reason is None else {"queue": reason}), expression


def test_imported_dicts_and_lists_build_tasks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        **FILES,
        "dags/common/kwargs.py": (
            'KWARGS = {"queue": "kw", "pool_slots": 2}\nARGS = {"default": {"queue": "da"}}\n'
            'TABLES = [{"name": "a", "queue": "qa"}, {"name": "b", "queue": "qb"}]\n'
        ),
        "dags/dag.py": (
            "from common.kwargs import ARGS, KWARGS, TABLES\n\n"
            "from airflow.providers.standard.operators.bash import BashOperator\n"
            "from airflow.sdk import DAG\n\n"
            'with DAG("defs", default_args=ARGS["default"]):\n'
            '    BashOperator(task_id="spread", bash_command="x", **KWARGS)\n'
            '    BashOperator(task_id="inherits", bash_command="x")\n'
            "    for table in TABLES:\n"
            '        BashOperator(task_id=table["name"], bash_command="x", queue=table["queue"])\n'
        ),
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    outcome = invoke(tmp_path, ["routes", "dags", "--no-cache", "--format", "json"], monkeypatch)
    tasks = json.loads(outcome.stdout)["tasks"]
    assert [(t["task_id"], t["queue"], t["pool_slots"], t["reasons"]) for t in tasks] == [
        ("spread", "kw", 2, {}),
        ("inherits", "da", 1, {}),
        ("a", "qa", 1, {}),
        ("b", "qb", 1, {}),
    ]
