"""DRL011: an operator argument whose known value Airflow refuses while it builds the task.

Each entry below was measured with DagBag in Airflow 2.10.5 and 3.3.2
(``tests/conformance/test_dag_integrity.py`` loads every fixture case in both): a type that
``BaseOperator``'s ``validate_instance_args`` refuses (``queue=1``, ``depends_on_past="yes"``:
the value as written, or from ``default_args``), a ``trigger_rule`` or ``weight_rule`` the
version does not know, ``execution_timeout`` that is not a ``timedelta``, ``retries`` that
``int()`` cannot read, a string where a ``timedelta`` or a datetime is computed with. The two
versions differ (``trigger_rule="dummy"`` loads in 2.10.5 only, ``start_date="2024-01-01"`` on
an operator fails in 3.3.2 only): the inventory's ``airflow_version`` decides; without one, only
what fails in both is reported. ``pool_slots`` is DRL007's. Values the walk cannot fold (a
``datetime``, a call) are never judged.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from datetime import timedelta

from dagroute_lint.deployment.inventory import SUPPORTED_AIRFLOW_MAJORS
from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.resolve.tasks import ResolvedTask, Setting
from dagroute_lint.rules.base import Context, Rule
from dagroute_lint.wording import cut

# What the walk folds a literal to: only such values are judged.
JUDGED = (str, bytes, int, float, list, tuple, dict, timedelta, type(None))

# ``BaseOperator`` keywords whose attribute ``validate_instance_args`` checks (``None`` passes).
_BOOL = (
    *("email_on_retry", "email_on_failure", "depends_on_past", "ignore_first_depends_on_past"),
    *("wait_for_past_depends_before_skipping", "wait_for_downstream", "do_xcom_push"),
    *("multiple_outputs", "allow_nested_operators"),
)
_STR = (
    *("queue", "pool", "executor", "run_as_user", "map_index_template", "task_display_name"),
    *("doc", "doc_md", "doc_json", "doc_yaml", "doc_rst"),
)
_INT = ("max_active_tis_per_dag", "max_active_tis_per_dagrun")

# ``airflow.utils.trigger_rule.TriggerRule`` (2.10.5), ``airflow.task.trigger_rule`` (3.3.2).
_TRIGGER_RULES = {
    2: frozenset(
        {
            *("all_success", "all_failed", "all_done", "all_done_setup_success", "one_success"),
            *("one_failed", "one_done", "none_failed", "none_failed_or_skipped", "none_skipped"),
            *("dummy", "always", "none_failed_min_one_success", "all_skipped"),
        }
    ),
    3: frozenset(
        {
            *("all_success", "all_failed", "all_done", "all_done_min_one_success"),
            *("all_done_setup_success", "one_success", "one_failed", "one_done", "none_failed"),
            *("none_skipped", "always", "none_failed_min_one_success", "all_skipped"),
        }
    ),
}
# 2.10.5's ``airflow_priority_weight_strategies``; a dotted name may be a plugin's strategy.
_WEIGHT_RULES = frozenset({"absolute", "downstream", "upstream"})

# (value, major) -> what Airflow says of it, or ``None`` when it loads.
Judge = Callable[[object, int], str | None]


def _not(shown: str, value: object) -> str:
    name = type(value).__name__
    given = "None" if value is None else f"{'an' if name[0] in 'aeiou' else 'a'} {name}"
    return f"expects {shown}, not {given} (TypeError)"


def expects(kinds: tuple[type, ...], shown: str, none_fails: tuple[int, ...] = ()) -> Judge:
    def judge(value: object, major: int) -> str | None:
        if (value is None and major not in none_fails) or isinstance(value, kinds):
            return None
        return _not(shown, value)

    return judge


def bool_only(value: object, major: int) -> str | None:
    del major
    # ``True`` is an int, but no int is a bool: ``depends_on_past=1`` fails.
    return None if value is None or isinstance(value, bool) else _not("a bool", value)


def _backoff(value: object, major: int) -> str | None:
    if major == 2:
        return bool_only(value, major)
    return expects((int, float), "a number")(value, major)


def _email(value: object, major: int) -> str | None:
    if value is None or isinstance(value, (str, bytes, list, tuple)):
        return None
    if major == 2 and isinstance(value, dict):
        return None  # typing.Iterable in 2.10.5, a Sequence in 3.3.2
    return _not("a string or a list of addresses", value)


def _retries(value: object, major: int) -> str | None:
    del major
    if value is None or isinstance(value, (int, float)):
        return None
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            int(value)
            return None
    return "must be a whole number ('retries' type must be int)"


def _timeout(value: object, major: int) -> str | None:
    del major
    if value is None or isinstance(value, timedelta):
        return None
    return "must be a timedelta (ValueError: execution_timeout must be timedelta object)"


def _seconds(value: object, major: int) -> str | None:
    del major
    if isinstance(value, (str, bytes, list, tuple, dict)):
        return "must be a timedelta or a number of seconds (TypeError)"
    return None


def date_on(majors: tuple[int, ...]) -> Judge:
    """A string where ``majors`` compute with a datetime (DRL011's and DRL012's dates)."""

    def judge(value: object, major: int) -> str | None:
        if major in majors and isinstance(value, str):
            return "must be a datetime, not a str (AttributeError: no attribute 'utcoffset')"
        return None

    return judge


def _trigger_rule(value: object, major: int) -> str | None:
    if value is None or (isinstance(value, str) and value in _TRIGGER_RULES[major]):
        return None
    other = 5 - major
    if isinstance(value, str) and value in _TRIGGER_RULES[other]:
        return f"is a trigger rule of Airflow {other} only (The trigger_rule must be one of)"
    return "is not a trigger rule (The trigger_rule must be one of ...)"


def _weight_rule(value: object, major: int) -> str | None:
    if major != 2 or value is None:
        return None
    if isinstance(value, str) and (value in _WEIGHT_RULES or "." in value):
        return None
    return "is not a weight rule of Airflow 2 (Unknown priority strategy)"


JUDGES: dict[str, Judge] = {
    **dict.fromkeys(_BOOL, bool_only),
    **{name: expects((str,), "a string") for name in _STR},
    **{name: expects((int,), "an int") for name in _INT},
    "priority_weight": expects((int,), "an int", none_fails=(3,)),
    "retry_exponential_backoff": _backoff,
    "email": _email,
    "retries": _retries,
    "execution_timeout": _timeout,
    "retry_delay": _seconds,
    "max_retry_delay": _seconds,
    "start_date": date_on((3,)),
    "end_date": date_on(SUPPORTED_AIRFLOW_MAJORS),
    "trigger_rule": _trigger_rule,
    "weight_rule": _weight_rule,
}


def _winning(task: ResolvedTask) -> Iterator[Setting]:
    """The setting of each judged keyword that the operator is built with: the call's, else
    the nearest ``default_args``'; an assignment after construction is not checked there."""
    seen: set[str] = set()
    for setting in task.settings:
        if setting.origin == "assignment" or setting.name in seen:
            continue
        seen.add(setting.name)
        if setting.name in JUDGES and isinstance(setting.value, JUDGED):
            yield setting


