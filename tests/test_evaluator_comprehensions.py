"""Comprehensions, map() and match statements build tasks as Python runs them; where the walk
cannot list what they iterate or decide which case runs, the tasks are still seen (conditional,
or announced by DRL106), never silently missed."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import by_code, lint_repo, routes, value

HEADER = """
import os
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, Variable

NAMES = ["a", "b", "c"]

def make(name, queue="q"):
    return BashOperator(task_id=name, bash_command="x", queue=queue)
"""


def lint(tmp_path: Path, body: str) -> tuple[dict[str, object], list[str]]:
    report = lint_repo(tmp_path, {"dags/dag.py": HEADER + body}, inventory=None)
    tasks = {task.task_id or "?": task for task in report.tasks}
    return tasks, [f"{d.line}: {d.message}" for d in by_code(report, "DRL106")]


def test_comprehension_over_an_unknown_value_is_announced(tmp_path: Path) -> None:
    tasks, places = lint(
        tmp_path,
        """
with DAG("d"):
    [make(f"t_{name}") for name in Variable.get("names", deserialize_json=True)]
""",
    )
    assert list(tasks) == ["?"]
    assert tasks["?"].task.conditional  # type: ignore[attr-defined]
    assert places == [
        '11: a comprehension builds tasks over Variable.get("names", deserialize_json=True), '
        "which is not known statically (Airflow Variable (Variable.get)); how many tasks, and "
        "their ids, are not known"
    ]


def test_conditions_nested_clauses_and_dict_comprehensions(tmp_path: Path) -> None:
    tasks, places = lint(
        tmp_path,
        """
with DAG("d"):
    [make(n) for n in NAMES if n != "b"]
    [make(f"{n}{i}") for n in NAMES[:1] for i in range(2)]
    made = {n: make(f"dict_{n}", queue=f"q_{n}") for n in NAMES[1:]}
    [make(f"env_{n}") for n in NAMES if n == os.getenv("ONLY")]
""",
    )
    certain = [name for name, task in tasks.items() if not task.task.conditional]  # type: ignore[attr-defined]
    assert certain == ["a", "c", "a0", "a1", "dict_b", "dict_c"]
    assert [name for name in tasks if name.startswith("env_")] == ["env_a", "env_b", "env_c"]
    assert value(tasks["dict_c"], "queue") == "q_c"  # type: ignore[arg-type]
    assert places == []


def test_map_runs_where_something_iterates_it(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
with DAG("d"):
    list(map(lambda n: make(f"lambda_{n}"), NAMES[:2]))
    for task in map(make, ["loop"]):
        pass
    map(make, ["never"])
""",
    )
    assert sorted(tasks) == ["lambda_a", "lambda_b", "loop"]


def test_match_runs_the_case_a_known_subject_selects(tmp_path: Path) -> None:
    tasks, _ = lint(
        tmp_path,
        """
ENV = "prod"
with DAG("d"):
    match ENV:
        case "dev" | "test":
            make("smoke")
        case "prod" if NAMES:
            make("publish")
        case _:
            make("fallback")
    match os.getenv("E"):
        case "a":
            queue = "qa"
        case None:
            queue = "qn"
    make("after", queue=queue)
""",
    )
    assert list(tasks) == ["publish", "after"]
    assert not tasks["after"].fields["queue"].known  # type: ignore[attr-defined]
