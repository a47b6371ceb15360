"""Cluster policies: what ``airflow_local_settings``'s hooks do to a task's routing.

Airflow imports ``airflow_local_settings`` when it starts and runs, for every DAG it bags,
``dag_policy(dag)`` and then ``task_policy(task)`` for each task (``DagBag.bag_dag``), and when
the scheduler creates a task instance, ``task_instance_mutation_hook(ti)``. Their bodies are
Python over a task the settings module never sees, so they are not run here: each hook's body
is read as a list of effects (``model.PolicyEffect``): an assignment to a routing field
(``task.queue = "heavy"``) under the conditions that lead to it, as a ``model.Condition`` on
the task's attributes (``task.dag_id``, ``task.owner``, ``isinstance(task, KPO)``...). The
resolver applies them, in Airflow's order, to each task whose attributes it knows
(``resolve/policies.py``), as one more routing layer above the DAG file's.

The values and operands are evaluated by the walk itself, in the hook's own scope (module
constants, imports made in the function), so the settings module reads as Python does. What
this reading does not model that may touch the task (a call given the task, a loop, ``while``,
an attribute computed from the task) is an effect on every routing field whose value is then
unknown, with the line: never silence, never a value the policy may have changed.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from typing import Literal, Protocol

import libcst as cst
from libcst.helpers import get_full_name_for_node

from dagroute_lint.extract.bindings import Binding, Function, Imported, SetObject
from dagroute_lint.extract.containers import snapshot
from dagroute_lint.extract.evaluator.state import Scope
from dagroute_lint.extract.folding import truth
from dagroute_lint.extract.written import as_written
from dagroute_lint.model import (
    DAG_POLICY,
    LEGACY_TASK_POLICY,
    POLICY_HOOKS,
    TASK_POLICY,
    TI_HOOK,
    Condition,
    Const,
    Expr,
    PolicyTest,
    Ref,
    SeqExpr,
    Unknown,
)

# The module Airflow imports its cluster policies from.
SETTINGS_MODULE = "airflow_local_settings"
ROUTING = frozenset({"queue", "pool", "pool_slots", "executor"})
# Task attributes a condition may test, as the resolver knows them (``resolve/policies.py``).
KNOWN_ATTRIBUTES = frozenset({"task_id", "dag_id", "owner", "task_type", *ROUTING})
# A task instance's own names for them (``ti.operator`` is the class name).
_TI_ATTRIBUTES = {"operator": "task_type", "task_id": "task_id", "dag_id": "dag_id"}
# DAG attributes that no task reads after it is built (``_dag_setting``).
DAG_SETTINGS = frozenset(
    {
        "default_args", "params", "tags", "max_active_runs", "max_active_tasks", "catchup",
        "max_consecutive_failed_dag_runs", "description", "doc_md", "access_control",
        "owner_links", "dagrun_timeout", "is_paused_upon_creation", "on_failure_callback",
        "on_success_callback", "sla_miss_callback", "fail_stop", "fail_fast", "start_date",
        "end_date", "dag_display_name", "render_template_as_native_obj",
    }
)  # fmt: skip
# Loops of a hook over known sequences longer than this are not unrolled.
MAX_UNROLLED = 32
# Helpers of the module the policy calls with the task, followed this deep.
MAX_HELPER_DEPTH = 3

TRUE = Condition("true")
FALSE = Condition("false")


class PolicyWalk(Protocol):
    """What reading a hook needs of the walk of the settings module."""

    scope: Scope
    module_scope: Scope

    def value_of(self, node: cst.BaseExpression) -> Binding: ...

    def walk_import(self, statement: cst.Import | cst.ImportFrom) -> None: ...

    def new_scope(self, parent: Scope | None = None) -> Scope: ...

    def iterated_value(self, node: cst.BaseExpression) -> Binding: ...

    def iteration_items(self, value: Binding) -> list[Binding] | Unknown: ...

    def bind(self, target: cst.BaseExpression, value: Binding) -> None: ...


def both(left: Condition, right: Condition) -> Condition:
    return _joined("and", left, right)


def either(left: Condition, right: Condition) -> Condition:
    return _joined("or", left, right)


def _joined(op: Literal["and", "or"], left: Condition, right: Condition) -> Condition:
    """``left op right``, folded where a side decides it (``x and false`` is ``false``) or
    leaves the other to (``true and x`` is ``x``)."""
    neutral, absorbing = (TRUE, FALSE) if op == "and" else (FALSE, TRUE)
    if absorbing.op in (left.op, right.op):
        return absorbing
    if left.op == neutral.op:
        return right
    if right.op == neutral.op:
        return left
    return Condition(op, (left, right))


def negated(condition: Condition) -> Condition:
    if condition.op in ("true", "false"):
        return FALSE if condition.op == "true" else TRUE
    if condition.op == "not":
        return condition.parts[0]
    return Condition("not", (condition,))


def unknown(reason: str) -> Condition:
    return Condition("unknown", reason=reason)


class DraftEffect:
    """A ``PolicyEffect`` before positions are known: the node it is written at (``None``: the
    line that binds the hook)."""

    def __init__(
        self, hook: str, when: Condition, field: str, value: Expr, node: cst.CSTNode | None
    ) -> None:
        self.hook = hook
        self.when = when
        self.field = field
        self.value = value
        self.node = node


class _Roles:
    """The names a hook's body reads the task (or its DAG, or task instance) through."""

    def __init__(self, tasks: frozenset[str], dags: frozenset[str], instances: frozenset[str]):
        self.tasks = tasks
        self.dags = dags
        self.instances = instances

    @property
    def all(self) -> frozenset[str]:
        return self.tasks | self.dags | self.instances

    def with_task(self, name: str) -> _Roles:
        return _Roles(self.tasks | {name}, self.dags, self.instances)


