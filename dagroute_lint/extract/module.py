"""Walk one parsed file statement by statement, as Python would run it, recording DAGs and tasks.

The walk follows execution order (so a name holds the value it has when a task is built), only
descends into what can build DAGs, tasks or routing values, and evaluates nothing but literals and
names bound to them. ``@dag`` and ``@task_group`` bodies are walked where the function is called,
like pyflakes defers function bodies, because that is when Airflow runs them.
"""

from __future__ import annotations

import re
import sys
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import libcst as cst
from libcst.helpers import get_full_name_for_node

from dagroute_lint.catalog import airflow_names as names
from dagroute_lint.extract.bindings import (
    DEFAULT,
    REMOVE,
    SET,
    SPREAD,
    AssetDecorator,
    Binding,
    BoundMethod,
    CallArguments,
    DagFactory,
    DagHandle,
    DictObject,
    EnumMember,
    Function,
    GroupFactory,
    GroupHandle,
    Imported,
    ListObject,
    LocalClass,
    OperatorPartial,
    Partial,
    TaskDecorator,
    TaskFlow,
    TaskHandles,
)
from dagroute_lint.extract.classes import class_info
from dagroute_lint.extract.containers import (
    CONTAINERS,
    EXPR_TYPES,
    dict_of,
    list_index,
    live_item,
    snapshot,
    spoil,
)
from dagroute_lint.extract.folding import compare, truth, undecided
from dagroute_lint.extract.imports import import_bindings, imported_names, is_relative
from dagroute_lint.extract.positions import node_positions
from dagroute_lint.extract.source import decode, noqa_comments, parse
from dagroute_lint.model import (
    Arguments,
    ClassInfo,
    Const,
    Dag,
    DictExpr,
    Expr,
    ImportSite,
    Module,
    Operation,
    Position,
    Ref,
    SeqExpr,
    Subscript,
    SyntaxProblem,
    Task,
    TaskGroup,
    Unknown,
    Unmodelled,
)

# Bounds that keep a hostile or generated file from making the walk unbounded.
MAX_LOOP_ITERATIONS = 1000
MAX_TASKS = 20000
MAX_CALL_DEPTH = 12
MAX_EXPRESSION_DEPTH = 48
# Statements walked per file, loops unrolled and calls followed included.
MAX_WORK = 200_000

_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})


def extract_module(
    data: bytes,
    path: str,
    module_name: str,
    is_package: bool = False,
    externals: Mapping[str, Expr] | None = None,
) -> Module:
    """Build the model of one file. Never raises on bad input: problems become ``syntax_error``.

    ``externals`` gives the values of names from other modules that the file loops over (see
    ``Module.loop_refs``), folded by the caller from the repository's symbol table.
    """
    text = decode(data)
    if isinstance(text, SyntaxProblem):
        return Module(path=path, module_name=module_name, syntax_error=text)
    tree = parse(text)
    noqa, file_noqa = noqa_comments(text)
    if isinstance(tree, SyntaxProblem):
        return Module(
            path=path, module_name=module_name, syntax_error=tree, noqa=noqa, file_noqa=file_noqa
        )
    walker = _Walker(module_name, is_package, path, externals or {})
    try:
        with warnings.catch_warnings():
            # libcst folds strings with ast.literal_eval, which warns about the user's invalid
            # escapes (a SyntaxWarning on Python 3.12+): not ours to print, nor to fail on.
            warnings.simplefilter("ignore")
            walker.walk_block(tree.body)
    except RecursionError:
        return Module(
            path=path,
            module_name=module_name,
            noqa=noqa,
            file_noqa=file_noqa,
            syntax_error=SyntaxProblem(
                "too deeply nested to analyse", Position(1, 1), skipped=True
            ),
        )
    return walker.build(tree, path, noqa, file_noqa)


# --- drafts: mutable while walking, frozen into the model at the end ---------------------------


# Operators folded by ``symbols``; ``|`` (dict union) is built as a dict of two spreads.
_ARITHMETIC: dict[type[cst.CSTNode], str] = {cst.Add: "add", cst.Modulo: "mod", cst.Multiply: "mul"}
_AUGMENTED: dict[type[cst.CSTNode], type[cst.CSTNode]] = {
    cst.AddAssign: cst.Add,
    cst.ModuloAssign: cst.Modulo,
    cst.MultiplyAssign: cst.Multiply,
    cst.BitOrAssign: cst.BitOr,
}


@dataclass
class _DraftDag:
    """``defaults`` is the DAG's own copy of ``default_args``, made when ``dag.default_args`` is
    used (to change it); ``snapshots`` caches its contents per version for the tasks built."""

    dag_id: Expr
    node: cst.CSTNode
    default_args: Expr | None
    defaults: DictObject | None = None
    snapshots: dict[int, Expr | None] = field(default_factory=dict)

    def current_defaults(self) -> tuple[int, Expr | None]:
        if self.defaults is None:
            return 0, self.default_args
        version = self.defaults.version
        if version not in self.snapshots:
            self.snapshots[version] = snapshot(self.defaults)
        return version, self.snapshots[version]


@dataclass
class _DraftGroup:
    group_id: Expr
    node: cst.CSTNode
    dag: int | None
    parent: int | None
    default_args: Expr | None
    prefix_group_id: Expr
    suffix_on_collision: bool = False


@dataclass
class _DraftTask:
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
    imports: list[_DraftImport] = field(default_factory=list)
    overridden: dict[str, Expr] = field(default_factory=dict)
    dag_defaults: tuple[int, Expr | None] = (0, None)
    level: int = 0


@dataclass
class _DraftImport:
    module: str
    node: cst.Import | cst.ImportFrom
    scope: str
    guarded: bool


class _Jump(Exception):
    """``break``, ``continue`` or ``return`` reached: unwinds the walk to the loop or function."""

    def __init__(self, kind: str, value: Binding | None = None) -> None:
        super().__init__(kind)
        self.kind = kind
        self.value = value


class _Scope:
    """Name bindings of one function or of the module, chained to the enclosing scope."""

    def __init__(
        self, parent: _Scope | None = None, declared: frozenset[str] = frozenset()
    ) -> None:
        self.names: dict[str, Binding] = {}
        self.parent = parent
        # Names the function declares ``global``: assigning them rebinds the module's.
        self.declared = declared

    def lookup(self, name: str) -> Binding | None:
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None


