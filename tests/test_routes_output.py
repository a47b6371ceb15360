"""``routes``: the table, CSV and JSON a repository's routing is printed as, pinned whole.

One repository covers what the summary counts: a task that is never dispatched, unresolved
values, a queue no worker serves, a worker queue no task uses, and the default, a queue-blind and
a worker-less executor; and the workers serving each task (two, one, none, or unknown).
Expected outputs are written out in full, as snapshots are.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from tests.linting import invoke

DAG = """\
from os import environ

from airflow.providers.standard.operators.bash import BashOperator
from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import DAG

with DAG("routes"):
    EmptyOperator(task_id="start")
    BashOperator(task_id="dyn", bash_command="x", queue=environ["Q"], pool_slots=int(environ["S"]))
    BashOperator(task_id="served", bash_command="x", queue="main")
    BashOperator(task_id="unserved", bash_command="x", queue="reports", pool="big", pool_slots=2)
    BashOperator(task_id="pods", bash_command="x", executor="KubernetesExecutor")
    BashOperator(task_id="gpu", bash_command="x", queue="gpu")
    BashOperator(task_id="local", bash_command="x", executor="LocalExecutor")
    BashOperator(task_id="chosen", bash_command="x", executor=environ["E"])
    BashOperator.partial(task_id="mapped", pool=environ["P"]).expand(bash_command=["a", "b"])
    BashOperator(task_id="either", bash_command="x", queue="main" if environ["A"] else "gpu")
"""

INVENTORY = """\
[deployment]
airflow_version = "3.3"
executors = ["CeleryExecutor", "KubernetesExecutor", "LocalExecutor"]
default_queue = "main"

[[workers]]
name = "celery"
executor = "CeleryExecutor"
queues = ["main", "spare"]
runtime = "base"

[[workers]]
name = "celery-main"
executor = "CeleryExecutor"
queues = ["main"]
runtime = "base"

[[workers]]
name = "pods"
executor = "KubernetesExecutor"
runtime = "base"

[runtimes.base]
providers = ["standard", "celery", "cncf.kubernetes"]

[pools]
big = 4
"""

TABLE = """\
location        dag     task      queue     executor            workers             pool          slots  operator
dags/dag.py:8   routes  start     main      -                   -                   default_pool  1      EmptyOperator
dags/dag.py:9   routes  dyn       ?         -                   ?                   default_pool  ?      BashOperator
dags/dag.py:10  routes  served    main      -                   celery,celery-main  default_pool  1      BashOperator
dags/dag.py:11  routes  unserved  reports   -                   -                   big           2      BashOperator
dags/dag.py:12  routes  pods      main      KubernetesExecutor  pods                default_pool  1      BashOperator
dags/dag.py:13  routes  gpu       gpu       -                   -                   default_pool  1      BashOperator
dags/dag.py:14  routes  local     main      LocalExecutor       -                   default_pool  1      BashOperator
dags/dag.py:15  routes  chosen    main      ?                   ?                   default_pool  1      BashOperator
dags/dag.py:16  routes  mapped    main      -                   celery,celery-main  ?             1      BashOperator
dags/dag.py:17  routes  either    main|gpu  -                   ?                   default_pool  1      BashOperator

10 tasks in 1 DAGs, 4 with unresolved routing (1 of them one of several known values), 0 built under a condition; 0 places where tasks may be missing
per queue: gpu=1, main=6, reports=1
queues used but unserved: gpu, reports
worker queues no task uses: spare
"""  # noqa: E501 (the summary line is as long as it is printed)

CSV = """\
file,line,column,dag_id,task_id,queue,executor,pool,pool_slots,deferrable,workers,mapped,conditional,operator,provider,unresolved,candidates
dags/dag.py,8,5,routes,start,main,,default_pool,1,False,-,False,False,airflow.providers.standard.operators.empty.EmptyOperator,apache-airflow-providers-standard,,
dags/dag.py,9,5,routes,dyn,,,default_pool,,False,,False,False,airflow.providers.standard.operators.bash.BashOperator,apache-airflow-providers-standard,"queue,pool_slots",
dags/dag.py,10,5,routes,served,main,,default_pool,1,False,"celery,celery-main",False,False,airflow.providers.standard.operators.bash.BashOperator,apache-airflow-providers-standard,,
dags/dag.py,11,5,routes,unserved,reports,,big,2,False,-,False,False,airflow.providers.standard.operators.bash.BashOperator,apache-airflow-providers-standard,,
dags/dag.py,12,5,routes,pods,main,KubernetesExecutor,default_pool,1,False,pods,False,False,airflow.providers.standard.operators.bash.BashOperator,apache-airflow-providers-standard,,
dags/dag.py,13,5,routes,gpu,gpu,,default_pool,1,False,-,False,False,airflow.providers.standard.operators.bash.BashOperator,apache-airflow-providers-standard,,
dags/dag.py,14,5,routes,local,main,LocalExecutor,default_pool,1,False,-,False,False,airflow.providers.standard.operators.bash.BashOperator,apache-airflow-providers-standard,,
dags/dag.py,15,5,routes,chosen,main,,default_pool,1,False,,False,False,airflow.providers.standard.operators.bash.BashOperator,apache-airflow-providers-standard,executor,
dags/dag.py,16,5,routes,mapped,main,,,1,False,"celery,celery-main",True,False,airflow.providers.standard.operators.bash.BashOperator,apache-airflow-providers-standard,pool,
dags/dag.py,17,5,routes,either,,,default_pool,1,False,,False,False,airflow.providers.standard.operators.bash.BashOperator,apache-airflow-providers-standard,queue,queue=main|gpu
"""


def routes(
    root: Path,
    monkeypatch: pytest.MonkeyPatch,
    output: str,
    dag: str = DAG,
    inventory: str = INVENTORY,
    extra: tuple[str, ...] = (),
) -> str:
    (root / "dags").mkdir()
    (root / "dags" / "dag.py").write_text(dag, encoding="utf-8")
    (root / "dagroute.toml").write_text(inventory, encoding="utf-8")
    outcome = invoke(
        root,
        [
            "routes",
            "dags",
            "--inventory",
            "dagroute.toml",
            "--no-cache",
            "--format",
            output,
            *extra,
        ],
        monkeypatch,
    )
    assert outcome.exit_code == 0, outcome.stderr
    return outcome.stdout


def test_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert routes(tmp_path, monkeypatch, "table") == TABLE


def test_csv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert routes(tmp_path, monkeypatch, "csv") == CSV


def test_csv_lines_end_in_a_line_feed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Read from a file: no line-ending translation on the way can hide a carriage return."""
    assert routes(tmp_path, monkeypatch, "csv", extra=("--output-file", "routes.csv")) == ""
    assert (tmp_path / "routes.csv").read_bytes() == CSV.encode("utf-8")


