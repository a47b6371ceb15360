"""The walk's shared state: bounds, model drafts, scopes, and what each part offers the others."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import field

import libcst as cst

from dagroute_lint.deployment.parse_environment import ParseEnvironment
from dagroute_lint.extract.bindings import (
    AssetDecorator,
    Binding,
    BoundMethod,
    CallArguments,
    DagFactory,
    DagHandle,
    DictObject,
    Function,
    GroupFactory,
    GroupHandle,
    Imported,
    Instance,
    ListObject,
    LocalClass,
    Record,
    Release,
    SetObject,
    Super,
    TaskFlow,
    TaskHandles,
)
from dagroute_lint.extract.containers import (
    snapshot,
)
from dagroute_lint.model import (
    ClassInfo,
    Expr,
    OperationName,
    Source,
    Unknown,
)
from dagroute_lint.records import record
from dagroute_lint.sources.data_files import DataFiles

# Bounds that keep a hostile or generated file from making the walk unbounded. A loop is
# bounded by the work left for the file (``MAX_WORK``), not by its length: 3,000 tasks made by
# one loop are as fine as 50 loops of 60; ``MAX_LOOP_ITERATIONS`` bounds what library calls
# (``itertools``) build in one result.
MAX_LOOP_ITERATIONS = 1000
MAX_TASKS = 20000
MAX_CALL_DEPTH = 12
# Other modules a file's calls may lead into.
MAX_FOREIGN_MODULES = 16
MAX_EXPRESSION_DEPTH = 48
# Statements walked per file, loops unrolled and calls followed included.
MAX_WORK = 200_000

IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})


# --- drafts: mutable while walking, frozen into the model at the end ---------------------------


# Operators folded by ``symbols``; ``|`` (dict union) is built as a dict of two spreads.
ARITHMETIC: dict[type[cst.CSTNode], OperationName] = {
    cst.Add: "add",
    cst.Modulo: "mod",
    cst.Multiply: "mul",
}
AUGMENTED: dict[type[cst.CSTNode], type[cst.CSTNode]] = {
    cst.AddAssign: cst.Add,
    cst.ModuloAssign: cst.Modulo,
    cst.MultiplyAssign: cst.Multiply,
    cst.BitOrAssign: cst.BitOr,
}


@record(frozen=False)
class DraftDag:
    """``defaults`` is the DAG's own copy of ``default_args``, made when ``dag.default_args`` is
    used (to change it); ``snapshots`` caches its contents per version for the tasks built.
    ``arguments``: the keywords Airflow's own ``DAG`` (or ``@dag``) is called with; ``None`` for
    a DAG a repository subclass builds, whose ``__init__`` may take other keywords.
    ``registered``: Airflow certainly collects it (a ``with`` block, a ``@dag`` call, a store
    into ``globals()``); otherwise only if a module-level name holds it at the end."""

    dag_id: Expr
    node: cst.CSTNode
    default_args: Expr | None
    registered: bool = False
    arguments: CallArguments | None = None
    defaults: DictObject | None = None
    level: int = 0
    snapshots: dict[int, Expr | None] = field(default_factory=dict)

    def current_defaults(self) -> tuple[int, Expr | None]:
        if self.defaults is None:
            return 0, self.default_args
        version = self.defaults.version
        if version not in self.snapshots:
            self.snapshots[version] = snapshot(self.defaults)
        return version, self.snapshots[version]


@record(frozen=False)
class DraftGroup:
    group_id: Expr
    node: cst.CSTNode
    dag: int | None
    parent: int | None
    default_args: Expr | None
    prefix_group_id: Expr
    suffix_on_collision: bool = False
    created: int = 0
    level: int = 0
    exit_task: tuple[str, str] | None = None  # ``names.GROUP_EXIT_TASKS``: made on leaving


@record(frozen=False)
class DraftTask:
    task_id: Expr
    node: cst.CSTNode
    operator: str | None
    dag: int | None
    group: int | None
    arguments: CallArguments
    applies_default_args: bool
    taskflow: str | None = None
    mapped: bool = False
    expand_keys: tuple[str, ...] = ()
    partial_keys: tuple[str, ...] = ()
    imports: list[DraftImport] = field(default_factory=list)
    overridden: dict[str, Expr] = field(default_factory=dict)
    dag_defaults: tuple[int, Expr | None] = (0, None)
    level: int = 0
    positional: int = 0
    wrapped: bool = False
    constructed: bool = False
    created: int = 0
    group_expanded: tuple[str, ...] = ()


@record(frozen=False)
class DraftImport:
    module: str
    node: cst.Import | cst.ImportFrom
    scope: str
    guarded: bool


class Jump(Exception):
    """``break``, ``continue`` or ``return`` reached: unwinds the walk to the loop or function."""

    def __init__(self, kind: str, value: Binding | None = None) -> None:
        super().__init__(kind)
        self.kind = kind
        self.value = value


class Scope:
    """Name bindings of one function or of the module, chained to the enclosing scope."""

    def __init__(
        self,
        parent: Scope | None = None,
        declared: frozenset[str] = frozenset(),
        class_body: bool = False,
    ) -> None:
        self.names: dict[str, Binding] = {}
        self.parent = parent
        # A class body's names are not seen by the functions defined in it.
        self.class_body = class_body
        # Names the function declares ``global``: assigning them rebinds its module's.
        self.declared = declared
        # ``None`` in the module's own scope: a reference to itself would make every module
        # scope a reference cycle, which only the cyclic collector frees, and a run keeps that
        # rare (``pipeline/collector``): in the language server they piled up with every lint.
        self._module = parent.module if parent is not None else None

    @property
    def module(self) -> Scope:
        """The scope of the module this one is in (itself, for the module's)."""
        return self if self._module is None else self._module

    def enclosing(self) -> Scope:
        """The scope a function defined here sees: a class body is skipped, as Python does."""
        scope = self
        while scope.class_body and scope.parent is not None:
            scope = scope.parent
        return scope

    def lookup(self, name: str) -> Binding | None:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None


class WalkerState(ABC):
    """What every part of the walk shares."""

    def __init__(
        self,
        module_name: str,
        is_package: bool,
        path: str,
        externals: Mapping[str, Expr],
        sources: Mapping[str, Source] | None = None,
        airflow_release: Release | None = None,
        data_files: DataFiles | None = None,
        parse_environment: ParseEnvironment | None = None,
    ) -> None:
        self.module_name = module_name
        # Airflow's release on the deployment, from the inventory (``extract/versions.py``).
        self.airflow_release = airflow_release
        self.is_package = is_package
        self.path = path
        self.externals = externals
        self.loop_refs: list[str] = []
        # Repository modules whose functions the file calls (``Module.call_refs``), and their
        # sources when the caller gave them: those functions are run like the file's own.
        self.call_refs: list[str] = []
        self.sources: Mapping[str, Source] = sources or {}
        self.foreign_scopes: dict[str, Scope | None] = {}
        # The call in this file that runs another module's code: what its tasks are placed at.
        self.foreign_site: cst.CSTNode | None = None
        # Every scope the walk made, this file's and the modules' it ran, for ``release``.
        self.scopes: list[Scope] = []
        self.module_scope = self.new_scope()
        self.scope = self.module_scope
        self.dags: list[DraftDag] = []
        self.groups: list[DraftGroup] = []
        self.tasks: list[DraftTask] = []
        self.made = 0  # tasks and groups made so far: their ``created`` order
        self.imports: list[DraftImport] = []
        self.dag_stack: list[int] = []
        self.group_stack: list[int] = []
        self.guarded = False
        self.call_depth = 0
        # How many functions being run carry a decorator the walk did not recognise (it runs
        # them as plain functions, though the decorator may wrap them in a TaskGroup).
        self.wrapped_depth = 0
        self.work = 0
        # Return values reached under an undecided condition, one list per function being run.
        self.returns: list[list[Binding]] = []
        # Places where tasks may be built that the walk could not follow, with why, by node.
        self.unmodelled: dict[int, tuple[cst.CSTNode, str]] = {}
        # Calls outside any DAG the walk did not follow, by node: what it said, and whether the
        # callee is named like a DAG builder (``create_dag``): see ``Module.no_dag_cause``.
        self.suspects: dict[int, tuple[cst.CSTNode, str, bool]] = {}
        # Instances of the repository's classes that build no task when made (``Pool(...)``):
        # the unknown each stands for, by identity, with its class, so its methods are run.
        self.class_instances: dict[int, tuple[Unknown, LocalClass]] = {}
        # Each unknown value the walk made, by identity, with the expression that first gave
        # it: where the model places its cause (``Unknown.at``, see ``extract/causes``).
        self.unknown_at: dict[int, tuple[Unknown, cst.CSTNode]] = {}
        # Calls of Airflow functions with keywords they do not take: node, callee, keywords, level.
        self.rejected_calls: dict[int, tuple[cst.CSTNode, str, tuple[str, ...], int]] = {}
        self.class_prefix = ""
        self.classes: dict[str, ClassInfo] = {}
        self.local_classes: dict[str, LocalClass] = {}
        # How many conditions the walk could not decide surround the current statement.
        self.uncertain = 0
        self.function_imports: dict[int, list[DraftImport]] = {}
        # The arguments mapped task groups expand (Airflow's ``MappedArgument``s), by identity.
        self.expanded_arguments: dict[int, Unknown] = {}
        # Operator ``__init__``s being run: the instance, whose class's, at which call depth.
        self.constructing: list[tuple[Instance, LocalClass, int]] = []
        # The repository's data files the walk may read (``extract.evaluator.files``), shared
        # with the modules it runs; the file objects ``open()`` gave, by identity, with paths.
        self.data_files = data_files if data_files is not None else DataFiles(())
        self.open_files: dict[int, tuple[Unknown, str]] = {}
        self.consumed_files: set[int] = set()  # read or closed: a second read gets less
        # Why the repository's files may have been changed by the walked code from some point on.
        self.files_written: str | None = None
        # Loops and comprehensions run over listings whose order is not known (so far).
        self.unordered_runs = 0
        # The deployment's environment and Variables, and what the walked code changed of them
        # (``evaluator.deployed``).
        self.parse_environment = parse_environment
        # ``os.environ`` as the walked code changed it: a name's text, ``None`` once removed, an
        # ``Unknown`` where the walk cannot follow the change (under a condition); and why
        # anything in it, or any Variable, may have changed from some point on.
        self.environ_changes: dict[str, str | Unknown | None] = {}
        self.environ_spoiled: str | None = None
        self.variables_spoiled: str | None = None
        # Whether a value came from the inventory; what the code first did to change them.
        self.deployment_read = False
        self.deployment_changed_by: str | None = None

    def new_scope(
        self,
        parent: Scope | None = None,
        class_body: bool = False,
        declared: frozenset[str] = frozenset(),
    ) -> Scope:
        scope = Scope(parent=parent, class_body=class_body, declared=declared)
        self.scopes.append(scope)
        return scope

    def unrollable(self, count: int) -> bool:
        """Whether a loop over ``count`` items can run to its end in the work left for the
        file (every iteration walks a statement at least): a longer one is unknown at once."""
        return count <= MAX_WORK - self.work

    def release(self) -> None:
        """Empty every scope once the file's model is built. A function's binding holds the
        scope it was defined in, which holds the function: a cycle that kept the function's
        syntax tree alive until a collection (see ``pipeline/collector``)."""
        for scope in self.scopes:
            scope.names.clear()
        self.scopes.clear()

    @abstractmethod
    def adopt(self, imported: Imported) -> DictObject: ...

    @abstractmethod
    def file_call(
        self, qualname: str, positional: list[Binding], arguments: CallArguments
    ) -> Binding | None: ...

    @abstractmethod
    def open_file(self, positional: list[Binding], arguments: CallArguments) -> Binding: ...

    @abstractmethod
    def file_method(
        self, node: cst.Call, callee: Binding, positional: list[Binding]
    ) -> Binding | None: ...

    @abstractmethod
    def path_method(self, path: str, name: str, positional: list[Binding]) -> Binding | None: ...

    @abstractmethod
    def wrote_files(self, reason: str) -> None: ...

    @abstractmethod
    def path_attribute(self, path: str, attr: str) -> Binding | None: ...

    @abstractmethod
    def attach(self, handles: TaskHandles, dag: int | None) -> None: ...

    @abstractmethod
    def bind(self, target: cst.BaseExpression, value: Binding) -> None: ...

    @abstractmethod
    def bind_attribute(self, target: cst.Attribute, value: Binding) -> None: ...

    @abstractmethod
    def bound_reached(self, node: cst.CSTNode, message: str) -> None: ...

    @abstractmethod
    def call_function(
        self,
        node: cst.Call,
        function: Function,
        positional: list[Binding],
        arguments: CallArguments,
    ) -> Binding: ...

    @abstractmethod
    def change(
        self, container: DictObject | ListObject | SetObject, apply: Callable[[], object]
    ) -> None: ...

    @abstractmethod
    def combine(
        self, operator: type[cst.CSTNode], left: Binding, right: Binding
    ) -> Binding | None: ...

    @abstractmethod
    def create_asset(
        self, node: cst.FunctionDef, decorator: AssetDecorator, target: Binding
    ) -> None: ...

    @abstractmethod
    def create_dag(
        self,
        node: cst.Call,
        positional: list[Binding],
        arguments: CallArguments,
        own_class: bool = False,
    ) -> DagHandle: ...

    @abstractmethod
    def create_dag_from_factory(self, node: cst.Call, factory: DagFactory) -> Binding: ...

    @abstractmethod
    def create_group_from_call(
        self, node: cst.Call, positional: list[Binding], arguments: CallArguments
    ) -> GroupHandle: ...

    @abstractmethod
    def create_group_from_factory(
        self, node: cst.Call, factory: GroupFactory, bound: dict[str, Binding] | None = None
    ) -> Binding: ...

    @abstractmethod
    def create_mapped_group(
        self, node: cst.Call, factory: GroupFactory, method: str, arguments: CallArguments
    ) -> Binding: ...

    @abstractmethod
    def create_operator_task(
        self,
        node: cst.Call,
        operator: str,
        arguments: CallArguments,
        mapped: bool = False,
        expand_keys: tuple[str, ...] = (),
    ) -> Binding: ...

    @abstractmethod
    def create_taskflow_task(
        self,
        node: cst.CSTNode,
        flow: TaskFlow,
        mapped: bool,
        expand_keys: tuple[str, ...] = (),
    ) -> Binding: ...

    @abstractmethod
    def dag_defaults(self, index: int) -> DictObject: ...

    @abstractmethod
    def escape(self, positional: list[Binding], arguments: CallArguments, why: str) -> None: ...

    @abstractmethod
    def deployed_call(
        self, qualname: str, positional: list[Binding], arguments: CallArguments
    ) -> Binding | None: ...

    @abstractmethod
    def environ_item(self, key: Binding) -> Binding: ...

    @abstractmethod
    def environ_has(self, key: Binding) -> bool | None: ...

    @abstractmethod
    def environ_changed(self, key: Binding, value: Binding | None) -> None: ...

    @abstractmethod
    def spoil_environ(self, reason: str) -> None: ...

    @abstractmethod
    def note_change(self, what: str) -> None: ...

    @abstractmethod
    def extend(self, container: ListObject, items: Binding) -> None: ...

    @abstractmethod
    def function_imports_of(self, function: Function) -> list[DraftImport]: ...

    @abstractmethod
    def inside_dag(self, index: int) -> AbstractContextManager[None]: ...

    @abstractmethod
    def iteration_items(self, value: Binding) -> list[Binding] | Unknown: ...

    @abstractmethod
    def iterated_value(self, node: cst.BaseExpression) -> Binding: ...

    @abstractmethod
    def maybe_operator(
        self, node: cst.Call, operator: str | None, arguments: CallArguments
    ) -> Binding: ...

    @abstractmethod
    def check_keywords(
        self, node: cst.Call, qualname: str, arguments: CallArguments, takes: frozenset[str]
    ) -> None: ...

    @abstractmethod
    def not_followed(self, node: cst.CSTNode, message: str) -> None: ...

    @abstractmethod
    def qualify(self, name: str) -> str: ...

    @abstractmethod
    def relate(self, left: Binding, right: Binding) -> Binding: ...

    @abstractmethod
    def run_factory_body(
        self, function: Function, bound: dict[str, Binding] | None = None
    ) -> None: ...

    @abstractmethod
    def store_attribute(self, owner: Binding, attr: str, value: Binding, written: str) -> None: ...

    @abstractmethod
    def store_item(self, target: cst.Subscript, value: Binding | None) -> None: ...

    @abstractmethod
    def unfollowed_call(
        self,
        node: cst.Call,
        positional: list[Binding],
        arguments: CallArguments,
        why: str,
        qualname: str | None = None,
    ) -> None: ...

    @abstractmethod
    def value_of(self, node: cst.BaseExpression) -> Binding: ...

    @abstractmethod
    def condition(self, test: cst.BaseExpression) -> bool | None: ...

    @abstractmethod
    def walk_body(self, body: cst.BaseSuite) -> None: ...

    @abstractmethod
    def foreign_module(self, name: str) -> Scope | None: ...

    @abstractmethod
    def foreign_binding(self, qualname: str) -> Binding | None: ...

    @abstractmethod
    def current_dag(self, arguments: CallArguments) -> int | None: ...

    @abstractmethod
    def leave_group(self, index: int, node: cst.CSTNode) -> None: ...

    @abstractmethod
    def task_group_for(self, arguments: CallArguments, dag: int | None) -> int | None: ...

    @abstractmethod
    def construct(
        self,
        node: cst.Call,
        cls: LocalClass,
        positional: list[Binding],
        arguments: CallArguments,
    ) -> Binding: ...

    @abstractmethod
    def construct_dag(
        self,
        node: cst.Call,
        cls: LocalClass,
        positional: list[Binding],
        arguments: CallArguments,
    ) -> Binding: ...

    @abstractmethod
    def call_method(
        self,
        node: cst.Call,
        method: BoundMethod,
        positional: list[Binding],
        arguments: CallArguments,
    ) -> Binding: ...

    @abstractmethod
    def super_of(self, positional: list[Binding]) -> Binding: ...

    @abstractmethod
    def super_init(
        self, node: cst.Call, target: Super, positional: list[Binding], arguments: CallArguments
    ) -> Binding: ...

    @abstractmethod
    def call_instance_method(
        self,
        node: cst.Call,
        instance: Instance,
        name: str,
        positional: list[Binding],
        arguments: CallArguments,
    ) -> Binding: ...

    @abstractmethod
    def store_on_instance(
        self, instance: Instance, attr: str, value: Binding, written: str
    ) -> None: ...

    @abstractmethod
    def instance_escaped(self, instance: Instance, why: str) -> None: ...

    @abstractmethod
    def build_record(
        self, cls: LocalClass, positional: list[Binding], arguments: CallArguments
    ) -> Binding: ...

    @abstractmethod
    def record_attribute(self, record: Record, attr: str) -> Binding: ...

    @abstractmethod
    def store_on_record(self, record: Record, attr: str, value: Binding, written: str) -> None: ...

    @abstractmethod
    def call_record_method(
        self, record: Record, name: str, positional: list[Binding], arguments: CallArguments
    ) -> Binding | None: ...

    @abstractmethod
    def named_tuple_class(
        self, qualname: str, positional: list[Binding], arguments: CallArguments
    ) -> Binding | None: ...

    @abstractmethod
    def build_object(
        self,
        node: cst.Call,
        cls: LocalClass,
        positional: list[Binding],
        arguments: CallArguments,
    ) -> Binding | None: ...

    @abstractmethod
    def object_attribute(self, instance: Record, attr: str) -> Binding: ...

    @abstractmethod
    def call_object_method(
        self,
        node: cst.Call,
        instance: Record,
        name: str,
        positional: list[Binding],
        arguments: CallArguments,
    ) -> Binding | None: ...

    def here(self, node: cst.CSTNode) -> cst.CSTNode:
        """Where something the walk builds is placed: the call in this file that ran another
        module's code, else the node itself."""
        return self.foreign_site if self.foreign_site is not None else node
