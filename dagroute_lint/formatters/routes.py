"""The routing table behind ``dagroute-lint routes``: a stable JSON contract, a table, a CSV.

Every format reads the analysed repository: its tasks, and where the pipeline placed each one.
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter

from dagroute_lint.formatters.escape import printable
from dagroute_lint.resolve.placement import variant_placements
from dagroute_lint.resolve.repository import Repository
from dagroute_lint.resolve.tasks import ResolvedTask

ROUTES_VERSION = 1
_COLUMNS = (
    "file",
    "line",
    "column",
    "dag_id",
    "task_id",
    "queue",
    "executor",
    "pool",
    "pool_slots",
    "deferrable",
    "mapped",
    "conditional",
    "operator",
    "provider",
    "unresolved",
    "candidates",
)
# Fields that may be one of several values, in the order the record lists them.
_CANDIDATE_FIELDS = ("queue", "executor", "pool", "pool_slots", "deferrable")


def task_record(task: ResolvedTask) -> dict[str, object]:
    """One task as Airflow holds it after parsing; unknown fields are ``null`` and listed, and
    a field that is one of several values lists them under ``candidates``."""
    fields = task.fields
    return {
        "file": task.module.path,
        "line": task.task.position.line,
        "column": task.task.position.column,
        "dag_id": task.dag_id,
        "task_id": task.task_id,
        "operator": task.operator,
        "provider": task.provider,
        "queue": fields["queue"].value,
        "executor": fields["executor"].value,
        "pool": fields["pool"].value,
        "pool_slots": fields["pool_slots"].value,
        "deferrable": fields["deferrable"].value,
        "mapped": task.task.mapped,
        "conditional": task.task.conditional,
        "unresolved": [name for name, _ in task.unresolved],
        "reasons": dict(task.unresolved),
        "candidates": {
            name: list(fields[name].candidates)
            for name in _CANDIDATE_FIELDS
            if fields[name].candidates
        },
    }


def summary(repository: Repository) -> dict[str, object]:
    tasks = repository.tasks
    unseen = repository.coverage.unseen
    queues = Counter(
        str(task.fields["queue"].value) for task in tasks if task.fields["queue"].known
    )
    executors = Counter(
        str(task.fields["executor"].value or "(default)")
        for task in tasks
        if task.fields["executor"].known
    )
    result: dict[str, object] = {
        "tasks": len(tasks),
        "dags": len({(task.module.path, task.task.dag) for task in tasks}),
        "conditional_tasks": sum(1 for task in tasks if task.task.conditional),
        "places_where_tasks_may_be_missing": unseen,
        "unresolved_tasks": sum(1 for task in tasks if task.unresolved),
        "tasks_with_candidates": sum(
            1 for task in tasks if any(found.candidates for found in task.fields.values())
        ),
        "tasks_per_queue": dict(sorted(queues.items())),
        "tasks_per_executor": dict(sorted(executors.items())),
    }
    inventory = repository.inventory
    if inventory is not None:
        unserved: set[str] = set()
        used: set[str] = set()
        # A queue that is one of a task's candidates may be used: it counts as used.
        for placed in repository.placed:
            for _, _, placement in variant_placements(placed, inventory):
                if placement.queue is None or placement.executor is None:
                    continue
                used.add(placement.queue)
                if placement.executor.honours_queue is True and not placement.workers:
                    unserved.add(placement.queue)
        worker_queues = {queue for worker in inventory.workers for queue in (worker.queues or ())}
        result["unserved_queues"] = sorted(unserved)
        result["unused_worker_queues"] = sorted(worker_queues - used)
    return result


def format_routes_json(repository: Repository) -> str:
    document = {
        "version": ROUTES_VERSION,
        "tasks": [task_record(task) for task in repository.tasks],
        "summary": summary(repository),
    }
    return json.dumps(document, indent=2) + "\n"


def _cell(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, list):
        return ",".join(str(item) for item in value)
    if isinstance(value, dict):  # candidates: ``queue=nfs|manager pool=big|small``
        return " ".join(f"{name}={_one_of(items)}" for name, items in value.items())
    return str(value)


def _one_of(values: object) -> str:
    """Candidate values for people: ``nfs|manager``."""
    assert isinstance(values, list)
    return "|".join("-" if value is None else str(value) for value in values)


def format_routes_csv(repository: Repository) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(_COLUMNS)
    for task in repository.tasks:
        record = task_record(task)
        writer.writerow(["" if record[c] is None else _cell(record[c]) for c in _COLUMNS])
    return buffer.getvalue()


def _shown(task: ResolvedTask, name: str) -> str:
    """A field in the table: its value, ``a|b`` when it is one of several, ``?`` unknown."""
    found = task.fields[name]
    if found.candidates:
        return _one_of(list(found.candidates))
    return _cell(found.value) if found.known else "?"


def _of_them(count: object) -> str:
    return f" ({count} of them one of several known values)" if count else ""


def format_routes_table(repository: Repository) -> str:
    headers = ("location", "dag", "task", "queue", "executor", "pool", "slots", "operator")
    rows: list[tuple[str, ...]] = []
    for task in repository.tasks:
        record = task_record(task)
        operator = str(record["operator"] or "-")
        if task.task.taskflow is None:
            operator = operator.rsplit(".", 1)[-1]
        cells = (
            f"{record['file']}:{record['line']}",
            _cell(record["dag_id"]),
            _cell(record["task_id"]),
            *(_shown(task, name) for name in ("queue", "executor", "pool", "pool_slots")),
            operator,
        )
        rows.append(tuple(printable(cell) for cell in cells))
    widths = [max(len(row[i]) for row in [headers, *rows]) for i in range(len(headers))]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip()
        for row in [headers, *rows]
    ]
    stats = summary(repository)
    lines.append("")
    lines.append(
        f"{stats['tasks']} tasks in {stats['dags']} DAGs, {stats['unresolved_tasks']} with "
        f"unresolved routing{_of_them(stats['tasks_with_candidates'])}, "
        f"{stats['conditional_tasks']} built under a condition; "
        f"{stats['places_where_tasks_may_be_missing']} places where tasks may be missing"
    )
    per_queue = stats["tasks_per_queue"]
    assert isinstance(per_queue, dict)
    lines.append("per queue: " + (", ".join(f"{q}={n}" for q, n in per_queue.items()) or "-"))
    if repository.inventory is not None:
        unserved = stats["unserved_queues"]
        unused = stats["unused_worker_queues"]
        assert isinstance(unserved, list) and isinstance(unused, list)
        lines.append("queues used but unserved: " + (", ".join(unserved) or "none"))
        lines.append("worker queues no task uses: " + (", ".join(unused) or "none"))
    return "".join(f"{printable(line)}\n" for line in lines)
