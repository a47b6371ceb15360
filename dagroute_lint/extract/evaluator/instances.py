"""Operator classes of the repository: their ``__init__`` run, up to Airflow's base, per task.

``SparkJob(task_id="x", app="a")`` runs ``SparkJob.__init__`` with its arguments bound, as
Airflow does: ``kwargs.setdefault("queue", ...)``, ``super().__init__(queue=..., **kwargs)``,
signature defaults (which ``default_args`` beat, as Airflow's ``apply_defaults`` fills each
``__init__``'s own parameters from them) and ``self.pool = ...`` after the task exists. The task
is built when ``super().__init__`` reaches the first class not of the repository, with the
arguments it is given there. A class the walk cannot follow this way (several bases, a base
whose code it does not have, ``__init__`` under a decorator) keeps the old, unresolved reading.
"""

from __future__ import annotations

import libcst as cst

from dagroute_lint.catalog.airflow_names import DAG_CLASSES
from dagroute_lint.extract.bindings import (
    DEFAULT,
    REMOVE,
    SET,
    SPREAD,
    Binding,
    BoundMethod,
    CallArguments,
    DictObject,
    Function,
    Imported,
    Instance,
    LocalClass,
    Super,
    TaskHandles,
)
from dagroute_lint.extract.containers import CONTAINERS, EXPR_TYPES, snapshot
from dagroute_lint.extract.evaluator.helpers import ROUTING_ATTRIBUTES, VALUE_LIBRARIES
from dagroute_lint.extract.evaluator.state import MAX_CALL_DEPTH, MAX_WORK, WalkerState
from dagroute_lint.model import Const, DictExpr, Expr, Operation, Subscript, Unknown

# Fields Airflow's ``BaseOperator.__init__`` always assigns: what a class body or ``__init__``
# sets on them before it runs is overwritten (``deferrable`` is left to each operator).
ASSIGNED_BY_BASE = frozenset({"queue", "executor", "pool", "pool_slots"})
# Decorators of ``__init__`` that change nothing (Airflow 2's deprecated no-op).
NO_OP_DECORATORS = frozenset({"apply_defaults"})
# Bases that add no ``__init__`` of their own.
PLAIN_BASES = frozenset({"builtins.object"})


