"""A diagnostic about a routing value points at the level that set it, when that level is not the
task's call: JSON ``related``, SARIF ``relatedLocations``, the language server's
``relatedInformation``, kept by the result cache; the text output stays one line per cause."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types

from dagroute_lint import api
from dagroute_lint.diagnostics import Diagnostic, Related
from dagroute_lint.pipeline import runner
from dagroute_lint.server.protocol import lsp_diagnostic
from tests.helpers import dag_repository, run_command
from tests.test_sarif import validate
from tests.test_server import editor, run

# The queue comes from the DAG's default_args (line 5); no worker serves "reports".
FROM_DAG = """\
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG(
    "lab", default_args={"queue": "reports"}
):
    BashOperator(task_id="build", bash_command="x")
    BashOperator(task_id="load", bash_command="x", queue="imports")
"""
DEFAULT_ARGS_PLACE = {
    "file": "dags/lab.py",
    "line": 4,
    "column": 6,
    "message": "queue 'reports' set here, in DAG 'lab' default_args",
}

OTHER_LEVELS = """\
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, TaskGroup, task


@task(queue="decorated")
def work() -> None: ...


with DAG("levels"):
    with TaskGroup("g", default_args={"queue": "grouped"}):
        BashOperator(task_id="in_group", bash_command="x")
    BashOperator(
        task_id="own",
        bash_command="x",
        default_args={"queue": "owned"},
    )
    BashOperator.partial(
        task_id="mapped",
        queue="partial",
    ).expand(bash_command=["a", "b"])
    BashOperator(task_id="on_call", bash_command="x", queue="called")
    work()
"""


def _cli(repo: Path, output: str, *extra: str) -> str:
    done = run_command(
        [sys.executable, "-m", "dagroute_lint", "dags", "--format", output, *extra], cwd=repo
    )
    assert done.returncode == 1, done.stderr
    return done.stdout


def test_the_cli_json_and_sarif_point_at_the_dags_default_args(tmp_path: Path) -> None:
    repo = dag_repository(tmp_path, {"dags/lab.py": FROM_DAG})
    found = json.loads(_cli(repo, "json", "--no-cache"))
    (queue,) = [d for d in found if d["code"] == "DRL101"]
    assert (queue["line"], queue["facts"]["task_id"]) == (7, "build")
    assert queue["related"] == [DEFAULT_ARGS_PLACE]
    assert all(d["related"] == [] for d in found if d["code"] != "DRL101")

    log: dict[str, Any] = json.loads(_cli(repo, "sarif", "--no-cache"))
    validate(log)
    (result,) = [r for r in log["runs"][0]["results"] if r["ruleId"] == "DRL101"]
    assert result["relatedLocations"] == [
        {
            "id": 0,
            "physicalLocation": {
                "artifactLocation": {"uri": "dags/lab.py", "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": 4, "startColumn": 6},
            },
            "message": {"text": DEFAULT_ARGS_PLACE["message"]},
        }
    ]
    # The text output is one line per cause, as before.
    text = _cli(repo, "text", "--no-cache")
    assert [line for line in text.splitlines() if "DRL101" in line] == [
        "dags/lab.py:7:5: DRL101 [error] task 'build' in dag 'lab' routes to queue 'reports', but "
        "no CeleryExecutor worker serves it (served: default, imports); it will stay queued and "
        "never start"
    ]


def _related(diagnostics: list[Diagnostic]) -> dict[str | None, tuple[Related, ...]]:
    return {d.facts.task_id: d.related for d in diagnostics if d.code == "DRL101"}


def test_each_level_away_from_the_call_is_pointed_at(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = dag_repository(tmp_path, {"dags/levels.py": OTHER_LEVELS})
    monkeypatch.chdir(repo)
    options = api.Options(inventory=Path("dagroute.toml"), cache=False)
    found = _related(list(api.lint_paths(["dags"], options).diagnostics))
    path = "dags/levels.py"
    assert found == {
        "g.in_group": (
            Related(path, 10, 10, "queue 'grouped' set here, in TaskGroup 'g' default_args"),
        ),
        "own": (Related(path, 15, 9, "queue 'owned' set here, in the task's own default_args"),),
        "mapped": (Related(path, 19, 9, "queue 'partial' set here, by the keyword of .partial()"),),
        "on_call": (),  # set on the call the diagnostic stands at: nothing else to show
        "work": (
            Related(
                path,
                5,
                7,
                "queue 'decorated' set here, by the keyword of @task(...) or .override()",
            ),
        ),
    }


def test_a_warm_cache_gives_back_the_related_places(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = dag_repository(tmp_path, {"dags/lab.py": FROM_DAG, "dags/levels.py": OTHER_LEVELS})
    monkeypatch.chdir(repo)
    inventory = Path("dagroute.toml")

    def whole(options: api.Options) -> list[tuple[object, ...]]:
        found = api.lint_paths(["dags"], options).diagnostics
        return [(d, d.fix, d.severity, d.cause, d.facts, d.related) for d in found]

    cold = whole(api.Options(inventory=inventory, cache=False))
    assert any(entry[-1] for entry in cold)
    assert whole(api.Options(inventory=inventory)) == cold  # writes the cache
    linted: list[str] = []
    real = runner.lint_file

    def recording(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        linted.append(file.source.display)
        return real(file, *args, **kwargs)

    monkeypatch.setattr(runner, "lint_file", recording)
    assert whole(api.Options(inventory=inventory)) == cold  # reads it back
    assert linted == []


def test_the_language_server_publishes_the_related_place(tmp_path: Path) -> None:
    repo = dag_repository(tmp_path, {"dags/lab.py": FROM_DAG})

    async def test() -> None:
        async with editor(repo) as session:
            uri = session.open(repo / "dags" / "lab.py")
            found = await session.diagnostics(uri)
            (queue,) = [d for d in found if d.code == "DRL101"]
            assert queue.range.start.line == 6
            assert list(queue.related_information or ()) == [
                types.DiagnosticRelatedInformation(
                    location=types.Location(
                        uri, types.Range(types.Position(3, 5), types.Position(3, 9))
                    ),
                    message="queue 'reports' set here, in DAG 'lab' default_args",
                )
            ]

    run(test)


def test_a_related_place_in_another_file_is_a_location_of_its_own(tmp_path: Path) -> None:
    other = tmp_path / "common.py"
    place = Related(str(other), 3, 2, "queue 'q' set here, in DAG 'x' default_args")
    diagnostic = Diagnostic("dag.py", 1, 1, "DRL101", "m", related=(place,))
    published = lsp_diagnostic(["t = Op()\n"], diagnostic, "file:///dag.py")
    assert published.related_information is not None
    (information,) = published.related_information
    assert information.location.uri == other.as_uri()
    assert information.location.range.start == types.Position(2, 1)
    assert (
        lsp_diagnostic(["t = Op()\n"], Diagnostic("d.py", 1, 1, "X", "m")).related_information
        is None
    )
