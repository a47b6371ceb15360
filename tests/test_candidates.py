"""Candidate sets: a value that is one of several known values keeps them all, each checked,
and becomes unknown (with the reason) whenever the set could miss a value Airflow may hold."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import dagroute_lint.extract.candidates as join_module
from dagroute_lint.resolve.tasks import ResolvedTask
from dagroute_lint.resolve.values import SymbolTable
from tests.helpers import CELERY_K8S, by_code, lint_repo, routes, value

HEADER = """
import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
"""


def candidates(task: object, field: str) -> tuple[object, ...]:
    found = task.fields[field]  # type: ignore[attr-defined]
    assert not found.known, f"{field} resolved to {found.value!r}"
    return tuple(found.candidates)


def dag(body: str) -> str:
    lines = "".join(f"    {line}\n" for line in body.strip().splitlines())
    return f'{HEADER}\nwith DAG("d"):\n{lines}'


def test_conditional_expression(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
Q = "nfs" if os.path.isdir("/mnt/nfs") else "manager"
with DAG("d"):
    BashOperator(task_id="t", bash_command="x", queue=Q)
    BashOperator(task_id="f", bash_command="x", queue=f"{Q}-hi")
""",
    )
    assert candidates(tasks["t"], "queue") == ("nfs", "manager")
    assert candidates(tasks["f"], "queue") == ("nfs-hi", "manager-hi")
    assert "conditional expression" in tasks["t"].fields["queue"].reason


def test_if_elif_else_assignments(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
if os.environ.get("ENV") == "prod":
    POOL, SLOTS = "prod", 4
elif os.environ.get("ENV") == "stage":
    POOL, SLOTS = "stage", 2
else:
    POOL, SLOTS = "dev", 1
with DAG("d"):
    BashOperator(task_id="t", bash_command="x", pool=POOL, pool_slots=SLOTS)
""",
    )
    assert candidates(tasks["t"], "pool") == ("prod", "stage", "dev")
    assert candidates(tasks["t"], "pool_slots") == (4, 2, 1)


def test_if_without_else_keeps_the_value_before(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
Q = "default"
if os.environ.get("FAST"):
    Q = "fast"
with DAG("d"):
    BashOperator(task_id="t", bash_command="x", queue=Q)
""",
    )
    assert candidates(tasks["t"], "queue") == ("fast", "default")