class Instances(WalkerState):
    def construct(
        self,
        node: cst.Call,
        cls: LocalClass,
        positional: list[Binding],
        arguments: CallArguments,
    ) -> Binding:
        """Build the task ``cls(...)`` builds, running the repository's ``__init__`` code."""
        chain = self.chain_of(cls)
        if chain is None or positional:  # (Airflow refuses positional operator arguments)
            return self.maybe_operator(node, cls.qualname, arguments)
        instance = Instance(chain, node, arguments, pending=class_body_routing(chain))
        self.init_from(instance, 0, node, [], arguments)
        if instance.task is None:
            return self.maybe_operator(node, cls.qualname, arguments)
        return instance.task

    def construct_dag(
        self,
        node: cst.Call,
        cls: LocalClass,
        positional: list[Binding],
        arguments: CallArguments,
    ) -> Binding:
        """Build the DAG a ``DAG`` subclass of the repository builds, running its ``__init__``
        (and the tasks it adds to ``self``); else the DAG alone, and DRL106 says why."""
        chain = self.chain_of(cls)
        if chain is not None:
            instance = Instance(chain, node, arguments, builds_dag=True)
            self.init_from(instance, 0, node, positional, arguments)
            if instance.dag is not None:
                return instance.dag
        if any(isinstance(bound, Function) for bound in cls.attributes.values()):
            self.not_followed(
                node,
                f"{cls.qualname} is a DAG subclass whose methods are not run; tasks its "
                "__init__ builds are not seen",
            )
        return self.create_dag(node, positional, arguments)

    def chain_of(self, cls: LocalClass) -> tuple[Binding, ...] | None:
        """``cls`` and its bases up to the first class not of the repository (an Airflow
        operator), when each has one base; ``None`` when that is not what the code says."""
        chain: list[Binding] = []
        current: Binding = cls
        while isinstance(current, LocalClass):
            if len(chain) > MAX_CALL_DEPTH or "__new__" in current.attributes:
                return None
            chain.append(current)
            named = current.info.bases if current.info is not None else ()
            bases = [
                value
                for value, name in zip(current.bases, named, strict=False)
                if name not in PLAIN_BASES
            ]
            if len(bases) != 1:
                return None
            current = bases[0]
            if isinstance(current, Imported):
                found = self.foreign_binding(current.qualname)
                if isinstance(found, LocalClass):
                    current = found
                elif current.qualname.split(".")[0] not in VALUE_LIBRARIES:
                    return None  # a class of the repository whose code the walk does not have
        if not isinstance(current, Imported):
            return None
        if cls.dag != (current.qualname in DAG_CLASSES):
            return None
        chain.append(current)
        return tuple(chain)

    def init_from(
        self,
        instance: Instance,
        start: int,
        node: cst.Call,
        positional: list[Binding],
        arguments: CallArguments,
    ) -> None:
        """Run the first ``__init__`` of ``instance.chain[start:]``; past the repository's
        classes, Airflow's base gets ``arguments`` and the task is built."""
        for klass in instance.chain[start:-1]:
            assert isinstance(klass, LocalClass)
            init = klass.attributes.get("__init__")
            if init is None:
                continue
            if not isinstance(init, Function) or init.node is None or not plain_init(init):
                return  # not followed: the caller keeps the old reading
            if self.call_depth >= MAX_CALL_DEPTH or self.work > MAX_WORK:
                return
            filled = arguments
            if not instance.builds_dag:
                filled = self.filled_from_default_args(init, arguments, instance)
            self.constructing.append((instance, klass, self.call_depth))
            try:
                self.call_function(node, init, [instance, *positional], filled)
            finally:
                self.constructing.pop()
            return
        if instance.builds_dag:
            flat = flattened(arguments)
            instance.dag = self.create_dag(instance.node, positional, flat)
            return
        self.build_instance_task(instance, arguments)

    def filled_from_default_args(
        self, init: Function, arguments: CallArguments, instance: Instance
    ) -> CallArguments:
        """Airflow fills each ``__init__``'s own parameters that the call leaves out from the
        ``default_args`` that reach the task, before its signature default applies."""
        assert init.node is not None
        arguments = flattened(arguments)  # ``super().__init__(**kwargs)``: the keys it passes
        params = init.node.params
        names = [param.name.value for param in (*params.params[1:], *params.kwonly_params)]
        missing = [name for name in names if name not in arguments.bindings]
        layers = self.default_args_layers(instance.arguments)
        if not missing or not layers or arguments.spreads:
            return arguments
        merged = DictExpr(tuple((None, layer) for layer in layers))
        bindings = dict(arguments.bindings)
        for name in missing:
            default = init.defaults.get(name)
            if default is None:
                bindings[name] = Subscript(merged, Const(name))
            else:
                bindings[name] = Operation("get", (merged, Const(name), snapshot(default)))
        named = {key: snapshot(value) for key, value in bindings.items()}
        return CallArguments(
            named, arguments.spreads, bindings, arguments.nodes, arguments.spread_bindings
        )

    def default_args_layers(self, arguments: CallArguments) -> list[Expr]:
        """The ``default_args`` a task built with ``arguments`` gets, lowest priority first: the
        DAG's, its TaskGroups' from the outermost, its own ``default_args=``."""
        dag = self.current_dag(arguments)
        layers: list[Expr] = []
        if dag is not None:
            defaults = self.dags[dag].current_defaults()[1]
            if defaults is not None:
                layers.append(defaults)
        groups: list[Expr] = []
        group = self.task_group_for(arguments, dag)
        while group is not None:
            draft = self.groups[group]
            if draft.default_args is not None:
                groups.append(draft.default_args)
            group = draft.parent
        layers += reversed(groups)
        own = arguments.named.get("default_args")
        if own is not None:
            layers.append(own)
        return layers

    def super_of(self, positional: list[Binding]) -> Binding:
        """``super()`` (or ``super(Cls, self)``) in an ``__init__`` the walk is running."""
        if not positional and self.constructing:
            instance, klass, depth = self.constructing[-1]
            if self.call_depth == depth + 1:
                return Super(instance, klass)
        if len(positional) == 2 and isinstance(positional[1], Instance):
            named, given = positional[0], positional[1]
            if isinstance(named, LocalClass) and any(each is named for each in given.chain):
                return Super(given, named)
        return Unknown("super() outside an __init__ the walk runs")

    def super_init(
        self, node: cst.Call, target: Super, positional: list[Binding], arguments: CallArguments
    ) -> Binding:
        """``super().__init__(...)``: the next class's ``__init__``, or Airflow's base."""
        instance = target.instance
        built = instance.task is not None or instance.dag is not None
        if built or (positional and not instance.builds_dag):
            self.instance_escaped(instance, "super().__init__() is called twice or positionally")
            return Unknown("result of super().__init__()")
        index = next(i for i, klass in enumerate(instance.chain) if klass is target.after)
        self.init_from(instance, index + 1, node, positional, arguments)
        return Const(None)

    def build_instance_task(self, instance: Instance, arguments: CallArguments) -> None:
        """The task, as Airflow's base ``__init__`` receives its arguments; positions are the
        caller's where it wrote the keyword, else where the repository's code passes it."""
        flat = flattened(arguments)
        if any(isinstance(spread, Unknown) for spread in flat.spreads):
            return  # e.g. kwargs changed under a condition: not even task_id is known
        outer = instance.arguments.nodes
        nodes = {key: outer.get(key, node) for key, node in flat.nodes.items()}
        nodes.update({key: outer[key] for key in flat.named if key in outer})
        final = CallArguments(flat.named, flat.spreads, flat.bindings, nodes, flat.spread_bindings)
        handle = self.create_operator_task(instance.node, instance.cls.qualname, final)
        if not isinstance(handle, TaskHandles):
            return
        instance.task = handle
        for index in handle.indexes:
            task = self.tasks[index]
            task.constructed = True
            for attr, reason in instance.pending.items():
                task.overridden.setdefault(attr, reason)

    def call_instance_method(
        self,
        node: cst.Call,
        instance: Instance,
        name: str,
        positional: list[Binding],
        arguments: CallArguments,
    ) -> Binding:
        """``self.helper(...)`` in ``__init__``: run the class's own method, else give up on
        what it may set on the task."""
        for klass in instance.chain[:-1]:
            assert isinstance(klass, LocalClass)
            method = klass.attributes.get(name)
            if isinstance(method, Function) and method.node is not None:
                return self.call_function(node, method, [instance, *positional], arguments)
            if method is not None:
                break
        if instance.dag is not None:  # ``self.add_task(...)`` of Airflow's DAG
            return self.call_method(node, BoundMethod(instance.dag, name), positional, arguments)
        self.instance_escaped(instance, f"self.{name}() is not followed")
        self.escape(positional, arguments, f"it is passed to self.{name}()")
        return Unknown(f"result of calling self.{name}()")

    def store_on_instance(
        self, instance: Instance, attr: str, value: Binding, written: str
    ) -> None:
        """``self.x = ...`` in ``__init__``: on the task once it exists; before, Airflow's base
        overwrites the fields it assigns, and any other routing field is not known."""
        if instance.builds_dag:
            if instance.dag is not None:
                self.store_attribute(instance.dag, attr, value, written)
        elif instance.task is not None:
            self.store_attribute(instance.task, attr, value, written)
        elif attr in ROUTING_ATTRIBUTES and attr not in ASSIGNED_BY_BASE:
            instance.pending[attr] = Unknown(f"'{written}' is set before the operator is built")

    def instance_escaped(self, instance: Instance, why: str) -> None:
        """Code the walk does not follow got ``self``: it may set any routing field."""
        if instance.builds_dag:
            return  # (a DAG: what such code builds is named by DRL106 where it is called)
        if instance.task is None:
            for attr in ROUTING_ATTRIBUTES:
                if attr not in ASSIGNED_BY_BASE:
                    instance.pending[attr] = Unknown(why)
            return
        for index in instance.task.indexes:
            for attr in ROUTING_ATTRIBUTES:
                self.tasks[index].overridden[attr] = Unknown(why)


