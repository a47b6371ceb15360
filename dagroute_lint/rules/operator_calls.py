"""DRL004, DRL005, DRL007: operator calls that raise while the file is parsed.

Verified with DagBag in Airflow 2.10.5 and 3.3.2 (``tests/conformance/test_dag_integrity.py``):
a keyword no ``__init__`` of the class chain takes fails with "Invalid arguments were passed"
(the accepted keywords come from the generated ``catalog/data/operator_arguments.tsv``), and any
positional argument with "Use keyword arguments when initializing operators"; a
keyword given both by name and through ``**`` (or through two ``**`` dicts) is Python's
"got multiple values for keyword argument"; ``pool_slots`` that is not an int (a string,
a float, ``None``) is a TypeError in ``BaseOperator.__init__`` (``True`` is an int and loads).
"""

from __future__ import annotations

from collections.abc import Iterator

from dagroute_lint.catalog.operator_arguments import accepted_keywords
from dagroute_lint.catalog.operator_traits import class_name
from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.resolve.tasks import ResolvedTask
from dagroute_lint.resolve.values import Unresolved
from dagroute_lint.rules.base import Context, Rule
from dagroute_lint.wording import close_matches

ARGUMENT = "argument"  # a Setting's origin for keywords of the call itself, ``**`` included


def _tables(task: ResolvedTask, major: int | None) -> list[frozenset[str]]:
    """What the task's class takes in each Airflow version it is judged under: the inventory's
    version, else both; a version whose table lacks the class does not judge it."""
    written = task.task.operator
    if written is None:
        return []
    # Airflow 3 holds an Airflow 2 import path by where its shim forwards (``task.operator``).
    names = {2: written, 3: task.operator or written}
    majors = (major,) if major in names else (2, 3)
    found = [accepted_keywords(names[version], version) for version in majors]
    return [table for table in found if table is not None]


def check_unknown_argument(context: Context) -> Iterator[Diagnostic]:
    major = context.inventory.airflow_major if context.inventory is not None else None
    for task in context.tasks:
        if task.task.taskflow is not None or task.task.mapped:
            continue
        tables = _tables(task, major)
        if not tables:
            continue
        count = task.task.positional
        if count:
            operator = class_name(task.task.operator)
            given = "a positional argument" if count == 1 else f"{count} positional arguments"
            yield context.report(
                task.task.position,
                f"{task.label}: {operator} is given {given}; Airflow takes operator "
                "arguments by keyword only and rejects the call when it parses the file (Use "
                "keyword arguments when initializing operators), so the file does not load",
                kind="parse",
                task=task,
            )
        reported: set[str] = set()
        for setting in task.settings:
            name = setting.name
            if setting.origin != ARGUMENT or name in reported:
                continue
            if any(name in table for table in tables):
                continue
            reported.add(name)
            close = close_matches(name, set().union(*tables))
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            operator = class_name(task.task.operator)
            yield context.report(
                setting.position,
                f"{task.label}: {operator} takes no argument '{name}'{hint}; Airflow rejects "
                f"the call when it parses the file (Invalid arguments were passed to "
                f"{operator}), so the file does not load",
                kind="parse",
                item=name,
                task=task,
            )


def check_argument_given_twice(context: Context) -> Iterator[Diagnostic]:
    for task in context.tasks:
        if task.task.taskflow is not None:
            continue  # decorator keywords and .override() keywords merge; they are not one call
        seen: set[str] = set()
        for setting in task.settings:
            if setting.origin != ARGUMENT:
                continue
            if setting.name in seen:
                how = "by name and through **"
                if setting.name not in task.task.arguments.named:
                    how = "through two ** dicts"
                yield context.report(
                    setting.position,
                    f"{task.label} is given '{setting.name}' twice, {how}; Python raises "
                    f"TypeError (got multiple values for keyword argument '{setting.name}') when "
                    "the file is parsed, so the file does not load",
                    kind="parse",
                    item=setting.name,
                    task=task,
                )
            seen.add(setting.name)


def check_pool_slots_type(context: Context) -> Iterator[Diagnostic]:
    for task in context.tasks:
        slots = task.fields["pool_slots"]
        if task.task.mapped or not slots.known or isinstance(slots.value, (int, Unresolved)):
            continue
        setting = task.setting("pool_slots")
        position = setting.position if setting is not None else task.task.position
        kind = "None" if slots.value is None else f"a {type(slots.value).__name__}"
        yield context.report(
            position,
            f"{task.label} sets pool_slots={slots.value!r} ({slots.origin}), {kind}, not an "
            "int; BaseOperator raises TypeError when the file is parsed, so the file does not "
            "load",
            kind="parse",
            item="pool_slots",
            task=task,
        )


UNKNOWN_ARGUMENT = Rule(
    code="DRL004",
    name="unknown-argument",
    summary="a keyword the operator does not take (queues= for queue=), or a positional argument",
    boundary="parse",
    check=check_unknown_argument,
)
ARGUMENT_GIVEN_TWICE = Rule(
    code="DRL005",
    name="argument-given-twice",
    summary="a keyword given by name and through ** (or two ** dicts): TypeError at parse",
    boundary="parse",
    check=check_argument_given_twice,
)
POOL_SLOTS_TYPE = Rule(
    code="DRL007",
    name="pool-slots-type",
    summary="pool_slots that is not an int (a string, a float, None): TypeError at parse",
    boundary="parse",
    check=check_pool_slots_type,
)


def check_setup_teardown_arguments(context: Context) -> Iterator[Diagnostic]:
    for call in context.module.rejected_calls:
        name = call.callee.rsplit(".", 1)[-1]
        if name not in ("setup", "teardown"):
            continue
        keywords = ", ".join(f"'{key}'" for key in call.keywords)
        maybe = " (if this code runs)" if call.conditional else ""
        yield context.report(
            call.position,
            f"@{name} is given {keywords}{maybe}, which it does not take (it takes the function"
            f"{' and on_failure_fail_dagrun' if name == 'teardown' else ''} only); Python raises "
            "TypeError (unexpected keyword argument) when the file is parsed, so the file does "
            f"not load; put routing on an inner @task(...) under @{name}",
            kind="parse",
            item=name,
        )


SETUP_TEARDOWN_ARGUMENTS = Rule(
    code="DRL008",
    name="setup-teardown-arguments",
    summary="routing or other keywords given to @setup / @teardown, which take none: TypeError",
    boundary="parse",
    check=check_setup_teardown_arguments,
)
