"""DRL012: a ``DAG(...)`` or ``@dag(...)`` keyword that Airflow refuses while it builds the DAG.

Measured with DagBag in Airflow 2.10.5 and 3.3.2 (``tests/conformance/test_dag_integrity.py``
loads every fixture case in both): a keyword the version's ``DAG`` does not take is Python's
``TypeError: DAG.__init__() got an unexpected keyword argument`` (Airflow 3 dropped
``schedule_interval``, ``timetable``, ``concurrency``...; the tables are the signatures of the two
releases); a value of a type ``DAG`` checks (2.10.5's ``validate_instance_args``, 3.3.2's attrs
validators); a tag longer than 100 characters; a cron string croniter cannot read
(``AirflowTimetableInvalid``). The inventory's ``airflow_version`` decides where the versions
differ; without one, only what fails in both is reported. Only Airflow's own ``DAG`` and ``@dag``
are judged: a repository subclass may take other keywords.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from datetime import timedelta

from dagroute_lint.deployment.inventory import SUPPORTED_AIRFLOW_MAJORS
from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.resolve.tasks import Setting
from dagroute_lint.rules.argument_values import (
    JUDGED,
    Judge,
    bool_only,
    date_on,
    expects,
    problem,
    refused,
    shown,
)
from dagroute_lint.rules.base import Context, Rule
from dagroute_lint.wording import did_you_mean

_BOTH = frozenset(
    {
        *("access_control", "auto_register", "catchup", "dag_display_name", "dag_id"),
        *("dagrun_timeout", "default_args", "description", "doc_md", "end_date"),
        *("is_paused_upon_creation", "jinja_environment_kwargs", "max_active_runs"),
        *("max_active_tasks", "max_consecutive_failed_dag_runs", "on_failure_callback"),
        *("on_success_callback", "owner_links", "params", "render_template_as_native_obj"),
        *("schedule", "sla_miss_callback", "start_date", "tags", "template_searchpath"),
        *("template_undefined", "user_defined_filters", "user_defined_macros"),
    }
)
# ``inspect.signature(DAG.__init__)`` of each release (no ``**kwargs`` in either).
ACCEPTED = {
    2: _BOTH
    | {"concurrency", "default_view", "fail_stop", "full_filepath", "orientation"}
    | {"schedule_interval", "timetable"},
    3: _BOTH
    | {"allowed_run_types", "deadline", "disable_bundle_versioning", "fail_fast"}
    | {"rerun_with_latest_version", "task_group"},
}
MAX_TAG_LENGTH = 100
# ``cron_presets`` and the special strings Airflow reads itself, and croniter's aliases (which
# it matches lowercased); anything else starting with "@" is not a cron expression.
_AT_SCHEDULES = frozenset(
    {"@once", "@continuous", "@hourly", "@daily", "@weekly", "@monthly", "@quarterly"}
    | {"@yearly", "@annually", "@midnight"}
)


def _only_on(majors: tuple[int, ...], judge: Judge) -> Judge:
    def judged(value: object, major: int) -> str | None:
        return judge(value, major) if major in majors else None

    return judged


def _tags(value: object, major: int) -> str | None:
    if major == 2 and isinstance(value, (str, tuple, dict)):
        return expects((list,), "a list")(value, major)
    if isinstance(value, (list, tuple)):
        for tag in value:
            if isinstance(tag, str) and len(tag) > MAX_TAG_LENGTH:
                return f"holds a tag of {len(tag)} characters, more than {MAX_TAG_LENGTH}"
    return None


def _cron(value: object, major: int) -> str | None:
    del major
    if not isinstance(value, str) or value in _AT_SCHEDULES or value.lower() in _AT_SCHEDULES:
        return None
    if value.startswith("@"):
        return "is not a preset Airflow or croniter knows (AirflowTimetableInvalid)"
    fields = len(value.split())
    if fields not in (5, 6, 7):
        return (
            f"is a cron expression of {fields} fields, not 5 to 7 (AirflowTimetableInvalid: "
            "Exactly 5, 6 or 7 columns has to be specified)"
        )
    return None


def _doc_md(value: object, major: int) -> str | None:
    del major
    if value is None or isinstance(value, str):
        return None
    return "must be a string (AttributeError: no attribute 'endswith')"


JUDGES: dict[str, Judge] = {
    "dagrun_timeout": expects((timedelta,), "a timedelta"),
    **{name: expects((int,), "an int") for name in ("max_active_runs", "max_active_tasks")},
    "max_consecutive_failed_dag_runs": expects((int,), "an int"),
    **{name: expects((str,), "a string") for name in ("description", "dag_display_name")},
    "doc_md": _doc_md,
    **dict.fromkeys(("start_date", "end_date"), date_on(SUPPORTED_AIRFLOW_MAJORS)),
    "tags": _tags,
    "schedule": _cron,
    "schedule_interval": _cron,
    **{
        name: _only_on((2,), bool_only)
        for name in ("catchup", "auto_register", "is_paused_upon_creation")
    },
    "render_template_as_native_obj": _only_on((2,), bool_only),
}


def _unknown(name: str, value: object, major: int) -> str | None:
    del value
    if name in ACCEPTED[major]:
        return None
    hint = did_you_mean(name, ACCEPTED[major])
    return f"is not an argument of Airflow {major}'s DAG (TypeError: unexpected keyword{hint})"


def _findings(settings: tuple[Setting, ...], major: int | None) -> Iterator[tuple[Setting, str]]:
    for setting in settings:
        found = problem(functools.partial(_unknown, setting.name), None, major)
        if found is not None:
            yield setting, found
            continue
        judge = JUDGES.get(setting.name)
        if judge is not None and isinstance(setting.value, JUDGED):
            found = problem(judge, setting.value, major)
            if found is not None:
                yield setting, found


def check_dag_arguments(context: Context) -> Iterator[Diagnostic]:
    major = context.inventory.airflow_major if context.inventory is not None else None
    dags = zip(context.module.dags, context.file.dag_ids, context.file.dag_arguments)
    for dag, dag_id, settings in dags:
        if settings is None:
            continue
        label = f"dag '{dag_id}'" if dag_id is not None else "this DAG"
        maybe = " (if this DAG is created)" if dag.conditional else ""
        for setting, found in _findings(settings, major):
            value = "" if found.startswith("is not an argument") else f"={shown(setting.value)}"
            yield context.report(
                setting.position,
                f"{label}{maybe} is given {setting.name}{value}; {refused(setting.name, found)}",
                kind="parse",
                item=setting.name,
                dag_id=dag_id,
            )


DAG_ARGUMENT = Rule(
    code="DRL012",
    name="invalid-dag-argument",
    summary="a DAG keyword the version does not take (schedule_interval on 3) or a bad value",
    boundary="parse",
    check=check_dag_arguments,
)