def plain_init(init: Function) -> bool:
    """An ``__init__`` the walk can run as written: no decorator that may wrap it."""
    assert init.node is not None
    for decorator in init.node.decorators:
        expression = decorator.decorator
        name = expression.value if isinstance(expression, cst.Name) else None
        if name not in NO_OP_DECORATORS:
            return False
    return True


def class_body_routing(chain: tuple[Binding, ...]) -> dict[str, Unknown]:
    """Routing fields a class body binds that Airflow's base does not overwrite (a class
    attribute ``deferrable``, a ``queue`` property): not known."""
    found: dict[str, Unknown] = {}
    for klass in chain[:-1]:
        assert isinstance(klass, LocalClass)
        for attr in ROUTING_ATTRIBUTES:
            bound = klass.attributes.get(attr)
            if bound is None or attr in found:
                continue
            if attr not in ASSIGNED_BY_BASE or not isinstance(bound, (*EXPR_TYPES, *CONTAINERS)):
                found[attr] = Unknown(f"class {klass.qualname} sets '{attr}' in its body")
    return found


def flattened(arguments: CallArguments) -> CallArguments:
    """``f(a=1, **kwargs)`` with ``kwargs`` a dict of literal keys: every keyword by name, so
    that ``task_id``, ``dag`` and ``task_group`` are read as the call passes them."""
    named: dict[str, Expr] = {}
    bindings: dict[str, Binding] = {}
    spreads: list[Expr] = []
    spread_bindings: list[Binding] = []
    for spread, binding in zip(arguments.spreads, arguments.spread_bindings, strict=False):
        items = dict_items(binding)
        if items is None:
            spreads.append(spread)
            spread_bindings.append(binding)
            continue
        for key, value in items.items():
            named[key] = snapshot(value)
            bindings[key] = value
    if len(arguments.spread_bindings) != len(arguments.spreads):
        return arguments
    named.update(arguments.named)
    bindings.update(arguments.bindings)
    return CallArguments(
        named, tuple(spreads), bindings, dict(arguments.nodes), tuple(spread_bindings)
    )


def dict_items(value: Binding, depth: int = 0) -> dict[str, Binding] | None:
    """The string-keyed items a dict object holds, when every change to it is decided."""
    if not isinstance(value, DictObject) or value.spoiled is not None or depth > MAX_CALL_DEPTH:
        return None
    items: dict[str, Binding] = {}
    for kind, key, item in value.parts:
        if kind == SPREAD:
            inner = expr_items(item) if isinstance(item, DictExpr) else dict_items(item, depth + 1)
            if inner is None:
                return None
            items.update(inner)
            continue
        if not isinstance(key, Const) or not isinstance(key.value, str):
            return None
        if kind == SET:
            items[key.value] = item
        elif kind == DEFAULT:
            items.setdefault(key.value, item)
        elif kind == REMOVE:
            items.pop(key.value, None)
    return items


def expr_items(value: DictExpr) -> dict[str, Binding] | None:
    """The items of a dict value written with literal string keys only."""
    items: dict[str, Binding] = {}
    for key, item in value.parts:
        if not isinstance(key, Const) or not isinstance(key.value, str):
            return None
        items[key.value] = item
    return items