class _Walker:
    def __init__(
        self, module_name: str, is_package: bool, path: str, externals: Mapping[str, Expr]
    ) -> None:
        self.module_name = module_name
        self.is_package = is_package
        self.path = path
        self.externals = externals
        self.loop_refs: list[str] = []
        self.module_scope = _Scope()
        self.scope = self.module_scope
        self.dags: list[_DraftDag] = []
        self.groups: list[_DraftGroup] = []
        self.tasks: list[_DraftTask] = []
        self.imports: list[_DraftImport] = []
        self.dag_stack: list[int] = []
        self.group_stack: list[int] = []
        self.guarded = False
        self.call_depth = 0
        self.work = 0
        # Return values reached under an undecided condition, one list per function being run.
        self.returns: list[list[Binding]] = []
        # Places where tasks may be built that the walk could not follow, with why, by node.
        self.unmodelled: dict[int, tuple[cst.CSTNode, str]] = {}
        self.class_prefix = ""
        self.classes: dict[str, ClassInfo] = {}
        self.local_classes: dict[str, LocalClass] = {}
        # How many conditions the walk could not decide surround the current statement.
        self.uncertain = 0
        self.function_imports: dict[int, list[_DraftImport]] = {}

    # --- statements ----------------------------------------------------------------------------

    def walk_block(self, statements: Sequence[cst.CSTNode]) -> None:
        for statement in statements:
            self.walk_statement(statement)

    def walk_statement(self, statement: cst.CSTNode) -> None:
        self.work += 1
        handler = _STATEMENTS.get(type(statement))
        if handler is not None:
            handler(self, statement)

    def walk_line(self, statement: cst.SimpleStatementLine) -> None:
        for small in statement.body:
            self.walk_small(small)

    def walk_while(self, statement: cst.While) -> None:
        self.value_of(statement.test)
        self.walk_unknown_loop(
            statement, None, Unknown("a while loop"), statement.body, statement.orelse
        )

    def walk_body(self, body: cst.BaseSuite) -> None:
        if isinstance(body, cst.IndentedBlock):
            self.walk_block(body.body)
        elif isinstance(body, cst.SimpleStatementSuite):
            for small in body.body:
                self.walk_small(small)

    def walk_small(self, small: cst.BaseSmallStatement) -> None:
        handler = _SMALL_STATEMENTS.get(type(small))
        if handler is not None:
            handler(self, small)

    def walk_expression_statement(self, small: cst.Expr) -> None:
        self.value_of(small.value)

    def walk_assign(self, small: cst.Assign) -> None:
        value = self.value_of(small.value)
        for target in small.targets:
            self.bind(target.target, value)

    def walk_annotated_assign(self, small: cst.AnnAssign) -> None:
        if small.value is not None:
            self.bind(small.target, self.value_of(small.value))

    def walk_del_statement(self, small: cst.Del) -> None:
        self.walk_del(small.target)

    def walk_return(self, small: cst.Return) -> None:
        raise _Jump("return", self.value_of(small.value) if small.value is not None else None)

    def walk_break(self, small: cst.Break) -> None:
        raise _Jump("break")

    def walk_continue(self, small: cst.Continue) -> None:
        raise _Jump("continue")

    def walk_del(self, target: cst.BaseExpression) -> None:
        if isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self.walk_del(element.value)
        elif isinstance(target, cst.Name):
            self.scope.names[target.value] = Unknown(f"'{target.value}' was deleted")
        elif isinstance(target, cst.Subscript):
            self.store_item(target, None)
        elif isinstance(target, cst.Attribute):
            self.bind_attribute(target, Unknown("the attribute was deleted"))

    def walk_import(self, statement: cst.Import | cst.ImportFrom) -> None:
        bindings, modules = import_bindings(statement, self.module_name, self.is_package)
        for local, qualname in bindings:
            self.scope.names[local] = Imported(names.canonical(qualname))
        for module in modules:
            self.imports.append(_DraftImport(module, statement, "module", self.guarded))

    def walk_aug_assign(self, small: cst.AugAssign) -> None:
        """``x op= y``: in place for a dict's ``|=`` and a list's ``+=``, else ``x = x op y``."""
        current = self.value_of(small.target)
        operand = self.value_of(small.value)
        if isinstance(current, DictObject) and isinstance(small.operator, cst.BitOrAssign):
            self.change(current, lambda: current.parts.append((SPREAD, None, snapshot(operand))))
            return
        if isinstance(current, ListObject) and isinstance(small.operator, cst.AddAssign):
            self.extend(current, operand)
            return
        operator = _AUGMENTED.get(type(small.operator))
        combined = None
        if operator is not None and not isinstance(current, Unknown):
            combined = self.combine(operator, current, operand)
        written = get_full_name_for_node(small.target) or "a target"
        self.bind(
            small.target,
            combined
            if combined is not None
            else Unknown(f"'{written}' is changed by an augmented assignment"),
        )

    def walk_with(self, statement: cst.With) -> None:
        pushed_dags = 0
        pushed_groups = 0
        for item in statement.items:
            value = self.value_of(item.item)
            if isinstance(value, DagHandle):
                self.dag_stack.append(value.index)
                pushed_dags += 1
            elif isinstance(value, GroupHandle):
                self.group_stack.append(value.index)
                pushed_groups += 1
            if item.asname is not None:
                self.bind(item.asname.name, value)
        try:
            self.walk_body(statement.body)
        finally:
            del self.dag_stack[len(self.dag_stack) - pushed_dags :]
            del self.group_stack[len(self.group_stack) - pushed_groups :]

    def walk_for(self, statement: cst.For) -> None:
        iterable = self.value_of(statement.iter)
        if isinstance(iterable, (Ref, Imported)):
            qualname = iterable.qualname
            if qualname in self.externals:
                iterable = self.externals[qualname]
            elif qualname not in self.loop_refs:
                self.loop_refs.append(qualname)
        items = self.iteration_items(iterable)
        if isinstance(items, Unknown):
            self.walk_unknown_loop(
                statement, statement.target, items, statement.body, statement.orelse
            )
            return
        before = dict(self.scope.names)
        uncertain = self.uncertain
        broke = False
        for item in items:
            if self.work > MAX_WORK:
                self.bound_reached(statement, "the loop was not unrolled to its end (work bound)")
                self.uncertain += 1
                break
            self.bind(statement.target, item)
            jump = self.walk_loop_body(statement.body)
            if jump == "break":
                broke = True
                break
        left_early = self.uncertain > uncertain
        self.uncertain = uncertain
        if left_early:  # an undecided break or continue: later iterations may not have run
            self.merge_names(before, "'{}' is assigned in a loop left early under a condition")
        if statement.orelse is not None and not broke:
            self.walk_body(statement.orelse.body)

    def walk_loop_body(self, body: cst.BaseSuite) -> str | None:
        """One iteration; returns ``"break"`` or ``"continue"`` when one is certainly reached.
        An undecided one leaves ``self.uncertain`` raised for the rest of the loop."""
        try:
            self.walk_body(body)
        except _Jump as jump:
            if jump.kind == "return":
                raise
            return jump.kind
        return None

    def walk_unknown_loop(
        self,
        node: cst.CSTNode,
        target: cst.BaseExpression | None,
        item: Unknown,
        body: cst.BaseSuite,
        orelse: cst.Else | None,
    ) -> None:
        """A loop whose iterations are unknown: its body is walked once, under a condition, and
        whatever it assigns is unresolved after it (it may have run any number of times)."""
        before = dict(self.scope.names)
        uncertain = self.uncertain
        self.uncertain += 1
        if target is not None:
            self.bind(target, item)
        built = len(self.tasks)
        self.walk_loop_body(body)
        if len(self.tasks) > built:
            self.not_followed(
                node,
                f"a loop over a value not known statically ({item.reason}) builds tasks; "
                "how many, and their ids, are not known",
            )
        if orelse is not None:
            self.walk_body(orelse.body)
        self.uncertain = uncertain
        self.merge_names(before, "'{}' is assigned in a loop that runs an unknown number of times")

    def merge_names(self, before: dict[str, Binding], reason: str) -> None:
        """Names changed since ``before`` may or may not have changed: unresolved, with why."""
        for name, bound in list(self.scope.names.items()):
            previous = before.get(name)
            if previous is None or not _same_binding(previous, bound):
                self.scope.names[name] = Unknown(reason.format(name))

    def iteration_items(self, value: Binding) -> list[Binding] | Unknown:
        if isinstance(value, CONTAINERS) and value.spoiled is not None:
            value = value.spoiled
        if isinstance(value, ListObject) and len(value.items) <= MAX_LOOP_ITERATIONS:
            return list(value.items)
        if isinstance(value, DictObject):
            entries = dict_entries(value)
            if entries is not None:  # iterating a dict yields its keys
                return [key for key, _ in entries]
        if isinstance(value, TaskHandles):  # ``for t in dag.tasks``
            return [TaskHandles((index,)) for index in value.indexes]
        if isinstance(value, SeqExpr) and len(value.items) <= MAX_LOOP_ITERATIONS:
            return list(value.items)
        if isinstance(value, DictExpr) and all(
            key is not None for key, _ in value.parts
        ):  # iterating a dict yields its keys
            return [key for key, _ in value.parts if key is not None]
        if isinstance(value, Unknown):
            return Unknown(f"loop over a value that is not a literal sequence: {value.reason}")
        return Unknown("loop over a value that is not a literal sequence")

    def walk_if(self, statement: cst.If) -> None:
        test = statement.test
        if _is_main_guard(test):
            return
        if _is_type_checking(test):
            with self.guarding():
                self.walk_body(statement.body)
            # The else branch is what runs for real.
            self.walk_else(statement.orelse)
            return
        decided = truth(self.value_of(test))
        if decided is True:
            self.walk_body(statement.body)
            return
        if decided is False:
            self.walk_else(statement.orelse)
            return
        before = dict(self.scope.names)
        self.walk_undecided(statement.body)
        after_body = self.scope.names
        self.scope.names = dict(before)
        if statement.orelse is not None:
            if isinstance(statement.orelse, cst.If):
                self.walk_undecided(statement.orelse)
            else:
                self.walk_undecided(statement.orelse.body)
        after_else = self.scope.names
        merged: dict[str, Binding] = {}
        for name in after_body.keys() | after_else.keys():
            left, right = after_body.get(name), after_else.get(name)
            if left is not None and right is not None and _same_binding(left, right):
                merged[name] = left
            else:
                merged[name] = Unknown(f"'{name}' is assigned conditionally")
        self.scope.names = merged

    def walk_else(self, orelse: cst.If | cst.Else | None) -> None:
        if isinstance(orelse, cst.If):
            self.walk_if(orelse)
        elif orelse is not None:
            self.walk_body(orelse.body)

    def walk_undecided(self, branch: cst.BaseSuite | cst.If) -> None:
        """A branch that may or may not run. A ``break``, ``continue`` or ``return`` in it makes
        the rest of the enclosing loop or function undecided too (``self.uncertain`` stays up)."""
        self.uncertain += 1
        try:
            if isinstance(branch, cst.If):
                self.walk_if(branch)
            else:
                self.walk_body(branch)
        except _Jump as jump:
            if jump.kind == "return" and self.returns:
                self.returns[-1].append(jump.value if jump.value is not None else Const(None))
            self.uncertain += 1
        self.uncertain -= 1

    def walk_try(self, statement: cst.Try) -> None:
        """The ``try`` body is taken to succeed, as it does where Airflow parses the file; what
        a handler assigns makes the name unresolved (the handler may run instead), except an
        alternative import of the same name (``try: from new import X / except: from old``)."""
        catches_import = any(_handles_import_error(handler) for handler in statement.handlers)
        if catches_import:
            with self.guarding():
                self.walk_body(statement.body)
        else:
            self.walk_body(statement.body)
        after_body = dict(self.scope.names)
        for handler in statement.handlers:
            self.scope.names = dict(after_body)
            with self.guarding():
                self.walk_undecided(handler.body)
            for name, bound in self.scope.names.items():
                kept = after_body.get(name)
                if kept is not None and (
                    _same_binding(kept, bound)
                    or (isinstance(kept, Imported) and isinstance(bound, Imported))
                ):
                    continue
                after_body[name] = Unknown(f"'{name}' is assigned in an except handler")
        self.scope.names = after_body
        if statement.orelse is not None:
            self.walk_body(statement.orelse.body)
        if statement.finalbody is not None:
            self.walk_body(statement.finalbody.body)

    @contextmanager
    def guarding(self) -> Iterator[None]:
        previous = self.guarded
        self.guarded = True
        try:
            yield
        finally:
            self.guarded = previous

    @contextmanager
    def inside_dag(self, index: int) -> Iterator[None]:
        """The body of a DAG built by a call (``@dag`` factory, ``@asset``): its tasks join the
        DAG and no group of the caller."""
        self.dag_stack.append(index)
        groups, self.group_stack = self.group_stack, []
        try:
            yield
        finally:
            self.dag_stack.pop()
            self.group_stack = groups

    # --- functions -----------------------------------------------------------------------------

    def define_function(self, node: cst.FunctionDef) -> None:
        defaults = {
            param.name.value: self.value_of(param.default)
            for param in (
                *node.params.posonly_params,
                *node.params.params,
                *node.params.kwonly_params,
            )
            if param.default is not None
        }
        function = Function(node, self.qualify(node.name.value), self.scope, defaults)
        binding: Binding = function
        for decorator in reversed(node.decorators):
            decorator_value = self.value_of(decorator.decorator)
            if isinstance(decorator_value, Imported) and (
                decorator_value.qualname in names.ASSET_DECORATORS
            ):
                decorator_value = AssetDecorator(CallArguments())
            if isinstance(decorator_value, AssetDecorator):
                self.create_asset(node, decorator_value, binding)
                continue
            binding = self.apply_decorator(decorator_value, binding)
        self.scope.names[node.name.value] = binding

    def define_class(self, node: cst.ClassDef) -> None:
        """Run the class body (Python runs it at definition) for its constants, and note what
        the class may do to tasks built from it."""
        name = node.name.value
        bases = tuple(self.base_name(arg) for arg in node.bases if arg.keyword is None)
        decorators = tuple(
            value.qualname
            for value in (self.value_of(_decorator_callee(each)) for each in node.decorators)
            if isinstance(value, Imported)
        )
        info = class_info(node, bases, decorators)
        path = f"{self.class_prefix}{name}"
        outer, prefix = self.scope, self.class_prefix
        self.scope, self.class_prefix = _Scope(parent=outer), f"{path}."
        try:
            self.walk_body(node.body)
        except _Jump:
            pass
        finally:
            attributes, self.scope, self.class_prefix = self.scope.names, outer, prefix
        local = LocalClass(
            self.qualify(path),
            info,
            attributes,
            enum=any(base in _ENUM_BASES for base in bases),
            operator=info.operator and self.operator_bases(bases),
        )
        self.local_classes[local.qualname] = local
        if self.scope is self.module_scope or self.class_prefix:
            self.classes[path] = info
        self.scope.names[name] = local

    def base_name(self, arg: cst.Arg) -> str:
        value = self.value_of(arg.value)
        if isinstance(value, (Imported, LocalClass)):
            return value.qualname
        if isinstance(arg.value, cst.Name) and arg.value.value in _BUILTIN_CLASSES:
            return f"builtins.{arg.value.value}"
        return "?"

    def operator_bases(self, bases: tuple[str, ...]) -> bool:
        """A class can be an operator only through a base that can: a class of this file
        that can, or any class named elsewhere except the known non-operator ones."""
        for base in bases:
            local = self.local_classes.get(base)
            if local is not None:
                if local.operator:
                    return True
            elif base not in names.NOT_OPERATOR_BASES:
                return True
        return False

    def apply_decorator(self, decorator: Binding, target: Binding) -> Binding:
        if not isinstance(target, Function):
            return target
        if isinstance(decorator, Imported):
            qualname = decorator.qualname
            if qualname in names.DAG_DECORATORS:
                return DagFactory(target, CallArguments())
            if qualname in names.TASK_GROUP_DECORATORS:
                return GroupFactory(target, CallArguments())
            kind = _task_decorator_kind(qualname)
            if kind is not None:
                return TaskFlow(target, kind, CallArguments())
            return target
        if isinstance(decorator, TaskDecorator):
            return TaskFlow(target, decorator.kind, decorator.arguments)
        if isinstance(decorator, (DagFactory, GroupFactory)) and decorator.function is None:
            return type(decorator)(target, decorator.arguments)
        return target

    def function_imports_of(self, function: Function) -> list[_DraftImport]:
        """Imports anywhere in a function body: they run only where the function runs."""
        if function.node is None:
            return []
        key = id(function.node)
        if key not in self.function_imports:
            found: list[_DraftImport] = []
            _collect_imports(function.node.body, found, self, guarded=False)
            self.function_imports[key] = found
        return self.function_imports[key]

    def call_function(
        self,
        node: cst.Call,
        function: Function,
        positional: list[Binding],
        arguments: CallArguments,
    ) -> Binding:
        """Run a function of the file with its arguments bound, as the call does; its return
        value is the result. Bounded in depth and in the file's total work."""
        if function.node is None:
            self.escape(positional, arguments, f"it is passed to {function.name}()")
            self.unfollowed_call(node, positional, arguments, "is defined in another module")
            return Unknown(f"result of calling {function.name}(), defined in another module")
        if self.call_depth >= MAX_CALL_DEPTH or self.work > MAX_WORK:
            what = "calls nested too deeply" if self.call_depth >= MAX_CALL_DEPTH else "work"
            self.bound_reached(node, f"{function.name}() was not followed: bound on {what} reached")
            self.escape(positional, arguments, f"it is passed to {function.name}()")
            return Unknown(f"result of calling {function.name}(), not followed (bound reached)")
        outer, uncertain = self.scope, self.uncertain
        closure = function.closure if isinstance(function.closure, _Scope) else self.module_scope
        self.scope = _Scope(parent=closure, declared=_declared_global(function.node))
        self.bind_parameters(function, positional, arguments)
        returns: list[Binding] = []
        self.returns.append(returns)
        self.call_depth += 1
        result: Binding = Const(None)
        try:
            self.walk_body(function.node.body)
        except _Jump as jump:
            if jump.kind == "return" and jump.value is not None:
                result = jump.value
        finally:
            self.call_depth -= 1
            self.returns.pop()
            self.scope, self.uncertain = outer, uncertain
        if any(not _same_binding(each, result) for each in returns):
            return Unknown(f"{function.name}() returns different values under conditions")
        return result

    def bind_parameters(
        self, function: Function, positional: list[Binding], arguments: CallArguments
    ) -> None:
        assert function.node is not None
        params = function.node.params
        ordered = [*params.posonly_params, *params.params]
        given = list(positional)
        for param in ordered:
            name = param.name.value
            if given:
                self.scope.names[name] = given.pop(0)
            elif name in arguments.bindings:
                self.scope.names[name] = arguments.bindings[name]
            elif name in function.defaults:
                self.scope.names[name] = function.defaults[name]
            else:
                self.scope.names[name] = Unknown(f"parameter '{name}' of {function.name}()")
        for param in params.kwonly_params:
            name = param.name.value
            self.scope.names[name] = arguments.bindings.get(
                name, function.defaults.get(name, Unknown(f"parameter '{name}' not given"))
            )
        if isinstance(params.star_arg, cst.Param):
            self.scope.names[params.star_arg.name.value] = ListObject(given, self.uncertain)
        taken = {param.name.value for param in (*ordered, *params.kwonly_params)}
        if params.star_kwarg is not None:
            extra: list[tuple[str, Binding | None, Binding]] = [
                (SET, Const(key), value)
                for key, value in arguments.bindings.items()
                if key not in taken
            ]
            extra += [(SPREAD, None, spread) for spread in arguments.spreads]
            self.scope.names[params.star_kwarg.name.value] = DictObject(extra, self.uncertain)
        elif arguments.spreads:
            for name in taken - set(arguments.bindings):
                self.scope.names[name] = Unknown(f"parameter '{name}' may come from a ** spread")

    def bound_reached(self, node: cst.CSTNode, message: str) -> None:
        self.not_followed(node, f"{message}; tasks it builds may be missing")

    def not_followed(self, node: cst.CSTNode, message: str) -> None:
        """Say where tasks may be built that the walk does not see, once per place."""
        if id(node) not in self.unmodelled:
            self.unmodelled[id(node)] = (node, message)

    def in_dag_context(self, positional: list[Binding], arguments: CallArguments) -> bool:
        values = [*positional, *arguments.bindings.values()]
        return bool(self.dag_stack or self.group_stack) or any(
            isinstance(value, (DagHandle, GroupHandle)) for value in values
        )

    def unfollowed_call(
        self,
        node: cst.Call,
        positional: list[Binding],
        arguments: CallArguments,
        why: str,
        qualname: str | None = None,
    ) -> None:
        """A call the walk does not follow, made where it could build tasks (inside a DAG, or
        given a DAG or TaskGroup): DRL106 names it. Calls into the standard library and the
        libraries DAG files compute values with are not suspected."""
        if qualname is not None and qualname.split(".")[0] in _VALUE_LIBRARIES:
            return
        if not self.in_dag_context(positional, arguments):
            return
        written = get_full_name_for_node(node.func) or "a call"
        self.not_followed(node, f"{written}() {why}; tasks it may build are not seen")

    def run_factory_body(self, function: Function) -> None:
        """Walk an ``@dag``/``@task_group`` body where it is called; parameters are unknown."""
        if function.node is None:
            return
        outer = self.scope
        closure = function.closure if isinstance(function.closure, _Scope) else self.module_scope
        self.scope = _Scope(parent=closure, declared=_declared_global(function.node))
        for param in _parameters(function.node):
            self.scope.names[param] = Unknown(f"function parameter '{param}'")
        uncertain = self.uncertain
        self.returns.append([])
        try:
            self.walk_body(function.node.body)
        except _Jump:
            pass
        finally:
            self.returns.pop()
            self.scope = outer
            self.uncertain = uncertain

    # --- expressions ---------------------------------------------------------------------------

    def value_of(self, node: cst.BaseExpression) -> Binding:
        """Evaluate an expression to a binding, creating DAGs and tasks as its calls would."""
        handler = _EXPRESSIONS.get(type(node))
        if handler is None:
            return Unknown(f"a {type(node).__name__} expression")
        value: Binding = handler(self, node)
        return value

    def name_node_value(self, node: cst.Name) -> Binding:
        return self.name_value(node.value)

    def string_value(self, node: cst.SimpleString | cst.ConcatenatedString) -> Binding:
        value = node.evaluated_value
        return Const(value) if isinstance(value, str) else Unknown("a bytes literal")

    def integer_value(self, node: cst.Integer) -> Binding:
        return Const(int(node.value.replace("_", ""), 0))

    def float_value(self, node: cst.Float) -> Binding:
        return Const(float(node.value.replace("_", "")))

    def unary_value(self, node: cst.UnaryOperation) -> Binding:
        operand = self.value_of(node.expression)
        if (
            isinstance(node.operator, cst.Minus)
            and isinstance(operand, Const)
            and isinstance(operand.value, (int, float))
            and not isinstance(operand.value, bool)
        ):
            return Const(-operand.value)
        if isinstance(node.operator, cst.Not):
            decided = truth(operand)
            return Const(not decided) if decided is not None else undecided("'not'")
        return Unknown("an operator expression")

    def if_expression_value(self, node: cst.IfExp) -> Binding:
        decided = truth(self.value_of(node.test))
        if decided is not None:
            return self.value_of(node.body if decided else node.orelse)
        self.value_of(node.body)
        self.value_of(node.orelse)
        return Unknown("a conditional expression")

    def boolean_value(self, node: cst.BooleanOperation) -> Binding:
        left = self.value_of(node.left)
        decided = truth(left)
        if decided is None:
            self.value_of(node.right)
            return undecided("a boolean operation")
        takes_left = decided if isinstance(node.operator, cst.Or) else not decided
        return left if takes_left else self.value_of(node.right)

    def lambda_value(self, node: cst.Lambda) -> Binding:
        return Unknown("a lambda")

    def set_value(self, node: cst.Set) -> Binding:
        for element in node.elements:
            self.value_of(element.value)
        return Unknown("a set")

    def comparison_value(self, node: cst.Comparison) -> Binding:
        left = self.value_of(node.left)
        result: bool | None = True
        for target in node.comparisons:
            right = self.value_of(target.comparator)
            decided = compare(target.operator, left, right)
            if decided is False:
                return Const(False)
            if decided is None:
                result = None
            left = right
        return Const(True) if result else undecided("a comparison")

    def name_value(self, name: str) -> Binding:
        if name == "None":
            return Const(None)
        if name == "True":
            return Const(True)
        if name == "__file__" and self.scope.lookup(name) is None:
            return Const(self.path)
        if name == "False":
            return Const(False)
        bound = self.scope.lookup(name)
        if bound is None:
            return Unknown(f"name '{name}' is not bound to a constant")
        return bound

    def attribute_value(self, node: cst.Attribute) -> Binding:
        base = self.value_of(node.value)
        attr = node.attr.value
        if isinstance(base, Imported):
            qualname = f"{base.qualname}.{attr}"
            if qualname in names.AIRFLOW_CONSTANTS:
                return Const(names.AIRFLOW_CONSTANTS[qualname])
            return Imported(names.canonical(qualname))
        if isinstance(base, Ref):
            return Ref(f"{base.qualname}.{attr}")
        if isinstance(base, TaskDecorator) and not base.arguments.named:
            return TaskDecorator(attr, base.arguments)
        if isinstance(base, Unknown):
            return base
        if isinstance(base, Operation) and base.op == "path" and attr in ("stem", "name"):
            return Operation(f"path_{attr}", base.operands)
        if isinstance(base, LocalClass) and attr in base.attributes:
            found = base.attributes[attr]
            if base.enum and isinstance(found, EXPR_TYPES):
                return EnumMember(attr, found)
            return found
        if isinstance(base, EnumMember) and attr in ("value", "name"):
            return base.value if attr == "value" else Const(base.name)
        if isinstance(base, DagHandle) and attr == "task":  # ``@dag.task`` on a DAG object
            return TaskDecorator("python", CallArguments(bindings={"dag": base}))
        if isinstance(base, DagHandle) and attr == "default_args":
            return self.dag_defaults(base.index)
        if isinstance(base, DagHandle) and attr == "tasks":
            return TaskHandles(
                tuple(index for index, task in enumerate(self.tasks) if task.dag == base.index)
            )
        return BoundMethod(base, attr)

    def dag_defaults(self, index: int) -> DictObject:
        """The DAG's own ``default_args`` (Airflow deep-copies the dict it is given)."""
        dag = self.dags[index]
        if dag.defaults is None:
            parts: list[tuple[str, Binding | None, Binding]] = []
            if dag.default_args is not None:
                parts.append((SPREAD, None, dag.default_args))
            dag.defaults = DictObject(parts, 0)
        return dag.defaults

    def subscript_value(self, node: cst.Subscript) -> Binding:
        base = self.value_of(node.value)
        if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
            return Unknown("a slice")
        key = self.value_of(node.slice[0].slice.value)
        if isinstance(base, Imported) and base.qualname in names.DYNAMIC_MAPPINGS:
            return Unknown(names.DYNAMIC_MAPPINGS[base.qualname])
        if isinstance(base, TaskHandles):
            index = list_index(key, len(base.indexes))
            if index is not None:
                return TaskHandles((base.indexes[index],))
            return Unknown("a task picked from a list by a key that is not a literal")
        live = live_item(base, key)
        if live is not None:
            return live
        return Subscript(snapshot(base), snapshot(key))

    def dict_value(self, node: cst.Dict) -> Binding:
        parts: list[tuple[str, Binding | None, Binding]] = []
        for element in node.elements:
            if isinstance(element, cst.DictElement):
                key = self.value_of(element.key)
                parts.append((SET, key, self.value_of(element.value)))
            else:  # ``**x`` copies x's items now
                parts.append((SPREAD, None, snapshot(self.value_of(element.value))))
        return DictObject(parts, self.uncertain)

    def sequence_value(self, node: cst.List | cst.Tuple) -> Binding:
        items: list[Binding] = []
        for element in node.elements:
            if isinstance(element, cst.StarredElement):
                self.value_of(element.value)
                return Unknown("a sequence with a starred element")
            items.append(self.value_of(element.value))
        indexes = [binding.indexes for binding in items if isinstance(binding, TaskHandles)]
        if indexes and len(indexes) == len(items):
            return TaskHandles(tuple(index for group in indexes for index in group))
        return ListObject(items, self.uncertain)

    def binary_value(self, node: cst.BinaryOperation) -> Binding:
        left = self.value_of(node.left)
        right = self.value_of(node.right)
        operator = node.operator
        if isinstance(operator, (cst.RightShift, cst.LeftShift)):
            return self.relate(left, right)
        combined = self.combine(type(operator), left, right)
        return combined if combined is not None else Unknown("an arithmetic expression")

    def combine(self, operator: type[cst.CSTNode], left: Binding, right: Binding) -> Expr | None:
        """``left <operator> right`` as a value, shared by ``a + b`` and ``a += b``.

        A value built by repeating an operation in a loop (``total = total + 1``) stops being
        a tree once it is deeper than folding goes: unknown, with why."""
        if operator in _ARITHMETIC:
            for operand in (left, right):
                if isinstance(operand, Unknown):
                    return operand
        if _depth(left) > MAX_EXPRESSION_DEPTH:
            return Unknown("expression nested too deeply")
        if operator in _ARITHMETIC:
            return Operation(_ARITHMETIC[operator], (snapshot(left), snapshot(right)))
        if operator is cst.BitOr:  # dict union
            return DictExpr(((None, snapshot(left)), (None, snapshot(right))))
        return None

    def comprehension_value(
        self, node: cst.ListComp | cst.GeneratorExp | cst.SetComp | cst.DictComp
    ) -> Binding:
        """Unroll ``[Op(task_id=f"t_{x}") for x in LITERAL]``; anything fancier is unknown."""
        clause = node.for_in
        items = self.iteration_items(self.value_of(clause.iter))
        if (
            isinstance(items, Unknown)
            or clause.inner_for_in is not None
            or clause.ifs
            or isinstance(node, cst.DictComp)
        ):
            return Unknown("a comprehension")
        outer = self.scope
        self.scope = _Scope(parent=outer)
        results: list[Binding] = []
        try:
            for item in items:
                self.bind(clause.target, item)
                results.append(self.value_of(node.elt))
        finally:
            self.scope = outer
        handles = [result for result in results if isinstance(result, TaskHandles)]
        if handles and len(handles) == len(results):
            return TaskHandles(tuple(index for handle in handles for index in handle.indexes))
        if isinstance(node, cst.SetComp):
            return Unknown("a set comprehension")
        return SeqExpr(tuple(snapshot(result) for result in results))

    def fstring_value(self, node: cst.FormattedString) -> Binding:
        return Operation("fstring", tuple(self.fstring_parts(node.parts)))

    def fstring_parts(self, parts: Sequence[cst.BaseFormattedStringContent]) -> list[Expr]:
        result: list[Expr] = []
        for part in parts:
            if isinstance(part, cst.FormattedStringText):
                result.append(Const(part.value.replace("{{", "{").replace("}}", "}")))
            elif isinstance(part, cst.FormattedStringExpression):
                value = snapshot(self.value_of(part.expression))
                conversion = Const(part.conversion)
                spec: Expr = (
                    Operation("fstring", tuple(self.fstring_parts(part.format_spec)))
                    if part.format_spec
                    else Const("")
                )
                result.append(Operation("field", (value, conversion, spec)))
        return result

    # --- calls ---------------------------------------------------------------------------------

    def call_arguments(self, node: cst.Call) -> tuple[list[Binding], CallArguments, Unknown | None]:
        """Evaluate arguments in Python's order; return positionals, keywords, and a star-arg."""
        positional: list[Binding] = []
        named: dict[str, Expr] = {}
        bound: dict[str, Binding] = {}
        nodes: dict[str, cst.CSTNode] = {}
        spreads: list[Expr] = []
        spread_bindings: list[Binding] = []
        star: Unknown | None = None
        for arg in node.args:
            value = self.value_of(arg.value)
            if arg.keyword is not None:
                key = arg.keyword.value
                named[key] = snapshot(value)
                bound[key] = value
                nodes[key] = arg
            elif arg.star == "**":
                spreads.append(snapshot(value))
                spread_bindings.append(value)
            elif arg.star == "*":
                star = Unknown("positional arguments unpacked with *")
            else:
                positional.append(value)
        arguments = CallArguments(named, tuple(spreads), bound, nodes, tuple(spread_bindings))
        return positional, arguments, star

    def call_value(self, node: cst.Call) -> Binding:
        callee = self.value_of(node.func)
        positional, arguments, star = self.call_arguments(node)
        if isinstance(node.func, cst.Name) and self.scope.lookup(node.func.value) is None:
            builtin = self.call_builtin(node.func.value, positional, arguments, star)
            if builtin is not None:
                return builtin
        return self.apply(node, callee, positional, arguments)

    def apply(
        self, node: cst.Call, callee: Binding, positional: list[Binding], arguments: CallArguments
    ) -> Binding:
        """Call ``callee`` with evaluated arguments; ``node`` is the call as written."""
        if isinstance(callee, Partial):  # functools.partial(Operator, queue=...)(task_id=...)
            merged = callee.arguments.merged(arguments)
            return self.apply(node, callee.callee, [*callee.positional, *positional], merged)
        if isinstance(callee, BoundMethod):
            return self.call_method(node, callee, positional, arguments)
        if isinstance(callee, Imported):
            adopted = self.imported_dict_change(node)
            if adopted is not None:
                method = node.func.attr.value  # type: ignore[attr-defined]
                return self.call_dict_method(node, adopted, method, positional, arguments)
            return self.call_imported(node, callee.qualname, positional, arguments)
        if isinstance(callee, TaskDecorator):
            function = self.as_function(positional[0]) if positional else None
            if function is not None:
                return TaskFlow(function, callee.kind, callee.arguments.merged(arguments))
            return TaskDecorator(callee.kind, callee.arguments.merged(arguments))
        if isinstance(callee, TaskFlow):
            return self.create_taskflow_task(node, callee, mapped=False)
        if isinstance(callee, (DagFactory, GroupFactory)):
            return self.call_factory(node, callee, positional, arguments)
        if isinstance(callee, LocalClass):
            if not callee.operator:
                return Unknown(f"an instance of {callee.qualname}, not an operator")
            return self.maybe_operator(node, callee.qualname, arguments)
        if isinstance(callee, Function):
            return self.call_function(node, callee, positional, arguments)
        if "task_id" in arguments.named:
            written = get_full_name_for_node(node.func)
            return self.maybe_operator(node, written, arguments)
        written = get_full_name_for_node(node.func) or "a call"
        builtin = isinstance(node.func, cst.Name) and self.scope.lookup(node.func.value) is None
        if not (isinstance(node.func, cst.Name) and node.func.value in _PURE_BUILTINS):
            self.escape(positional, arguments, f"it is passed to {written}()")
        if isinstance(callee, Unknown) and not builtin:
            self.unfollowed_call(node, positional, arguments, f"calls {callee.reason}")
        if isinstance(callee, Unknown):
            return callee
        return Unknown("result of a call")

    def imported_dict_change(self, node: cst.Call) -> DictObject | None:
        """``BASE.update(...)`` on a dict imported from another module: this file's object."""
        func = node.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in _DICT_CHANGES:
            return None
        if get_full_name_for_node(func.value) is None:
            return None
        receiver = self.value_of(func.value)
        if not isinstance(receiver, Imported) or receiver.qualname.split(".")[0] in _STDLIB_ROOTS:
            return None
        return self.adopt(receiver)

    def call_builtin(
        self,
        name: str,
        positional: list[Binding],
        arguments: CallArguments,
        star: Unknown | None,
    ) -> Binding | None:
        """``dict(BASE, queue=...)`` and ``range(n)``: the builtins routing code is built with."""
        if star is not None:
            return None
        if name == "setattr" and len(positional) == 3 and not arguments.named:
            owner, attr, value = positional
            if isinstance(attr, Const) and isinstance(attr.value, str):
                self.store_attribute(owner, attr.value, value, f"setattr(..., '{attr.value}', ...)")
            else:
                for field_name in _ROUTING_ATTRIBUTES:
                    self.store_attribute(
                        owner, field_name, Unknown("setattr() of a name not known"), "setattr()"
                    )
            return Const(None)
        if name == "dict" and len(positional) <= 1:
            parts: list[tuple[Expr | None, Expr]] = [
                (None, snapshot(value)) for value in positional
            ]
            parts += [(None, spread) for spread in arguments.spreads]
            parts += [(Const(key), value) for key, value in arguments.named.items()]
            return DictExpr(tuple(parts))
        if name == "range" and 1 <= len(positional) <= 3 and not arguments.named:
            bounds = [value.value for value in positional if isinstance(value, Const)]
            if len(bounds) == len(positional) and all(
                isinstance(bound, int) and not isinstance(bound, bool) for bound in bounds
            ):
                numbers = range(*bounds)  # type: ignore[arg-type]
                if len(numbers) <= MAX_LOOP_ITERATIONS:
                    return SeqExpr(tuple(Const(number) for number in numbers))
            return Unknown("a range() that is not small and literal")
        return None

    def call_factory(
        self,
        node: cst.Call,
        factory: DagFactory | GroupFactory,
        positional: list[Binding],
        arguments: CallArguments,
    ) -> Binding:
        """Apply ``dag(...)``/``task_group(...)`` to a function, or call the decorated function."""
        if factory.function is None:
            if positional and isinstance(positional[0], Function):
                return type(factory)(positional[0], factory.arguments)
            return Unknown("a decorator applied to something that is not a function")
        if isinstance(factory, DagFactory):
            return self.create_dag_from_factory(node, factory)
        return self.create_group_from_factory(node, factory)

    def call_imported(
        self,
        node: cst.Call,
        qualname: str,
        positional: list[Binding],
        arguments: CallArguments,
    ) -> Binding:
        if qualname in names.DAG_CLASSES:
            return self.create_dag(node, positional, arguments)
        if qualname in names.TASK_GROUP_CLASSES:
            return self.create_group_from_call(node, positional, arguments)
        function = self.as_function(positional[0]) if positional else None
        if qualname in names.DAG_DECORATORS:
            return DagFactory(function, arguments)
        if qualname in names.TASK_GROUP_DECORATORS:
            return GroupFactory(function, arguments)
        kind = _task_decorator_kind(qualname)
        if kind is not None:
            if function is not None:
                return TaskFlow(function, kind, arguments)
            return TaskDecorator(kind, arguments)
        if qualname in names.ASSET_DECORATORS and not positional:
            return AssetDecorator(arguments)
        if qualname == names.TIMEDELTA and not arguments.spreads:
            # Sensor timeouts are durations; symbols.py folds only literal numbers.
            return Operation(
                "timedelta",
                (
                    SeqExpr(tuple(snapshot(value) for value in positional)),
                    DictExpr(tuple((Const(key), value) for key, value in arguments.named.items())),
                ),
            )
        if qualname in names.PATH_CONSTRUCTORS and len(positional) == 1:
            return Operation("path", (snapshot(positional[0]),))
        if qualname in _PATH_FUNCTIONS and len(positional) == 1 and not arguments.named:
            return Operation(_PATH_FUNCTIONS[qualname], (snapshot(positional[0]),))
        if qualname.endswith(".format"):
            return self.format_call(Ref(qualname[: -len(".format")]), positional, arguments)
        if qualname in names.DYNAMIC_CALLS:
            return Unknown(names.DYNAMIC_CALLS[qualname])
        if qualname == names.PARTIAL and positional:
            return Partial(positional[0], tuple(positional[1:]), arguments)
        operator, _, method = qualname.rpartition(".")
        if method == "partial" and _looks_like_class(operator):
            return OperatorPartial(operator, arguments, node)
        if "task_id" in arguments.named:
            return self.maybe_operator(node, qualname, arguments)
        if qualname in _COPIES and len(positional) == 1 and not arguments.named:
            copied = snapshot(positional[0])
            if isinstance(copied, SeqExpr):
                return ListObject(list(copied.items), self.uncertain)
            return dict_of(copied, self.uncertain)
        if qualname not in _PURE_CALLS:
            self.escape(positional, arguments, f"it is passed to {qualname}()")
        self.unfollowed_call(
            node, positional, arguments, f"({qualname}) is not followed into its module", qualname
        )
        return Unknown(_call_reason(qualname, positional))

    def call_method(
        self,
        node: cst.Call,
        method: BoundMethod,
        positional: list[Binding],
        arguments: CallArguments,
    ) -> Binding:
        target, name = method.target, method.name
        if isinstance(target, TaskFlow):
            if name == "override":
                return TaskFlow(
                    target.function,
                    target.kind,
                    target.arguments.merged(arguments),
                    target.partial_keys,
                    target.is_partial,
                )
            if name == "partial":
                return TaskFlow(
                    target.function,
                    target.kind,
                    target.arguments,
                    target.partial_keys + tuple(arguments.named),
                    True,
                )
            if name in names.MAPPED_OPERATOR_METHODS:
                keys = tuple(arguments.named) if name == "expand" else ()
                return self.create_taskflow_task(node, target, mapped=True, expand_keys=keys)
        if isinstance(target, LocalClass) and name == "partial":
            return OperatorPartial(target.qualname, arguments, node)
        if isinstance(target, OperatorPartial) and name in names.MAPPED_OPERATOR_METHODS:
            keys = tuple(arguments.named) if name == "expand" else ()
            return self.create_operator_task(
                node, target.operator, target.arguments, mapped=True, expand_keys=keys
            )
        if isinstance(target, DagHandle) and name in ("add_task", "add_tasks"):
            for value in positional:
                if isinstance(value, TaskHandles):
                    self.attach(value, target.index)
            return Const(None)
        if isinstance(target, (DagFactory, GroupFactory)) and name == "override":
            merged = target.arguments.merged(arguments)
            if isinstance(target, DagFactory):
                return DagFactory(target.function, merged)
            return GroupFactory(target.function, merged)
        if (
            isinstance(target, GroupFactory)
            and target.function is not None
            and name in names.MAPPED_OPERATOR_METHODS
        ):
            return self.create_group_from_factory(node, target)
        if isinstance(target, (Const, Operation, Ref, Subscript)) and name == "format":
            return self.format_call(target, positional, arguments)
        if (
            isinstance(target, (Const, Operation, Ref, Subscript))
            and name == "replace"
            and len(positional) == 2
        ):
            old, new = (snapshot(value) for value in positional)
            return Operation("replace", (target, old, new))
        if isinstance(target, (DictExpr, Ref)) and name == "copy" and not positional:
            return dict_of(target, self.uncertain)
        if isinstance(target, DictObject):
            return self.call_dict_method(node, target, name, positional, arguments)
        if isinstance(target, ListObject):
            return self.call_list_method(node, target, name, positional, arguments)
        if isinstance(target, TaskHandles) and name in _TASK_METHODS_RETURNING_TASK:
            return target
        described = get_full_name_for_node(node.func) or name
        if isinstance(target, TaskHandles):
            return Unknown(f"result of calling {described}()")
        self.escape(positional, arguments, f"it is passed to {described}()")
        if any(isinstance(value, (DagHandle, GroupHandle)) for value in positional):
            self.unfollowed_call(node, positional, arguments, "is a method not followed")
        return Unknown(f"result of calling {described}()")

    def call_dict_method(
        self,
        node: cst.Call,
        target: DictObject,
        name: str,
        positional: list[Binding],
        arguments: CallArguments,
    ) -> Binding:
        """The dict methods routing code is written with; any other spoils the dict."""
        written = get_full_name_for_node(node.func) or name
        if name == "copy" and not positional:
            return dict_of(snapshot(target), self.uncertain)
        if name == "get" and 1 <= len(positional) <= 2:
            default = snapshot(positional[1]) if len(positional) == 2 else Const(None)
            return Operation("get", (snapshot(target), snapshot(positional[0]), default))
        if name in ("keys", "values", "items") and not positional:
            entries = dict_entries(target)
            if entries is None:
                return Unknown(f"{written}() of a dict whose keys are not all literal")
            picked: list[Binding] = [
                key
                if name == "keys"
                else item
                if name == "values"
                else ListObject([key, item], self.uncertain)
                for key, item in entries
            ]
            return ListObject(picked, self.uncertain)
        if name == "update" and len(positional) <= 1:
            added: list[tuple[str, Binding | None, Binding]] = [
                (SPREAD, None, snapshot(value)) for value in positional
            ]
            added += [(SPREAD, None, spread) for spread in arguments.spreads]
            added += [(SET, Const(key), value) for key, value in arguments.bindings.items()]
            self.change(target, lambda: target.parts.extend(added))
            return Const(None)
        if name == "setdefault" and len(positional) in (1, 2) and not arguments.named:
            key = positional[0]
            fallback: Binding = positional[1] if len(positional) == 2 else Const(None)
            self.change(target, lambda: target.parts.append((DEFAULT, key, fallback)))
            return Subscript(snapshot(target), snapshot(key))
        if name == "pop" and len(positional) in (1, 2) and not arguments.named:
            key = positional[0]
            before = snapshot(target)
            self.change(target, lambda: target.parts.append((REMOVE, key, Const(None))))
            if len(positional) == 2:
                return Operation("get", (before, snapshot(key), snapshot(positional[1])))
            return Subscript(before, snapshot(key))
        if name == "clear" and not positional:
            self.change(target, target.parts.clear)
            return Const(None)
        spoil(target, f"changed by {written}()")
        self.escape(positional, arguments, f"it is passed to {written}()")
        return Unknown(f"result of calling {written}()")

    def call_list_method(
        self,
        node: cst.Call,
        target: ListObject,
        name: str,
        positional: list[Binding],
        arguments: CallArguments,
    ) -> Binding:
        written = get_full_name_for_node(node.func) or name
        if name == "append" and len(positional) == 1:
            item = positional[0]
            self.change(target, lambda: target.items.append(item))
            return Const(None)
        if name == "extend" and len(positional) == 1:
            self.extend(target, positional[0])
            return Const(None)
        if name == "copy" and not positional:
            return ListObject(list(target.items), self.uncertain)
        if name in ("index", "count"):
            return Unknown(f"result of calling {written}()")
        spoil(target, f"changed by {written}()")
        self.escape(positional, arguments, f"it is passed to {written}()")
        return Unknown(f"result of calling {written}()")

    def escape(self, positional: list[Binding], arguments: CallArguments, why: str) -> None:
        """Containers handed to a call the walk does not follow may be changed by it."""
        for value in [*positional, *arguments.bindings.values(), *arguments.spread_bindings]:
            if isinstance(value, CONTAINERS):
                spoil(value, f"a dict or list that may have been changed: {why}")

    def format_call(
        self, template: Expr, positional: list[Binding], arguments: CallArguments
    ) -> Binding:
        args = SeqExpr(tuple(snapshot(value) for value in positional))
        kwargs = DictExpr(
            tuple((Const(key), value) for key, value in arguments.named.items())
            + tuple((None, spread) for spread in arguments.spreads)
        )
        return Operation("format", (template, args, kwargs))

    def as_function(self, value: Binding) -> Function | None:
        """A function given to ``task(fn)``: defined here, or imported from elsewhere."""
        if isinstance(value, Function):
            return value
        if isinstance(value, Imported):
            return Function(None, value.qualname)
        return None

    # --- creating Airflow objects --------------------------------------------------------------

    def create_dag(
        self, node: cst.Call, positional: list[Binding], arguments: CallArguments
    ) -> DagHandle:
        dag_id = arguments.named.get("dag_id")
        if dag_id is None and positional:
            dag_id = snapshot(positional[0])
        if dag_id is None:
            dag_id = _keyword(arguments, "dag_id", Unknown("DAG without dag_id"))
            assert dag_id is not None
        self.dags.append(_DraftDag(dag_id, node, _default_args(arguments)))
        return DagHandle(len(self.dags) - 1)

    def create_asset(
        self, node: cst.FunctionDef, decorator: AssetDecorator, target: Binding
    ) -> None:
        """``@asset``: a DAG named ``dag_id``, else ``name``, else the function's name."""
        arguments = decorator.arguments
        name = node.name.value
        dag_id = arguments.named.get("dag_id", arguments.named.get("name", Const(name)))
        self.dags.append(_DraftDag(dag_id, node.name, None))
        with self.inside_dag(len(self.dags) - 1):
            if isinstance(target, TaskFlow):
                self.create_taskflow_task(node.name, target, mapped=False)
            else:
                task = _DraftTask(
                    task_id=Const(name),
                    node=node.name,
                    operator=names.ASSET_OPERATOR,
                    dag=len(self.dags) - 1,
                    group=None,
                    arguments=CallArguments(),
                    applies_default_args=True,
                )
                if isinstance(target, Function):
                    task.imports = self.function_imports_of(target)
                self.add_task(task)

    def create_dag_from_factory(self, node: cst.Call, factory: DagFactory) -> Binding:
        assert factory.function is not None
        arguments = _refreshed(factory.arguments)
        dag_id = _keyword(arguments, "dag_id", Const(factory.function.name))
        assert dag_id is not None
        self.dags.append(_DraftDag(dag_id, node, _default_args(arguments)))
        index = len(self.dags) - 1
        with self.inside_dag(index):
            self.run_factory_body(factory.function)
        return DagHandle(index)

    def create_group_from_call(
        self, node: cst.Call, positional: list[Binding], arguments: CallArguments
    ) -> GroupHandle:
        group_id = arguments.named.get("group_id")
        if group_id is None:
            group_id = snapshot(positional[0]) if positional else Const(None)
        return self.create_group(node, group_id, arguments)

    def create_group_from_factory(self, node: cst.Call, factory: GroupFactory) -> Binding:
        assert factory.function is not None
        arguments = _refreshed(factory.arguments)
        group_id = arguments.named.get("group_id", Const(factory.function.name))
        handle = self.create_group(node, group_id, arguments, suffix_on_collision=True)
        self.group_stack.append(handle.index)
        try:
            self.run_factory_body(factory.function)
        finally:
            self.group_stack.pop()
        return handle

    def create_group(
        self,
        node: cst.Call,
        group_id: Expr,
        arguments: CallArguments,
        suffix_on_collision: bool = False,
    ) -> GroupHandle:
        dag = self.current_dag(arguments)
        parent_binding = arguments.bindings.get("parent_group")
        parent = (
            parent_binding.index
            if isinstance(parent_binding, GroupHandle)
            else self.current_group(dag)
        )
        self.groups.append(
            _DraftGroup(
                group_id,
                node,
                dag,
                parent,
                _default_args(arguments),
                arguments.named.get("prefix_group_id", Const(True)),
                suffix_on_collision,
            )
        )
        return GroupHandle(len(self.groups) - 1)

    def maybe_operator(
        self, node: cst.Call, operator: str | None, arguments: CallArguments
    ) -> Binding:
        if operator is not None and _looks_like_class(operator):
            return self.create_operator_task(node, operator, arguments)
        return Unknown(f"result of calling {operator}()")

    def create_operator_task(
        self,
        node: cst.Call,
        operator: str,
        arguments: CallArguments,
        mapped: bool = False,
        expand_keys: tuple[str, ...] = (),
    ) -> Binding:
        dag = self.current_dag(arguments)
        task = _DraftTask(
            task_id=arguments.named.get("task_id", Unknown("task without task_id")),
            node=node,
            operator=operator,
            dag=dag,
            group=self.task_group_for(arguments, dag),
            arguments=arguments,
            applies_default_args=dag is not None,
            mapped=mapped,
            expand_keys=expand_keys,
        )
        callable_binding = arguments.bindings.get("python_callable")
        if isinstance(callable_binding, Function):
            task.imports = self.function_imports_of(callable_binding)
        return self.add_task(task)

    def create_taskflow_task(
        self,
        node: cst.CSTNode,
        flow: TaskFlow,
        mapped: bool,
        expand_keys: tuple[str, ...] = (),
    ) -> Binding:
        arguments = flow.arguments
        dag = self.current_dag(arguments)
        task = _DraftTask(
            task_id=arguments.named.get("task_id", Const(flow.function.name)),
            node=node,
            operator=None,
            dag=dag,
            group=self.task_group_for(arguments, dag),
            arguments=arguments,
            applies_default_args=dag is not None,
            taskflow=flow.kind,
            mapped=mapped,
            expand_keys=expand_keys,
            partial_keys=flow.partial_keys,
            imports=self.function_imports_of(flow.function),
        )
        return self.add_task(task)

    def add_task(self, task: _DraftTask) -> Binding:
        if len(self.tasks) >= MAX_TASKS:
            self.bound_reached(task.node, f"more than {MAX_TASKS} tasks in one file")
            return Unknown("too many tasks in one file")
        task.level = self.uncertain
        if task.dag is not None:
            task.dag_defaults = self.dags[task.dag].current_defaults()
        self.tasks.append(task)
        return TaskHandles((len(self.tasks) - 1,))

    def current_dag(self, arguments: CallArguments) -> int | None:
        explicit = arguments.bindings.get("dag")
        if isinstance(explicit, DagHandle):
            return explicit.index
        group = arguments.bindings.get("task_group")
        if isinstance(group, GroupHandle):
            return self.groups[group.index].dag
        return self.dag_stack[-1] if self.dag_stack else None

    def current_group(self, dag: int | None) -> int | None:
        if self.group_stack and self.groups[self.group_stack[-1]].dag == dag:
            return self.group_stack[-1]
        return None

    def task_group_for(self, arguments: CallArguments, dag: int | None) -> int | None:
        explicit = arguments.bindings.get("task_group")
        if isinstance(explicit, GroupHandle):
            return explicit.index
        return self.current_group(dag)

    def relate(self, left: Binding, right: Binding) -> Binding:
        """``a >> b`` adds a DAG-less side to the other side's DAG, without its default_args."""
        handles = [value for value in (left, right) if isinstance(value, TaskHandles)]
        dags = {
            self.tasks[index].dag
            for handle in handles
            for index in handle.indexes
            if self.tasks[index].dag is not None
        }
        if len(dags) == 1:
            (dag,) = dags
            for handle in handles:
                self.attach(handle, dag)
        return right

    def attach(self, handles: TaskHandles, dag: int | None) -> None:
        for index in handles.indexes:
            task = self.tasks[index]
            if task.dag is None and dag is not None:
                task.dag = dag
                task.applies_default_args = False

    # --- bindings ------------------------------------------------------------------------------

    def bind(self, target: cst.BaseExpression, value: Binding) -> None:
        if isinstance(target, cst.Name):
            scope = self.module_scope if target.value in self.scope.declared else self.scope
            scope.names[target.value] = value
        elif isinstance(target, (cst.Tuple, cst.List)):
            elements = [element.value for element in target.elements]
            items: Sequence[Binding] | None = None
            if isinstance(value, SeqExpr) or (
                isinstance(value, ListObject) and value.spoiled is None
            ):
                items = value.items
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
        container = self.container_of(target.value)
        key: Binding = Unknown("a slice")
        if len(target.slice) == 1 and isinstance(target.slice[0].slice, cst.Index):
            key = self.value_of(target.slice[0].slice.value)
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
        if isinstance(current, Imported):
            return self.adopt(current)
        return current

    def adopt(self, imported: Imported) -> DictObject:
        """A dict imported from another module, changed here: every name bound to the import
        now holds one object made of the module's dict and this file's changes."""
        adopted = DictObject([(SPREAD, None, Ref(imported.qualname))], self.uncertain)
        scope: _Scope | None = self.scope
        while scope is not None:
            for name, bound in scope.names.items():
                if bound == imported:
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
                spoil(bound, f"'{written}' cannot be followed: {what}")

    def change(self, container: DictObject | ListObject, apply: Callable[[], object]) -> None:
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
        if isinstance(owner, _NOT_TASKS):
            return
        reason = f"'{written} = ...' assigns to an object that cannot be followed, maybe this task"
        for task in self.tasks:
            task.overridden[attr] = Unknown(reason)

    def qualify(self, name: str) -> str:
        return f"{self.module_name}.{name}" if self.module_name else name

    # --- model ---------------------------------------------------------------------------------

    def task_dag_defaults(self, task: _DraftTask) -> Expr | None:
        """The DAG's default_args the task got, when they changed after it was built."""
        if task.dag is None or not task.applies_default_args:
            return None
        version, defaults = task.dag_defaults
        if version == self.dags[task.dag].current_defaults()[0]:
            return None
        return defaults if defaults is not None else DictExpr(())

    def build(
        self,
        tree: cst.Module,
        path: str,
        noqa: dict[int, frozenset[str] | None],
        file_noqa: bool,
    ) -> Module:
        wanted: list[cst.CSTNode] = [dag.node for dag in self.dags]
        wanted += [group.node for group in self.groups]
        wanted += [task.node for task in self.tasks]
        wanted += [site.node for site in self.imports]
        wanted += [node for node, _ in self.unmodelled.values()]
        for task in self.tasks:
            wanted += [site.node for site in task.imports]
            wanted += list(task.arguments.nodes.values())
        positions = node_positions(tree, wanted)

        def import_site(draft: _DraftImport) -> ImportSite:
            return ImportSite(
                draft.module,
                positions[id(draft.node)],
                draft.scope,
                draft.guarded,
                imported_names(draft.node),
                is_relative(draft.node),
            )

        constants: dict[str, Expr] = {}
        for name, binding in self.module_scope.names.items():
            if isinstance(binding, (*EXPR_TYPES, *CONTAINERS)):
                constants[name] = snapshot(binding)
            elif isinstance(binding, Imported):
                constants[name] = Ref(binding.qualname)
            elif isinstance(binding, LocalClass):
                constants.update(_class_constants(name, binding))
        return Module(
            path=path,
            module_name=self.module_name,
            constants=constants,
            imports=tuple(import_site(site) for site in self.imports),
            dags=tuple(
                Dag(dag.dag_id, positions[id(dag.node)], dag.current_defaults()[1])
                for dag in self.dags
            ),
            groups=tuple(
                TaskGroup(
                    group.group_id,
                    positions[id(group.node)],
                    group.dag,
                    group.parent,
                    group.default_args,
                    group.prefix_group_id,
                    group.suffix_on_collision,
                )
                for group in self.groups
            ),
            tasks=tuple(
                Task(
                    task_id=task.task_id,
                    position=positions[id(task.node)],
                    operator=task.operator,
                    dag=task.dag,
                    group=task.group,
                    arguments=Arguments(
                        dict(task.arguments.named),
                        task.arguments.spreads,
                        {key: positions[id(node)] for key, node in task.arguments.nodes.items()},
                    ),
                    applies_default_args=task.applies_default_args,
                    taskflow=task.taskflow,
                    mapped=task.mapped,
                    expand_keys=task.expand_keys,
                    partial_keys=task.partial_keys,
                    imports=tuple(import_site(site) for site in task.imports),
                    overridden=dict(task.overridden),
                    dag_default_args=self.task_dag_defaults(task),
                    conditional=task.level > 0,
                )
                for task in self.tasks
            ),
            noqa=noqa,
            file_noqa=file_noqa,
            loop_refs=tuple(self.loop_refs),
            classes=dict(self.classes),
            unmodelled=tuple(
                Unmodelled(positions[id(node)], message)
                for node, message in self.unmodelled.values()
            ),
        )


