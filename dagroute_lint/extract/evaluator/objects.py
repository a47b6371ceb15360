"""Plain classes of the repository: instances whose attributes the walk follows.

``Settings("prod")`` of a class that holds configuration runs the class's ``__init__`` with
``self`` bound to a new object, so that ``self.queue = "q_" + env`` is seen later as
``settings.queue``; reading an attribute the instance does not hold finds the class's (a class
attribute, a method run with ``self``). The object is shared by every name bound to it, so a
store through an alias is seen through all of them; code the walk does not follow that is given
the object (or one of its methods) makes every attribute unknown (``containers.spoil``).

Only a class the walk can reproduce is followed: written without a decorator or ``metaclass=``,
single inheritance through classes of the repository, no ``super()`` in its body, and none of
the hooks that change what ``obj.x`` reads or stores (``__getattr__``, ``__setattr__``,
``__new__``...). Any other class keeps the old reading: an instance whose attributes are not
known.
"""

from __future__ import annotations

from typing import TypeGuard

import libcst as cst

from dagroute_lint.extract.bindings import (
    Binding,
    BoundMethod,
    CallArguments,
    EnumMember,
    Function,
    LocalClass,
    Record,
)
from dagroute_lint.extract.containers import CONTAINERS, EXPR_TYPES
from dagroute_lint.extract.evaluator.state import MAX_CALL_DEPTH, WalkerState
from dagroute_lint.model import Unknown

# Hooks that make an attribute read or store run code the walk does not model.
ATTRIBUTE_HOOKS = frozenset(
    {
        "__new__", "__getattr__", "__getattribute__", "__setattr__", "__delattr__",
        "__init_subclass__", "__class_getitem__", "__slots__",
    }
)  # fmt: skip
# Bases that add no attribute and no ``__init__`` of their own.
PLAIN_BASES = frozenset({"builtins.object"})
# What a class attribute read through an instance gives as it is (no descriptor among them).
CLASS_VALUES = (*EXPR_TYPES, *CONTAINERS, EnumMember, LocalClass, Record)


class Objects(WalkerState):
    def build_object(
        self,
        node: cst.Call,
        cls: LocalClass,
        positional: list[Binding],
        arguments: CallArguments,
    ) -> Binding | None:
        """The instance ``cls(...)`` makes, its ``__init__`` run; ``None`` when the walk
        cannot reproduce the class (its instance is then not known)."""
        chain = object_chain(cls)
        if chain is None:
            return None
        instance = Record(cls, {}, self.uncertain)
        init = class_lookup(chain, "__init__")
        if init is None:
            if positional or arguments.bindings or arguments.spreads:
                return Unknown(f"a call of {cls.qualname} that Python refuses")
            return instance
        if not runnable(init):
            return None
        self.call_function(node, init, [instance, *positional], arguments)
        return instance

    def object_attribute(self, instance: Record, attr: str) -> Binding:
        """``obj.x`` that the instance does not hold: the class's, as Python looks it up."""
        chain = object_chain(instance.cls)
        if chain is None:  # (a hook assigned to the class since)
            return Unknown(f"attribute '{attr}' of {instance.cls.qualname}, changed since")
        found = class_lookup(chain, attr)
        if runnable(found):
            return BoundMethod(instance, attr)
        if isinstance(found, CLASS_VALUES):
            return found
        if found is None:
            return Unknown(f"attribute '{attr}' of an instance of {instance.cls.qualname}")
        return Unknown(f"'{attr}' of {instance.cls.qualname} is a method or property not run")

    def call_object_method(
        self,
        node: cst.Call,
        instance: Record,
        name: str,
        positional: list[Binding],
        arguments: CallArguments,
    ) -> Binding | None:
        """``obj.method(...)``: the class's own method run with ``self``; ``None`` when the
        instance holds no such method."""
        if instance.cls.fields is not None or name in instance.values:
            return None
        method = class_lookup(object_chain(instance.cls) or (), name)
        if not runnable(method):
            return None
        return self.call_function(node, method, [instance, *positional], arguments)


def object_chain(cls: LocalClass) -> tuple[LocalClass, ...] | None:
    """``cls`` and its bases, in Python's lookup order, when each is a plain class of the
    repository with one base at most; ``None`` when the walk cannot reproduce the class."""
    chain: list[LocalClass] = []
    current: Binding | None = cls
    while current is not None:
        if (
            not isinstance(current, LocalClass)
            or not current.plain
            or current.operator
            or current.dag
            or current.enum
            or current.fields is not None
            or current.info is None
            or len(chain) > MAX_CALL_DEPTH
            or ATTRIBUTE_HOOKS & set(current.attributes)
        ):
            return None
        chain.append(current)
        bases = [
            value
            for value, name in zip(current.bases, current.info.bases, strict=False)
            if name not in PLAIN_BASES
        ]
        if len(current.bases) != len(current.info.bases) or len(bases) > 1:
            return None
        current = bases[0] if bases else None
    return tuple(chain)


class _SuperMention(cst.CSTVisitor):
    """Whether a tree names ``super`` (a visitor: ``libcst.matchers`` costs 170 ms to import,
    more than the rest of a one-file run)."""

    def __init__(self) -> None:
        self.found = False

    def visit_Name(self, node: cst.Name) -> None:
        self.found = self.found or node.value == "super"


def calls_super(node: cst.ClassDef) -> bool:
    """Whether the class body mentions ``super``: the next class's method would then run
    with ``self``, which the walk does not follow for plain classes."""
    mention = _SuperMention()
    node.body.visit(mention)
    return mention.found


def runnable(found: Binding | None) -> TypeGuard[Function]:
    """Whether a class attribute is a method the walk runs with ``self``: a function of this
    file without a decorator (a ``staticmethod``, a ``property`` would run otherwise)."""
    return isinstance(found, Function) and found.node is not None and not found.node.decorators


def class_lookup(chain: tuple[LocalClass, ...], attr: str) -> Binding | None:
    for klass in chain:
        if attr in klass.attributes:
            return klass.attributes[attr]
    return None
