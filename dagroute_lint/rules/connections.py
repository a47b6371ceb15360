"""DRL402: connection ids the deployment does not define."""

from __future__ import annotations

from collections.abc import Iterator

from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.rules.base import Context, Rule
from dagroute_lint.rules.wording import did_you_mean


def is_connection_key(name: str) -> bool:
    return name == "conn_id" or name.endswith("_conn_id")


def check_undeclared_connection(context: Context) -> Iterator[Diagnostic]:
    inventory = context.inventory
    assert inventory is not None
    declared = inventory.connections
    if declared is None:
        return
    seen: set[tuple[int, int, str, str]] = set()
    for task in context.tasks:
        for setting in task.settings:
            conn_id = setting.value
            if not is_connection_key(setting.name) or not isinstance(conn_id, str):
                continue
            if not conn_id.strip() or "{{" in conn_id or conn_id in declared:
                continue
            position = setting.position
            key = (position.line, position.column, setting.name, conn_id)
            if key in seen:
                continue  # one DAG's default_args reach all its tasks: report them once
            seen.add(key)
            whose = setting.origin if "default_args" in setting.origin else task.label
            yield context.report(
                position,
                "DRL402",
                f"{whose} sets {setting.name}='{conn_id}', a connection the deployment does not "
                "declare; the task fails when it looks the connection up"
                f"{did_you_mean(conn_id, declared)}",
            )


UNDECLARED_CONNECTION = Rule(
    code="DRL402",
    name="undeclared-connection",
    summary="a literal *_conn_id not declared in [connections] (when present)",
    boundary="execution",
    check=check_undeclared_connection,
)
