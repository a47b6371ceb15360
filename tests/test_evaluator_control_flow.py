"""Branches, loops and try statements: a value is the one Airflow's run gives it, or unresolved
with the reason, never the value of a branch that does not run."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import routes, value

HEADER = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
"""


def unresolved(task: object, field: str) -> str:
    resolved = task.fields[field]  # type: ignore[attr-defined]
    assert not resolved.known, f"{field} resolved to {resolved.value!r}"
    return str(resolved.reason)


def test_try_body_values_win_over_an_unreached_handler(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
try:
    QUEUE = "from_try"
except ImportError:
    QUEUE = "from_handler"
with DAG("d"):
    BashOperator(task_id="t", bash_command="x", queue=QUEUE)
""",
    )
    # The body only binds a literal: it cannot raise, so the handler never runs.
    assert value(tasks["t"], "queue") == "from_try"


def test_try_handler_that_may_run_makes_candidates(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
try:
    import some_client
    QUEUE = "from_try"
except ImportError:
    QUEUE = "from_handler"
with DAG("d"):
    BashOperator(task_id="t", bash_command="x", queue=QUEUE)
""",
    )
    assert "except" in unresolved(tasks["t"], "queue")
    assert tasks["t"].fields["queue"].candidates == ("from_try", "from_handler")


def test_try_handler_that_binds_the_same_value_keeps_it(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
try:
    import json
    POOL = "p"
except (ImportError, KeyError):
    POOL = "p"
with DAG("d"):
    BashOperator(task_id="t", bash_command="x", pool=POOL)
""",
    )
    assert value(tasks["t"], "pool") == "p"


def test_handler_dict_change_spoils_the_dict(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
ARGS = {"queue": "a"}
try:
    import json
except Exception:
    ARGS["queue"] = "b"
with DAG("d", default_args=ARGS):
    BashOperator(task_id="t", bash_command="x")
""",
    )
    assert "condition" in unresolved(tasks["t"], "queue")


def test_alternative_imports_keep_the_try_body_import(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        """
try:
    from airflow.providers.standard.operators.bash import BashOperator
except ImportError:
    from airflow.operators.bash import BashOperator
from airflow.sdk import DAG
with DAG("d"):
    BashOperator(task_id="t", bash_command="x")
""",
    )
    assert tasks["t"].operator == "airflow.providers.standard.operators.bash.BashOperator"


def test_dead_branches_are_not_walked(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
ENV = "dev"
QUEUE = "q_dev"
if False:
    QUEUE = "never"
if ENV == "prod":
    QUEUE = "q_prod"
    with DAG("prod_only"):
        BashOperator(task_id="prod_task", bash_command="x")
elif ENV != "dev":
    QUEUE = "other"
else:
    POOL = "p_dev"
with DAG("d"):
    BashOperator(task_id="t", bash_command="x", queue=QUEUE, pool=POOL)
""",
    )
    assert "prod_task" not in tasks
    assert value(tasks["t"], "queue") == "q_dev"
    assert value(tasks["t"], "pool") == "p_dev"


def test_undecided_branch_makes_assignments_unresolved(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
import os
QUEUE = "a"
if os.getenv("X"):
    QUEUE = "b"
with DAG("d"):
    BashOperator(task_id="t", bash_command="x", queue=QUEUE)
""",
    )
    assert "conditionally" in unresolved(tasks["t"], "queue")


def test_break_and_continue(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
with DAG("d"):
    for name in ["a", "skip", "b", "stop", "c"]:
        if name == "skip":
            continue
        if name == "stop":
            break
        BashOperator(task_id=name, bash_command="x")
""",
    )
    assert sorted(tasks) == ["a", "b"]


def test_loop_over_unknown_iterable_leaves_names_unresolved(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
from airflow.sdk import Variable
QUEUE = "a"
for item in Variable.get("items"):
    QUEUE = "b"
with DAG("d"):
    BashOperator(task_id="t", bash_command="x", queue=QUEUE)
""",
    )
    assert unresolved(tasks["t"], "queue")


def test_while_loop_assignments_are_unresolved(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
QUEUE = "a"
n = 0
while n < 3:
    QUEUE = "b"
    n += 1
with DAG("d"):
    BashOperator(task_id="t", bash_command="x", queue=QUEUE)
""",
    )
    assert unresolved(tasks["t"], "queue")


def test_dag_id_defined_twice_and_dags_airflow_does_not_collect(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
dag = DAG("twice")
BashOperator(task_id="first_def", bash_command="x", dag=dag)
dag = DAG("twice")
BashOperator(task_id="second_def", bash_command="x", dag=dag)

def build():
    inner = DAG("never_held")
    BashOperator(task_id="orphan", bash_command="x", dag=inner)

build()
def make(name):
    made = DAG(name)
    BashOperator(task_id=f"reg_{name}", bash_command="x", dag=made)
    return made

for name in ["g1"]:
    globals()[name] = make(name)
with DAG("a"):
    BashOperator(task_id="dup_a", bash_command="x")
with DAG("a"):
    BashOperator(task_id="dup_b", bash_command="x")
""",
    )
    assert tasks["first_def"].task.conditional
    assert not tasks["second_def"].task.conditional
    assert tasks["orphan"].task.conditional
    assert not tasks["reg_g1"].task.conditional
    assert tasks["dup_a"].task.conditional and tasks["dup_b"].task.conditional


def test_task_built_in_both_branches_of_an_undecided_condition(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
import os
with DAG("d"):
    for model in ["big", "small"]:
        if os.getenv("X") or model == "big":
            BashOperator(task_id=model, bash_command="x", queue="heavy", pool="p")
        else:
            BashOperator(task_id=model, bash_command="x", queue="light", pool="p")
""",
    )
    assert sorted(tasks) == ["big", "small"]
    assert "different values" in unresolved(tasks["big"], "queue")
    assert value(tasks["big"], "pool") == "p"
    assert tasks["big"].task.conditional
