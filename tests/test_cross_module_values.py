"""Constants imported from the repository's own modules: followed to their definition, or unknown
with a reason naming what is missing, never guessed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import routes, value
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
    for (expression, expected, reason), task in zip(CASES, tasks):
        assert task["queue"] == expected, expression
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


def test_operations_on_imported_constants_fold_as_python_would(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The resolver folds what extraction hands it as an operation on an imported name: a key
    deleted from a copy, ``dict.get`` with a default, f-string conversions, ``Path`` parts."""
    files = {
        **FILES,
        "dags/common/values.py": (
            'ROUTING = {"queue": "q", "pool": "p"}\nNUMBER = 3\nNAME = "é"\nROOT = "a//b/"\n'
        ),
        "dags/dag.py": (
            "from pathlib import Path\n\n"
            "from common.values import NAME, NUMBER, ROOT, ROUTING\n\n"
            "from airflow.providers.standard.operators.bash import BashOperator\n"
            "from airflow.sdk import DAG\n\n"
            "TRIMMED = {**ROUTING}\n"
            'del TRIMMED["pool"]\n'
            'SPREAD = {**ROUTING, "extra": 1}\n\n'
            'with DAG("defs"):\n'
            '    BashOperator(task_id="deleted", bash_command="x", queue=f"{TRIMMED}")\n'
            '    BashOperator(task_id="got", bash_command="x", queue=SPREAD.get("queue", "-"))\n'
            '    BashOperator(task_id="got_default", bash_command="x",'
            ' queue=SPREAD.get("x", "-"))\n'
            '    BashOperator(task_id="got_number", bash_command="x",'
            " queue=f\"{SPREAD.get('extra')}\")\n"
            '    BashOperator(task_id="conversions", bash_command="x",'
            ' queue=f"{NAME!s}|{NAME!a}|{NAME!r}|{NUMBER!s:05}|{NUMBER:05}")\n'
            '    BashOperator(task_id="path", bash_command="x", queue=f"{Path(ROOT)}")\n'
            '    BashOperator(task_id="stem", bash_command="x", queue=Path(ROOT).stem)\n'
        ),
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    outcome = invoke(tmp_path, ["routes", "dags", "--no-cache", "--format", "json"], monkeypatch)
    tasks = json.loads(outcome.stdout)["tasks"]
    assert [(t["task_id"], t["queue"], t["reasons"]) for t in tasks] == [
        ("deleted", "{'queue': 'q'}", {}),
        ("got", "q", {}),
        ("got_default", "-", {}),
        ("got_number", "1", {}),
        ("conversions", "é|'\\xe9'|'é'|30000|00003", {}),
        ("path", "a/b", {}),
        ("stem", "b", {}),
    ]


def test_a_default_args_given_through_a_spread_is_read_key_by_key(tmp_path: Path) -> None:
    """``DAG(**{"default_args": {"cwd": os.getenv(...)}})``: the unknown ``cwd`` says nothing of
    the queue, as when the dict is given as ``default_args=`` itself."""
    tasks = routes(
        tmp_path,
        """
import os
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
from dags.common import dag_defaults, dbt_args

args = dag_defaults() | {"default_args": dbt_args()}
with DAG("a", schedule=None, **args):
    BashOperator(task_id="a", bash_command="x")
with DAG("b", schedule=None, **{"default_args": {"cwd": os.getenv("D"), "pool": "p"}}):
    BashOperator(task_id="b", bash_command="x")
with DAG("c", schedule=None, **{"default_args": os.getenv("D")}):
    BashOperator(task_id="c", bash_command="x")
""",
        {
            "dags/__init__.py": "",
            "dags/common/__init__.py": (
                "import os\n"
                "def dag_defaults():\n    return {'catchup': False}\n"
                "def dbt_args():\n    return {'cwd': os.getenv('DBT_DIR'), 'queue': 'dbt'}\n"
            ),
        },
    )
    assert value(tasks["a"], "queue") == "dbt"
    assert value(tasks["a"], "pool") == "default_pool"
    assert value(tasks["b"], "pool") == "p"
    assert not tasks["c"].fields["queue"].known
