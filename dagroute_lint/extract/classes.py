"""What a class defined in a DAG file or a repository module may do to the tasks built from it.

An operator subclass can route in its own code (``kwargs.setdefault("queue", ...)``,
``super().__init__(queue=..., **kwargs)``, a signature default ``executor=...``, a class
attribute): its body is not run, so every routing field it mentions is unresolved for its tasks
rather than taken from the call. A class that is not an operator (a dataclass, a NamedTuple, a
plain class) builds no task even when it is called with ``task_id=``.
"""

from __future__ import annotations

import libcst as cst

from dagroute_lint.catalog.airflow_names import NOT_OPERATOR_DECORATORS
from dagroute_lint.extract.literals import string_literal
from dagroute_lint.model import ClassInfo

ROUTING_FIELDS = ("queue", "executor", "pool", "pool_slots", "deferrable")
ALL_FIELDS = "*"


class _Mentions(cst.CSTVisitor):
    """Routing field names a class body mentions anywhere, and whether it changes a keyword
    dict in a way the names do not show (``kwargs.update(ROUTE)``, ``**OTHER``)."""

    def __init__(self) -> None:
        self.fields: set[str] = set()
        self.opaque = False

    def _mention(self, name: str) -> None:
        if name in ROUTING_FIELDS:
            self.fields.add(name)

    def visit_Name(self, node: cst.Name) -> None:
        self._mention(node.value)

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        value = string_literal(node)
        if isinstance(value, str):
            self._mention(value)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in ("update", "__setitem__"):
            self.opaque = True
        for arg in node.args:
            if arg.star == "**" and not isinstance(arg.value, cst.Name):
                self.opaque = True


def class_info(
    node: cst.ClassDef, bases: tuple[str, ...], decorators: tuple[str, ...]
) -> ClassInfo:
    """The class's bases (qualified names, ``?`` where unknown) and what it may route."""
    mentions = _Mentions()
    node.body.visit(mentions)
    routes: tuple[str, ...] = tuple(sorted(mentions.fields))
    if mentions.opaque and _defines_init(node):
        routes = (ALL_FIELDS,)
    not_operator = any(name in NOT_OPERATOR_DECORATORS for name in decorators)
    return ClassInfo(bases=bases, routes=routes, operator=not not_operator)


def _defines_init(node: cst.ClassDef) -> bool:
    body = node.body.body if isinstance(node.body, cst.IndentedBlock) else ()
    return any(
        isinstance(statement, cst.FunctionDef) and statement.name.value == "__init__"
        for statement in body
    )