# Dispatch by node type: a new form is one entry and one method.
_Handler = Callable[[_Walker, Any], Any]
_STATEMENTS: dict[type[cst.CSTNode], _Handler] = {
    cst.SimpleStatementLine: _Walker.walk_line,
    cst.FunctionDef: _Walker.define_function,
    cst.ClassDef: _Walker.define_class,
    cst.With: _Walker.walk_with,
    cst.For: _Walker.walk_for,
    cst.If: _Walker.walk_if,
    cst.Try: _Walker.walk_try,
    cst.While: _Walker.walk_while,
}
_SMALL_STATEMENTS: dict[type[cst.CSTNode], _Handler] = {
    cst.Expr: _Walker.walk_expression_statement,
    cst.Assign: _Walker.walk_assign,
    cst.AnnAssign: _Walker.walk_annotated_assign,
    cst.AugAssign: _Walker.walk_aug_assign,
    cst.Import: _Walker.walk_import,
    cst.ImportFrom: _Walker.walk_import,
    cst.Del: _Walker.walk_del_statement,
    cst.Return: _Walker.walk_return,
    cst.Break: _Walker.walk_break,
    cst.Continue: _Walker.walk_continue,
}
_EXPRESSIONS: dict[type[cst.CSTNode], _Handler] = {
    cst.Name: _Walker.name_node_value,
    cst.SimpleString: _Walker.string_value,
    cst.ConcatenatedString: _Walker.string_value,
    cst.Integer: _Walker.integer_value,
    cst.Float: _Walker.float_value,
    cst.FormattedString: _Walker.fstring_value,
    cst.Attribute: _Walker.attribute_value,
    cst.Call: _Walker.call_value,
    cst.Subscript: _Walker.subscript_value,
    cst.Dict: _Walker.dict_value,
    cst.List: _Walker.sequence_value,
    cst.Tuple: _Walker.sequence_value,
    cst.BinaryOperation: _Walker.binary_value,
    cst.UnaryOperation: _Walker.unary_value,
    cst.ListComp: _Walker.comprehension_value,
    cst.GeneratorExp: _Walker.comprehension_value,
    cst.SetComp: _Walker.comprehension_value,
    cst.DictComp: _Walker.comprehension_value,
    cst.IfExp: _Walker.if_expression_value,
    cst.Comparison: _Walker.comparison_value,
    cst.BooleanOperation: _Walker.boolean_value,
    cst.Lambda: _Walker.lambda_value,
    cst.Set: _Walker.set_value,
}


