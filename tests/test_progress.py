"""The progress line: only on a terminal, only for long runs, erased at the end."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner

from dagroute_lint.cli import main
from dagroute_lint.pipeline.progress import DELAY, INTERVAL, ProgressLine, progress_line
from tests.helpers import write_repo


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_silent_for_a_short_run_then_redrawn_and_erased() -> None:
    stream, clock = Terminal(), Clock()
    line = ProgressLine(stream, clock)
    line.expect(100)
    line.advance(10)
    assert stream.getvalue() == ""  # a short run never shows a line
    clock.now = DELAY + 0.01
    line.advance(10)
    assert stream.getvalue() == "\rdagroute-lint: 20/100 files"
    clock.now += INTERVAL / 2
    line.advance(10)  # too soon to redraw
    assert stream.getvalue().count("\r") == 1
    clock.now += INTERVAL
    line.advance(70)
    assert stream.getvalue().endswith("\rdagroute-lint: 100/100 files")
    line.close()
    erased = stream.getvalue().rsplit("files", 1)[1]
    assert erased == "\r" + " " * len("dagroute-lint: 100/100 files") + "\r"


def test_close_writes_nothing_when_no_line_was_drawn() -> None:
    stream = Terminal()
    line = ProgressLine(stream, Clock())
    line.expect(3)
    line.advance(3)
    line.close()
    assert stream.getvalue() == ""


def test_only_on_terminals_and_only_when_wanted() -> None:
    assert progress_line(Terminal(), wanted=True) is not None
    assert progress_line(Terminal(), wanted=False) is None
    assert progress_line(io.StringIO(), wanted=True) is None


def test_machine_formats_never_get_a_progress_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Even on a terminal: json, github and quiet runs ask for no line at all."""
    wanted: list[bool] = []

    def recording(stream: object, wanted_flag: bool) -> None:
        wanted.append(wanted_flag)

    monkeypatch.setattr("dagroute_lint.cli.progress_line", recording)
    write_repo(tmp_path, {"dags/dag.py": "x = 1\n"})
    monkeypatch.chdir(tmp_path)
    for args in (["--format", "json"], ["--format", "github"], ["--quiet"], []):
        CliRunner().invoke(main, ["dags", "--no-cache", *args])
    assert wanted == [False, False, False, True]
