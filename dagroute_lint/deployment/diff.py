"""What changed between two inventories, section by section (``inventory diff`` prints it first).

Only the facts the rules read are compared: executors, the default queue, the triggerer, each
worker's executor, queues and runtime, each runtime's providers and packages, the pools, and the
environment and Variables DAG files read (by name: a name whose value changed is both removed and
added; values are never printed, as they may be secrets).
"""

from __future__ import annotations

from collections.abc import Mapping

from dagroute_lint.deployment.inventory import Inventory, Runtime, Worker
from dagroute_lint.records import record


@record(order=True)
class Change:
    """``what`` (``worker 'general' queues``) lost ``removed`` and gained ``added``."""

    what: str
    removed: tuple[str, ...]
    added: tuple[str, ...]


def inventory_changes(old: Inventory, new: Inventory) -> list[Change]:
    changes = [
        _change(
            "executors", [e.written for e in old.executors], [e.written for e in new.executors]
        ),
        _change("default_queue", [old.default_queue], [new.default_queue]),
        _change("triggerer", _triggerer(old), _triggerer(new)),
        _change(
            "dag_processor runtime",
            _text(old.dag_processor_runtime),
            _text(new.dag_processor_runtime),
        ),
        _change("airflow_version", _text(old.airflow_version), _text(new.airflow_version)),
    ]
    old_workers = {w.name: w for w in old.workers}
    new_workers = {w.name: w for w in new.workers}
    changes.append(_change("workers", list(old_workers), list(new_workers)))
    for name in sorted(old_workers.keys() & new_workers.keys()):
        before, after = old_workers[name], new_workers[name]
        changes.append(_change(f"worker {name!r} queues", _queues(before), _queues(after)))
        changes.append(
            _change(
                f"worker {name!r} executor",
                [before.executor.display_name],
                [after.executor.display_name],
            )
        )
        changes.append(_change(f"worker {name!r} runtime", [before.runtime], [after.runtime]))
    changes.append(_change("runtimes", list(old.runtimes), list(new.runtimes)))
    for name in sorted(old.runtimes.keys() & new.runtimes.keys()):
        before_runtime, after_runtime = old.runtimes[name], new.runtimes[name]
        for part in ("providers", "packages"):
            changes.append(
                _change(
                    f"runtime {name!r} {part}",
                    _requirements(before_runtime, part),
                    _requirements(after_runtime, part),
                )
            )
    changes.append(_change("pools", _pools(old), _pools(new)))
    for table in ("environment", "variables"):
        changes.append(_table_change(old, new, table))
    return [change for change in changes if change.removed or change.added]


def _change(what: str, old: list[str], new: list[str]) -> Change:
    return Change(
        what,
        tuple(item for item in old if item not in new),
        tuple(item for item in new if item not in old),
    )


def _text(value: str | None) -> list[str]:
    return [] if value is None else [value]


def _triggerer(inventory: Inventory) -> list[str]:
    if inventory.has_triggerer is None:
        return ["(not said)"]
    if not inventory.has_triggerer:
        return []
    runtime = inventory.triggerer_runtime
    return [f"runs (runtime {runtime!r})" if runtime else "runs"]


def _queues(worker: Worker) -> list[str]:
    return ["(every queue)"] if worker.queues is None else list(worker.queues)


def _requirements(runtime: Runtime, part: str) -> list[str]:
    items = runtime.providers if part == "providers" else runtime.packages
    if items is None:
        return [f"({part} not listed)"]
    return [f"{item.name}{item.specifier}" for item in items]


def _pools(inventory: Inventory) -> list[str]:
    if inventory.pools is None:
        return ["(pools not declared: every pool counts as existing)"]
    return [f"{name}={slots}" for name, slots in sorted(inventory.pools.items())]


def _table_change(old: Inventory, new: Inventory, table: str) -> Change:
    """``[environment]`` or ``[variables]`` by name: a name whose value changed is removed and
    added, marked so; values are never shown (they may be secrets)."""
    before, after = _table(old, table), _table(new, table)
    changed = [name for name in before.keys() & after.keys() if before[name] != after[name]]
    return Change(
        table,
        tuple(sorted(before.keys() - after.keys()))
        + tuple(f"{name} (its value)" for name in sorted(changed)),
        tuple(sorted(after.keys() - before.keys()))
        + tuple(f"{name} (another value)" for name in sorted(changed)),
    )


def _table(inventory: Inventory, table: str) -> dict[str, object]:
    values: Mapping[str, object] | None = inventory.environment
    complete = inventory.environment_complete
    if table == "variables":
        values, complete = inventory.variables, inventory.variables_complete
    if values is None:
        return {f"({table} not given: every name is unknown)": None}
    return {**values, **({"(complete)": None} if complete else {})}