# --- helpers -----------------------------------------------------------------------------------

_BUILTIN_CLASSES = frozenset({"object", "dict", "Exception", "str", "int", "list", "tuple"})
_ENUM_BASES = frozenset({"enum.Enum", "enum.IntEnum", "enum.StrEnum"})
# Objects whose attributes are never a task's: stores on them change no routing.
_NOT_TASKS = (
    Const,
    DictObject,
    EnumMember,
    ListObject,
    GroupHandle,
    Function,
    LocalClass,
    Imported,
    TaskFlow,
    DagFactory,
    GroupFactory,
)
_ROUTING_ATTRIBUTES = ("queue", "executor", "pool", "pool_slots", "deferrable")
_TASK_METHODS_RETURNING_TASK = frozenset({"as_setup", "as_teardown"})
# Pure functions of a path string, folded by ``resolve.values``.
_PATH_FUNCTIONS = {
    "os.path.basename": "path_name",
    "os.path.splitext": "path_splitext",
}
# Libraries DAG files compute values with, whose calls never build tasks.
_VALUE_LIBRARIES = frozenset(
    {*sys.stdlib_module_names, "airflow", "pendulum", "kubernetes", "dateutil", "pytz", "yaml"}
)
# Dict methods that change the dict, followed on a dict imported from another module.
_DICT_CHANGES = frozenset({"update", "setdefault", "pop", "clear"})
# Imported names that are modules, never a repository's dict.
_STDLIB_ROOTS = frozenset({"os", "sys", "logging", "json", "copy", "airflow", "datetime"})
# Calls that never change the containers they are given.
_PURE_BUILTINS = frozenset(
    {"len", "str", "repr", "int", "float", "bool", "print", "isinstance", "sorted", "format"}
)
_PURE_CALLS = frozenset({"json.dumps", "logging.info", "logging.debug", "logging.warning"})
_COPIES = frozenset({"copy.copy", "copy.deepcopy"})


