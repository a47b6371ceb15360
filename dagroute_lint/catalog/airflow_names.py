"""Qualified names under which Airflow 2 and 3 export the objects that shape a DAG.

Extraction recognises DAGs, TaskGroups and TaskFlow decorators by the qualified name an import
gives them, so every public path of each object in both major versions is listed here.
"""

from __future__ import annotations

import functools

from dagroute_lint.catalog.data_files import read_table

REEXPORTS_FILE = "reexports.tsv"

DAG_CLASSES = frozenset(
    {
        "airflow.DAG",
        "airflow.models.DAG",
        "airflow.models.dag.DAG",
        "airflow.sdk.DAG",
        "airflow.sdk.definitions.dag.DAG",
    }
)

DAG_DECORATORS = frozenset(
    {
        "airflow.decorators.dag",
        "airflow.models.dag.dag",
        "airflow.sdk.dag",
        "airflow.sdk.definitions.dag.dag",
    }
)

# Providers' TaskGroup subclasses that add a task of their own when their ``with`` block is left
# (``__exit__``), by qualified name: the task's id in the group and its operator. Databricks
# 7.23.0 ``DatabricksWorkflowTaskGroup.__exit__`` builds ``launch``, with the group's DAG and the
# group itself, upstream of the group's roots; no routing keyword is passed to it.
_DATABRICKS_WORKFLOW = "airflow.providers.databricks.operators.databricks_workflow"
GROUP_EXIT_TASKS: dict[str, tuple[str, str]] = {
    f"{_DATABRICKS_WORKFLOW}.DatabricksWorkflowTaskGroup": (
        "launch",
        f"{_DATABRICKS_WORKFLOW}._CreateDatabricksWorkflowOperator",
    ),
}

TASK_GROUP_CLASSES = frozenset(
    {
        "airflow.utils.task_group.TaskGroup",
        "airflow.sdk.TaskGroup",
        "airflow.sdk.definitions.taskgroup.TaskGroup",
        *GROUP_EXIT_TASKS,
    }
)

TASK_GROUP_DECORATORS = frozenset(
    {
        "airflow.decorators.task_group",
        "airflow.decorators.task_group.task_group",
        "airflow.sdk.task_group",
        "airflow.sdk.definitions.decorators.task_group.task_group",
    }
)

# Decorators that return the function itself or a wrapper that calls it with the same arguments
# (caching, declarations, Airflow's session and legacy default-argument helpers): a function
# they decorate is run as written. Any other decorator may wrap the function in a TaskGroup,
# call it differently or never: calls of what it decorates are not followed (DRL106).
TRANSPARENT_DECORATORS = frozenset(
    {
        "abc.abstractmethod",
        "functools.cache",
        "functools.lru_cache",
        "typing.final",
        "typing_extensions.final",
        "airflow.utils.decorators.apply_defaults",
        "airflow.utils.session.provide_session",
    }
)

# ``@task`` is ``task.python``; ``@setup`` and ``@teardown`` build Python tasks too.
TASK_DECORATORS = {
    "airflow.decorators.task": "python",
    "airflow.sdk.task": "python",
    "airflow.decorators.setup": "python",
    "airflow.sdk.setup": "python",
    "airflow.decorators.teardown": "python",
    "airflow.sdk.teardown": "python",
}

# Calls whose result depends on the environment the DAG file is parsed in.
DYNAMIC_CALLS = {
    "os.getenv": "environment variable (os.getenv)",
    "os.environ.get": "environment variable (os.environ.get)",
    "airflow.models.Variable.get": "Airflow Variable (Variable.get)",
    "airflow.models.variable.Variable.get": "Airflow Variable (Variable.get)",
    "airflow.sdk.Variable.get": "Airflow Variable (Variable.get)",
    "airflow.sdk.definitions.variable.Variable.get": "Airflow Variable (Variable.get)",
}

ENVIRON = "os.environ"
DYNAMIC_MAPPINGS = {
    ENVIRON: "environment variable (os.environ)",
}
# ``Variable.get``'s keyword for the default: Airflow 2's and ``airflow.models``' ``default_var``,
# the Task SDK's ``default`` (``airflow/sdk/definitions/variable.py``, 3.3).
VARIABLE_GETS = {
    "airflow.models.Variable.get": "default_var",
    "airflow.models.variable.Variable.get": "default_var",
    "airflow.sdk.Variable.get": "default",
    "airflow.sdk.definitions.variable.Variable.get": "default",
}
# Calls that change the Variables, or ``os.environ`` without being handed it.
VARIABLE_CHANGES = frozenset(
    f"{qualname.removesuffix('.get')}.{method}"
    for qualname in VARIABLE_GETS
    for method in ("set", "delete", "update", "setdefault")
)
ENVIRON_LOADERS = frozenset({"dotenv.load_dotenv", "dotenv.main.load_dotenv"})

# Operator keyword arguments that ``Operator.partial(...).expand(...)`` cannot map (semantics
# §1.5): routing never varies per map index.
MAPPED_OPERATOR_METHODS = frozenset({"expand", "expand_kwargs"})

# ``functools.partial(BashOperator, queue=...)``: calling it builds the operator.
PARTIAL = "functools.partial"

# ``timeout=timedelta(hours=6)``: sensors take durations.
TIMEDELTA = "datetime.timedelta"

# ``Path(__file__).stem`` names many DAGs after their file.
PATH_CONSTRUCTORS = frozenset({"pathlib.Path", "pathlib.PurePath", "pathlib.PurePosixPath"})

