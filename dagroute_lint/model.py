"""The per-file model that extraction produces and rules consume: plain, picklable dataclasses.

Values are kept as small expression trees (``Expr``) rather than evaluated on the spot, because a
value may depend on a constant defined in another module of the repository: extraction records
``Ref("common.routing.REPORTS_QUEUE")`` and the repository-wide resolver (``symbols.py``) folds it
later. Nothing here refers to libcst, so models can cross process boundaries and live in a cache.
"""

from __future__ import annotations

from dataclasses import field
from typing import Literal

from dagroute_lint.records import record


@record
class Position:
    """1-based line and column of a node's start, as editors and flake8 print them."""

    line: int
    column: int


@record
class Site:
    """Where in the repository a value is written: the file, as the run shows it, and the
    position there. An unknown value carries the site of the expression that made it unknown
    (its cause), which may be another file than the one whose tasks it reaches."""

    path: str
    position: Position


# --- value expressions -------------------------------------------------------------------------


@record
class Const:
    """A literal value: str, int, float, bool or None."""

    value: str | int | float | bool | None


@record
class Unknown:
    """A value that cannot be known without running code; ``reason`` says why, for the user.

    ``data`` marks a value known to be plain data although its content is not: what a
    standard-library or value-library call returns (``datetime.now()``, ``yaml.safe_load(...)``),
    arithmetic, a literal's method. Calling one of its methods cannot build a task, so the walk
    does not report such a call as a place where tasks may be missing (DRL106).

    ``at`` is the expression of the file's own code that made it unknown (``Variable.get("q")``,
    ``os.environ["Q"]``, a call's result), where extraction could place it: diagnostics about
    the value are reported once, there, for every task it reaches (DRL105).
    """

    reason: str
    data: bool = False
    at: Site | None = None


@record
class Ref:
    """A name bound at module level of some module, by its dotted qualified name.

    The module part is not separated from the attribute path because ``from a import b; b.c``
    cannot tell whether ``b`` is a module; the resolver finds the longest known module prefix.
    """

    qualname: str


@record
class SeqExpr:
    """A list or tuple literal."""

    items: tuple[Expr, ...]


@record
class DictExpr:
    """A dict built from items and ``**spreads`` in order; a ``None`` key marks a spread."""

    parts: tuple[tuple[Expr | None, Expr], ...]


@record
class Subscript:
    """``target[key]``."""

    target: Expr
    key: Expr


# What an ``Operation`` applies: the closed set ``resolve/values.py`` folds.
OperationName = Literal[
    "add", "mul", "mod", "format", "fstring", "field", "timedelta", "without", "get", "len",
    "replace", "path", "path_name", "path_stem", "path_splitext",
]  # fmt: skip


@record
class Operation:
    """A pure operation on known values, folded only when every operand is known.

    ``op`` is one of ``add`` (``a + b``), ``mul`` (``a * b``, numbers only), ``mod`` (``a % b``),
    ``format`` (``a.format(*b, **c)``), ``fstring`` (concatenation of parts), ``field`` (one
    f-string replacement field: value, conversion, format spec), ``timedelta`` (positional
    and keyword arguments of ``datetime.timedelta``), ``without`` (a dict less one key, after
    ``del d[k]`` or ``d.pop(k)``), ``get`` (``d.get(k, default)``), ``len`` (``len(x)``),
    ``replace`` (``s.replace(old, new)``), ``path`` (``Path(s)``, ``PurePath(s)``), ``path_name``
    and ``path_stem`` (``.name`` and ``.stem`` of a path, ``os.path.basename``) and
    ``path_splitext`` (``os.path.splitext``).
    """

    op: OperationName
    operands: tuple[Expr, ...]


@record
class OneOf:
    """A value that is one of ``options``, decided when the file runs (``"a" if x else "b"``).

    Built where the walk joins branches it cannot decide; the options are every value the name
    may hold there (a superset is sound, a subset never is). ``reason`` says what decides.
    At most ``MAX_CANDIDATES`` options: beyond that the value is ``Unknown``.
    """

    options: tuple[Expr, ...]
    reason: str


# More candidate values than this are not worth checking one by one: the value is unknown.
MAX_CANDIDATES = 8


Expr = Const | Unknown | Ref | SeqExpr | DictExpr | Subscript | Operation | OneOf