def _decorator_callee(decorator: cst.Decorator) -> cst.BaseExpression:
    """``@dataclass(frozen=True)`` is a ``dataclass`` decorator too."""
    expression = decorator.decorator
    return expression.func if isinstance(expression, cst.Call) else expression


def _class_constants(path: str, local: LocalClass) -> dict[str, Expr]:
    """``QUEUE.SNAP`` (and an Enum's ``Q.SNAP.value``) as dotted constants another module can
    import; nested classes by their dotted path."""
    found: dict[str, Expr] = {}
    for attr, bound in local.attributes.items():
        if isinstance(bound, LocalClass):
            found.update(_class_constants(f"{path}.{attr}", bound))
        elif isinstance(bound, (*EXPR_TYPES, *CONTAINERS)):
            suffix = ".value" if local.enum else ""
            found[f"{path}.{attr}{suffix}"] = snapshot(bound)
    return found


def dict_entries(value: DictObject) -> list[tuple[Binding, Binding]] | None:
    """The items of a dict built only from literal-keyed items, in order; else ``None``."""
    if value.spoiled is not None:
        return None
    entries: dict[object, tuple[Binding, Binding]] = {}
    for kind, key, item in value.parts:
        if kind != SET or not isinstance(key, Const):
            return None
        entries[key.value] = (key, item)
    return list(entries.values())