def test_a_name_bound_in_one_branch_only_is_unknown(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
if os.environ.get("FAST"):
    Q = "fast"
with DAG("d"):
    BashOperator(task_id="t", bash_command="x", queue=Q)
""",
    )
    assert candidates(tasks["t"], "queue") == ()


def test_an_unknown_branch_makes_the_value_unknown_with_its_cause(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        dag(
            'BashOperator(task_id="t", bash_command="x",'
            ' queue=os.environ["Q"] if 1 < len(os.sep) else "a")'
        ),
    )
    assert candidates(tasks["t"], "queue") == ()
    assert "os.environ" in tasks["t"].fields["queue"].reason


def test_more_than_eight_values_are_unknown(tmp_path: Path) -> None:
    chain = " ".join(f'"q{n}" if os.environ.get("E{n}") else' for n in range(9)) + ' "last"'
    tasks = routes(tmp_path, dag(f'BashOperator(task_id="t", bash_command="x", queue={chain})'))
    assert candidates(tasks["t"], "queue") == ()
    product = HEADER + (
        'A = "a" if os.environ.get("A") else "b"\n'
        'B = "c" if os.environ.get("B") else "d"\n'
        'C = "e" if os.environ.get("C") else "f"\n'
        'D = "g" if os.environ.get("D") else "h"\n'
        'with DAG("d"):\n'
        '    BashOperator(task_id="p", bash_command="x", queue=f"{A}{B}{C}")\n'
        '    BashOperator(task_id="q", bash_command="x", queue=f"{A}{B}{C}{D}")\n'
    )
    tasks = routes(tmp_path / "product", product)
    assert len(candidates(tasks["p"], "queue")) == 8
    assert candidates(tasks["q"], "queue") == ()
    assert "more than 8 possible values" in tasks["q"].fields["queue"].reason


class Work:
    """Counts the calls that do the work of candidate sets: the join's size check while the file
    is walked, and the evaluations while it is resolved. Past ``budget`` calls it fails at once,
    so a regression that makes the work grow without end fails instead of running for hours."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, budget: int) -> None:
        self.budget = budget
        self.calls: Counter[str] = Counter()
        monkeypatch.setattr(join_module, "_small", self._counted("join", join_module._small))
        monkeypatch.setattr(
            SymbolTable, "evaluate", self._counted("evaluate", SymbolTable.evaluate)
        )

    def _counted(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            if self.calls[name] > self.budget:
                raise AssertionError(f"more than {self.budget} calls of {name}")
            return function(*args, **kwargs)

        return counted


def test_joins_repeated_in_a_loop_stay_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def grown(times: int) -> str:
        return HEADER + (
            'Q = "q"\n'
            f"for n in range({times}):\n"
            '    Q = Q + "x" if os.environ.get("GROW") else Q\n'
            'with DAG("d"):\n'
            '    BashOperator(task_id="t", bash_command="x", queue=Q)\n'
        )

    # Unbounded, each turn would nest the set once more and double the evaluations: about
    # 115,000 for 14 turns, far more for 200.
    work = Work(monkeypatch, budget=1000)
    results: dict[int, dict[str, ResolvedTask]] = {}
    done: dict[int, dict[str, int]] = {}
    for times in (3, 10, 200):
        work.calls.clear()
        results[times] = routes(tmp_path / str(times), grown(times))
        done[times] = dict(work.calls)
    assert candidates(results[3]["t"], "queue") == ("qxxx", "qxx", "qx", "q")
    assert candidates(results[200]["t"], "queue") == ()
    # Once the set is too big to keep, more turns of the loop cost nothing more.
    assert done[200] == done[10]
    assert done[10]["join"] > done[3]["join"] > 0


def test_default_args_that_is_one_of_two_dicts(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
ARGS = {"queue": "nightly"} if os.environ.get("NIGHTLY") else {"pool": "p"}
with DAG("d", default_args=ARGS):
    BashOperator(task_id="t", bash_command="x")
    BashOperator(task_id="own", bash_command="x", queue="own")
""",
    )
    # The second dict lacks the key: the default queue is then what Airflow holds.
    assert candidates(tasks["t"], "queue") == ("nightly", "default")
    assert candidates(tasks["t"], "pool") == ("p", "default_pool")
    assert value(tasks["own"], "queue") == "own"  # an explicit argument wins over either


def test_candidates_in_default_args_values(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
with DAG("d", default_args={"queue": "a" if os.environ.get("A") else "b"}):
    BashOperator(task_id="t", bash_command="x")
""",
    )
    assert candidates(tasks["t"], "queue") == ("a", "b")


def test_dict_lookups_with_a_candidate_key(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
QUEUES = {"eu": "eu-q", "us": "us-q"}
REGION = "eu" if os.environ.get("EU") else "us"
with DAG("d"):
    BashOperator(task_id="t", bash_command="x", queue=QUEUES[REGION])
    BashOperator(task_id="g", bash_command="x", queue=QUEUES.get(REGION, "other"))
""",
    )
    assert candidates(tasks["t"], "queue") == ("eu-q", "us-q")
    assert candidates(tasks["g"], "queue") == ("eu-q", "us-q")


def test_or_picks_by_each_candidates_truth(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
LANE = "priority" if os.environ.get("P") else ""
with DAG("d"):
    BashOperator(task_id="t", bash_command="x", queue=LANE or "default")
""",
    )
    assert candidates(tasks["t"], "queue") == ("priority", "default")


def test_a_helper_returning_under_conditions(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
def executor_for():
    if os.environ.get("K8S"):
        return "KubernetesExecutor"
    return "CeleryExecutor"
with DAG("d"):
    BashOperator(task_id="t", bash_command="x", executor=executor_for())
""",
    )
    assert candidates(tasks["t"], "executor") == ("KubernetesExecutor", "CeleryExecutor")


def test_a_task_built_in_either_branch(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
with DAG("d"):
    if os.environ.get("FAST"):
        BashOperator(task_id="t", bash_command="x", queue="fast")
    else:
        BashOperator(task_id="t", bash_command="x", queue="slow", pool_slots=2)
""",
    )
    assert candidates(tasks["t"], "queue") == ("fast", "slow")
    assert candidates(tasks["t"], "pool_slots") == (1, 2)
    assert tasks["t"].task.conditional


def test_a_constant_of_another_module(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
from common.routing import QUEUE
with DAG("d"):
    BashOperator(task_id="t", bash_command="x", queue=QUEUE)
""",
        extra={
            "dags/common/__init__.py": "",
            "dags/common/routing.py": (
                "import os\nQUEUE = 'gpu' if os.environ.get('GPU') else 'cpu'\n"
            ),
        },
    )
    assert candidates(tasks["t"], "queue") == ("gpu", "cpu")


def test_a_conditional_callable_is_not_followed(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
from airflow.providers.standard.operators.empty import EmptyOperator
with DAG("d"):
    (BashOperator if os.environ.get("B") else EmptyOperator)(task_id="t")
""",
    )
    assert tasks == {}


def test_rules_check_each_candidate(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        {
            "dags/dag.py": HEADER
            + """
Q = "nowhere" if os.environ.get("X") else "default"
with DAG("d"):
    BashOperator(task_id="t", bash_command="x", queue=Q)
    BashOperator(task_id="ok", bash_command="x", queue="imports" if os.sep else "default")
"""
        },
        inventory=CELERY_K8S,
    )
    [unserved] = by_code(report, "DRL101")
    assert "queue 'nowhere' (one of 'nowhere', 'default')" in unserved.message
    assert "task 't'" in unserved.message
    assert by_code(report, "DRL105") == []


def test_get_on_a_dict_that_may_lack_the_key(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
CONFIG = {"queue": "gpu"} if os.environ.get("GPU") else {"pool": "p"}
with DAG("d"):
    BashOperator(task_id="t", bash_command="x", queue=CONFIG.get("queue", "cpu"))
""",
    )
    assert candidates(tasks["t"], "queue") == ("gpu", "cpu")
