"""What a name can be bound to while a DAG file is walked: a value, an import, an Airflow object."""

from __future__ import annotations

import re
from dataclasses import field

import libcst as cst

from dagroute_lint.model import ClassInfo, Const, Expr, Unknown
from dagroute_lint.records import record


@record
class Imported:
    """A module or a module attribute bound by an import, by qualified name."""

    qualname: str


@record
class DagHandle:
    index: int


@record
class GroupHandle:
    index: int


@record
class TaskHandles:
    """One task (an operator or a TaskFlow call's XComArg) or a list of them."""

    indexes: tuple[int, ...]


@record(eq=False)
class Function:
    """A function: its body's imports run wherever it is used as a ``python_callable``.

    ``node`` is ``None`` for a function imported from another module (its body is not read);
    ``closure`` is the scope it was defined in, which its body sees when it is called;
    ``defaults`` are its parameters' defaults, evaluated where it was defined, as Python does.
    """

    node: cst.FunctionDef | None
    qualname: str
    closure: object = None
    defaults: dict[str, Binding] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.qualname.rsplit(".", 1)[-1]


@record
class CallArguments:
    """Keyword arguments as written, with the bindings needed to follow ``dag=``/``task_group=``.

    ``spread_bindings`` are the objects behind ``spreads``: a decorator keeps the very dicts it
    was given, so ``@dag(default_args=ARGS)`` sees changes made to ``ARGS`` before the call.
    """

    named: dict[str, Expr] = field(default_factory=dict)
    spreads: tuple[Expr, ...] = ()
    bindings: dict[str, Binding] = field(default_factory=dict)
    nodes: dict[str, cst.CSTNode] = field(default_factory=dict)
    spread_bindings: tuple[Binding, ...] = ()

    def merged(self, other: CallArguments) -> CallArguments:
        """``other`` on top of ``self``, as ``.override()`` merges into decorator kwargs."""
        return CallArguments(
            named={**self.named, **other.named},
            spreads=self.spreads + other.spreads,
            bindings={**self.bindings, **other.bindings},
            nodes={**self.nodes, **other.nodes},
            spread_bindings=self.spread_bindings + other.spread_bindings,
        )


@record(eq=False)
class TaskDecorator:
    """``task``, ``task.<kind>`` or either called with operator kwargs, not yet applied."""

    kind: str
    arguments: CallArguments


@record(eq=False)
class TaskFlow:
    """A ``@task`` function, maybe after ``.override()`` or ``.partial()``, ready to be called."""

    function: Function
    kind: str
    arguments: CallArguments
    partial_keys: tuple[str, ...] = ()
    is_partial: bool = False


@record(eq=False)
class DagFactory:
    """An ``@dag`` function: calling it builds the DAG (``function`` is None for ``dag(...)``)."""

    function: Function | None
    arguments: CallArguments


@record(eq=False)
class GroupFactory:
    """A ``@task_group`` function: calling it builds the group inside the current DAG.

    ``partial``: the function arguments ``.partial(...)`` bound, passed as they are when
    ``.expand(...)`` builds the mapped group (Airflow's ``_TaskGroupFactory.partial``)."""

    function: Function | None
    arguments: CallArguments
    partial: dict[str, Binding] = field(default_factory=dict)


@record(eq=False)
class OperatorPartial:
    """``Operator.partial(...)``, waiting for ``.expand()``."""

    operator: str
    arguments: CallArguments
    node: cst.CSTNode


@record(eq=False)
class AssetDecorator:
    """``asset(...)`` waiting for its function: decorating one builds a DAG with one task."""

    arguments: CallArguments


@record(eq=False)
class LocalClass:
    """A class defined in the file, by qualified name (custom operators, constant holders).

    ``attributes`` are what its body binds (``class QUEUE: SNAP = "snap"``); ``enum`` marks an
    ``Enum``, whose attributes are members (``.value`` is the literal); ``info`` is what it may
    do to tasks built from it; ``operator`` whether calling it can build a task at all; ``dag``
    marks a subclass of ``DAG``: calling it builds a DAG, whose own code is not run. ``bases``
    are what its base expressions evaluated to (a class of the repository, an import).
    ``fields``: for a dataclass or a ``NamedTuple``, its fields in order (``None`` otherwise);
    ``frozen``: its instances cannot be changed (a ``NamedTuple``, ``@dataclass(frozen=True)``);
    ``sequence``: its instances are tuples (a ``NamedTuple``, ``collections.namedtuple``);
    ``plain``: written without a decorator or a ``metaclass=``, so calling it runs its own
    ``__init__`` and nothing else of the class's.
    """

    qualname: str
    info: ClassInfo | None = None
    attributes: dict[str, Binding] = field(default_factory=dict)
    enum: bool = False
    operator: bool = True
    dag: bool = False
    bases: tuple[Binding, ...] = ()
    fields: tuple[str, ...] | None = None
    frozen: bool = False
    sequence: bool = False
    plain: bool = False


@record(eq=False)
class Partial:
    """``functools.partial(callee, *positional, **arguments)``: calling it calls ``callee``."""

    callee: Binding
    positional: tuple[Binding, ...]
    arguments: CallArguments


@record
class EnumMember:
    """``Color.RED`` of an ``Enum`` of the repository: its ``.value`` and ``.name`` are known.

    Members are singletons, so two are the same member when class and name are (``owner``,
    ``name``). ``plain``: the class derives from ``enum.Enum`` alone, so a member equals no
    other value (an ``IntEnum`` or ``str``-mixin member equals its value): only those are
    dict keys and set elements here.
    """

    name: str
    value: Binding = field(compare=False)
    owner: str = ""
    plain: bool = field(default=False, compare=False)