def _default_args(arguments: CallArguments) -> Expr | None:
    return _keyword(arguments, "default_args", None)


def _keyword(arguments: CallArguments, name: str, default: Expr | None) -> Expr | None:
    """A keyword given by name or through ``**`` spreads (``DAG(**CONFIG)``)."""
    if name in arguments.named or not arguments.spreads:
        return arguments.named.get(name, default)
    spreads = DictExpr(tuple((None, spread) for spread in arguments.spreads))
    if isinstance(default, Unknown):  # required: a spread without it fails where Airflow parses
        return Subscript(spreads, Const(name))
    return Operation("get", (spreads, Const(name), default if default is not None else Const(None)))


def _refreshed(arguments: CallArguments) -> CallArguments:
    """Keyword arguments as their objects hold them now: a decorator keeps the dicts it was
    given, and the DAG or group it builds when called copies them then."""
    named = dict(arguments.named)
    named.update({key: snapshot(value) for key, value in arguments.bindings.items()})
    spreads = arguments.spreads
    if arguments.spread_bindings:
        spreads = tuple(snapshot(value) for value in arguments.spread_bindings)
    return CallArguments(
        named, spreads, arguments.bindings, arguments.nodes, arguments.spread_bindings
    )


def _task_decorator_kind(qualname: str) -> str | None:
    if qualname in names.TASK_DECORATORS:
        return names.TASK_DECORATORS[qualname]
    head, _, kind = qualname.rpartition(".")
    if head in ("airflow.decorators.task", "airflow.sdk.task"):
        return kind
    return None


