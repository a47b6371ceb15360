"""Property tests on what the linter reports: generated DAG programs, and the diagnostics each
must get, worked out independently from Airflow's precedence (airflow-semantics §1-§4).

Each program is linted through the command line against inventories that differ in one respect
(the queues served, the pools declared, the executors configured), so a property says "this
program, against this deployment, gets exactly these diagnostics at these positions".
``DAGROUTE_PROPERTY_EXAMPLES`` scales the number of programs, as in test_extract_properties.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.linting import lint

EXAMPLES = int(os.environ.get("DAGROUTE_PROPERTY_EXAMPLES", "100")) // 4
SETTINGS = settings(
    max_examples=max(EXAMPLES, 1),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

HEADER = """\
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, TaskGroup, task

"""
QUEUES = ("main", "reports", "gpu", "etl")
POOLS = {"big": 4, "small": 1, "open": -1}
EXECUTORS = ("CeleryExecutor", "KubernetesExecutor", "LocalExecutor")
PROVIDERS = 'providers = ["standard", "celery", "cncf.kubernetes"]'

# How a task gets a value: its own keyword (a literal, a module constant, or None), or nothing,
# so that it inherits from default_args or Airflow's default.
STYLES = ("literal", "constant", "none", "absent")


@dataclass(frozen=True)
class TaskSpec:
    kind: str  # "bash" (a classic operator) or "taskflow" (@task)
    style: str  # one of STYLES
    value: str
    in_group: bool
    slots: int | None = None  # pool_slots=, when the task sets it


@dataclass(frozen=True)
class Program:
    source: str
    tasks: tuple[TaskSpec, ...]  # in source order (a TaskGroup's tasks come last)
    # Per task, in source order: line and column of its call, and of each keyword it writes.
    places: tuple[tuple[int, int, dict[str, tuple[int, int]]], ...]


def keyword(name: str, spec: TaskSpec) -> str:
    if spec.style == "literal":
        return f', {name}="{spec.value}"'
    if spec.style == "constant":
        return f", {name}={spec.value.upper()}"
    if spec.style == "none":
        return f", {name}=None"
    return ""


def build(
    field: str,
    tasks: list[TaskSpec],
    dag_default: str | None,
    group_default: str | None,
    values: tuple[str, ...],
) -> Program:
    """Write the program; each task call (and its keywords) on a line of its own."""
    lines = HEADER.splitlines()
    lines += [f'{value.upper()} = "{value}"' for value in values]
    dag_args = f', default_args={{"{field}": "{dag_default}"}}' if dag_default else ""
    lines.append(f'with DAG("generated"{dag_args}):')
    calls: list[tuple[int, str]] = []  # (line index, text) of each task call
    group_tasks = [spec for spec in tasks if spec.in_group]
    ordered = [spec for spec in tasks if not spec.in_group] + group_tasks
    for number, spec in enumerate(ordered):
        if spec.in_group and number == len(ordered) - len(group_tasks):
            group_args = f', default_args={{"{field}": "{group_default}"}}' if group_default else ""
            lines.append(f'    with TaskGroup("grp"{group_args}):')
        indent = "        " if spec.in_group else "    "
        extra = keyword(field, spec)
        if spec.slots is not None:
            extra += f", pool_slots={spec.slots}"
        if spec.kind == "bash":
            lines.append(f'{indent}BashOperator(task_id="t{number}", bash_command="x"{extra})')
        else:
            lines.append(f'{indent}@task(task_id="t{number}"{extra})')
            lines.append(f"{indent}def f{number}():")
            lines.append(f"{indent}    pass")
            lines.append(f"{indent}f{number}()")
        calls.append((len(lines), lines[-1]))
    places = []
    for (line_number, text), spec in zip(calls, ordered):
        column = len(text) - len(text.lstrip()) + 1
        # A TaskFlow task's keywords are written on its decorator, three lines up.
        keyword_line = line_number if spec.kind == "bash" else line_number - 3
        written = lines[keyword_line - 1]
        columns = {
            name: (keyword_line, written.index(f" {name}=") + 2)
            for name in (field, "pool_slots")
            if f" {name}=" in written
        }
        places.append((line_number, column, columns))
    return Program("\n".join(lines) + "\n", tuple(ordered), tuple(places))


def effective(
    spec: TaskSpec, dag_default: str | None, group_default: str | None, airflow_default: str
) -> str:
    """The value Airflow dispatches the task with (semantics §1.2, §1.3)."""
    if spec.style in ("literal", "constant"):
        return spec.value
    if spec.style == "none":
        return airflow_default
    if spec.in_group and group_default:
        return group_default
    return dag_default or airflow_default


def task_specs(values: tuple[str, ...], slots: bool = False) -> st.SearchStrategy[list[TaskSpec]]:
    spec = st.builds(
        TaskSpec,
        kind=st.sampled_from(("bash", "taskflow")),
        style=st.sampled_from(STYLES),
        value=st.sampled_from(values),
        in_group=st.booleans(),
        slots=st.sampled_from((None, 1, 2, 5)) if slots else st.none(),
    )
    return st.lists(spec, min_size=1, max_size=6)


def reported(source: str, inventory: str) -> list[tuple[str, int, int, str]]:
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        outcome = lint(Path(folder), source, patch, inventory=inventory)
        assert outcome.exit_code == (1 if outcome.diagnostics else 0), outcome.stderr
        return [(d["code"], d["line"], d["column"], d["message"]) for d in outcome.diagnostics]


def celery(default_queue: str, served: list[str]) -> str:
    queues = ", ".join(f'"{queue}"' for queue in served)
    return f"""
