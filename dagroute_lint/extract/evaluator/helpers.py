"""Helpers of the walk that need no walker: tables, argument lookups, small predicates."""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence

import libcst as cst
from libcst.helpers import get_full_name_for_node

from dagroute_lint.catalog import airflow_names as names
from dagroute_lint.catalog.distributions import builds_no_tasks
from dagroute_lint.catalog.import_verdicts import FAILS, checked_release, import_verdict
from dagroute_lint.extract.bindings import (
    SET,
    Binding,
    BoundMethod,
    CallArguments,
    DagFactory,
    DictObject,
    EnumMember,
    Function,
    GroupFactory,
    GroupHandle,
    Imported,
    ListObject,
    LocalClass,
    Partial,
    Release,
    SetObject,
    TaskFlow,
)
from dagroute_lint.extract.containers import (
    CONTAINERS,
    EXPR_TYPES,
    key_of,
    snapshot,
)
from dagroute_lint.extract.evaluator.state import (
    IMPORT_ERRORS,
    MAX_EXPRESSION_DEPTH,
    DraftImport,
    WalkerState,
)
from dagroute_lint.extract.imports import import_bindings
from dagroute_lint.extract.literals import string_literal
from dagroute_lint.model import (
    Const,
    DictExpr,
    Expr,
    Operation,
    OperationName,
    Subscript,
    Unknown,
)

# --- helpers -----------------------------------------------------------------------------------