_CLASS_NAME = re.compile(r"(?:^|\.)_*[A-Z][A-Za-z0-9_]*$")


def _looks_like_class(qualname: str) -> bool:
    """Operators are classes; a call of ``make_task(task_id=...)`` is a factory we cannot follow."""
    return bool(_CLASS_NAME.search(qualname))


def _call_reason(name: str, positional: list[Binding]) -> str:
    """Why a call's result is unknown, naming the unknown argument it is computed from
    (``json.loads(Variable.get(...))`` is the Variable's doing, not json's)."""
    dynamic = next((value for value in positional if isinstance(value, Unknown)), None)
    if dynamic is None:
        return f"result of calling {name}()"
    return f"result of calling {name}() on {dynamic.reason}"


def _depth(value: Binding) -> int:
    """How deep the chain of first operands goes, up to just past the limit."""
    depth = 0
    while isinstance(value, (Operation, DictExpr)) and depth <= MAX_EXPRESSION_DEPTH:
        if isinstance(value, Operation):
            value = value.operands[0] if value.operands else Const(None)
        else:
            value = value.parts[0][1] if value.parts else Const(None)
        depth += 1
    return depth


def _declared_global(node: cst.FunctionDef) -> frozenset[str]:
    """Names a function body declares ``global`` (anywhere in it, as Python scopes them)."""
    found: set[str] = set()

    class Globals(cst.CSTVisitor):
        def visit_Global(self, statement: cst.Global) -> None:
            found.update(item.name.value for item in statement.names)

        def visit_FunctionDef(self, inner: cst.FunctionDef) -> bool:
            return inner is node

        def visit_ClassDef(self, inner: cst.ClassDef) -> bool:
            return False

    node.visit(Globals())
    return frozenset(found)


