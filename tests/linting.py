"""Lint a small repository through the command line, in process, and read the JSON it prints.

Tests that pin what users see go through the command (its arguments and output formats are the
contract), so that they keep holding whatever the stages behind it are called.
"""

from __future__ import annotations

import json
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from dagroute_lint.cli import main

IMPORTS = """\
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
"""

# A Celery deployment whose default queue is not Airflow's built-in "default".
MAIN_QUEUE = """
[deployment]
airflow_version = "3.3"
executors = ["CeleryExecutor"]
default_queue = "main"

[[workers]]
name = "celery-main"
queues = ["main"]
runtime = "base"

[runtimes.base]
providers = ["standard", "celery"]
"""


@dataclass(frozen=True)
class Outcome:
    exit_code: int
    stdout: str
    stderr: str

    @property
    def diagnostics(self) -> list[dict[str, Any]]:
        parsed: list[dict[str, Any]] = json.loads(self.stdout)
        return parsed

    def codes(self) -> list[str]:
        return [item["code"] for item in self.diagnostics]


def invoke(root: Path, args: list[str], monkeypatch: pytest.MonkeyPatch) -> Outcome:
    monkeypatch.chdir(root)
    result = CliRunner().invoke(main, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return Outcome(result.exit_code, result.stdout, result.stderr)


def lint(
    root: Path,
    source: str,
    monkeypatch: pytest.MonkeyPatch,
    inventory: str = MAIN_QUEUE,
    output: str = "json",
) -> Outcome:
    """Lint ``source`` as ``dags/dag.py`` against ``inventory``; ``source`` is dedented."""
    dags = root / "dags"
    dags.mkdir(parents=True, exist_ok=True)
    (dags / "dag.py").write_text(textwrap.dedent(source).lstrip("\n"), encoding="utf-8")
    (root / "dagroute.toml").write_text(textwrap.dedent(inventory), encoding="utf-8")
    return invoke(
        root,
        ["dags", "--inventory", "dagroute.toml", "--no-cache", "--format", output],
        monkeypatch,
    )