def test_json_summary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = routes(tmp_path, monkeypatch, "json")
    assert text.startswith('{\n  "version": 1,\n  "tasks": [\n    {\n      "file": ')
    document = json.loads(text)
    assert document["summary"] == {
        "tasks": 10,
        "dags": 1,
        "conditional_tasks": 0,
        "places_where_tasks_may_be_missing": 0,
        "unresolved_tasks": 4,
        "tasks_with_candidates": 1,
        "tasks_per_queue": {"gpu": 1, "main": 6, "reports": 1},
        "tasks_per_executor": {"(default)": 7, "KubernetesExecutor": 1, "LocalExecutor": 1},
        "unserved_queues": ["gpu", "reports"],
        "unused_worker_queues": ["spare"],
    }
    by_id = {task["task_id"]: task for task in document["tasks"]}
    assert by_id["dyn"]["unresolved"] == ["queue", "pool_slots"]
    assert by_id["dyn"]["queue"] is None
    assert by_id["mapped"]["mapped"] is True
    assert by_id["either"]["candidates"] == {"queue": ["main", "gpu"]}
    assert by_id["dyn"]["candidates"] == {}
    workers = {task_id: task["workers"] for task_id, task in by_id.items()}
    assert workers == {
        "start": [],  # an EmptyOperator: the scheduler completes it without an executor
        "dyn": None,  # its queue cannot be known, and Celery routes on it
        "served": ["celery", "celery-main"],
        "unserved": [],
        "pods": ["pods"],  # KubernetesExecutor ignores the queue
        "gpu": [],
        "local": [],  # no LocalExecutor worker is declared
        "chosen": None,  # its executor cannot be known
        "mapped": ["celery", "celery-main"],  # an unknown pool does not move it
        "either": None,  # one of two queues
    }


def test_without_an_inventory_the_workers_are_unknown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "dags").mkdir()
    (tmp_path / "dags" / "dag.py").write_text(DAG, encoding="utf-8")
    outcome = invoke(tmp_path, ["routes", "dags", "--no-cache", "--format", "json"], monkeypatch)
    assert outcome.exit_code == 0, outcome.stderr
    assert {task["workers"] for task in json.loads(outcome.stdout)["tasks"]} == {None}
    table = invoke(tmp_path, ["routes", "dags", "--no-cache"], monkeypatch).stdout
    assert table.splitlines()[0].split() == [
        "location", "dag", "task", "queue", "executor", "pool", "slots", "operator"
    ]  # fmt: skip


def test_an_empty_repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The DAG processor imports the file ("airflow", "dag") and no DAG is found: one place.
    empty = "from airflow.sdk import DAG\n"
    assert routes(tmp_path, monkeypatch, "table", dag=empty) == textwrap.dedent("""\
        location  dag  task  queue  executor  workers  pool  slots  operator

        0 tasks in 0 DAGs, 0 with unresolved routing, 0 built under a condition; 1 places where tasks may be missing
        per queue: -
        queues used but unserved: none
        worker queues no task uses: main, spare
        """)  # noqa: E501


def test_a_deployment_whose_worker_queues_are_all_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dag = (
        DAG.split("with DAG", maxsplit=1)[0]
        + 'with DAG("r"):\n    BashOperator(task_id="t", bash_command="x")\n'
    )
    inventory = INVENTORY.replace('queues = ["main", "spare"]', 'queues = ["main"]')
    table = routes(tmp_path, monkeypatch, "table", dag=dag, inventory=inventory)
    assert table.endswith(
        "per queue: main=1\nqueues used but unserved: none\nworker queues no task uses: none\n"
    )