def _parameters(node: cst.FunctionDef) -> list[str]:
    params = node.params
    names_: list[str] = [param.name.value for param in params.posonly_params]
    names_ += [param.name.value for param in params.params]
    names_ += [param.name.value for param in params.kwonly_params]
    if isinstance(params.star_arg, cst.Param):
        names_.append(params.star_arg.name.value)
    if params.star_kwarg is not None:
        names_.append(params.star_kwarg.name.value)
    return names_


def _same_binding(left: Binding, right: Binding) -> bool:
    return left is right or (isinstance(left, EXPR_TYPES) and left == right)


def _is_main_guard(test: cst.BaseExpression) -> bool:
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return False
    left = get_full_name_for_node(test.left)
    right = test.comparisons[0].comparator
    return (
        left == "__name__"
        and isinstance(right, cst.SimpleString)
        and right.evaluated_value == "__main__"
    )


def _is_type_checking(test: cst.BaseExpression) -> bool:
    name = get_full_name_for_node(test)
    return name in ("TYPE_CHECKING", "typing.TYPE_CHECKING")


def _handles_import_error(handler: cst.ExceptHandler) -> bool:
    if handler.type is None:
        return True
    types = handler.type.elements if isinstance(handler.type, cst.Tuple) else None
    candidates = [element.value for element in types] if types else [handler.type]
    return any(
        (get_full_name_for_node(candidate) or "").rsplit(".", 1)[-1] in _IMPORT_ERRORS
        for candidate in candidates
    )


def _collect_imports(
    body: cst.BaseSuite, found: list[_DraftImport], walker: _Walker, guarded: bool
) -> None:
    if isinstance(body, cst.SimpleStatementSuite):
        _collect_small_imports(body.body, found, walker, guarded)
        return
    if not isinstance(body, cst.IndentedBlock):
        return
    for statement in body.body:
        if isinstance(statement, cst.SimpleStatementLine):
            _collect_small_imports(statement.body, found, walker, guarded)
        elif isinstance(statement, cst.Try):
            catches = any(_handles_import_error(handler) for handler in statement.handlers)
            _collect_imports(statement.body, found, walker, guarded or catches)
            for handler in statement.handlers:
                _collect_imports(handler.body, found, walker, True)
            if statement.orelse is not None:
                _collect_imports(statement.orelse.body, found, walker, guarded)
            if statement.finalbody is not None:
                _collect_imports(statement.finalbody.body, found, walker, guarded)
        elif isinstance(statement, cst.If):
            nested_guard = guarded or _is_type_checking(statement.test)
            _collect_imports(statement.body, found, walker, nested_guard)
            orelse = statement.orelse
            while orelse is not None:
                if isinstance(orelse, cst.If):
                    _collect_imports(orelse.body, found, walker, guarded)
                    orelse = orelse.orelse
                else:
                    _collect_imports(orelse.body, found, walker, guarded)
                    orelse = None
        elif isinstance(statement, (cst.With, cst.For, cst.While, cst.FunctionDef)):
            _collect_imports(statement.body, found, walker, guarded)


def _collect_small_imports(
    statements: Sequence[cst.BaseSmallStatement],
    found: list[_DraftImport],
    walker: _Walker,
    guarded: bool,
) -> None:
    for small in statements:
        if isinstance(small, (cst.Import, cst.ImportFrom)):
            _, modules = import_bindings(small, walker.module_name, walker.is_package)
            found.extend(_DraftImport(module, small, "task", guarded) for module in modules)