def policy_functions(module: Scope) -> Iterator[tuple[str, Binding]]:
    """The hooks the module binds, in Airflow's order, by their own names: ``policy`` (which
    only Airflow 2 runs, as ``task_policy``, when there is no ``task_policy``) included. Only
    the names in ``__all__`` when the module has one, as ``import_local_settings`` reads them.
    A hook may be bound to a function the module defines, or to anything else (imported from
    another module), whose code is then not read."""
    names = module.names
    exported = _exported(names.get("__all__"))
    for hook in POLICY_HOOKS:
        name = hook
        if hook == TASK_POLICY and hook not in names:
            name = LEGACY_TASK_POLICY
        found = names.get(name)
        if exported is not None and name not in exported:
            continue
        if found is not None:
            yield name, found


def _exported(value: Binding | None) -> frozenset[str] | None:
    """The names of ``__all__`` (``None``: no ``__all__``, or one that cannot be read, which
    leaves every hook in: the safer reading, since a hook may then run)."""
    if value is None:
        return None
    expr = snapshot(value)
    if isinstance(expr, SeqExpr) and all(isinstance(item, Const) for item in expr.items):
        return frozenset(str(item.value) for item in expr.items if isinstance(item, Const))
    return None


class PolicyReader:
    """Reads the hooks of a walked settings module into effects (see the module docstring)."""

    def __init__(self, walk: PolicyWalk) -> None:
        self.walk = walk
        self.effects: list[DraftEffect] = []
        self.hook = ""
        self.changed: set[str] = set()  # attributes the policy assigned, other than routing
        self.depth = 0
        # For each loop being unrolled, the conditions under which it meets ``break`` and
        # ``continue`` (``loops[-1][0]`` and ``[1]``).
        self.loops: list[tuple[list[Condition], list[Condition]]] = []

    def read(self) -> list[DraftEffect]:
        for hook, function in policy_functions(self.walk.module_scope):
            self.hook = hook
            self.changed = set()
            if isinstance(function, Function) and function.node is not None:
                self.run(function, TASK_POLICY if hook == LEGACY_TASK_POLICY else hook, TRUE)
                continue
            what = f"'{function.qualname}'" if isinstance(function, Imported) else "a value"
            why = f"the policy's {hook} is {what}, whose code is not read"
            self.effects.append(DraftEffect(hook, TRUE, "*", Unknown(why), None))
        return self.effects

    def run(self, function: Function, role: str, alive: Condition) -> None:
        """Read ``function``'s body with its first parameter as the object of ``role``."""
        node = function.node
        assert node is not None
        params = [param.name.value for param in node.params.params]
        if not params:
            return
        first = frozenset(params[:1])
        empty: frozenset[str] = frozenset()
        roles = {
            TASK_POLICY: _Roles(first, empty, empty),
            DAG_POLICY: _Roles(empty, first, empty),
            TI_HOOK: _Roles(empty, empty, first),
        }[role]
        closure = function.closure if isinstance(function.closure, Scope) else None
        scope = self.walk.new_scope(parent=closure or self.walk.module_scope)
        for name in params:
            scope.names[name] = Unknown(f"'{name}', which Airflow gives the policy")
        saved = self.walk.scope
        self.walk.scope = scope
        try:
            self.block(_statements(node.body), alive, roles)
        finally:
            self.walk.scope = saved

    # --- statements --------------------------------------------------------------------------

    def block(
        self, statements: Sequence[cst.CSTNode], alive: Condition, roles: _Roles
    ) -> Condition:
        """Read ``statements`` reached under ``alive``; the condition under which the code
        after them runs (``false`` after a ``return`` or ``raise`` reached unconditionally)."""
        for statement in statements:
            if alive.op == "false":
                break
            alive = self.statement(statement, alive, roles)
        return alive

    def statement(self, statement: cst.CSTNode, alive: Condition, roles: _Roles) -> Condition:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                alive = self.small(small, alive, roles)
            return alive
        if isinstance(statement, cst.If):
            return self.branch(statement, alive, roles)
        if isinstance(statement, cst.For) and self.over_dag_tasks(statement, roles):
            return self.dag_loop(statement, alive, roles)
        if isinstance(statement, cst.For) and not self.mentions((statement.iter,), roles):
            unrolled = self.unrolled(statement, alive, roles)
            if unrolled is not None:
                return unrolled
        if isinstance(statement, cst.Try):
            after = self.block(_statements(statement.body), alive, roles)
            for handler in statement.handlers:
                caught = both(alive, unknown("an exception handler of the policy"))
                after = either(after, self.block(_statements(handler.body), caught, roles))
            if statement.finalbody is not None:
                self.block(_statements(statement.finalbody.body), alive, roles)
            return after
        if isinstance(statement, cst.With) and not self.mentions(statement.items, roles):
            return self.block(_statements(statement.body), alive, roles)
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            return alive  # defined, not run: a call of it is what may change the task
        if self.mentions((statement,), roles):
            self.anything(alive, f"the policy's `{_head(statement)}` is not followed", statement)
        return alive

    def branch(self, statement: cst.If, alive: Condition, roles: _Roles) -> Condition:
        test = self.condition(statement.test, roles)
        entered = both(alive, test)
        after = self.block(_statements(statement.body), entered, roles)
        otherwise = both(alive, negated(test))
        orelse = statement.orelse
        passed = otherwise
        if isinstance(orelse, cst.If):
            passed = self.branch(orelse, otherwise, roles)
        elif isinstance(orelse, cst.Else):
            passed = self.block(_statements(orelse.body), otherwise, roles)
        if after is entered and passed is otherwise:
            return alive  # neither way stops: what follows runs whenever the ``if`` does
        return either(after, passed)

    def small(self, small: cst.BaseSmallStatement, alive: Condition, roles: _Roles) -> Condition:
        if isinstance(small, cst.Return):
            return FALSE
        if isinstance(small, cst.Raise):
            name = _raised(small)
            self.effects.append(DraftEffect(self.hook, alive, "reject", Const(name), small))
            return FALSE
        if isinstance(small, (cst.Import, cst.ImportFrom)):
            self.walk.walk_import(small)
            return alive
        if isinstance(small, cst.Assign):
            for target in small.targets:
                self.assign(target.target, small.value, alive, roles, small)
            return alive
        if isinstance(small, cst.AnnAssign) and small.value is not None:
            self.assign(small.target, small.value, alive, roles, small)
            return alive
        if isinstance(small, cst.AugAssign):
            field = self.attribute_of(small.target, roles)
            if field in ROUTING:
                value = Unknown(f"computed from the task's '{field}' by the policy")
                self.effects.append(DraftEffect(self.hook, alive, field, value, small))
                return alive
        if isinstance(small, cst.Expr) and self.helper_call(small.value, alive, roles):
            return alive
        if isinstance(small, (cst.Break, cst.Continue)) and self.loops:
            self.loops[-1][isinstance(small, cst.Continue)].append(alive)
            return FALSE
        if isinstance(small, (cst.Pass, cst.Global, cst.Nonlocal, cst.Continue)):
            return FALSE if isinstance(small, cst.Continue) else alive
        if self.mentions((small,), roles):
            code = as_written(small)
            self.anything(alive, f"the policy runs `{code}`, which is not followed", small)
        return alive

    def assign(
        self,
        target: cst.BaseAssignTargetExpression,
        value: cst.BaseExpression,
        alive: Condition,
        roles: _Roles,
        node: cst.CSTNode,
    ) -> None:
        field = self.attribute_of(target, roles)
        if field is not None:
            if field in ROUTING:
                written = self.value(value, roles)
                self.effects.append(DraftEffect(self.hook, alive, field, written, node))
            else:
                self.changed.add(field)
            return
        if isinstance(target, cst.Name):
            local = target.value
            if self.mentions((value,), roles) or alive.op != "true":
                # a name that depends on the task, or is bound only on some paths
                self.walk.scope.names[local] = Unknown(f"'{local}', set by the policy")
            else:
                self.walk.scope.names[local] = self.walk.value_of(value)
            return
        if self.mentions((target, value), roles):
            code = as_written(node)
            self.anything(alive, f"the policy runs `{code}`, which is not followed", node)

    def helper_call(self, expression: cst.BaseExpression, alive: Condition, roles: _Roles) -> bool:
        """``route(task)``: a function of the module called with the task alone, read as the
        policy's own body (to ``MAX_HELPER_DEPTH``); whether the call was such a one."""
        if not isinstance(expression, cst.Call) or not isinstance(expression.func, cst.Name):
            return False
        args = expression.args
        if len(args) != 1 or args[0].keyword is not None or args[0].star:
            return False
        given = args[0].value
        if not isinstance(given, cst.Name) or given.value not in roles.tasks:
            return False
        callee = self.walk.scope.lookup(expression.func.value)
        if not isinstance(callee, Function) or callee.node is None:
            return False
        if self.depth >= MAX_HELPER_DEPTH:
            return False
        saved_hook, self.depth = self.hook, self.depth + 1
        try:
            self.run(callee, TASK_POLICY, alive)
        finally:
            self.hook, self.depth = saved_hook, self.depth - 1
        return True

    def unrolled(self, statement: cst.For, alive: Condition, roles: _Roles) -> Condition | None:
        """A loop over a known sequence (``for prefix, queue in ROUTES.items():``), read once
        per item with the target bound to it, as Python runs it: ``break`` leaves the loop,
        ``continue`` goes on to the next item. ``None`` for a loop over anything else (or over
        more than ``MAX_UNROLLED`` items): the caller then says it is not followed."""
        items = self.walk.iteration_items(self.walk.iterated_value(statement.iter))
        if isinstance(items, Unknown) or len(items) > MAX_UNROLLED:
            return None
        left: list[Condition] = []
        for item in items:
            self.walk.bind(statement.target, item)
            self.loops.append(([], []))
            try:
                end = self.block(_statements(statement.body), alive, roles)
            finally:
                breaks, continues = self.loops.pop()
            left += breaks
            alive = functools.reduce(either, continues, end)
        if statement.orelse is not None:
            alive = self.block(_statements(statement.orelse.body), alive, roles)
        return functools.reduce(either, left, alive)

    def over_dag_tasks(self, statement: cst.For, roles: _Roles) -> bool:
        """``for task in dag.tasks`` (or ``dag.task_dict.values()``) in ``dag_policy``."""
        if not isinstance(statement.target, cst.Name) or statement.orelse is not None:
            return False
        name = get_full_name_for_node(statement.iter)
        if isinstance(statement.iter, cst.Call) and not statement.iter.args:
            name = get_full_name_for_node(statement.iter.func)
        if name is None or "." not in name:
            return False
        owner, _, rest = name.partition(".")
        return owner in roles.dags and rest in ("tasks", "task_dict.values")

    def dag_loop(self, statement: cst.For, alive: Condition, roles: _Roles) -> Condition:
        assert isinstance(statement.target, cst.Name)
        inner = roles.with_task(statement.target.value)
        self.walk.scope.names[statement.target.value] = Unknown("a task of the DAG")
        if _breaks(statement.body):
            alive = both(alive, unknown("the policy's loop over the DAG's tasks may stop early"))
        self.loops.append(([], []))  # its ``continue`` ends one task's turn, no more
        try:
            self.block(_statements(statement.body), alive, inner)
        finally:
            self.loops.pop()
        return alive

    def anything(self, alive: Condition, reason: str, node: cst.CSTNode) -> None:
        self.effects.append(DraftEffect(self.hook, alive, "*", Unknown(reason), node))

    # --- values and conditions -------------------------------------------------------------

    def value(self, node: cst.BaseExpression, roles: _Roles) -> Expr:
        """A value the policy assigns, evaluated by the walk in the hook's scope; one computed
        from the task itself is unknown."""
        if self.mentions((node,), roles):
            return Unknown(f"`{as_written(node)}`, computed from the task by the policy")
        return operand(self.walk.value_of(node))

    def attribute_of(self, node: cst.CSTNode, roles: _Roles) -> str | None:
        """The task attribute ``node`` reads (``task.queue``, ``ti.task.pool``,
        ``dag.dag_id`` in ``dag_policy``, ``task.dag.dag_id``), or ``None``."""
        if not isinstance(node, cst.Attribute):
            return None
        attr = node.attr.value
        owner = node.value
        if isinstance(owner, cst.Name):
            if owner.value in roles.tasks:
                return attr
            if owner.value in roles.dags:
                return "dag_id" if attr == "dag_id" else None
            if owner.value in roles.instances:
                return _TI_ATTRIBUTES.get(attr, attr if attr in ROUTING else None)
            return None
        if isinstance(owner, cst.Attribute) and isinstance(owner.value, cst.Name):
            holder, middle = owner.value.value, owner.attr.value
            if holder in roles.instances and middle == "task":
                return attr
            if holder in roles.tasks and middle == "dag" and attr == "dag_id":
                return "dag_id"
        return None

    def tested(self, node: cst.BaseExpression, roles: _Roles) -> str | None:
        """The known attribute a condition reads; ``None`` when it reads none or another."""
        attribute = self.attribute_of(node, roles)
        if attribute in KNOWN_ATTRIBUTES and attribute not in self.changed:
            return attribute
        return None

    def condition(self, node: cst.BaseExpression, roles: _Roles) -> Condition:
        if isinstance(node, cst.BooleanOperation):
            left = self.condition(node.left, roles)
            right = self.condition(node.right, roles)
            if isinstance(node.operator, cst.And):
                return both(left, right)
            return either(left, right)
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
            return negated(self.condition(node.expression, roles))
        if not self.mentions((node,), roles):
            known = truth(self.walk.value_of(node))
            if known is not None:
                return TRUE if known else FALSE
            return unknown(
                f"the policy's condition `{as_written(node)}` cannot be known statically"
            )
        found = self.test(node, roles)
        if found is not None:
            return found
        return unknown(f"the policy's condition `{as_written(node)}` is not modelled")

    def test(self, node: cst.BaseExpression, roles: _Roles) -> Condition | None:
        attribute = self.tested(node, roles)
        if attribute is not None:
            return Condition("test", attribute=attribute, test="truth")
        if isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
            return self.comparison(node.left, node.comparisons[0], roles)
        if isinstance(node, cst.Call):
            return self.call_test(node, roles)
        return None

    def comparison(
        self, left: cst.BaseExpression, target: cst.ComparisonTarget, roles: _Roles
    ) -> Condition | None:
        right = target.comparator
        operator = target.operator
        ops: dict[type, tuple[PolicyTest, PolicyTest]] = {
            cst.Equal: ("eq", "eq"),
            cst.NotEqual: ("ne", "ne"),
            cst.In: ("in", "contains"),
            cst.NotIn: ("not_in", "not_contains"),
            cst.LessThan: ("lt", "gt"),
            cst.LessThanEqual: ("le", "ge"),
            cst.GreaterThan: ("gt", "lt"),
            cst.GreaterThanEqual: ("ge", "le"),
        }
        if isinstance(operator, (cst.Is, cst.IsNot)):
            attribute = self.tested(left, roles)
            if attribute is not None and _is_none(right):
                test: PolicyTest = "is_none" if isinstance(operator, cst.Is) else "is_not_none"
                return Condition("test", attribute=attribute, test=test)
            return None
        pair = ops.get(type(operator))
        if pair is None:
            return None
        attribute = self.tested(left, roles)
        if attribute is not None and not self.mentions((right,), roles):
            return Condition(
                "test", attribute=attribute, test=pair[0], operand=self.value(right, roles)
            )
        attribute = self.tested(right, roles)
        if attribute is not None and not self.mentions((left,), roles):
            return Condition(
                "test", attribute=attribute, test=pair[1], operand=self.value(left, roles)
            )
        return None

    def call_test(self, node: cst.Call, roles: _Roles) -> Condition | None:
        args = node.args
        if any(arg.keyword is not None or arg.star for arg in args):
            return None
        func = node.func
        if isinstance(func, cst.Name) and func.value == "isinstance" and len(args) == 2:
            subject = args[0].value
            if not (isinstance(subject, cst.Name) and subject.value in roles.tasks):
                return None
            if self.mentions((args[1].value,), roles):
                return None
            classes = _class_names(self.walk.value_of(args[1].value))
            if classes is None:
                return None
            classes_expr = SeqExpr(tuple(Ref(name) for name in classes))
            return Condition("test", attribute="class", test="isinstance", operand=classes_expr)
        if isinstance(func, cst.Attribute) and func.attr.value in ("startswith", "endswith"):
            attribute = self.tested(func.value, roles)
            if attribute is None or len(args) != 1 or self.mentions((args[0].value,), roles):
                return None
            test: PolicyTest = "startswith" if func.attr.value == "startswith" else "endswith"
            operand = self.value(args[0].value, roles)
            return Condition("test", attribute=attribute, test=test, operand=operand)
        return None

    def mentions(self, nodes: Sequence[cst.CSTNode], roles: _Roles) -> bool:
        """Whether any of ``nodes`` reads a name the task (its DAG, its instance) is held by."""
        names = roles.all
        stack: list[cst.CSTNode] = list(nodes)
        while stack:
            node = stack.pop()
            if isinstance(node, cst.Name) and node.value in names:
                return True
            if _dag_setting(node, roles):
                continue
            stack.extend(node.children)
        return False


