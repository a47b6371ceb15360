"""The routing table behind ``dagroute-lint routes``: a stable JSON contract, a table, a CSV.

Every format reads the analysed repository: its tasks, and where the pipeline placed each one
(``workers``: the workers that will serve a task, worked out once by ``resolve.placement``).
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter

from dagroute_lint.formatters.escape import printable
from dagroute_lint.resolve.placement import PlacedTask, variant_placements
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
    "workers",
    "mapped",
    "conditional",
    "operator",
    "provider",
    "unresolved",
    "candidates",
)
# Fields that may be one of several values, in the order the record lists them.
_CANDIDATE_FIELDS = ("queue", "executor", "pool", "pool_slots", "deferrable")


def served(placed: PlacedTask) -> list[str] | None:
    """The names of the workers that will serve a dispatched task, ``[]`` for none, ``None``
    when that cannot be known: its executor is unresolved, or its queue is and the executor
    routes on it."""
    placement = placed.placement
    executor = placement.executor
    if executor is None:
        # A known executor= that matches no configured executor reaches no worker (DRL103).
        return None if not placed.task.fields["executor"].known else []
    if executor.honours_queue is True and placement.queue is None:
        return None
    return [worker.name for worker in placement.workers]


def task_records(repository: Repository) -> list[dict[str, object]]:
    """Every task's record (``task_record``), with the workers serving it under the inventory:
    none for a task the scheduler completes without an executor; unknown without an inventory."""
    workers: dict[int, list[str] | None] = {
        id(placed.task): served(placed) for placed in repository.placed
    }
    known = repository.inventory is not None
    return [
        task_record(task, workers.get(id(task), []) if known else None) for task in repository.tasks
    ]


def task_record(task: ResolvedTask, workers: list[str] | None) -> dict[str, object]:
    """One task as Airflow holds it after parsing; unknown fields are ``null`` and listed, and
    a field that is one of several values lists them under ``candidates``. ``workers`` are the
    workers that serve it (``served``)."""
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
        "workers": workers,
        "mapped": task.task.mapped,
        "conditional": task.task.conditional,
        "unresolved": [name for name, _ in task.unresolved],
        "reasons": dict(task.unresolved),
        "candidates": {
            name: list(fields[name].candidates)
            for name in _CANDIDATE_FIELDS
            if fields[name].candidates
        },
        "set_by": {name: fields[name].origin for name in _CANDIDATE_FIELDS},
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
        "tasks": task_records(repository),
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
    for record in task_records(repository):
        row = ["" if record[c] is None else _cell(record[c]) for c in _COLUMNS]
        if record["workers"] == []:
            row[_COLUMNS.index("workers")] = "-"  # none, where an empty cell is unknown
        writer.writerow(row)
    return buffer.getvalue()


def _shown(task: ResolvedTask, name: str) -> str:
    """A field in the table: its value, ``a|b`` when it is one of several, ``?`` unknown."""
    found = task.fields[name]
    if found.candidates:
        return _one_of(list(found.candidates))
    return _cell(found.value) if found.known else "?"


def _of_them(count: object) -> str:
    return f" ({count} of them one of several known values)" if count else ""


def _workers_cell(workers: object) -> str:
    """The workers column: their names, ``-`` for none, ``?`` when it cannot be known."""
    if workers is None:
        return "?"
    return _cell(workers) or "-"


def format_routes_table(repository: Repository) -> str:
    """One row per task; the workers column only with an inventory, which alone names them."""
    placed = repository.inventory is not None
    headers = (
        "location",
        "dag",
        "task",
        "queue",
        "executor",
        *(("workers",) if placed else ()),
        "pool",
        "slots",
        "operator",
    )
    rows: list[tuple[str, ...]] = []
    for task, record in zip(repository.tasks, task_records(repository)):
        operator = str(record["operator"] or "-")
        if task.task.taskflow is None:
            operator = operator.rsplit(".", 1)[-1]
        cells = (
            f"{record['file']}:{record['line']}",
            _cell(record["dag_id"]),
            _cell(record["task_id"]),
            *(_shown(task, name) for name in ("queue", "executor")),
            *((_workers_cell(record["workers"]),) if placed else ()),
            *(_shown(task, name) for name in ("pool", "pool_slots")),
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
