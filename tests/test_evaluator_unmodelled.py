"""DRL106: every place where tasks may be built that cannot be followed is announced, once,
and the run's summary counts those places and the tasks it saw."""

from __future__ import annotations

from pathlib import Path

from dagroute_lint.extract.evaluator.state import MAX_TASKS
from tests.helpers import by_code, lint_repo, run_command

HEADER = """
import json
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, Variable
"""


def drl106(tmp_path: Path, source: str) -> list[str]:
    report = lint_repo(tmp_path, {"dags/dag.py": source}, inventory=None)
    return [f"{d.line}: {d.message}" for d in by_code(report, "DRL106")]


def test_unfollowed_call_inside_a_dag_and_with_a_dag_argument(tmp_path: Path) -> None:
    found = drl106(
        tmp_path,
        HEADER
        + """
from company_lib.factories import build_exports, helper
d = DAG("outside")
helper(d)
with DAG("d"):
    build_exports("nightly")
    json.dumps({})
helper("not a dag")
""",
    )
    assert len(found) == 2
    assert found[0].startswith("7: helper() (company_lib.factories.helper) is not followed")
    assert found[1].startswith("9: build_exports() (company_lib.factories.build_exports)")


def test_loop_over_unknown_values_that_builds_tasks(tmp_path: Path) -> None:
    found = drl106(
        tmp_path,
        HEADER
        + """
with DAG("d"):
    for table in json.loads(Variable.get("tables")):
        BashOperator(task_id=f"export_{table}", bash_command="x")
    for name in json.loads(Variable.get("other")):
        print(name)
""",
    )
    assert len(found) == 1
    assert found[0].startswith('6: a loop builds tasks over json.loads(Variable.get("tables"))')


def test_conditional_tasks_say_so(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        {
            "dags/dag.py": HEADER
            + """
import os
with DAG("d"):
    if os.getenv("EXTRA"):
        BashOperator(task_id="extra", bash_command="x", queue="nowhere")
    BashOperator(task_id="always", bash_command="x")
"""
        },
    )
    tasks = {task.task_id: task for task in report.tasks}
    assert tasks["extra"].task.conditional
    assert not tasks["always"].task.conditional
    (unserved,) = by_code(report, "DRL101")
    assert "task 'extra' in dag 'd' (if this task is created)" in unserved.message


def test_unknown_dag_id_and_task_bound(tmp_path: Path) -> None:
    found = drl106(
        tmp_path,
        HEADER
        + """
with DAG(Variable.get("name")):
    BashOperator(task_id="t", bash_command="x")
with DAG("big"):
    for i in range(1000):
        for j in range(30):
            BashOperator(task_id=f"t_{i}_{j}", bash_command="x")
""",
    )
    assert any("the id of this DAG cannot be known" in line for line in found)
    assert any(f"more than {MAX_TASKS} tasks" in line for line in found)


def test_deep_nested_loops_are_bounded(tmp_path: Path) -> None:
    found = drl106(
        tmp_path,
        HEADER
        + """
TOTAL = 0
with DAG("d"):
    for a in range(1000):
        for b in range(1000):
            for c in range(1000):
                TOTAL = TOTAL + 1
    BashOperator(task_id="t", bash_command="x")
""",
    )
    assert any("work bound" in line for line in found)


def test_a_long_loop_runs_within_the_file_work_budget(tmp_path: Path) -> None:
    """One loop of 3,000 tasks is unrolled (the file's work budget decides, not the loop's
    length); a range longer than the work left is unknown at once, with that reason."""
    report = lint_repo(
        tmp_path,
        {
            "dags/dag.py": HEADER
            + """
with DAG("long"):
    for i in range(3000):
        BashOperator(task_id=f"t{i}", bash_command="x")
with DAG("endless"):
    for i in range(1_000_000):
        BashOperator(task_id=f"t{i}", bash_command="x")
"""
        },
    )
    ids = {task.task_id for task in report.tasks if task.dag_id == "long"}
    assert ids == {f"t{i}" for i in range(3000)}
    (place,) = by_code(report, "DRL106")
    assert "range(1_000_000)" in place.message
    assert "a range() of 1000000 numbers, more than the work left for the file" in place.message