# ``@asset`` builds a DAG named after the asset with one task named after the function.
ASSET_DECORATORS = frozenset(
    {"airflow.sdk.asset", "airflow.sdk.definitions.asset.decorators.asset"}
)
ASSET_OPERATOR = "airflow.sdk.definitions.asset.decorators._AssetMainOperator"

# Bases and decorators that make a class something other than an operator, however it is called.
NOT_OPERATOR_BASES = frozenset(
    {
        "builtins.object",
        "builtins.dict",
        "builtins.Exception",
        "builtins.str",
        "builtins.int",
        "builtins.list",
        "builtins.tuple",
        "typing.NamedTuple",
        "typing.TypedDict",
        "typing.Protocol",
        "typing.Generic",
        "enum.Enum",
        "enum.IntEnum",
        "enum.StrEnum",
        "abc.ABC",
        "pydantic.BaseModel",
    }
)
NOT_OPERATOR_DECORATORS = frozenset(
    {"dataclasses.dataclass", "attr.s", "attr.define", "attrs.define", "attr.attrs"}
)

# ``TriggerRule`` is a ``str`` Enum equal to its value; DAGs use members as task ids too
# (``EmptyOperator(task_id=TriggerRule.ALL_SUCCESS)``). Members of Airflow 2.10 and 3.3.
_TRIGGER_RULES = [
    "all_success",
    "all_failed",
    "all_done",
    "all_done_min_one_success",
    "all_done_setup_success",
    "one_success",
    "one_failed",
    "one_done",
    "none_failed",
    "none_failed_or_skipped",
    "none_skipped",
    "dummy",
    "always",
    "none_failed_min_one_success",
    "all_skipped",
]
_TRIGGER_RULE_CLASSES = (
    "airflow.utils.trigger_rule.TriggerRule",
    "airflow.task.trigger_rule.TriggerRule",
    "airflow.sdk.TriggerRule",
    "airflow.sdk.api.datamodels._generated.TriggerRule",
)
AIRFLOW_CONSTANTS: dict[str, str] = {
    f"{owner}.{rule.upper()}": rule for owner in _TRIGGER_RULE_CLASSES for rule in _TRIGGER_RULES
}


@functools.cache
def _reexports() -> dict[str, str]:
    rows = read_table(REEXPORTS_FILE, ("alias", "target"))
    return {str(alias): str(target) for alias, target in rows}


def role(qualname: str) -> str | None:
    """What an Airflow name does when a DAG file calls it, for the names whose spelling does
    not change what they build: a DAG class or decorator, a TaskGroup class or decorator. A
    compatibility shim that binds ``DAG`` to ``airflow.sdk.DAG`` on one branch and to
    ``airflow.models.dag.DAG`` on the other builds the same DAG either way; so does ``@task``
    from ``airflow.sdk`` or ``airflow.decorators``, and ``chain`` from ``airflow.sdk`` or
    ``airflow.models.baseoperator``. Operators differ by provider: not here."""
    for table, name in _ROLES:
        if qualname in table:
            return name
    if qualname in TASK_DECORATORS:  # ``@task``, ``@setup``, ``@teardown``
        return "@" + qualname.rpartition(".")[2]
    if qualname in DEPENDENCY_HELPERS:  # ``chain()``, ``cross_downstream()``, ``Label()``
        return qualname.rpartition(".")[2] + "()"
    return None


def canonical(qualname: str) -> str:
    """Where a re-exported name is defined (``airflow.providers.common.compat.sdk.DAG`` is
    ``airflow.sdk.DAG``), so that every table here is keyed by one spelling."""
    return _reexports().get(qualname, qualname)


# The keywords ``setup`` and ``teardown`` take (``setup_teardown.py``, the same in Airflow 2.10.5
# and 3.3.2): routing belongs on an inner ``@task(...)``, and any other keyword is a TypeError.
SETUP_TEARDOWN_KEYWORDS: dict[str, frozenset[str]] = {
    "airflow.decorators.setup": frozenset({"func"}),
    "airflow.sdk.setup": frozenset({"func"}),
    "airflow.decorators.teardown": frozenset({"_func", "on_failure_fail_dagrun"}),
    "airflow.sdk.teardown": frozenset({"_func", "on_failure_fail_dagrun"}),
}


# Airflow's functions that set dependencies between the tasks they are given (or label them), in
# every module Airflow 2.10.5 and 3.3.2 hold them in (``import_verdicts``): a shim that imports
# one from ``airflow.sdk`` or from ``airflow.models.baseoperator`` calls the same function.
DEPENDENCY_HELPERS = frozenset(
    {
        *(
            f"{module}.{name}"
            for module in ("airflow.sdk", "airflow.models.baseoperator")
            for name in ("chain", "chain_linear", "cross_downstream")
        ),
        "airflow.utils.helpers.chain",
        "airflow.utils.helpers.cross_downstream",
        # ``Label("why")`` between two tasks: an edge's label, no task (``def Label`` in
        # ``airflow.utils.edgemodifier`` in 2.10.5, in ``airflow.sdk.definitions.edges`` in 3.3.2).
        "airflow.sdk.Label",
        "airflow.sdk.definitions.edges.Label",
        "airflow.utils.edgemodifier.Label",
    }
)

_ROLES = (
    (DAG_CLASSES, "DAG class"),
    (DAG_DECORATORS, "DAG decorator"),
    (TASK_GROUP_CLASSES, "TaskGroup class"),
    (TASK_GROUP_DECORATORS, "TaskGroup decorator"),
)