def as_expr(value: object) -> Expr:
    """A Python value (a folded one, a JSON one) as an expression: extraction is handed the
    values of other modules' names it loops over, and the deployment's Variables, this way."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return Const(value)
    if isinstance(value, (list, tuple)):
        return SeqExpr(tuple(as_expr(item) for item in value))
    if isinstance(value, dict):
        return DictExpr(tuple((as_expr(key), as_expr(item)) for key, item in value.items()))
    return Unknown("not a literal value")


@record
class Arguments:
    """Keyword arguments of a call: named ones are definitive, spreads are consulted for the rest.

    Python rejects a keyword given both by name and through ``**``, so a named keyword always
    wins regardless of order. ``literal`` names the keywords written on the task's own call (or
    a ``.override()`` chained onto it) as a plain string literal, at their ``positions``: the
    only ones a fix may rewrite where they stand without changing another value or another task
    built elsewhere (through a variable, ``default_args`` or ``functools.partial``).
    """

    named: dict[str, Expr] = field(default_factory=dict)
    spreads: tuple[Expr, ...] = ()
    positions: dict[str, Position] = field(default_factory=dict)
    literal: frozenset[str] = frozenset()


# --- imports -----------------------------------------------------------------------------------


@record
class ImportSite:
    """One imported module, and where it executes.

    ``scope`` is ``"module"`` (runs wherever the file is parsed: the DAG processor and every worker
    that runs any task of the file) or ``"task"`` (runs only where the owning task runs).
    ``guarded`` marks imports that cannot fail the file: under ``TYPE_CHECKING`` or inside a
    ``try`` that handles ``ImportError``. ``names`` are what ``from module import a, b as c``
    imports, as written before ``as`` (``("a", "b")``; empty for ``import module`` and ``*``), and
    ``relative`` marks ``from .x import y``, whose ``module`` was made absolute: both matter to
    rules about the import path itself (an import Airflow moved names a module and a name).
    """

    module: str
    position: Position
    scope: str
    guarded: bool = False
    names: tuple[str, ...] = ()
    relative: bool = False


# --- DAG structure -----------------------------------------------------------------------------


@record
class Dag:
    """A DAG constructed in the file (``DAG(...)``, ``with DAG(...)`` or a called ``@dag``).

    ``registered`` is false for a DAG Airflow may not collect: built outside a ``with`` block and
    held by no module-level name at the end (``dag = DAG("x"); dag = DAG("x")``: the first).
    ``conditional`` marks a DAG built under a condition (or in a loop) the walk could not decide.
    ``arguments`` are the keywords of a call of Airflow's own ``DAG`` or ``@dag`` (``None`` for a
    DAG a repository subclass builds, which may take other keywords).
    """

    dag_id: Expr
    position: Position
    default_args: Expr | None
    registered: bool = True
    conditional: bool = False
    arguments: Arguments | None = None


@record
class TaskGroup:
    """A TaskGroup; ``parent`` indexes ``Module.groups``; ``dag`` indexes ``Module.dags``.

    ``suffix_on_collision`` is set for ``@task_group`` calls, which Airflow renames ``g__1``,
    ``g__2``... when called again, where a repeated ``TaskGroup("g")`` is an error. The DAG's
    task ids count as used too, so the suffix depends on the tasks made before the group:
    ``created`` orders groups and tasks as the walk made them. ``conditional`` marks a group
    made under a condition (or in a loop) the walk could not decide.
    """

    group_id: Expr
    position: Position
    dag: int | None
    parent: int | None
    default_args: Expr | None
    prefix_group_id: Expr
    suffix_on_collision: bool = False
    created: int = 0
    conditional: bool = False


@record
class Task:
    """One task as constructed in the file, before repository-wide resolution.

    ``arguments`` holds the operator keyword arguments as Airflow's ``BaseOperator.__init__`` will
    see them (for TaskFlow: decorator kwargs with ``.override()`` kwargs on top). ``task_id`` is
    the id as written, without group prefixes. ``dag`` is ``None`` for a task built outside any DAG
    context; ``applies_default_args`` is false for tasks attached to a DAG after construction,
    which Airflow does not give the DAG's ``default_args``. ``taskflow`` is the decorator kind
    (``python``, ``virtualenv``...) for TaskFlow tasks; ``partial_keys`` are the TaskFlow
    ``.partial()`` keywords, which bind function arguments and never route. ``overridden`` holds
    attributes assigned after construction (``t.queue = ...``), which win over everything.
    ``dag_default_args`` is set when the DAG's ``default_args`` changed after this task was built
    (``dag.default_args["queue"] = ...``): the task got them as they were then. ``conditional``
    marks a task built under a condition (or in a loop) the walk could not decide: it may not exist.
    ``positional`` counts the positional arguments of a classic operator's call, which Airflow
    rejects ("Use keyword arguments when initializing operators"). ``wrapped`` marks a task built
    by running a function of the file that carries a decorator the walk did not recognise: the
    decorator may put its tasks in a TaskGroup (or elsewhere) that the model does not show.
    ``constructed``: the operator is a repository class whose own ``__init__`` code the walk ran
    up to Airflow's base class, so ``arguments`` and ``overridden`` already hold what that code
    does to routing (otherwise every routing field the class mentions is unresolved).
    ``created`` orders the file's tasks and groups as the walk made them (see ``TaskGroup``).
    ``group_expanded``: routing fields given an argument that the mapped task group around the
    task expands (a ``MappedArgument``, which Airflow's type check of operator arguments
    rejects when the file is parsed).
    """

    task_id: Expr
    position: Position
    operator: str | None
    dag: int | None
    group: int | None
    arguments: Arguments
    applies_default_args: bool = True
    taskflow: str | None = None
    mapped: bool = False
    expand_keys: tuple[str, ...] = ()
    partial_keys: tuple[str, ...] = ()
    imports: tuple[ImportSite, ...] = ()
    overridden: dict[str, Expr] = field(default_factory=dict)
    dag_default_args: Expr | None = None
    conditional: bool = False
    positional: int = 0
    wrapped: bool = False
    constructed: bool = False
    created: int = 0
    group_expanded: tuple[str, ...] = ()


@record
class Source:
    """Another module of the repository, for running its functions: text, package flag, path."""

    data: bytes
    is_package: bool
    path: str


@record
class Unmodelled:
    """A place where tasks may be built that extraction could not follow, and why (DRL106)."""

    position: Position
    message: str


@record
class RejectedCall:
    """A call that raises when the file runs: ``callee`` (a qualified name) given ``keywords``
    its signature does not take; ``conditional`` when the walk could not decide it runs."""

    position: Position
    callee: str
    keywords: tuple[str, ...]
    conditional: bool = False


@record
class ClassInfo:
    """A class defined in the file, for tasks built from it here or in another file.

    ``bases`` are qualified names (``?`` for a base that cannot be named); ``routes`` are the
    routing fields its own code may set (``*``: any); ``operator`` is false for a class that
    cannot be an operator whatever its bases (``@dataclass``).
    """

    bases: tuple[str, ...]
    routes: tuple[str, ...]
    operator: bool = True


@record
class SyntaxProblem:
    """Why a file could not be read or parsed, with CPython's position where it has one.

    ``skipped``: the file may well load in Airflow; dagroute-lint declined to analyse it (too
    large, nested too deeply for the parser, unreadable here) and says so instead of guessing.
    """

    message: str
    position: Position
    skipped: bool = False


# --- cluster policies (airflow_local_settings.py) -------------------------------------------

# The hooks of ``airflow_local_settings`` that may change routing, in the order Airflow runs
# them; ``policy`` is Airflow 2's old name of ``task_policy`` (run when there is no
# ``task_policy``; 3.x no longer runs it).
DAG_POLICY = "dag_policy"
TASK_POLICY = "task_policy"
TI_HOOK = "task_instance_mutation_hook"
POLICY_HOOKS = (DAG_POLICY, TASK_POLICY, TI_HOOK)
LEGACY_TASK_POLICY = "policy"

# What a policy condition tests of a task's attribute (``Condition.test``).
PolicyTest = Literal[
    "eq", "ne", "lt", "le", "gt", "ge", "in", "not_in", "contains", "not_contains",
    "startswith", "endswith", "isinstance", "truth", "is_none", "is_not_none",
]  # fmt: skip


@record
class Condition:
    """When a statement of a cluster policy runs for a task, as a small tree.

    ``op`` is ``true`` / ``false``, ``and`` / ``or`` / ``not`` over ``parts``, ``test``
    (``attribute`` of the task, one of ``Resolver``'s known ones, tested by ``test`` against
    ``operand``: ``task.queue == "x"``, ``isinstance(task, KPO)`` with the class names as a
    ``SeqExpr`` of ``Ref``s) or ``unknown``: a condition the policy tests that cannot be
    decided statically, ``reason`` saying which.
    """

    op: Literal["true", "false", "and", "or", "not", "test", "unknown"]
    parts: tuple[Condition, ...] = ()
    attribute: str = ""
    test: PolicyTest = "eq"
    operand: Expr | None = None
    reason: str = ""


@record
class PolicyEffect:
    """One thing a cluster policy does to a task when ``when`` holds.

    ``hook`` is the policy function (``task_policy``, ``dag_policy``,
    ``task_instance_mutation_hook``, or ``policy``: Airflow 2's name of ``task_policy``, which
    3.x no longer runs); ``field`` a routing field it assigns ``value`` to,
    ``*`` for any of them (a statement the policy runs on the task that is not followed;
    ``value`` is then an ``Unknown`` saying which), or ``reject`` for a raise, which makes
    Airflow drop the task's DAG (``value``: the exception's name). ``line`` is in the policy's
    file.
    """

    hook: str
    when: Condition
    field: str
    value: Expr
    line: int


@record
class ClusterPolicy:
    """What ``airflow_local_settings`` does to routing: its effects in the order Airflow runs
    them (``dag_policy``, then ``task_policy`` for every task, then, when the scheduler creates
    the task instance, ``task_instance_mutation_hook``), and the line of each hook defined."""

    effects: tuple[PolicyEffect, ...] = ()
    hooks: dict[str, int] = field(default_factory=dict)


@record
class Module:
    """Everything extraction learns from one file.

    ``loop_refs`` are names from other modules that the file loops over: the runner folds them
    and extracts the file again with their values, so tasks built in those loops are unrolled.
    ``noqa`` and ``file_noqa`` map the lines of ``# noqa`` and ``# dagroute-lint: noqa``
    comments to the codes they name (``None``: every code).
    ``call_refs`` are names from other modules that the file calls and could not follow: the
    runner extracts the file again with those modules' sources, so their functions are run.
    ``data_reads`` the repository's data files and folders the walk read, each as (operation,
    argument, digest of the answer): the summary holds while each still gets that answer.
    ``classes`` are the classes the file defines, by name within the module (``Outer.Inner``);
    ``unmodelled`` the places where tasks may be missing; ``rejected_calls`` the calls of Airflow
    functions with keywords they do not take (``@setup(queue=...)``); ``bound_at`` the first line
    binding each module-level name, for what a circular import finds already bound.
    ``policy`` is set for a module named ``airflow_local_settings``: its cluster policies.
    ``reads_deployment`` says a value came from the inventory's ``[environment]`` or
    ``[variables]``, ``changes_deployment`` what the module does to them when imported
    (``os.environ.update()``): a file importing such a module reads them changed.
    ``no_dag_cause``, in a file where no DAG is found, is the first call outside any DAG that
    the walk could not follow (one whose callee is named like a DAG builder first): what may
    have built the DAGs a file the DAG processor parses does not show (DRL106).
    """

    path: str
    module_name: str
    constants: dict[str, Expr] = field(default_factory=dict)
    imports: tuple[ImportSite, ...] = ()
    dags: tuple[Dag, ...] = ()
    groups: tuple[TaskGroup, ...] = ()
    tasks: tuple[Task, ...] = ()
    noqa: dict[int, frozenset[str] | None] = field(default_factory=dict)
    file_noqa: dict[int, frozenset[str] | None] = field(default_factory=dict)
    syntax_error: SyntaxProblem | None = None
    loop_refs: tuple[str, ...] = ()
    call_refs: tuple[str, ...] = ()
    data_reads: tuple[tuple[str, str, str], ...] = ()
    classes: dict[str, ClassInfo] = field(default_factory=dict)
    unmodelled: tuple[Unmodelled, ...] = ()
    rejected_calls: tuple[RejectedCall, ...] = ()
    bound_at: dict[str, int] = field(default_factory=dict)
    policy: ClusterPolicy | None = None
    reads_deployment: bool = False
    changes_deployment: str | None = None
    no_dag_cause: Unmodelled | None = None