BUILTIN_CLASSES = frozenset({"object", "dict", "Exception", "str", "int", "list", "tuple"})
ENUM_BASES = frozenset({"enum.Enum", "enum.IntEnum", "enum.StrEnum"})
# Objects whose attributes are never a task's: stores on them change no routing.
NOT_TASKS = (
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
ROUTING_ATTRIBUTES = ("queue", "executor", "pool", "pool_slots", "deferrable")
TASK_METHODS_RETURNING_TASK = frozenset({"as_setup", "as_teardown"})
# Pure functions of a path string, folded by ``resolve.values``.
PATH_FUNCTIONS: dict[str, OperationName] = {
    "os.path.basename": "path_name",
    "os.path.splitext": "path_splitext",
}
# What a call into another module may reach and be run here.
FOLLOWED_FOREIGN = (Function, TaskFlow, DagFactory, GroupFactory, LocalClass, Partial, BoundMethod)
# Libraries DAG files compute values with, whose calls never build tasks.
VALUE_LIBRARIES = frozenset(
    {*sys.stdlib_module_names, "airflow", "pendulum", "kubernetes", "dateutil", "pytz", "yaml"}
)
# Of those, the modules whose calls may return code rather than data: a module
# (``importlib.import_module``), a callable (``functools.reduce``, ``operator.attrgetter``), a
# copy of an operator, or Airflow's own objects. A method called on what they return may build
# tasks; on what the others return it cannot.
CODE_RETURNING_LIBRARIES = frozenset(
    {
        "airflow", "importlib", "pkgutil", "runpy", "builtins", "functools", "operator",
        "inspect", "types", "copy", "itertools", "contextlib", "sys", "abc", "typing",
    }
)  # fmt: skip


def returns_data(qualname: str) -> bool:
    """Whether what a call of ``qualname`` returns is plain data (see ``Unknown.data``): a
    call that builds no task, of a library that returns no code either."""
    root = qualname.split(".", maxsplit=1)[0]
    return root not in CODE_RETURNING_LIBRARIES and builds_no_task(qualname)


def builds_no_task(qualname: str) -> bool:
    """Whether calling ``qualname`` (of a module the walk does not follow) cannot build a task:
    the standard library, the value libraries, and libraries that do not require Airflow; of
    Airflow, not a provider's function (see ``PROVIDERS``)."""
    root = qualname.split(".", maxsplit=1)[0]
    if qualname.startswith(PROVIDERS) and not qualname.startswith(PROVIDER_COMPAT):
        return looks_like_class(qualname)
    return root in VALUE_LIBRARIES or builds_no_tasks(qualname.rpartition(".")[0] or qualname)


# A provider's function may build operators for its caller (google's
# ``make_initialization_workspace_flow`` returns the first and last of seven); its classes called
# without a task id are hooks, links and configurations. The compatibility provider re-exports
# Airflow's own functions (``timezone.datetime``), which are values.
PROVIDERS = "airflow.providers."
PROVIDER_COMPAT = "airflow.providers.common.compat."


# Dict methods that change the dict, followed on a dict imported from another module.
DICT_CHANGES = frozenset({"update", "setdefault", "pop", "clear"})
# Imported names that are modules, never a repository's dict.
STDLIB_ROOTS = frozenset({"os", "sys", "logging", "json", "copy", "airflow", "datetime"})
# Calls that never change the containers they are given.
PURE_BUILTINS = frozenset(
    {
        "len", "str", "repr", "int", "float", "bool", "print", "isinstance", "sorted", "format",
        "list", "tuple", "reversed", "enumerate", "zip", "min", "max", "sum", "abs", "round",
        "any", "all", "set", "frozenset", "hash", "ord", "chr",
    }
)  # fmt: skip
PURE_CALLS = frozenset({"json.dumps", "logging.info", "logging.debug", "logging.warning"})
COPIES = frozenset({"copy.copy", "copy.deepcopy"})


# Set operators: ``a | b``, ``a & b``, ``a - b``, ``a ^ b`` on sets of literals.
SET_OPERATORS: dict[type[cst.CSTNode], str] = {
    cst.BitOr: "__or__",
    cst.BitAnd: "__and__",
    cst.Subtract: "__sub__",
    cst.BitXor: "__xor__",
}

# Set methods that return a new set, and those that change the set in place.
SET_RESULTS: dict[str, type[cst.CSTNode]] = {
    "union": cst.BitOr,
    "intersection": cst.BitAnd,
    "difference": cst.Subtract,
    "symmetric_difference": cst.BitXor,
    "copy": cst.BitOr,
}
SET_CHANGES: dict[str, type[cst.CSTNode]] = {
    "update": cst.BitOr,
    "add": cst.BitOr,
    "intersection_update": cst.BitAnd,
    "difference_update": cst.Subtract,
    "discard": cst.Subtract,
    "symmetric_difference_update": cst.BitXor,
}
SET_AUGMENTED: dict[type[cst.CSTNode], type[cst.CSTNode]] = {
    cst.BitOrAssign: cst.BitOr,
    cst.BitAndAssign: cst.BitAnd,
    cst.SubtractAssign: cst.Subtract,
    cst.BitXorAssign: cst.BitXor,
}


def set_operation(
    operator: type[cst.CSTNode], left: Binding, right: Binding, level: int
) -> Binding:
    """A new set from two sets of literals, as Python computes it; else unknown with why."""
    method = SET_OPERATORS.get(operator)
    sides = [side for side in (left, right) if isinstance(side, SetObject)]
    if method is None or len(sides) != 2:
        return Unknown("an operation on a set and a value that is not a set")
    for side in sides:
        if side.spoiled is not None:
            return side.spoiled
    result: set[object] = getattr(set(sides[0].values), method)(set(sides[1].values))
    literals = {**sides[1].values, **sides[0].values}
    return SetObject({value: literals[value] for value in result}, level)


def replace_values(target: SetObject, source: SetObject) -> None:
    """``s |= t`` and the like change ``s`` itself: every name bound to it sees the result."""
    target.values.clear()
    target.values.update(source.values)


def enum_member(enum: LocalClass, name: str) -> EnumMember:
    """The member ``name`` of an Enum class of the repository."""
    plain = enum.info is not None and enum.info.bases == ("enum.Enum",)
    return EnumMember(name, enum.attributes[name], enum.qualname, plain)


def decorator_callee(decorator: cst.Decorator) -> cst.BaseExpression:
    """``@dataclass(frozen=True)`` is a ``dataclass`` decorator too."""
    expression = decorator.decorator
    return expression.func if isinstance(expression, cst.Call) else expression


def class_constants(path: str, local: LocalClass) -> dict[str, Expr]:
    """``QUEUE.SNAP`` (and an Enum's ``Q.SNAP.value``) as dotted constants another module can
    import; nested classes by their dotted path."""
    found: dict[str, Expr] = {}
    for attr, bound in local.attributes.items():
        if isinstance(bound, LocalClass):
            found.update(class_constants(f"{path}.{attr}", bound))
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
        identity = key_of(key) if kind == SET and key is not None else None
        if identity is None or key is None:
            return None
        first = entries.get(identity, (key, item))[0]  # Python keeps the first key object
        entries[identity] = (first, item)
    return list(entries.values())


def default_args(arguments: CallArguments) -> Expr | None:
    return keyword(arguments, "default_args", None)


def keyword(arguments: CallArguments, name: str, default: Expr | None) -> Expr | None:
    """A keyword given by name or through ``**`` spreads (``DAG(**CONFIG)``)."""
    if name in arguments.named or not arguments.spreads:
        return arguments.named.get(name, default)
    spreads = DictExpr(tuple((None, spread) for spread in arguments.spreads))
    if isinstance(default, Unknown):  # required: a spread without it fails where Airflow parses
        return Subscript(spreads, Const(name))
    return Operation("get", (spreads, Const(name), default if default is not None else Const(None)))


def refreshed(arguments: CallArguments) -> CallArguments:
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


def task_decorator_kind(qualname: str) -> str | None:
    if qualname in names.TASK_DECORATORS:
        return names.TASK_DECORATORS[qualname]
    head, _, kind = qualname.rpartition(".")
    if head in ("airflow.decorators.task", "airflow.sdk.task"):
        return kind
    return None


CLASS_NAME = re.compile(r"(?:^|\.)_*[A-Z][A-Za-z0-9_]*$")


def looks_like_class(qualname: str) -> bool:
    """Operators are classes; a call of ``make_task(task_id=...)`` is a factory we cannot follow."""
    return bool(CLASS_NAME.search(qualname))


# Reasons that say only that a value was computed: a call on one names the call instead.
COMPUTED = frozenset({"an arithmetic expression"})
COMPUTED_PREFIX = "result of calling "


def call_reason(name: str, positional: list[Binding]) -> str:
    """Why a call's result is unknown, naming the unknown argument it is computed from
    (``json.loads(Variable.get(...))`` is the Variable's doing, not json's)."""
    dynamic = next((value for value in positional if isinstance(value, Unknown)), None)
    if dynamic is None or dynamic.reason in COMPUTED:
        return f"result of calling {name}()"
    if dynamic.reason.startswith(COMPUTED_PREFIX):  # the first call of a chain says it all
        return dynamic.reason
    return f"result of calling {name}() on {dynamic.reason}"


def depth(value: Binding) -> int:
    """How deep the chain of first operands goes, up to just past the limit."""
    depth = 0
    while isinstance(value, (Operation, DictExpr)) and depth <= MAX_EXPRESSION_DEPTH:
        if isinstance(value, Operation):
            value = value.operands[0] if value.operands else Const(None)
        else:
            value = value.parts[0][1] if value.parts else Const(None)
        depth += 1
    return depth


def declared_global(node: cst.FunctionDef) -> frozenset[str]:
    """Names a function body declares ``global`` (anywhere in it, as Python scopes them).

    Only statements can declare, so only statement bodies are read: a libcst visitor over the
    whole body costs as much as walking the function itself."""
    found: set[str] = set()
    pending: list[cst.BaseSuite] = [node.body]
    while pending:
        suite = pending.pop()
        statements: Sequence[cst.CSTNode] = (
            suite.body if isinstance(suite, cst.IndentedBlock) else (suite,)
        )
        for statement in statements:
            if isinstance(statement, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
                for small in statement.body:
                    if isinstance(small, cst.Global):
                        found.update(item.name.value for item in small.names)
            elif not isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
                pending.extend(_suites(statement))
    return frozenset(found)


def _suites(statement: cst.CSTNode) -> list[cst.BaseSuite]:
    """The bodies of a compound statement: its own, ``else``, handlers and ``finally``."""
    suites: list[cst.BaseSuite] = []
    body = getattr(statement, "body", None)
    if isinstance(body, cst.BaseSuite):
        suites.append(body)
    for part in ("orelse", "finalbody"):
        branch = getattr(statement, part, None)
        if isinstance(branch, cst.If):
            suites.extend(_suites(branch))
        elif branch is not None and isinstance(getattr(branch, "body", None), cst.BaseSuite):
            suites.append(branch.body)
    for handler in getattr(statement, "handlers", ()):
        suites.append(handler.body)
    return suites


def parameters(node: cst.FunctionDef) -> list[str]:
    params = node.params
    names_: list[str] = [param.name.value for param in params.posonly_params]
    names_ += [param.name.value for param in params.params]
    names_ += [param.name.value for param in params.kwonly_params]
    if isinstance(params.star_arg, cst.Param):
        names_.append(params.star_arg.name.value)
    if params.star_kwarg is not None:
        names_.append(params.star_kwarg.name.value)
    return names_


def same_binding(left: Binding, right: Binding) -> bool:
    return left is right or (isinstance(left, EXPR_TYPES) and left == right)


def is_main_guard(test: cst.BaseExpression) -> bool:
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return False
    left = get_full_name_for_node(test.left)
    right = test.comparisons[0].comparator
    return (
        left == "__name__"
        and isinstance(right, cst.SimpleString)
        and string_literal(right) == "__main__"
    )


def names_read(node: cst.CSTNode) -> list[str]:
    """The plain names an expression reads (not the attributes after a dot), in order."""
    if isinstance(node, cst.Name):
        return [node.value]
    if isinstance(node, cst.Attribute):
        return names_read(node.value)
    return [name for child in node.children for name in names_read(child)]


def is_type_checking(test: cst.BaseExpression) -> bool:
    name = get_full_name_for_node(test)
    return name in ("TYPE_CHECKING", "typing.TYPE_CHECKING")


def guards_import(handlers: Sequence[cst.ExceptHandler]) -> bool:
    """Whether a ``try`` with these handlers keeps an import in its body from failing the file.

    Python runs the first handler that catches the ``ImportError``; if that handler raises
    (``raise SomeError(...)``, or a bare ``raise``, directly in its body), the file still fails
    to load, so the import is not guarded.
    """
    handler = next((h for h in handlers if handles_import_error(h)), None)
    return handler is not None and not raises(handler)


def fails_on(statement: cst.CSTNode, release: Release | None) -> bool:
    """Whether ``statement`` imports from Airflow a path that certainly fails on the
    deployment's release: the verdict of a release of its very minor version
    (``import_verdicts``), so the ``except ImportError`` handler of a ``try`` around it is what
    runs where the DAG processor parses the file. A provider's path depends on the providers the
    parsing runtime has, which the walk does not know: never decided here."""
    if release is None or len(release) < 2 or release[0] is None or release[1] is None:
        return False
    checked = checked_release((release[0], release[1]), release[0])
    if not checked.exact or not isinstance(statement, cst.SimpleStatementLine):
        return False
    for small in statement.body:
        for module, name in _imported_paths(small):
            verdict = import_verdict(module, name, checked) if airflow_core(module) else None
            if verdict is not None and verdict.kind == FAILS:
                return True
    return False


def _imported_paths(small: cst.BaseSmallStatement) -> list[tuple[str, str | None]]:
    """The absolute ``(module, name)`` paths an import statement imports (``None``: the module
    itself); nothing for a relative or star import, or another statement."""
    if isinstance(small, cst.Import):
        return [(get_full_name_for_node(alias.name) or "", None) for alias in small.names]
    if not isinstance(small, cst.ImportFrom) or small.relative or small.module is None:
        return []
    if isinstance(small.names, cst.ImportStar):
        return []
    module = get_full_name_for_node(small.module) or ""
    return [(module, get_full_name_for_node(alias.name)) for alias in small.names]


def airflow_core(module: str) -> bool:
    """A module of Airflow itself, whose paths change with Airflow's version (not a provider)."""
    return (module == "airflow" or module.startswith("airflow.")) and not module.startswith(
        "airflow.providers."
    )


def raises(handler: cst.ExceptHandler) -> bool:
    """Whether a ``raise`` statement stands directly in the handler's body."""
    body = handler.body
    lines = (body,) if isinstance(body, cst.SimpleStatementSuite) else body.body
    return any(
        isinstance(small, cst.Raise)
        for line in lines
        if isinstance(line, (cst.SimpleStatementLine, cst.SimpleStatementSuite))
        for small in line.body
    )


def handles_import_error(handler: cst.ExceptHandler) -> bool:
    if handler.type is None:
        return True
    types = handler.type.elements if isinstance(handler.type, cst.Tuple) else None
    candidates = [element.value for element in types] if types else [handler.type]
    return any(
        (get_full_name_for_node(candidate) or "").rsplit(".", 1)[-1] in IMPORT_ERRORS
        for candidate in candidates
    )


def collect_imports(
    body: cst.BaseSuite, found: list[DraftImport], walker: WalkerState, guarded: bool
) -> None:
    if isinstance(body, cst.SimpleStatementSuite):
        collect_small_imports(body.body, found, walker, guarded)
        return
    if not isinstance(body, cst.IndentedBlock):
        return
    for statement in body.body:
        if isinstance(statement, cst.SimpleStatementLine):
            collect_small_imports(statement.body, found, walker, guarded)
        elif isinstance(statement, cst.Try):
            catches = guards_import(statement.handlers)
            collect_imports(statement.body, found, walker, guarded or catches)
            for handler in statement.handlers:
                collect_imports(handler.body, found, walker, True)
            if statement.orelse is not None:
                collect_imports(statement.orelse.body, found, walker, guarded)
            if statement.finalbody is not None:
                collect_imports(statement.finalbody.body, found, walker, guarded)
        elif isinstance(statement, cst.If):
            nested_guard = guarded or is_type_checking(statement.test)
            collect_imports(statement.body, found, walker, nested_guard)
            orelse = statement.orelse
            while orelse is not None:
                if isinstance(orelse, cst.If):
                    collect_imports(orelse.body, found, walker, guarded)
                    orelse = orelse.orelse
                else:
                    collect_imports(orelse.body, found, walker, guarded)
                    orelse = None
        elif isinstance(statement, (cst.With, cst.For, cst.While, cst.FunctionDef)):
            collect_imports(statement.body, found, walker, guarded)


def collect_small_imports(
    statements: Sequence[cst.BaseSmallStatement],
    found: list[DraftImport],
    walker: WalkerState,
    guarded: bool,
) -> None:
    for small in statements:
        if isinstance(small, (cst.Import, cst.ImportFrom)):
            _, modules = import_bindings(small, walker.module_name, walker.is_package)
            found.extend(DraftImport(module, small, "task", guarded) for module in modules)