def shown(value: object) -> str:
    """A value as a message quotes it: its repr, cut at 40 characters."""
    return cut(repr(value), 40)


def refused(name: str, found: str) -> str:
    """The end of every message of DRL011 and DRL012: what Airflow says, and what it costs."""
    return f"Airflow refuses it when the file is parsed: {name} {found}, so the file does not load"


def problem(judge: Judge, value: object, major: int | None) -> str | None:
    """What the inventory's Airflow says; without a version, what both say (the newest's
    words), else nothing."""
    if major in SUPPORTED_AIRFLOW_MAJORS:
        return judge(value, major)
    verdicts = [judge(value, version) for version in SUPPORTED_AIRFLOW_MAJORS]
    return verdicts[-1] if all(verdicts) else None


def check_argument_values(context: Context) -> Iterator[Diagnostic]:
    major = context.inventory.airflow_major if context.inventory is not None else None
    for task in context.tasks:
        if task.task.mapped:
            continue
        for setting in _winning(task):
            found = problem(JUDGES[setting.name], setting.value, major)
            if found is None:
                continue
            yield context.report(
                setting.position,
                f"{task.label} sets {setting.name}={shown(setting.value)} ({setting.origin}); "
                f"{refused(setting.name, found)}",
                kind="parse",
                item=setting.name,
                task=task,
            )


ARGUMENT_VALUE = Rule(
    code="DRL011",
    name="invalid-argument-value",
    summary="an operator argument of a type or value Airflow refuses (queue=1, trigger_rule typo)",
    boundary="parse",
    check=check_argument_values,
)
