"""``dagroute-lint trace TARGET``, run as a user runs it: the real command in its own process,
and the language server's hover, which shows the same trace shortened."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.helpers import CELERY_K8S, REPO, copy_of_examples, run_command, write_repo
from tests.test_server import editor, hover_text, run

# Four levels set four fields: the queue on the call, the pool by the TaskGroup's default_args,
# the executor by the DAG's, pool_slots by nobody (Airflow's default). A loop builds two tasks
# on one line; a queue read from the environment cannot be known, one of two can.
DAG = """\
import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, TaskGroup

with DAG("lab", default_args={"executor": "CeleryExecutor", "pool": "outer"}):
    with TaskGroup("grp", default_args={"pool": "big"}):
        BashOperator(
            task_id="build",
            bash_command="x",
            queue="imports",
        )
    for name in ("a", "b"):
        BashOperator(task_id=name, bash_command="x")
    BashOperator(task_id="env", bash_command="x", queue=os.environ["QUEUE"])
    BashOperator(
        task_id="either",
        bash_command="x",
        queue="imports" if os.environ.get("X") else "default",
    )
"""
INVENTORY = CELERY_K8S + "\n[pools]\ndefault_pool = 128\nbig = 4\nouter = 2\n"


def repo(tmp_path: Path) -> Path:
    return write_repo(
        tmp_path,
        {
            "dags/lab.py": DAG,
            "dagroute.toml": INVENTORY,
            "pyproject.toml": "[tool.dagroute-lint]\n",
        },
    )


def trace(root: Path, *args: str) -> tuple[int, str, str]:
    result = run_command(
        [sys.executable, "-m", "dagroute_lint", "trace", *args, "dags", "--no-cache"], cwd=root
    )
    return result.returncode, result.stdout, result.stderr


def test_each_field_names_the_level_that_set_it_among_every_level(tmp_path: Path) -> None:
    code, out, err = trace(repo(tmp_path), "lab.grp.build")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[:4] == [
        "task 'grp.build' in dag 'lab'",
        "  at dags/lab.py:8:9",
        "  operator: airflow.providers.standard.operators.bash.BashOperator",
        "  provider: apache-airflow-providers-standard (provides "
        "airflow.providers.standard.operators.bash, the operator's module)",
    ]
    block = _block(out, "queue")
    assert block[0] == "queue: 'imports', set by the keyword on the call (line 11)"
    assert _marked(block) == ["the keyword on the call"]
    assert _cells(block[4])[-1] == "'default' (overridden)"
    pool = _block(out, "pool")
    assert pool[0] == "pool: 'big', set by TaskGroup 'grp' default_args (line 7)"
    assert [_cells(line) for line in pool[1:]] == [
        ["the keyword on the call", "dags/lab.py:8", "-"],
        ["TaskGroup 'grp' default_args", "dags/lab.py:7", "'big'"],
        ["DAG default_args", "dags/lab.py:6", "'outer' (overridden)"],
        ["Airflow's default", "(built into Airflow)", "'default_pool' (overridden)"],
    ]
    executor = _block(out, "executor")
    assert executor[0] == "executor: 'CeleryExecutor', set by DAG default_args (line 6)"
    assert _marked(executor) == ["DAG default_args"]
    slots = _block(out, "pool_slots")
    assert slots[0] == "pool_slots: 1, set by Airflow's default"
    assert _marked(slots) == ["Airflow's default"]
    assert (
        "runs on: executor CeleryExecutor: executor='CeleryExecutor' matches the configured "
        "'CeleryExecutor' by its alias; it sends the task to the workers subscribed to its queue"
    ) in lines
    at = lines.index("workers (subscribed to queue 'imports'):")
    assert lines[at + 1 : at + 3] == [
        "  celery-general (runtime base: providers standard, celery; packages none)",
        "    provider apache-airflow-providers-standard: has it (module-level import of "
        "'airflow.providers.standard.operators.bash', line 3)",
    ]
    assert "unknown: none" in lines


def test_a_file_and_line_names_every_task_whose_call_starts_there(tmp_path: Path) -> None:
    code, out, err = trace(repo(tmp_path), "dags/lab.py:14")
    assert code == 0, err
    assert [line for line in out.splitlines() if line.startswith("task ")] == [
        "task 'a' in dag 'lab'",
        "task 'b' in dag 'lab'",
    ]
    assert "dagroute-lint: dags/lab.py:14 names 2 tasks" in err
    # The default queue comes from the inventory, at its [deployment] table.
    queue = _block(out, "queue")
    assert queue[0] == (
        "queue: 'default', set by [operators] default_queue: the inventory's default_queue"
    )
    assert queue[-1].startswith("  > ")
    assert _cells(queue[-1]) == [
        "[operators] default_queue: the inventory's default_queue",
        "dagroute.toml:1",
        "'default'",
    ]


def test_json_holds_every_level_with_its_file_line_and_value(tmp_path: Path) -> None:
    code, out, err = trace(repo(tmp_path), "lab.grp.build", "--format", "json")
    assert code == 0, err
    document = json.loads(out)
    assert document["version"] == 1
    [found] = document["traces"]
    assert (found["dag_id"], found["task_id"], found["line"]) == ("lab", "grp.build", 8)
    origins = {name: field["set_by"] for name, field in found["fields"].items()}
    assert origins == {
        "queue": "argument",
        "executor": "DAG default_args",
        "pool": "TaskGroup 'grp' default_args",
        "pool_slots": "default",
        "deferrable": "default",
    }
    pool = found["fields"]["pool"]
    assert pool["value"] == "big"
    assert [
        (layer["origin"], layer["file"], layer["line"], layer["sets"], layer["value"],
         layer["applied"])
        for layer in pool["layers"]
    ] == [
        ("argument", "dags/lab.py", 8, False, None, False),
        ("TaskGroup 'grp' default_args", "dags/lab.py", 7, True, "big", True),
        ("DAG default_args", "dags/lab.py", 6, True, "outer", False),
        ("default", None, None, True, "default_pool", False),
    ]  # fmt: skip
    queue_default = found["fields"]["queue"]["layers"][-1]
    assert (queue_default["file"], queue_default["line"]) == ("dagroute.toml", 1)
    assert found["executor"] == "CeleryExecutor"
    assert found["workers"] == [
        {
            "name": "celery-general",
            "runtime": "base",
            "needs": [
                {
                    "kind": "provider",
                    "name": "apache-airflow-providers-standard",
                    "why": "module-level import of 'airflow.providers.standard.operators.bash'",
                    "line": 3,
                    "has": True,
                }
            ],
            "providers": ["standard", "celery"],
            "packages": [],
        }
    ]
    assert found["unknown"] == []


def test_an_unknown_value_says_why_and_what_it_can_be(tmp_path: Path) -> None:
    root = repo(tmp_path)
    code, out, err = trace(root, "lab.env")
    assert code == 0, err
    lines = out.splitlines()
    queue = _block(out, "queue")
    assert queue[0].startswith("queue: unknown (")
    assert "environment" in queue[0]
    assert _marked(queue) == ["the keyword on the call"]
    assert lines[lines.index("unknown:") + 1].startswith("  queue: ")
    assert "runs on: executor CeleryExecutor" in out
    assert "workers: unknown: the task's queue is unresolved" in lines

    code, out, err = trace(root, "lab.either", "--format", "json")
    assert code == 0, err
    [found] = json.loads(out)["traces"]
    [unknown] = found["unknown"]
    assert unknown["field"] == "queue" and unknown["reason"]
    assert sorted(unknown["candidates"]) == ["default", "imports"]
    assert found["fields"]["queue"]["candidates"] == unknown["candidates"]


def test_a_target_naming_no_task_exits_two_with_the_closest_ids(tmp_path: Path) -> None:
    root = repo(tmp_path)
    code, out, err = trace(root, "lab.build")
    assert (code, out) == (2, "")
    assert err.startswith(
        "dagroute-lint: no task 'lab.build' in the files read (dag_id.task_id or FILE:LINE); "
        "did you mean 'lab.grp.build'"
    )
    code, out, err = trace(root, "dags/lab.py:9")
    assert (code, out) == (2, "")
    assert err == (
        "dagroute-lint: no task's call starts on line 9 of dags/lab.py; tasks start on lines "
        "8, 14, 15, 16\n"
    )


def test_the_bundled_example(tmp_path: Path) -> None:
    """The README's command, on a copy of the bundled example."""
    result = run_command(
        [sys.executable, "-m", "dagroute_lint", "trace", "lab_report.grp.render", "examples/dags",
         "--inventory", "examples/dagroute.toml", "--no-cache"],
        cwd=copy_of_examples(tmp_path),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "queue: 'reports', set by the keyword on the call (line 28)" in result.stdout
    assert (
        "workers: none: no CeleryExecutor worker serves queue 'reports'; the task will stay queued"
    ) in result.stdout


def test_a_field_nothing_sets_reads_not_set(tmp_path: Path) -> None:
    """The executor no level sets is the default one: the trace says so, never "None"."""
    result = run_command(
        [sys.executable, "-m", "dagroute_lint", "trace", "lab_report.grp.build_report",
         "examples/dags", "--inventory", "examples/dagroute.toml", "--no-cache"],
        cwd=copy_of_examples(tmp_path),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    executor = _block(result.stdout, "executor")
    assert executor[0] == "executor: not set (the default executor: the inventory's first)"
    assert _cells(executor[-1]) == [
        "the default executor: the inventory's first",
        "examples/dagroute.toml:4",
        "not set",
    ]
    assert not any("None" in line for line in executor)


def test_the_documented_output_is_the_real_output(tmp_path: Path) -> None:
    """docs/command-line.md shows the bundled example's trace as the command prints it."""
    page = (REPO / "docs" / "command-line.md").read_text(encoding="utf-8")
    prompt = "$ dagroute-lint trace "
    start = page.index(prompt)
    command, _, rest = page[start + 2 :].partition("\n")
    shown = rest[: rest.index("```")]
    result = run_command(
        [sys.executable, "-m", "dagroute_lint", *command.split()[1:], "--no-cache"],
        cwd=copy_of_examples(tmp_path),
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == shown


def hovered(root: Path, path: str, line: int) -> list[str]:
    """The lines of the language server's hover at the 0-based ``line`` of a file."""
    lines: list[str] = []

    async def test() -> None:
        async with editor(root) as session:
            uri = session.open(root / path)
            await session.diagnostics(uri)
            found = await hover_text(session, uri, line)
            assert found is not None
            lines.extend(found.splitlines())

    run(test)
    return lines


def test_the_hover_says_which_level_set_each_field(tmp_path: Path) -> None:
    assert hovered(repo(tmp_path), "dags/lab.py", 7)[2:] == [
        "- queue: `'imports'` (set by the keyword on the call, line 11)",
        "- executor: `'CeleryExecutor'` (set by DAG default\\_args, line 6)",
        "- pool: `'big'` (set by TaskGroup 'grp' default\\_args, line 7)",
        "- pool_slots: `1` (Airflow's default)",
        "- deferrable: `False` (the operator's default: \\[operators\\] default\\_deferrable)",
        "- workers on executor CeleryExecutor: `celery-general` (runtime `base`)",
    ]


PLAIN = """\
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("plain"):
    BashOperator(task_id="plain", bash_command="x")
"""


def test_the_hover_says_a_field_nothing_sets_is_not_set(tmp_path: Path) -> None:
    root = write_repo(
        tmp_path,
        {
            "dags/plain.py": PLAIN,
            "dagroute.toml": INVENTORY,
            "pyproject.toml": "[tool.dagroute-lint]\n",
        },
    )
    assert ("- executor: not set (the default executor: first of \\[core\\] executor)") in hovered(
        root, "dags/plain.py", 4
    )


def _block(out: str, name: str) -> list[str]:
    """The lines of one field's section of the text output."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{name}: "))
    end = lines.index("", start)
    return lines[start:end]


def _cells(line: str) -> list[str]:
    """A level's line cut into its cells (label, place and value), without its marker."""
    return [cell.strip() for cell in line[4:].split("  ") if cell.strip()]


def _marked(block: list[str]) -> list[str]:
    """The labels of the levels marked as the one Airflow's value comes from."""
    return [_cells(line)[0] for line in block[1:] if line.startswith("  > ")]


def test_the_cluster_policies_are_named_with_their_lines_and_applied(
    tmp_path: Path,
) -> None:
    """The trace says where Airflow would find the policies and which hooks they define, and
    shows each effect on a field as the highest level, with its file and line; or that none
    was found where Airflow would import one from."""
    root = repo(tmp_path)
    code, out, _ = trace(root, "lab.grp.build")
    assert code == 0
    assert "note: no airflow_local_settings.py in [deployment] local_settings," in out
    (root / "airflow_local_settings.py").write_text(
        "def dag_policy(dag):\n    pass\n\n\ndef task_policy(task):\n"
        "    if task.task_id == 'grp.build':\n        task.queue = 'gpu'\n",
        encoding="utf-8",
    )
    code, out, _ = trace(root, "lab.grp.build")
    assert code == 0
    assert (
        "note: airflow_local_settings.py defines dag_policy (line 1), task_policy (line 5), "
        "applied to every task above the DAG file's levels"
    ) in out
    queue = _block(out, "queue")
    assert queue[0] == "queue: 'gpu', set by task_policy (airflow_local_settings.py:7)"
    assert _marked(queue) == ["task_policy"]
    assert "airflow_local_settings.py:7" in queue[1]
    (root / "airflow_local_settings.py").write_text("ENV = 'prod'\n", encoding="utf-8")
    code, out, _ = trace(root, "lab.grp.build", "--format", "json")
    assert code == 0
    assert "defines no 'dag_policy', 'task_policy' or 'task_instance_mutation_hook'" in out