def operand(value: Binding) -> Expr:
    """A value the policy assigns or tests against, as an expression; a set of literals (what
    ``task.task_id in {"a", "b"}`` tests) as the sequence of its elements, which the membership
    tests read alike."""
    if isinstance(value, SetObject) and value.spoiled is None:
        items = tuple(item for item in value.values.values() if isinstance(item, Const))
        if len(items) == len(value.values):
            return SeqExpr(items)
    return snapshot(value)


def _dag_setting(node: cst.CSTNode, roles: _Roles) -> bool:
    """``dag.default_args``, ``dag.tags``...: a DAG attribute no task reads once it is built.
    ``dag_policy`` runs after the tasks exist, so changing one cannot route a task."""
    return (
        isinstance(node, cst.Attribute)
        and isinstance(node.value, cst.Name)
        and node.value.value in roles.dags
        and node.attr.value in DAG_SETTINGS
    )


def _statements(body: cst.BaseSuite) -> Sequence[cst.CSTNode]:
    if isinstance(body, cst.IndentedBlock):
        return body.body
    assert isinstance(body, cst.SimpleStatementSuite)
    return [cst.SimpleStatementLine(body=body.body)]


def _head(statement: cst.CSTNode) -> str:
    """How a message names a compound statement: ``for q in QUEUES()``, ``while ...``."""
    if isinstance(statement, cst.For):
        return f"for {as_written(statement.target)} in {as_written(statement.iter)}"
    if isinstance(statement, cst.While):
        return f"while {as_written(statement.test)}"
    return f"{type(statement).__name__.lower()} statement"


def _breaks(body: cst.BaseSuite) -> bool:
    """Whether a ``break`` of this loop is in ``body`` (not in a loop nested in it)."""
    stack: list[cst.CSTNode] = [body]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Break):
            return True
        if not isinstance(node, (cst.For, cst.While, cst.FunctionDef, cst.ClassDef)):
            stack.extend(node.children)
    return False


def _raised(small: cst.Raise) -> str:
    """The name of the exception a ``raise`` raises (``?`` when it cannot be named)."""
    exc = small.exc
    if isinstance(exc, cst.Call):
        exc = exc.func
    name = get_full_name_for_node(exc) if exc is not None else None
    return name.rsplit(".", 1)[-1] if name else "?"


def _is_none(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


def _class_names(value: Binding) -> tuple[str, ...] | None:
    """The qualified names of the class (or tuple of classes) ``isinstance`` is given."""
    if isinstance(value, Imported):
        return (value.qualname,)
    expr = snapshot(value)
    if isinstance(expr, Ref):
        return (expr.qualname,)
    if isinstance(expr, SeqExpr) and all(isinstance(item, Ref) for item in expr.items):
        return tuple(item.qualname for item in expr.items if isinstance(item, Ref))
    return None