[deployment]
airflow_version = "3.3"
executors = ["CeleryExecutor"]
default_queue = "{default_queue}"

[[workers]]
name = "celery"
queues = [{queues}]
runtime = "base"

[runtimes.base]
{PROVIDERS}
"""


@SETTINGS
@given(
    tasks=task_specs(QUEUES),
    dag_default=st.none() | st.sampled_from(QUEUES),
    group_default=st.none() | st.sampled_from(QUEUES),
    default_queue=st.sampled_from(QUEUES),
    served=st.lists(st.sampled_from(QUEUES), min_size=1, max_size=3, unique=True),
)
def test_drl101_exactly_for_tasks_on_unserved_queues(
    tasks: list[TaskSpec],
    dag_default: str | None,
    group_default: str | None,
    default_queue: str,
    served: list[str],
) -> None:
    program = build("queue", tasks, dag_default, group_default, QUEUES)
    assert reported(program.source, celery(default_queue, list(QUEUES))) == []
    expected = []
    for spec, (line, column, _) in zip(program.tasks, program.places):
        queue = effective(spec, dag_default, group_default, default_queue)
        if queue not in served:
            expected.append(("DRL101", line, column, queue))
    found = reported(program.source, celery(default_queue, served))
    assert [(code, line, column) for code, line, column, _ in found] == [
        (code, line, column) for code, line, column, _ in expected
    ], program.source
    for (*_, message), (*_, queue) in zip(found, expected):
        assert f"routes to queue '{queue}', but no CeleryExecutor worker serves it" in message


def with_pools(declared: list[str]) -> str:
    pools = "".join(f"{name} = {POOLS[name]}\n" for name in declared)
    return celery("main", ["main"]) + f"\n[pools]\n{pools}"


@SETTINGS
@given(
    tasks=task_specs((*POOLS, "missing"), slots=True),
    dag_default=st.none() | st.sampled_from((*POOLS, "missing")),
    group_default=st.none() | st.sampled_from((*POOLS, "missing")),
    declared=st.lists(st.sampled_from(tuple(POOLS)), max_size=3, unique=True),
)
def test_drl301_and_drl302_exactly_for_pools_the_deployment_cannot_give(
    tasks: list[TaskSpec],
    dag_default: str | None,
    group_default: str | None,
    declared: list[str],
) -> None:
    program = build("pool", tasks, dag_default, group_default, (*POOLS, "missing"))
    expected = []
    for spec, (line, column, keywords) in zip(program.tasks, program.places):
        pool = effective(spec, dag_default, group_default, "default_pool")
        slots = spec.slots or 1
        if pool != "default_pool" and pool not in declared:
            expected.append(("DRL301", *keywords.get("pool", (line, column))))
        elif pool in declared and POOLS[pool] != -1 and slots > POOLS[pool]:
            expected.append(("DRL302", *keywords.get("pool_slots", (line, column))))
    found = reported(program.source, with_pools(declared))
    # Diagnostics come out in file, line, column, code order.
    in_order = sorted(expected, key=lambda item: (item[1], item[2], item[0]))
    assert [(code, line, column) for code, line, column, _ in found] == in_order, program.source


def configured(executors: list[str]) -> str:
    workers = "".join(
        f'\n[[workers]]\nname = "w{index}"\nexecutor = "{name}"\nruntime = "base"\n'
        for index, name in enumerate(executors)
    )
    listed = ", ".join(f'"{name}"' for name in executors)
    deployment = f'[deployment]\nairflow_version = "3.3"\nexecutors = [{listed}]\n'
    return f"{deployment}{workers}\n[runtimes.base]\n{PROVIDERS}\n"


@SETTINGS
@given(
    tasks=task_specs(EXECUTORS).filter(lambda specs: all(s.style != "none" for s in specs)),
    dag_default=st.none() | st.sampled_from(EXECUTORS),
    group_default=st.none() | st.sampled_from(EXECUTORS),
    executors=st.lists(st.sampled_from(EXECUTORS), min_size=1, max_size=3, unique=True),
)
def test_drl103_exactly_for_executors_the_deployment_lacks(
    tasks: list[TaskSpec],
    dag_default: str | None,
    group_default: str | None,
    executors: list[str],
) -> None:
    program = build("executor", tasks, dag_default, group_default, EXECUTORS)
    expected = []
    for spec, (line, column, _) in zip(program.tasks, program.places):
        executor = effective(spec, dag_default, group_default, executors[0])
        if executor not in executors:
            expected.append(("DRL103", line, column, executor))
    found = reported(program.source, configured(executors))
    assert [(code, line, column) for code, line, column, _ in found] == [
        (code, line, column) for code, line, column, _ in expected
    ], program.source
    for (*_, message), (*_, executor) in zip(found, expected):
        assert f"names executor '{executor}'" in message
