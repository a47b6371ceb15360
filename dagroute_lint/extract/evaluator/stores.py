"""Stores: binding names, item and attribute assignment, and what an unfollowed store spoils."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import libcst as cst
from libcst.helpers import get_full_name_for_node

from dagroute_lint.catalog import airflow_names as names
from dagroute_lint.extract.bindings import (
    REMOVE,
    SET,
    SPREAD,
    Binding,
    DagHandle,
    DictObject,
    Imported,
    Instance,
    ListObject,
    LocalClass,
    Record,
    SetObject,
    TaskHandles,
)
from dagroute_lint.extract.containers import (
    EXPR_TYPES,
    list_index,
    record_items,
    snapshot,
    spoil,
)
from dagroute_lint.extract.evaluator.helpers import (
    NOT_TASKS,
)
from dagroute_lint.extract.evaluator.state import (
    Scope,
    WalkerState,
)
from dagroute_lint.model import (
    Const,
    DictExpr,
    Expr,
    Operation,
    Ref,
    SeqExpr,
    Subscript,
    Unknown,
)


class Stores(WalkerState):
    def bind(self, target: cst.BaseExpression, value: Binding) -> None:
        if isinstance(target, cst.Name):
            scope = self.scope.module if target.value in self.scope.declared else self.scope
            scope.names[target.value] = value
        elif isinstance(target, (cst.Tuple, cst.List)):
            elements = [element.value for element in target.elements]
            items: Sequence[Binding] | None = None
            if isinstance(value, SeqExpr) or (
                isinstance(value, ListObject) and value.spoiled is None
            ):
                items = value.items
            elif isinstance(value, Record):  # a named tuple unpacked
                items = record_items(value)
            if items is not None and len(items) == len(elements):
                for element, item in zip(elements, items):
                    self.bind(element, item)
            else:
                for element in elements:
                    self.bind(element, Unknown("unpacked from a value that is not a literal"))
        elif isinstance(target, cst.Attribute):
            self.bind_attribute(target, value)
        elif isinstance(target, cst.Subscript):
            self.store_item(target, value)

    def store_item(self, target: cst.Subscript, value: Binding | None) -> None:
        """``x[k] = value`` (``None``: ``del x[k]``) on the object ``x`` holds."""
        if isinstance(value, DagHandle) and _is_globals(target.value, self.scope.lookup("globals")):
            self.dags[value.index].registered = True  # ``globals()[name] = make_dag(name)``
            return
        container = self.container_of(target.value)
        key: Binding = Unknown("a slice")
        if len(target.slice) == 1 and isinstance(target.slice[0].slice, cst.Index):
            key = self.value_of(target.slice[0].slice.value)
        if isinstance(container, Imported) and container.qualname == names.ENVIRON:
            self.environ_changed(key, value)
            return
        if isinstance(container, DictObject):
            self.change(
                container,
                lambda: container.parts.append(
                    (SET, key, value) if value is not None else (REMOVE, key, Const(None))
                ),
            )
            return
        if isinstance(container, ListObject):
            index = list_index(key, len(container.items))
            if value is not None and index is not None:
                position, item = index, value
                self.change(container, lambda: container.items.__setitem__(position, item))
            else:
                spoil(container, "a list changed by item assignment or deletion")
            return
        self.store_unknown(target.value, "an item of it is assigned")

    def container_of(self, node: cst.BaseExpression) -> Binding:
        """The object an expression stores into; an imported dict becomes this file's object."""
        current = self.value_of(node)
        if isinstance(current, Imported) and current.qualname == names.ENVIRON:
            return current  # the process's, changed through ``environ_changed``
        if isinstance(current, (Imported, DictExpr, Ref, Subscript, Operation)):
            return self.adopt(current)
        return current

    def adopt(self, value: Imported | Expr) -> DictObject:
        """A dict that is a value rather than an object of this walk (imported from another
        module, folded from elsewhere), changed here: every name bound to it now holds one
        object made of that value and this file's changes."""
        adopted = DictObject([(SPREAD, None, snapshot(value))], self.uncertain)
        scope: Scope | None = self.scope
        while scope is not None:
            for name, bound in scope.names.items():
                if bound is value or (isinstance(value, Imported) and bound == value):
                    scope.names[name] = adopted
            scope = scope.parent
        return adopted

    def store_unknown(self, node: cst.BaseExpression, what: str) -> None:
        """A store into something not modelled: every container reachable from its root name
        may be what changed."""
        root = node
        while isinstance(root, (cst.Subscript, cst.Attribute, cst.Call)):
            root = root.value if not isinstance(root, cst.Call) else root.func
        if isinstance(root, cst.Name):
            bound = self.scope.lookup(root.value)
            if bound is not None:
                written = get_full_name_for_node(node) or root.value
                reason = f"'{written}' cannot be followed: {what}"
                spoil(bound, reason)
                if isinstance(bound, EXPR_TYPES) and not isinstance(bound, Unknown):
                    self.bind(root, Unknown(reason))  # a value: the name no longer holds it

    def change(
        self, container: DictObject | ListObject | SetObject, apply: Callable[[], object]
    ) -> None:
        """Apply a change to a container, or spoil it when the change happens under a condition
        the walk cannot decide (the container may or may not have changed)."""
        if container.spoiled is not None:
            return
        if self.uncertain > container.level:
            spoil(container, "changed under a condition that cannot be decided statically")
            return
        apply()
        container.version += 1

    def extend(self, container: ListObject, items: Binding) -> None:
        if (isinstance(items, ListObject) and items.spoiled is None) or isinstance(items, SeqExpr):
            added = list(items.items)
        elif isinstance(items, TaskHandles):
            added = [TaskHandles((index,)) for index in items.indexes]
        else:
            spoil(container, "a list extended with a value that is not a literal sequence")
            return
        self.change(container, lambda: container.items.extend(added))

    def bind_attribute(self, target: cst.Attribute, value: Binding) -> None:
        written = get_full_name_for_node(target) or target.attr.value
        self.store_attribute(self.value_of(target.value), target.attr.value, value, written)

    def store_attribute(self, owner: Binding, attr: str, value: Binding, written: str) -> None:
        """``task.queue = ...`` after construction wins over everything (semantics §1.1).

        Under a condition the walk cannot decide, the task may keep its value or take the new
        one: unresolved. A store on an object the walk does not know may reach any task built
        so far, so each of them gets the attribute unresolved.
        """
        if isinstance(owner, Instance):
            self.store_on_instance(owner, attr, value, written)
            return
        if isinstance(owner, Record):
            self.store_on_record(owner, attr, value, written)
            return
        if isinstance(owner, TaskHandles):
            if attr == "dag" and isinstance(value, DagHandle):
                self.attach(owner, value.index)
                return
            for index in owner.indexes:
                task = self.tasks[index]
                if self.uncertain > task.level:
                    reason = f"'{written}' is assigned under a condition that cannot be decided"
                    task.overridden[attr] = Unknown(reason)
                else:
                    task.overridden[attr] = snapshot(value)
            return
        if isinstance(owner, DagHandle):
            if attr == "default_args":
                defaults = self.dag_defaults(owner.index)
                replaced = snapshot(value)
                self.change(
                    defaults,
                    lambda: defaults.parts.__setitem__(slice(None), [(SPREAD, None, replaced)]),
                )
            return
        if isinstance(owner, LocalClass) and not owner.enum:
            self.store_on_class(owner, attr, value, written)
            return
        if isinstance(owner, NOT_TASKS):
            return
        reason = f"'{written} = ...' assigns to an object that cannot be followed, maybe this task"
        for task in self.tasks:
            task.overridden[attr] = Unknown(reason)

    def store_on_class(self, cls: LocalClass, attr: str, value: Binding, written: str) -> None:
        """``Settings.queue = ...``: the class attribute its instances (and the class) read
        from now on; under a condition not decided, it may keep its old value."""
        if self.uncertain:
            value = Unknown(f"'{written}' is assigned under a condition that cannot be decided")
        cls.attributes[attr] = value

    def qualify(self, name: str) -> str:
        return f"{self.module_name}.{name}" if self.module_name else name


def _is_globals(node: cst.BaseExpression, shadowed: object) -> bool:
    return (
        shadowed is None
        and isinstance(node, cst.Call)
        and isinstance(node.func, cst.Name)
        and node.func.value == "globals"
    )