def test_summary_line(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    lint_repo(
        root,
        {
            "dags/dag.py": HEADER
            + """
with DAG("d"):
    BashOperator(task_id="a", bash_command="x")
    for t in json.loads(Variable.get("x")):
        BashOperator(task_id=t, bash_command="x")
"""
        },
        inventory=None,
    )
    import sys

    result = run_command([sys.executable, "-m", "dagroute_lint", "dags"], cwd=root)
    assert "2 tasks in 1 DAG checked; 1 place where tasks could not be seen" in result.stderr
    routes = run_command([sys.executable, "-m", "dagroute_lint", "routes", "dags"], cwd=root)
    assert "1 place where tasks could not be seen" in routes.stderr


def test_drl105_once_per_cause(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        {
            "dags/dag.py": HEADER
            + """
ROUTE = json.loads(Variable.get("route"))
with DAG("d", default_args=ROUTE):
    BashOperator(task_id="t", bash_command="x", pool=Variable.get("pool"))
    for name in Variable.get("names"):
        BashOperator(task_id="u", bash_command="x", queue=name)
"""
        },
        inventory=None,
    )
    found = by_code(report, "DRL105")
    assert len(found) == 3, [d.message for d in found]
    # The unknown default_args: every field of both tasks that no other level sets.
    route, pool, queue = found
    assert "json.loads() on Airflow Variable (Variable.get)" in route.message
    assert "sets the queue, executor, pool or pool_slots of 2 tasks in dag 'd' ('t', 'u')" in (
        route.message
    )
    assert route.facts.tasks == (("d", "t"), ("d", "u"))
    assert pool.message.startswith(
        "a value that cannot be known without running the DAG file (Airflow Variable "
        "(Variable.get)) sets the pool of task 't' in dag 'd'"
    )
    assert "loop over a value that is not a literal sequence: Airflow Variable" in queue.message
    assert "sets the queue of task 'u' in dag 'd' (if this task is created)" in queue.message


CONDITIONAL_DECORATOR = """
import os
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

if os.environ.get("NEW_SDK"):
    from airflow.sdk import task_group
else:
    from {fallback} import task_group


@task_group
def grp():
    BashOperator(task_id="inner", bash_command="x")


with DAG("deco"):
    grp()
"""


def test_a_decorator_imported_under_a_condition_is_followed_when_both_candidates_agree(
    tmp_path: Path,
) -> None:
    source = CONDITIONAL_DECORATOR.format(fallback="airflow.decorators")
    report = lint_repo(tmp_path, {"dags/dag.py": source}, inventory=None)
    assert [task.task_id for task in report.tasks] == ["grp.inner"]
    assert by_code(report, "DRL106") == []


def test_a_decorator_that_may_be_something_else_is_announced_not_run_as_a_plain_function(
    tmp_path: Path,
) -> None:
    """Running the body as undecorated would give the task the id 'inner', which Airflow never
    builds if the decorator is a task group: the call is announced instead."""
    source = CONDITIONAL_DECORATOR.format(fallback="company_lib.compat")
    report = lint_repo(tmp_path, {"dags/dag.py": source}, inventory=None)
    assert [task.task_id for task in report.tasks] == []
    assert [f"{d.line}: {d.message}" for d in by_code(report, "DRL106")] == [
        "17: grp() calls what is not known (a function decorated by one of several values "
        "('task_group' is assigned conditionally)); tasks it may build are not seen"
    ]


def test_calls_on_plain_data_are_not_places_where_tasks_hide(tmp_path: Path) -> None:
    """Methods of what the standard library, value libraries, arithmetic, literals and builtins
    return cannot build a task: none of these is a DRL106 place (each was one on real
    repositories). A method of what code-returning calls give still is."""
    found = drl106(
        tmp_path,
        HEADER
        + """
import importlib
import os
from datetime import datetime, timedelta
from pathlib import Path

import yaml

with DAG("d"):
    config_path = Path(__file__).parent / "config.yaml"
    if config_path.exists():
        pass
    datetime.now().timestamp()
    datetime.now().time()
    (datetime.now() - timedelta(days=1)).isoformat()
    settings = yaml.safe_load("a: 1")
    settings.get("a")
    os.getenv("ENV", "dev").upper()
    Variable.get("x").strip()
    "a,b".split(",")
    str(settings).lower()
    list(settings).copy()
    f"model_{os.getenv('ENV_ID')}"[:32].replace("_", "-")
    importlib.import_module("company.tasks").build()
""",
    )
    assert found == [
        '27: importlib.import_module("company.tasks").build() calls what is not known (result '
        "of calling importlib.import_module()); tasks it may build are not seen"
    ]


def test_places_are_named_as_the_code_is_written(tmp_path: Path) -> None:
    found = drl106(
        tmp_path,
        HEADER
        + """
from company_lib import registry

with DAG("d"):
    registry.lookup("a").build(days=3)
    (registry.first() or registry.second()).build()
    for name in list(registry.names()):
        BashOperator(task_id=name, bash_command="x")
""",
    )
    # The method of what an unfollowed call returns is that call's place, said once.
    assert found[0].startswith("8: registry.lookup() (company_lib.registry.lookup) is not")
    assert found[1].startswith("9: (registry.first() or registry.second()).build() calls")
    assert any(
        place.startswith(
            "10: a loop builds tasks over list(registry.names()), which is not known statically"
        )
        for place in found
    )
    assert not any("None." in place or "is not bound" in place for place in found)


def test_libraries_that_do_not_require_airflow_build_no_tasks(tmp_path: Path) -> None:
    """A call into a library whose distribution neither is nor requires Airflow (by the
    shipped dependency tables) cannot build a task, nor can methods of what it returns, nor of
    the rows a loop reads from plain data; a library no table knows still may."""
    found = drl106(
        tmp_path,
        HEADER
        + """
import csv
from docker.types import Mount
from sqlalchemy import Column
from cosmos import DbtTaskGroup
from google.cloud import batch_v1
from google.cloud.unheardof_v9 import Client

with DAG("d"):
    Mount(source="/tmp/cache", target="/cache", type="bind").get("Target")
    Column("id")
    batch_v1.Runnable(container=batch_v1.Runnable.Container(image_uri="x"))
    Client().build()
    for row in csv.DictReader(open("jobs.csv")):
        row.get("name")
    DbtTaskGroup(group_id="dbt")
""",
    )
    # google.cloud.batch_v1 is google-cloud-batch's (a namespace package's module: its
    # distribution named as the module is); no table knows a google-cloud-unheardof.
    assert [place.split(":")[0] for place in found] == ["16", "19"], found
    assert "Client() (google.cloud.unheardof_v9.Client) is not followed" in found[0]
    assert "DbtTaskGroup() (cosmos.DbtTaskGroup) is not followed" in found[1]


def test_a_providers_function_may_build_tasks(tmp_path: Path) -> None:
    """A provider's function may return operators it built (google's
    ``make_initialization_workspace_flow``, seven tasks of a system-test DAG): called in a DAG,
    it is a DRL106 place. Its hooks, and Airflow's functions the compatibility provider
    re-exports, build none."""
    found = drl106(
        tmp_path,
        HEADER
        + """
from airflow.providers.common.compat.sdk import timezone
from airflow.providers.google.cloud.hooks.gcs import GCSHook
from airflow.providers.google.cloud.utils.dataform import make_initialization_workspace_flow

with DAG("d"):
    first, last = make_initialization_workspace_flow(project_id="p", region="r")
    GCSHook(gcp_conn_id="gcp")
    timezone.datetime(2024, 1, 1)
""",
    )
    assert [place.split(":")[0] for place in found] == ["10"], found
    assert "make_initialization_workspace_flow() (airflow.providers.google" in found[0]


def test_methods_of_a_repository_class_instance_are_run(tmp_path: Path) -> None:
    """``Pool(conn_id="pg").pool()`` on a class of the repository that builds no task when
    made: its method is run as a function of the repository is (self unknown), so tasks it
    builds are seen and plain code is no DRL106 place."""
    report = lint_repo(
        tmp_path,
        {
            "dags/helpers/__init__.py": "",
            "dags/helpers/db.py": """
class Pool:
    def __init__(self, conn_id):
        self.conn_id = conn_id

    def pool(self):
        return [self.conn_id]


class Builder:
    def build(self, name):
        return self.make(name)

    def make(self, name):
        from airflow.providers.standard.operators.bash import BashOperator

        return BashOperator(task_id=f"built_{name}", bash_command="x", queue="built")
""",
            "dags/dag.py": HEADER
            + """
from helpers.db import Builder, Pool

with DAG("d"):
    conns = Pool(conn_id="pg").pool()
    builder = Builder()
    builder.build("a")
""",
        },
        inventory=None,
    )
    assert by_code(report, "DRL106") == []
    assert [task.task_id for task in report.tasks] == ["built_a"]
    assert report.tasks[0].fields["queue"].value == "built"


def test_helpers_calling_helpers_two_modules_deep_are_followed(tmp_path: Path) -> None:
    """A DAG calls a task helper, which calls a helper of another module, which calls a third:
    every module of the chain is run, so the plain code at its end is no DRL106 place and the
    task the middle one builds is seen."""
    report = lint_repo(
        tmp_path,
        {
            "dags/lib/__init__.py": "",
            "dags/lib/utils.py": (
                "import os\n\n\ndef is_production():\n"
                '    return os.environ.get("ENV", "").find("prod") > 0\n'
            ),
            "dags/lib/payments.py": (
                "from airflow.providers.standard.operators.bash import BashOperator\n"
                "from lib.utils import is_production\n\n\ndef transfer():\n"
                "    if is_production():\n        pass\n"
                '    return BashOperator(task_id="transfer", bash_command="x", queue="payments")\n'
            ),
            "dags/lib/tasks.py": (
                "from lib.payments import transfer\n\n\ndef build():\n    return transfer()\n"
            ),
            "dags/dag.py": HEADER
            + '\nfrom lib.tasks import build\n\nwith DAG("d"):\n    build()\n',
        },
        inventory=None,
    )
    assert by_code(report, "DRL106") == []
    assert [(task.task_id, task.fields["queue"].value) for task in report.tasks] == [
        ("transfer", "payments")
    ]