@record(frozen=False, eq=False)
class Record:
    """An instance of a dataclass, a ``NamedTuple`` or a plain class of the repository: the
    attributes set on it (a record's fields, what a plain class's ``__init__`` assigns).

    One object shared by every name bound to it, like ``DictObject``: a store through an alias
    is seen through all of them. ``level`` is how many undecided conditions surrounded its
    creation: an attribute assigned under a further one is no longer known; ``spoiled`` says
    why no attribute can be known any more (code the walk does not follow was given it)."""

    cls: LocalClass
    values: dict[str, Binding]
    level: int = 0
    spoiled: Unknown | None = None


@record(frozen=False, eq=False)
class Instance:
    """``self`` while a repository operator class's ``__init__`` runs (the call ``node`` builds
    one task): ``task`` once Airflow's base ``__init__`` has built it. ``chain`` is the class and
    its bases up to the first one not of the repository (single inheritance only); ``pending``
    routing fields its code may have set before the task existed, with why. For a subclass of
    ``DAG`` (``builds_dag``), ``dag`` is the DAG once Airflow's ``DAG.__init__`` has built it."""

    chain: tuple[Binding, ...]
    node: cst.Call
    arguments: CallArguments
    task: TaskHandles | None = None
    pending: dict[str, Unknown] = field(default_factory=dict)
    dag: DagHandle | None = None
    builds_dag: bool = False

    @property
    def cls(self) -> LocalClass:
        first = self.chain[0]
        assert isinstance(first, LocalClass)
        return first


@record(eq=False)
class Super:
    """``super()`` in the ``__init__`` of ``after`` (a class of ``instance.chain``)."""

    instance: Instance
    after: LocalClass


@record
class Pattern:
    """``re.compile(...)`` of a literal pattern: its methods are computed on known strings."""

    pattern: str
    flags: int


@record(eq=False)
class RegexMatch:
    """What ``re.match``/``re.search`` found in a known string: ``.group(...)`` is known."""

    match: re.Match[str]


# How a dict part was written: ``d[k] = v``, ``**v``, ``del d[k]`` or ``d.pop(k)``,
# ``d.setdefault(k, v)``.
SET, SPREAD, REMOVE, DEFAULT = "set", "spread", "remove", "default"


@record(frozen=False, eq=False)
class DictObject:
    """A dict built while walking: one object shared by every name bound to it, so that a change
    made through one name (``args = BASE; args["queue"] = ...``) is seen through all of them.

    ``parts`` are ``(kind, key, value)`` in the order they happened; ``level`` is how many
    undecided conditions surrounded its creation, so that a change under a further condition
    spoils it; ``spoiled`` says why its contents can no longer be known; ``version`` counts
    changes, so that a task can tell whether its DAG's ``default_args`` changed since.
    """

    parts: list[tuple[str, Binding | None, Binding]]
    level: int = 0
    spoiled: Unknown | None = None
    version: int = 0


@record(frozen=False, eq=False)
class ListObject:
    """A list or tuple built while walking, shared like ``DictObject``.

    ``unordered``: why the order of ``items`` is not Python's (a folder's listing, in the file
    system's order, which differs between machines): it is iterated (a loop builds the same
    tasks in any order) and sorted, but never indexed, enumerated or zipped. ``iterator`` names
    the call that made it when Python's value is an iterator (``zip()``, ``enumerate()``,
    ``itertools.product()``): iterating it once empties it (``containers.consume``).
    """

    items: list[Binding]
    level: int = 0
    spoiled: Unknown | None = None
    version: int = 0
    unordered: str | None = None
    iterator: str | None = None


@record(frozen=False, eq=False)
class SetObject:
    """A set of literals built while walking (``HEAVY = {"a", "b"}``), shared like ``DictObject``.

    ``values`` maps each element's value to its literal: a dict keyed by the value dedupes as
    Python's set does (``1``, ``1.0`` and ``True`` are one element). Its iteration order is not
    Python's (string hashing is randomised per process), which no routing value depends on; a
    set is never a routing value itself.
    """

    values: dict[object, Const | EnumMember]
    level: int = 0
    spoiled: Unknown | None = None
    version: int = 0


# A release's parts, ``None`` for a part not known (``(3, 3, None)``: Airflow 3.3.<micro>).
Release = tuple[int | None, ...]


@record
class VersionValue:
    """A version whose ``release`` parts are known up to the first ``None``: the version string
    (``text``, e.g. Airflow's ``3.3.<micro>``) or a ``packaging.version.Version``. A string whose
    parts are all known is a plain ``Const`` instead, so every string method works on it
    (``extract/versions.py``)."""

    release: Release
    text: bool


@record(eq=False)
class BoundMethod:
    """``obj.name`` where ``obj`` is an object we model, waiting to be called."""

    target: Binding
    name: str


Binding = (
    Expr
    | Imported
    | DagHandle
    | GroupHandle
    | TaskHandles
    | Function
    | TaskDecorator
    | TaskFlow
    | DagFactory
    | GroupFactory
    | OperatorPartial
    | AssetDecorator
    | LocalClass
    | BoundMethod
    | DictObject
    | ListObject
    | SetObject
    | EnumMember
    | Partial
    | Instance
    | Super
    | Record
    | VersionValue
    | Pattern
    | RegexMatch
)
