"""DRL002, DRL003, DRL006: DAG and task ids that make Airflow drop a DAG or reject the file.

Verified with DagBag in Airflow 2.10.5 and 3.3.2 (``tests/conformance/test_dag_integrity.py``):
a DAG id defined by two files makes DagBag keep the file it reads first and record
``AirflowDagDuplicatedIdException`` for the other; two DAGs of one id in one file load without
an error, DagBag keeping either one (it collects them in a set: the choice changes from
one run to the next, in both versions); a task id used twice in a DAG is
``DuplicateTaskIdFound``, and so is a ``TaskGroup`` whose id its DAG already uses for a task or
a group (or a task taking a group's id); ``validate_key`` rejects an id of more than 250
characters or with a character outside ``[\\w.-]`` (the task id with its TaskGroup prefixes).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.model import Position
from dagroute_lint.resolve.repository import Repository
from dagroute_lint.rules.base import Context, Rule
from dagroute_lint.wording import cut

# ``airflow.sdk.definitions._internal.node`` (3.3.2) and ``airflow.utils.helpers`` (2.10.5).
KEY_REGEX = re.compile(r"^[\w.-]+$")
MAX_KEY_LENGTH = 250


def _by_id(repository: Repository) -> dict[str, list[tuple[str, Position]]]:
    """Every certain DAG definition of the run's files, by id: worked out once per run."""
    key = ("dag-ids", "")
    if key not in repository.derived:
        index: dict[str, list[tuple[str, Position]]] = {}
        for path, definitions in repository.all_dags().items():
            for dag_id, position in definitions:
                index.setdefault(dag_id, []).append((path, position))
        repository.derived[key] = index
    found: dict[str, list[tuple[str, Position]]] = repository.derived[key]
    return found


def check_duplicate_dag_id(context: Context) -> Iterator[Diagnostic]:
    here = context.file.source.display
    seen: dict[str, Position] = {}
    for dag_id, position in context.file.certain_dags():
        first = seen.get(dag_id)
        if first is None:
            seen[dag_id] = position
        else:
            yield context.report(
                position,
                f"dag '{dag_id}' is defined again in this file (first at line {first.line}); "
                "Airflow loads only one of them, without an error, and which one can change "
                "from one parse of the file to the next: the tasks of the other never run",
                kind="parse",
                item=dag_id,
                dag_id=dag_id,
            )
    for dag_id, first in seen.items():
        others = [
            f"{path}:{position.line}"
            for path, position in _by_id(context.repository)[dag_id]
            if path != here
        ]
        if others:
            yield context.report(
                first,
                f"dag '{dag_id}' is also defined in {', '.join(sorted(set(others)))}; Airflow "
                "keeps the DAG of one file and drops the other (the file read second gets "
                "AirflowDagDuplicatedIdException), and which one depends on the order the "
                "files are read",
                kind="parse",
                item=dag_id,
                dag_id=dag_id,
            )


def check_duplicate_task_id(context: Context) -> Iterator[Diagnostic]:
    first: dict[tuple[int, str], Position] = {}
    for task in context.tasks:
        dag = task.task.dag
        if task.task_id is None or dag is None or task.task.conditional or task.task.wrapped:
            continue  # a decorator the walk did not follow may give it a group prefix
        earlier = first.get((dag, task.task_id))
        if earlier is None:
            first[(dag, task.task_id)] = task.task.position
        else:
            again = _loop(earlier, task.task.position)
            yield context.report(
                task.task.position,
                f"{task.label} reuses a task id already given at line {earlier.line}{again}; "
                "Airflow rejects the file when it parses it (DuplicateTaskIdFound), so none of its "
                "DAGs load",
                kind="parse",
                item=task.task_id,
                task=task,
            )
    for clash in context.file.id_clashes:
        dag_id = context.file.dag_ids[clash.dag]
        where = f"dag '{dag_id}'" if dag_id is not None else "its dag"
        again = _loop(clash.earlier, clash.position)
        yield context.report(
            clash.position,
            f"{clash.kind} '{clash.full_id}' in {where} reuses the id of the {clash.earlier_kind} "
            f"made at line {clash.earlier.line}{again}; Airflow rejects the file when it parses "
            "it (DuplicateTaskIdFound), so none of its DAGs load",
            kind="parse",
            item=clash.full_id,
            dag_id=dag_id,
        )


def _loop(earlier: Position, position: Position) -> str:
    return " (the same call, run again by a loop)" if earlier == position else ""


def _id_problem(key: str) -> str | None:
    """What ``validate_key`` says of ``key``, worded for the user; ``None``: a valid id."""
    if len(key) > MAX_KEY_LENGTH:
        return f"is {len(key)} characters long, more than the {MAX_KEY_LENGTH} Airflow allows"
    if KEY_REGEX.match(key) is None:
        bad = sorted({char for char in key if KEY_REGEX.match(char) is None})
        shown = ", ".join(repr(char) for char in bad)
        return (
            f"holds {shown}, which Airflow does not allow in an id (letters, digits, '_', '-' "
            "and '.' only)"
        )
    return None


def check_invalid_id(context: Context) -> Iterator[Diagnostic]:
    module = context.module
    for dag, dag_id in zip(module.dags, context.file.dag_ids):
        problem = _id_problem(dag_id) if dag_id is not None else None
        if dag_id is not None and problem is not None:
            maybe = " (if this DAG is created)" if dag.conditional else ""
            yield context.report(
                dag.position,
                f"dag id '{cut(dag_id, 60)}'{maybe} {problem}; DAG() raises when the file is "
                "parsed, so the file does not load",
                kind="parse",
                item=dag_id,
                dag_id=dag_id,
            )
    for task in context.tasks:
        problem = _id_problem(task.task_id) if task.task_id is not None else None
        if problem is not None:
            yield context.report(
                task.task.position,
                f"{cut(task.label, 120)}: the task id {problem}; the operator raises when the "
                "file is parsed, so the file does not load",
                kind="parse",
                item=task.task_id,
                task=task,
            )


DUPLICATE_DAG_ID = Rule(
    code="DRL002",
    name="duplicate-dag-id",
    summary="a dag_id defined twice, in one file or in two linted files: one DAG is dropped",
    boundary="parse",
    check=check_duplicate_dag_id,
)
DUPLICATE_TASK_ID = Rule(
    code="DRL003",
    name="duplicate-task-id",
    summary="a task or TaskGroup id used twice in one DAG (DuplicateTaskIdFound: no load)",
    boundary="parse",
    check=check_duplicate_task_id,
)
INVALID_ID = Rule(
    code="DRL006",
    name="invalid-id",
    summary="a DAG or task id longer than 250 characters or with characters Airflow rejects",
    boundary="parse",
    check=check_invalid_id,
)
