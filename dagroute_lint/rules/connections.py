"""DRL402: connection ids the deployment does not define."""

from __future__ import annotations

from collections.abc import Iterator

from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.rules.arguments import written_settings
from dagroute_lint.rules.base import DeploymentContext, DeploymentRule
from dagroute_lint.wording import did_you_mean


def is_connection_key(name: str) -> bool:
    return name == "conn_id" or name.endswith("_conn_id")


def check_undeclared_connection(context: DeploymentContext) -> Iterator[Diagnostic]:
    declared = context.inventory.connections
    if declared is None:
        return
    for written in written_settings(context.tasks):
        setting = written.setting
        conn_id = setting.value
        if not is_connection_key(setting.name) or not isinstance(conn_id, str):
            continue
        if not conn_id.strip() or "{{" in conn_id or conn_id in declared:
            continue
        yield context.report(
            setting.position,
            f"{written.owner} sets {setting.name}='{conn_id}', a connection the deployment does "
            "not declare; the task fails when it looks the connection up"
            f"{did_you_mean(conn_id, declared)}",
            kind="connection",
            item=conn_id,
            task=written.task,
        )


UNDECLARED_CONNECTION = DeploymentRule(
    code="DRL402",
    name="undeclared-connection",
    summary="a literal *_conn_id not declared in [connections] (when present)",
    boundary="execution",
    check=check_undeclared_connection,
)
