"""The registry of rules: one explicit, ordered tuple, greppable by code."""

from __future__ import annotations

from dagroute_lint.rules.airflow_imports import IMPORT_REMOVED_IN_AIRFLOW
from dagroute_lint.rules.argument_values import ARGUMENT_VALUE
from dagroute_lint.rules.base import AnyRule, Context, DeploymentContext, DeploymentRule, Rule
from dagroute_lint.rules.circular_imports import CIRCULAR_IMPORT
from dagroute_lint.rules.connections import UNDECLARED_CONNECTION
from dagroute_lint.rules.dag_arguments import DAG_ARGUMENT
from dagroute_lint.rules.dag_integrity import DUPLICATE_DAG_ID, DUPLICATE_TASK_ID, INVALID_ID
from dagroute_lint.rules.deferral import DEFERRABLE_WITHOUT_TRIGGERER, POKE_SENSOR_HOLDS_SLOT
from dagroute_lint.rules.dispatch import (
    QUEUE_IGNORED,
    UNKNOWN_EXECUTOR,
    UNRESOLVED_ROUTING,
    UNSERVED_QUEUE,
)
from dagroute_lint.rules.executor_config import EXECUTOR_CONFIG_IGNORED
from dagroute_lint.rules.mapping import UNMAPPABLE_ROUTING
from dagroute_lint.rules.noqa import UNUSED_NOQA_RULE
from dagroute_lint.rules.open_facts import OPEN_FACTS
from dagroute_lint.rules.operator_calls import (
    ARGUMENT_GIVEN_TWICE,
    POOL_SLOTS_TYPE,
    SETUP_TEARDOWN_ARGUMENTS,
    UNKNOWN_ARGUMENT,
)
from dagroute_lint.rules.packages import PACKAGE_MISSING_ON_WORKER
from dagroute_lint.rules.parse_boundary import (
    MODULE_NOT_FOUND,
    PACKAGE_MISSING_AT_PARSE,
    PROVIDER_MISSING_AT_PARSE,
)
from dagroute_lint.rules.pools import POOL_SLOTS_EXCEED_POOL, UNKNOWN_POOL
from dagroute_lint.rules.providers import PROVIDER_MISSING_ON_WORKER
from dagroute_lint.rules.secrets import HARDCODED_CREDENTIAL
from dagroute_lint.rules.stdlib_shadow import STDLIB_SHADOW
from dagroute_lint.rules.syntax import SYNTAX_ERROR
from dagroute_lint.rules.unmodelled import UNMODELLED_TASKS

RULES: tuple[AnyRule, ...] = (
    SYNTAX_ERROR,
    DUPLICATE_DAG_ID,
    DUPLICATE_TASK_ID,
    UNKNOWN_ARGUMENT,
    ARGUMENT_GIVEN_TWICE,
    INVALID_ID,
    POOL_SLOTS_TYPE,
    SETUP_TEARDOWN_ARGUMENTS,
    CIRCULAR_IMPORT,
    STDLIB_SHADOW,
    ARGUMENT_VALUE,
    DAG_ARGUMENT,
    UNSERVED_QUEUE,
    QUEUE_IGNORED,
    UNKNOWN_EXECUTOR,
    UNMAPPABLE_ROUTING,
    UNRESOLVED_ROUTING,
    UNMODELLED_TASKS,
    PROVIDER_MISSING_AT_PARSE,
    PROVIDER_MISSING_ON_WORKER,
    PACKAGE_MISSING_ON_WORKER,
    IMPORT_REMOVED_IN_AIRFLOW,
    PACKAGE_MISSING_AT_PARSE,
    MODULE_NOT_FOUND,
    UNKNOWN_POOL,
    POOL_SLOTS_EXCEED_POOL,
    DEFERRABLE_WITHOUT_TRIGGERER,
    POKE_SENSOR_HOLDS_SLOT,
    HARDCODED_CREDENTIAL,
    UNDECLARED_CONNECTION,
    EXECUTOR_CONFIG_IGNORED,
    UNUSED_NOQA_RULE,
    OPEN_FACTS,
)

__all__ = ["RULES", "AnyRule", "Context", "DeploymentContext", "DeploymentRule", "Rule"]
