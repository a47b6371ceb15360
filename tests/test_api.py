"""The public API (``dagroute_lint.api``), as a tool of one's own calls it: the same results as
the command line, and the documented example running as written."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from dagroute_lint import api
from dagroute_lint.cli import main

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def example(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The bundled example, copied (a run keeps its cache in the project root)."""
    root = tmp_path / "example"
    shutil.copytree(REPO / "examples", root)
    monkeypatch.chdir(root)
    return root


def _cli_json(*args: str) -> list[dict[str, object]]:
    result = CliRunner().invoke(main, [*args, "--output-format", "json"])
    assert result.exit_code in (0, 1), result.output
    parsed: list[dict[str, object]] = json.loads(result.stdout)
    return parsed


def test_lint_paths_reports_what_the_command_line_reports(example: Path) -> None:
    result = api.lint_paths(["dags"])
    reported = [(d.path, d.line, d.column, d.code, d.message) for d in result.diagnostics]
    printed = [
        (item["file"], item["line"], item["column"], item["code"], item["message"])
        for item in _cli_json("dags")
    ]
    assert reported == printed and reported
    assert (result.coverage.tasks, result.coverage.dags, result.files) == (10, 3, 5)
    # Without the cache, and with it warm: the same report.
    uncached = api.lint_paths(["dags"], api.Options(cache=False))
    assert uncached.diagnostics == result.diagnostics == api.lint_paths(["dags"]).diagnostics


def test_options_select_and_exclude_as_the_flags_do(example: Path) -> None:
    selected = api.lint_paths(["dags"], api.Options(select=("DRL202",)))
    assert {d.code for d in selected.diagnostics} == {"DRL202"}
    assert (
        selected.diagnostics
        == api.lint(
            api.plan(["dags"], api.Options(select=("DRL202",))), api.Options(select=("DRL202",))
        ).diagnostics
    )
    excluded = api.lint_paths(["dags"], api.Options(extend_exclude=("warehouse_sync.py",)))
    assert "dags/warehouse_sync.py" not in {d.path for d in excluded.diagnostics}
    assert excluded.left_out.excluded == 1


def test_lint_buffer_lints_unsaved_text_and_leaves_excluded_files_out(example: Path) -> None:
    path = example / "dags" / "lab_report.py"
    saved = path.read_bytes()
    found = api.lint_buffer(path, saved)
    assert [d.code for d in found.diagnostics] == ["DRL101"]
    assert found.file is not None and any(t.task_id == "grp.render" for t in found.file.tasks)
    edited = saved.replace(b"queue=REPORTS_QUEUE", b'queue="imports"')
    assert edited != saved and api.lint_buffer(path, edited).diagnostics == ()
    assert path.read_bytes() == saved  # the buffer is linted, the file left alone
    project = api.buffer_project(path.parent, api.Options(extend_exclude=("lab_report.py",)))
    left_out = api.lint_buffer(path, saved, project)
    assert (left_out.diagnostics, left_out.file) == ((), None)


def test_routes_gives_every_task_and_refuses_stdin(example: Path) -> None:
    found = api.routes(api.plan(["dags"]))
    assert len(found.repository.tasks) == 10 and found.unreadable == []
    with pytest.raises(api.ConfigError, match="reads files, not stdin"):
        api.routes(api.plan(["-"], stdin_filename="dags/x.py"))


def test_a_broken_inventory_raises_config_error_naming_file_and_key(example: Path) -> None:
    text = (example / "dagroute.toml").read_text(encoding="utf-8")
    (example / "dagroute.toml").write_text(text.replace('runtime = "base"', 'runtime = "x"', 1))
    with pytest.raises(api.ConfigError, match=r"dagroute\.toml: .*runtime"):
        api.lint_paths(["dags"])


def test_the_documented_example_runs_as_written(
    example: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = (REPO / "docs" / "api.md").read_text(encoding="utf-8")
    block = re.search(r"```python\n(.*?)```", page, re.S)
    assert block is not None
    exec(compile(block.group(1), "docs/api.md", "exec"), {})
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == "10 tasks in 3 DAGs checked; 0 places where tasks could not be seen"
    assert lines[0].startswith("dags/lab_report.py:27:18: DRL101 [error] task 'grp.render'")
